/**
 * Quotas per principal in the default task store (features/tasks.ts InMemoryTaskStore), through
 * TaskManager and its tasks/* handlers as the server calls them (with `ctx.principal`): one
 * principal's load never evicts another's finished result (issue 28, defect 2), unanswered
 * input_required tasks count against their owner, who is refused past its quota while everyone
 * else goes on (defect 3), and making room or checking a quota never scans the store.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpError, type JsonObject, type Principal } from "../../../../templates/runtime/core/protocol.js";
import { InMemoryTaskStore } from "../../../../templates/runtime/features/memory-task-store.js";
import { TaskManager } from "../../../../templates/runtime/features/task-manager.js";
import { TASKS_EXTENSION } from "../../../../templates/runtime/features/task-protocol.js";
import type { StoredTask } from "../../../../templates/runtime/features/task-store.js";

const META = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };
const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const A: Principal = { id: "alice" };
const B: Principal = { id: "bob" };
const never = (): Promise<JsonObject> => new Promise(() => {});

/** A manager on a clock the test moves, and its tasks/* handlers called as the principal `who`. */
function managed(store?: InMemoryTaskStore) {
  const clock = { now: T0 };
  const tasks = new TaskManager({ now: () => clock.now, ...(store === undefined ? {} : { store }) });
  const handlers = tasks.handlersFor(-32021);
  const as = (who: Principal | undefined) => (method: "tasks/get" | "tasks/update" | "tasks/cancel", params: JsonObject) =>
    handlers[method](params, who === undefined ? { _meta: META } : { _meta: META, principal: who });
  return { tasks, clock, as };
}

/** Lets every queued microtask and I/O callback run (the works run after their handle is answered). */
const drain = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("finished results are evicted only by their own principal's load (defect 2)", () => {
  it("alice's completed task with a one-hour TTL survives bob creating 10,000 short tasks", async () => {
    const { tasks, as } = managed();
    const kept = await tasks.start(() => ({ content: [{ type: "text", text: "kept" }] }), { principal: A, ttlMs: 3_600_000 });
    await drain();
    expect(await as(A)("tasks/get", { taskId: kept.taskId })).toMatchObject({ status: "completed" });
    for (let i = 0; i < 10_000; i++) {
      await tasks.start(() => ({ content: [] }), { principal: B });
      if (i % 100 === 99) await drain();
    }
    await drain();
    expect(await as(A)("tasks/get", { taskId: kept.taskId })).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "kept" }] } });
    // Bob's load evicted bob's own oldest results, down to his quota.
    expect((tasks.store as InMemoryTaskStore).held("bob")).toEqual({ active: 0, finished: 1_000 });
  });

  it("a full store makes room from the creator's own oldest finished task, or refuses the creator; never from another's", () => {
    const store = new InMemoryTaskStore({ maxTasks: 3, now: () => T0 });
    const at = new Date(T0).toISOString();
    const task = (taskId: string, status: StoredTask["status"], owner?: string): StoredTask => ({ taskId, status, createdAt: at, lastUpdatedAt: at, ttlMs: null, ...(owner === undefined ? {} : { owner }) });
    store.create(task("a-done", "completed", "alice"));
    store.create(task("b-done", "completed", "bob"));
    store.create(task("b-run", "working", "bob"));
    expect(() => store.create(task("a-new", "working", "alice"))).not.toThrow(); // alice pays with her own result
    expect(store.get("a-done")).toBeUndefined();
    expect(() => store.create(task("c-new", "working", "carol"))).toThrow("the task store is full (3 tasks in progress)");
    expect(store.get("b-done")?.status).toBe("completed");
    expect(() => store.create(task("b-new", "working", "bob"))).not.toThrow(); // bob pays with his
    expect([store.get("b-done"), store.get("b-run")?.status, store.get("a-new")?.status, store.size]).toEqual([undefined, "working", "working", 3]);
  });
});

describe("unanswered input_required tasks count against their owner (defect 3)", () => {
  it("10,000 of bob's tasks waiting for input do not lock alice out; bob is refused past his quota, with an error naming it", async () => {
    const { tasks, clock, as } = managed();
    const accepted: string[] = [];
    const refused: McpError[] = [];
    const aborts: unknown[] = [];
    for (let i = 0; i < 10_000; i++) {
      try {
        const handle = await tasks.start(
          async (task) => {
            task.signal.addEventListener("abort", () => aborts.push(task.signal.reason), { once: true });
            return task.input({ q: { method: "roots/list" } });
          },
          { principal: B, ttlMs: 60_000 },
        );
        accepted.push(handle.taskId);
      } catch (error) {
        refused.push(error as McpError);
      }
    }
    await drain();
    expect(accepted).toHaveLength(1_000);
    expect(refused).toHaveLength(9_000);
    expect(refused.every((e) => e instanceof McpError && e.code === -32603)).toBe(true);
    expect(refused[0]?.message).toBe('task quota exceeded: principal "bob" already has 1000 unfinished tasks (maxActiveTasksPerPrincipal)');
    expect(await as(B)("tasks/get", { taskId: accepted[999]! })).toMatchObject({ status: "input_required" });

    // Alice is not locked out, and finding room for her scans nothing (no date parsed per stored task).
    const parse = vi.spyOn(Date, "parse");
    const hers = await tasks.start(never, { principal: A });
    expect(parse.mock.calls.length).toBeLessThanOrEqual(1);
    parse.mockRestore();
    expect(await as(A)("tasks/get", { taskId: hers.taskId })).toMatchObject({ status: "working" });

    // Bob's waiting tasks expire at their TTL: their works are stopped, and his quota is free again.
    clock.now = T0 + 60_000;
    await tasks.start(never, { principal: B });
    await drain();
    expect(aborts).toHaveLength(1_000);
    expect(new Set(aborts)).toEqual(new Set(["task expired"]));
    expect((tasks.store as InMemoryTaskStore).held("bob")).toEqual({ active: 1, finished: 0 });
    await expect(as(B)("tasks/get", { taskId: accepted[0]! })).rejects.toThrow(`Unknown task: "${accepted[0]}"`);
  });

  it("the quotas are per principal; requests without one share the anonymous quota; a finished task frees a place", async () => {
    const { tasks } = managed(new InMemoryTaskStore({ maxActiveTasksPerPrincipal: 2, now: () => T0 }));
    await tasks.start(never, { principal: A });
    await tasks.start(never, { principal: A });
    await expect(tasks.start(never, { principal: A })).rejects.toThrow('task quota exceeded: principal "alice" already has 2 unfinished tasks (maxActiveTasksPerPrincipal)');
    await tasks.start(never, { principal: B });
    await tasks.start(never);
    let release!: (value: JsonObject) => void;
    await tasks.start(() => new Promise<JsonObject>((resolve) => (release = resolve)));
    await expect(tasks.start(never)).rejects.toThrow("task quota exceeded: the anonymous principal already has 2 unfinished tasks (maxActiveTasksPerPrincipal)");
    release({});
    await drain();
    await expect(tasks.start(never)).resolves.toMatchObject({ status: "working" });
  });

  it("a principal's finished tasks past maxFinishedTasksPerPrincipal: its oldest go, with `evicted` told to their watchers", async () => {
    const store = new InMemoryTaskStore({ maxFinishedTasksPerPrincipal: 2, now: () => T0 });
    const { tasks } = managed(store);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await tasks.start(() => ({ n: i }), { principal: A })).taskId);
    const other = await tasks.start(() => ({}), { principal: B });
    await drain();
    const removed: string[] = [];
    store.watch(ids[1]!, () => {}, (reason) => removed.push(reason));
    await tasks.start(() => ({}), { principal: A });
    await drain();
    expect([store.get(ids[0]!), store.get(ids[1]!), store.get(ids[2]!)?.status, store.get(other.taskId)?.status]).toEqual([undefined, undefined, "completed", "completed"]);
    expect(removed).toEqual(["evicted"]);
    expect(store.held("alice")).toEqual({ active: 0, finished: 2 });
  });
});

describe("what the store keeps fixed", () => {
  it("a change cannot move a task to another owner, TTL or creation time", () => {
    let now = T0;
    const store = new InMemoryTaskStore({ now: () => now });
    const at = new Date(T0).toISOString();
    store.create({ taskId: "t", status: "working", createdAt: at, lastUpdatedAt: at, ttlMs: 1_000, owner: "alice" });
    const changed = store.update("t", (t) => ({ ...t, owner: "mallory", ttlMs: null, createdAt: new Date(T0 + 1e9).toISOString(), statusMessage: "x" }));
    expect(changed).toMatchObject({ owner: "alice", ttlMs: 1_000, createdAt: at, statusMessage: "x" });
    expect([store.held("alice").active, store.held("mallory").active]).toEqual([1, 0]);
    now = T0 + 1_000;
    expect(store.get("t")).toBeUndefined();
  });

  it("refuses quotas that are not integers of at least 1, naming the option", () => {
    for (const name of ["maxTasks", "maxActiveTasksPerPrincipal", "maxFinishedTasksPerPrincipal"] as const) {
      for (const value of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => new InMemoryTaskStore({ [name]: value })).toThrow(new RangeError(`${name} must be an integer ≥ 1, got ${value}`));
      expect(() => new InMemoryTaskStore({ [name]: 1 })).not.toThrow();
    }
  });
});
