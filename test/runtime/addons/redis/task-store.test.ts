/**
 * The Redis add-on's task store (templates/runtime/addons/redis/task-store.ts) against a real
 * redis-server: two stores on two connections stand for two instances. What one stores the other
 * reads and changes; watchers on either hear of every change; the quotas, eviction and expiry
 * rules are the in-memory store's (the same errors, word for word); concurrent changes from both
 * instances are never lost (compare-and-set); keys stay under the prefix.
 */
import { describe, expect, it } from "vitest";
import { RedisTaskStore } from "../../../../templates/runtime/addons/redis/task-store.js";
import { InMemoryTaskStore } from "../../../../templates/runtime/features/memory-task-store.js";
import { TaskManager } from "../../../../templates/runtime/features/task-manager.js";
import type { RedisConnection } from "../../../../templates/runtime/addons/redis/connection.js";
import type { StoredTask, TaskRemovalReason } from "../../../../templates/runtime/features/task-store.js";
import { defaultPrincipalScenario } from "../../features/tasks/default-principal.js";
import { redisPairs } from "./support.js";

/** Two connections under one fresh prefix: two instances of one server. */
const { pair } = redisPairs("t");

const task = (taskId: string, extra: Partial<StoredTask> = {}): StoredTask => ({
  taskId,
  status: "working",
  createdAt: new Date().toISOString(),
  lastUpdatedAt: new Date().toISOString(),
  ttlMs: 60_000,
  ...extra,
});

function until<T>(check: () => T | undefined, ms = 3000): Promise<T> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() > deadline) return reject(new Error("timed out"));
      setTimeout(poll, 10);
    };
    poll();
  });
}

/** Calls of each command Redis ran since the last CONFIG RESETSTAT (commands inside scripts count too). */
async function commandCalls(redis: RedisConnection): Promise<Record<string, number>> {
  const info = await redis.command<string>(["INFO", "commandstats"]);
  return Object.fromEntries([...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((m) => [m[1]!, Number(m[2])]));
}

describe("RedisTaskStore round trips (issue 44, item 6)", () => {
  it("a task created and completed by its instance costs one script per write and no extra read", async () => {
    const [a] = await pair();
    const manager = new TaskManager({ store: new RedisTaskStore(a) });
    // The scripts are loaded and the owner's counts seen once (a finished task is then among them).
    await manager.start(() => ({ content: [] }));
    await new Promise((r) => setTimeout(r, 100));
    await a.command(["CONFIG", "RESETSTAT"]);
    const handles = [];
    for (let i = 0; i < 10; i++) handles.push(await manager.start(() => ({ content: [] })));
    await new Promise((r) => setTimeout(r, 200));
    const calls = await commandCalls(a);
    // 10 creates and 10 completions, each one script the first time (no retry of a create past a
    // finished task, no GET before a change), and the one GET inside each completion's script.
    expect(calls["evalsha"]).toBe(20);
    expect(calls["get"]).toBe(10);
    for (const handle of handles) expect((await manager.store.get(handle.taskId))?.status).toBe("completed");
  });

  it("refuses a task id that is taken, from either instance, and changes nothing: not the task, and no eviction to make room", async () => {
    const [a, b] = await pair();
    const storeA = new RedisTaskStore(a, { maxTasks: 2 });
    const storeB = new RedisTaskStore(b, { maxTasks: 2 });
    await storeA.create(task("done", { status: "completed" }));
    await storeA.create(task("busy", { statusMessage: "first" }));
    // The store is full: a new task would evict "done"; a taken id must not.
    await expect(storeB.create(task("busy", { statusMessage: "second" }))).rejects.toMatchObject({ code: -32603, message: "task id busy is taken" });
    expect((await storeA.get("busy"))?.statusMessage).toBe("first");
    expect((await storeB.get("done"))?.status).toBe("completed");
    // A new id still gets its place, at the expense of the finished one.
    await storeB.create(task("new"));
    expect(await storeA.get("done")).toBeUndefined();
  });

  it("at maxTasks, each create that evicts its owner's oldest finished task is one script (the next guess counts the eviction)", async () => {
    const [a] = await pair();
    const store = new RedisTaskStore(a, { maxTasks: 2 });
    for (const id of ["c1", "c2", "c3"]) await store.create(task(id, { owner: "alice", status: "completed" }));
    await a.command(["CONFIG", "RESETSTAT"]);
    await store.create(task("c4", { owner: "alice", status: "completed" }));
    await store.create(task("c5", { owner: "alice", status: "completed" }));
    expect((await commandCalls(a))["evalsha"]).toBe(2);
    expect([await store.get("c3"), await store.get("c4"), await store.get("c5")].map((t) => t?.taskId)).toEqual([undefined, "c4", "c5"]);
  });

  it("a change from a stale guess is retried with what Redis holds: nothing another instance wrote is lost", async () => {
    const [a, b] = await pair();
    const one = new RedisTaskStore(a);
    const two = new RedisTaskStore(b);
    await one.create(task("stale"));
    // The other instance changes it; this one still knows the JSON it wrote.
    await two.update("stale", (t) => ({ ...t, statusMessage: "from two" }));
    const seen: (string | undefined)[] = [];
    const changed = await one.update("stale", (t) => {
      seen.push(t.statusMessage);
      return { ...t, status: "completed", result: {} };
    });
    expect(seen).toEqual([undefined, "from two"]);
    expect(changed).toMatchObject({ status: "completed", statusMessage: "from two" });
    expect(await two.get("stale")).toMatchObject({ status: "completed", statusMessage: "from two" });
    await Promise.all([one.close(), two.close()]);
  });
});

describe("RedisTaskStore", () => {
  it("a task stored by one instance is read, changed and watched through the other", async () => {
    const [a, b] = await pair();
    const one = new RedisTaskStore(a);
    const two = new RedisTaskStore(b);
    await one.create(task("t1", { owner: "alice" }));
    expect(await two.get("t1")).toMatchObject({ taskId: "t1", status: "working", owner: "alice" });
    const seen: StoredTask[] = [];
    one.watch("t1", (t) => seen.push(t));
    await new Promise((r) => setTimeout(r, 50)); // the subscription is made
    const updated = await two.update("t1", (t) => ({ ...t, status: "cancelled", owner: "mallory", ttlMs: null }));
    // owner and clock are fixed at creation (keepFixed), as in the in-memory store
    expect(updated).toMatchObject({ status: "cancelled", owner: "alice", ttlMs: 60_000 });
    const heard = await until(() => seen[0]);
    expect(heard).toMatchObject({ taskId: "t1", status: "cancelled", owner: "alice" });
    expect(await two.update("t1", () => undefined)).toMatchObject({ status: "cancelled" });
    expect(await two.update("nope", (t) => t)).toBeUndefined();
    expect(await two.get("nope")).toBeUndefined();
    await Promise.all([one.close(), two.close()]);
  });

  it("loses no change when both instances change one task at once (compare-and-set)", async () => {
    const [a, b] = await pair();
    const one = new RedisTaskStore(a);
    const two = new RedisTaskStore(b);
    await one.create(task("c1", { statusMessage: "0" }));
    const bump = (store: RedisTaskStore) => store.update("c1", (t) => ({ ...t, statusMessage: String(Number(t.statusMessage) + 1) }));
    await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 === 0 ? one : two)));
    expect((await one.get("c1"))?.statusMessage).toBe("20");
  });

  it("refuses past a principal's quota of unfinished tasks with the in-memory store's error, per principal", async () => {
    const [a] = await pair();
    const store = new RedisTaskStore(a, { maxActiveTasksPerPrincipal: 2 });
    const memory = new InMemoryTaskStore({ maxActiveTasksPerPrincipal: 2 });
    for (const s of [store, memory]) {
      await s.create(task("q1", { owner: "alice" }));
      await s.create(task("q2", { owner: "alice" }));
      await s.create(task("q3", { owner: "bob" }));
    }
    const expected = (() => {
      try {
        memory.create(task("q4", { owner: "alice" }));
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(expected).toBeDefined();
    await expect(store.create(task("q4", { owner: "alice" }))).rejects.toThrow(expected!.message);
    await expect(store.create(task("q4", { owner: "alice" }))).rejects.toMatchObject({ code: -32603, data: { quota: "maxActiveTasksPerPrincipal", limit: 2 } });
    // finishing one frees a place
    await store.update("q1", (t) => ({ ...t, status: "completed" }));
    await store.create(task("q4", { owner: "alice" }));
  });

  it("admits exactly the quota when both instances create at once (the bounds hold under races)", async () => {
    const [a, b] = await pair();
    const one = new RedisTaskStore(a, { maxActiveTasksPerPrincipal: 5, maxTasks: 8 });
    const two = new RedisTaskStore(b, { maxActiveTasksPerPrincipal: 5, maxTasks: 8 });
    const alice = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).create(task(`r-a${i}`, { owner: "alice" }))));
    expect(alice.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const bob = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).create(task(`r-b${i}`, { owner: "bob" }))));
    // 8 in all: bob gets the 3 places left
    expect(bob.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(Number(await a.command(["ZCARD", `${a.prefix}tasks:all`]))).toBe(8);
  });

  it("a full store makes room only at the creator's own expense, telling the evicted task's watchers", async () => {
    const [a, b] = await pair();
    const store = new RedisTaskStore(a, { maxTasks: 2 });
    const other = new RedisTaskStore(b, { maxTasks: 2 });
    await store.create(task("f1", { owner: "alice", status: "completed" }));
    await store.create(task("f2", { owner: "bob" }));
    const reasons: TaskRemovalReason[] = [];
    other.watch("f1", () => undefined, (reason) => reasons.push(reason));
    await new Promise((r) => setTimeout(r, 50));
    // bob has no finished task: refused, alice's finished task stays
    await expect(store.create(task("f3", { owner: "bob" }))).rejects.toThrow("the task store is full (2 tasks in progress)");
    expect(await store.get("f1")).toBeDefined();
    // alice makes room with her own finished task
    await store.create(task("f3", { owner: "alice" }));
    expect(await store.get("f1")).toBeUndefined();
    expect(await until(() => reasons[0])).toBe("evicted");
    await other.close();
  });

  it("keeps at most maxFinishedTasksPerPrincipal finished tasks of a principal, evicting its oldest", async () => {
    const [a] = await pair();
    const store = new RedisTaskStore(a, { maxFinishedTasksPerPrincipal: 2 });
    for (const id of ["e1", "e2", "e3"]) {
      await store.create(task(id, { owner: "alice" }));
      await store.update(id, (t) => ({ ...t, status: "completed" }));
    }
    expect(await store.get("e1")).toBeUndefined();
    expect(await store.get("e2")).toBeDefined();
    expect(await store.get("e3")).toBeDefined();
  });

  it("expires a task at its ttlMs in Redis, and tells the watcher on the instance running it", async () => {
    const [a] = await pair();
    const store = new RedisTaskStore(a);
    await store.create(task("x1", { ttlMs: 150 }));
    const reasons: TaskRemovalReason[] = [];
    store.watch("x1", () => undefined, (reason) => reasons.push(reason));
    expect(await store.get("x1")).toBeDefined();
    expect(await until(() => reasons[0])).toBe("expired");
    expect(await store.get("x1")).toBeUndefined();
    // its place is given back: the quota counts only what is held
    const small = new RedisTaskStore(a, { maxTasks: 1 });
    await small.create(task("x2"));
    await store.close();
  });

  it("a watcher whose subscription dropped hears of a change made meanwhile once it is back (the store re-reads what it watches)", async () => {
    const [a, b] = await pair();
    const runner = new RedisTaskStore(a);
    const other = new RedisTaskStore(b);
    await runner.create(task("r1"));
    const seen: StoredTask[] = [];
    runner.watch("r1", (t) => seen.push(t));
    await new Promise((r) => setTimeout(r, 50));
    // Drop the pub/sub connections (the runner's subscriber) and keep them out (maxclients) while
    // the task changes: its message reaches nobody. The bound is set first (it refuses only new
    // connections), so that a reconnect right after the kill cannot slip in before it.
    const clients = Number(/connected_clients:(\d+)/.exec(await b.command<string>(["INFO", "clients"]))?.[1]);
    const subscribers = (await b.command<string>(["CLIENT", "LIST", "TYPE", "pubsub"])).split("\n").filter((line) => line.trim() !== "").length;
    await b.command(["CONFIG", "SET", "maxclients", String(clients - subscribers)]);
    const pubsub = Number(await b.command(["CLIENT", "KILL", "TYPE", "pubsub"]));
    expect(pubsub).toBe(subscribers);
    expect(pubsub).toBeGreaterThan(0);
    try {
      await other.update("r1", (t) => ({ ...t, status: "cancelled" }));
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toEqual([]);
    } finally {
      await b.command(["CONFIG", "SET", "maxclients", "10000"]);
    }
    expect((await until(() => seen.find((t) => t.status === "cancelled"))).taskId).toBe("r1");
    await runner.close();
  });

  it("keeps every key under the connection's prefix, and reads what is not a task as no task", async () => {
    const [a] = await pair();
    const store = new RedisTaskStore(a);
    await store.create(task("k1"));
    const keys = await a.command<string[]>(["KEYS", "*"]);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => /^t\d+:/.test(k))).toBe(true);
    await a.command(["SET", `${a.prefix}task:bad`, "{not json"]);
    expect(await store.get("bad")).toBeUndefined();
    await a.command(["SET", `${a.prefix}task:other`, JSON.stringify({ taskId: "someone-else", status: "working" })]);
    expect(await store.get("other")).toBeUndefined();
  });
});

// Issue 41: a task started without { principal } is its creator's, with this store behind the manager (the in-memory run is in features/tasks/principals.test.ts).
describe("a task started without { principal }, RedisTaskStore", () => {
  defaultPrincipalScenario("native", async () => new RedisTaskStore((await pair())[0]));
});
