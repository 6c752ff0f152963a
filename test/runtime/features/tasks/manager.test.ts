/**
 * TaskManager (templates/runtime/features/tasks.ts, the server side of the Tasks extension) through its
 * typed API: the handle start() answers (defaults, the caller's options, a clock), what the
 * handlers of tasks/get, tasks/update and tasks/cancel answer and store (lastUpdatedAt stamped,
 * input dropped on cancel, the capability gate), how the work's end reaches the store and
 * onError, and TaskWork.input / status (a cancelled or vanished task rejects the wait).
 */
import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { McpError, type JsonObject } from "../../../../templates/runtime/core/protocol.js";
import { InMemoryTaskStore } from "../../../../templates/runtime/features/memory-task-store.js";
import { TaskManager, type TaskWork } from "../../../../templates/runtime/features/task-manager.js";
import { TASKS_EXTENSION } from "../../../../templates/runtime/features/task-protocol.js";
import type { StoredTask, TaskStore } from "../../../../templates/runtime/features/task-store.js";
import { deferred } from "../../../helpers/harness.js";
import { rejectionOf } from "../../../generator/support.js";

const META = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };
const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

/** A manager on a clock the test moves, with its three handlers. */
function managed(options: ConstructorParameters<typeof TaskManager>[0] = {}) {
  const clock = { now: T0 };
  let ids = 0;
  const tasks = new TaskManager({ now: () => clock.now, newTaskId: () => `task-${++ids}`, ...options });
  const handlers = tasks.handlersFor(-32021);
  const call = (method: "tasks/get" | "tasks/update" | "tasks/cancel", params: JsonObject) => handlers[method](params, { _meta: META });
  return { tasks, clock, call };
}

/** The task as stored once it passes `check` (the work runs on microtasks; bounded wait). */
async function storedWhen(store: TaskStore, taskId: string, check: (task: StoredTask) => boolean): Promise<StoredTask> {
  let seen: StoredTask | undefined;
  await vi.waitFor(
    async () => {
      seen = await store.get(taskId);
      expect(seen !== undefined && check(seen)).toBe(true);
    },
    { timeout: 5_000, interval: 5 },
  );
  return seen!;
}

describe("the handle start() answers", () => {
  it("defaults: a UUID, working, created now, kept one hour, polled every second", async () => {
    const tasks = new TaskManager({ now: () => T0 });
    const handle = await tasks.start(() => new Promise(() => {}));
    expect(handle).toEqual({ resultType: "task", taskId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/), status: "working", createdAt: iso(T0), lastUpdatedAt: iso(T0), ttlMs: 3_600_000, pollIntervalMs: 1_000 });
    expect((await tasks.start(() => ({}))).taskId).not.toBe(handle.taskId);
    expect(await tasks.store.get(handle.taskId)).toMatchObject({ taskId: handle.taskId, status: "working", ttlMs: 3_600_000 });
  });

  it("the manager's ttlMs and pollIntervalMs, then the task's own, and its statusMessage", async () => {
    const { tasks } = managed({ ttlMs: 60_000, pollIntervalMs: 50 });
    const never = () => new Promise<JsonObject>(() => {});
    expect(await tasks.start(never)).toMatchObject({ ttlMs: 60_000, pollIntervalMs: 50 });
    expect(await tasks.start(never)).not.toHaveProperty("statusMessage");
    expect(await tasks.start(never, { ttlMs: null, pollIntervalMs: 0, statusMessage: "queued" })).toEqual({
      resultType: "task",
      taskId: "task-3",
      status: "working",
      statusMessage: "queued",
      createdAt: iso(T0),
      lastUpdatedAt: iso(T0),
      ttlMs: null,
      pollIntervalMs: 0,
    });
    for (const ttlMs of [-1, 1.5, Number.NaN]) await expect(tasks.start(never, { ttlMs })).rejects.toThrow(`ttlMs must be an integer ≥ 0, got ${ttlMs}`);
    await expect(tasks.start(never, { pollIntervalMs: -1 })).rejects.toThrow("pollIntervalMs must be an integer ≥ 0, got -1");
    expect(() => new TaskManager({ ttlMs: 2 ** 53 })).toThrow(RangeError);
    expect(() => new TaskManager({ pollIntervalMs: "5" as never })).toThrow('pollIntervalMs must be an integer ≥ 0, got "5"');
    expect(() => new TaskManager({ ttlMs: 0, pollIntervalMs: 0 })).not.toThrow();
  });

  it("a full store refuses the task: start() rejects with the store's -32603 and nothing runs", async () => {
    const { tasks } = managed({ store: new InMemoryTaskStore({ maxTasks: 1, now: () => T0 }) });
    await tasks.start(() => new Promise(() => {}));
    const work = vi.fn(() => ({}));
    const e = await rejectionOf(tasks.start(work), McpError);
    expect(e.code).toBe(-32603);
    await Promise.resolve();
    expect(work).not.toHaveBeenCalled();
    expect(tasks.running).toBe(1);
  });
});

describe("the work's end", () => {
  it("runs after the handle is stored; running counts it until it ends; a result that is not an object completes with {}", async () => {
    const { tasks, clock } = managed();
    const release = deferred<JsonObject>();
    const handle = await tasks.start(() => release.promise);
    expect(tasks.running).toBe(1);
    clock.now = T0 + 5_000;
    const ended = storedWhen(tasks.store, handle.taskId, (t) => t.status === "completed");
    release.resolve([1, 2] as never);
    expect(await ended).toEqual({ taskId: "task-1", status: "completed", createdAt: iso(T0), lastUpdatedAt: iso(T0 + 5_000), ttlMs: 3_600_000, pollIntervalMs: 1_000, result: {} });
    await vi.waitFor(() => expect(tasks.running).toBe(0), { timeout: 5_000 });
  });

  it("a failure that is not an McpError reaches onError (once, as thrown); an McpError or a failure after cancel does not; a throwing onError is contained", async () => {
    const onError = vi.fn((_e: unknown) => {
      throw new Error("onError broke");
    });
    const { tasks, call } = managed({ onError });
    const boom = new TypeError("secret");
    const crashed = await tasks.start(() => {
      throw boom;
    });
    expect(await storedWhen(tasks.store, crashed.taskId, (t) => t.status === "failed")).toMatchObject({ error: { code: -32603, message: "Internal error" } });
    expect(onError.mock.calls).toEqual([[boom]]);
    const refused = await tasks.start(() => Promise.reject(new McpError(-32001, "backend down")));
    expect(await storedWhen(tasks.store, refused.taskId, (t) => t.status === "failed")).toMatchObject({ error: { code: -32001, message: "backend down" } });
    const stopped = await tasks.start(async (task) => {
      await new Promise((resolve) => task.signal.addEventListener("abort", resolve, { once: true }));
      throw new Error("stopped");
    });
    await call("tasks/cancel", { taskId: stopped.taskId });
    await vi.waitFor(() => expect(tasks.running).toBe(0), { timeout: 5_000 });
    expect(onError).toHaveBeenCalledTimes(1);
    expect((await tasks.store.get(stopped.taskId))?.status).toBe("cancelled");
  });

  it("a store that fails to record the end reports it to onError", async () => {
    const inner = new InMemoryTaskStore({ now: () => T0 });
    const broken = new Error("store down");
    let failUpdates = false;
    const store: TaskStore = {
      create: (task) => inner.create(task),
      get: (taskId) => inner.get(taskId),
      update: (taskId, change) => (failUpdates ? Promise.reject(broken) : inner.update(taskId, change)),
      watch: (taskId, listener) => inner.watch(taskId, listener),
    };
    const errors: unknown[] = [];
    const { tasks } = managed({ store, onError: (e) => errors.push(e) });
    const release = deferred<JsonObject>();
    await tasks.start(() => release.promise);
    failUpdates = true;
    release.resolve({ ok: true });
    await vi.waitFor(() => expect(tasks.running).toBe(0), { timeout: 5_000 });
    expect(errors).toEqual([broken]);
  });
});

describe("the handlers of tasks/*", () => {
  it("refuse a client that did not declare the extension with the given code, naming it in data.requiredCapabilities", async () => {
    const tasks = new TaskManager();
    const handlers = tasks.handlersFor(-32999);
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"] as const) {
      for (const _meta of [undefined, {}, { "io.modelcontextprotocol/clientCapabilities": { extensions: { other: {} } } }]) {
        const e = await rejectionOf(handlers[method]({ taskId: "t" }, { _meta }), McpError);
        expect([e.code, e.message, e.data]).toEqual([-32999, `Missing required client capability: the ${TASKS_EXTENSION} extension`, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } }]);
      }
      await expect(handlers[method]({ taskId: "t" })).rejects.toMatchObject({ code: -32999 });
    }
  });

  it("declared(): the extension's own key under the request's clientCapabilities.extensions", () => {
    const tasks = new TaskManager();
    const with_ = (capabilities: unknown) => tasks.declared({ "io.modelcontextprotocol/clientCapabilities": capabilities });
    expect(tasks.declared(META)).toBe(true);
    expect(with_({ extensions: { [TASKS_EXTENSION]: { anything: 1 } } })).toBe(true);
    expect(tasks.declared(undefined)).toBe(false);
    expect(tasks.declared({ extensions: { [TASKS_EXTENSION]: {} } })).toBe(false);
    expect(with_({ extensions: {} })).toBe(false);
    expect(with_({ extensions: { [TASKS_EXTENSION.toUpperCase()]: {} } })).toBe(false);
    expect(with_({ extensions: Object.create({ [TASKS_EXTENSION]: {} }) })).toBe(false);
    expect(with_({ extensions: [TASKS_EXTENSION] })).toBe(false);
    expect(with_({ extensions: TASKS_EXTENSION })).toBe(false);
    expect(with_({ extensions: null })).toBe(false);
    expect(with_([{ extensions: { [TASKS_EXTENSION]: {} } }])).toBe(false);
    expect(with_(null)).toBe(false);
  });

  it("tasks/get answers resultType complete with the task's wire fields", async () => {
    const { tasks, call } = managed();
    const handle = await tasks.start(() => new Promise(() => {}), { statusMessage: "queued" });
    expect(await call("tasks/get", { taskId: handle.taskId })).toEqual({ resultType: "complete", taskId: "task-1", status: "working", statusMessage: "queued", createdAt: iso(T0), lastUpdatedAt: iso(T0), ttlMs: 3_600_000, pollIntervalMs: 1_000 });
    const e = await rejectionOf(call("tasks/get", { taskId: "nope" }), McpError);
    expect([e.code, e.message]).toEqual([-32602, 'Unknown task: "nope"']);
  });

  it("tasks/cancel: an empty complete result; the task cancelled at the clock's time, its input requests dropped, its work's signal aborted; a finished task is left as it is", async () => {
    const { tasks, clock, call } = managed();
    const signals: AbortSignal[] = [];
    const handle = await tasks.start((task) => {
      signals.push(task.signal);
      return task.input({ q: { method: "elicitation/create", params: {} } });
    });
    await storedWhen(tasks.store, handle.taskId, (t) => t.status === "input_required");
    clock.now = T0 + 1_000;
    expect(await call("tasks/cancel", { taskId: handle.taskId })).toEqual({ resultType: "complete" });
    expect(await tasks.store.get(handle.taskId)).toEqual({ taskId: "task-1", status: "cancelled", createdAt: iso(T0), lastUpdatedAt: iso(T0 + 1_000), ttlMs: 3_600_000, pollIntervalMs: 1_000 });
    expect([signals[0]?.aborted, signals[0]?.reason]).toEqual([true, "task cancelled"]);
    clock.now = T0 + 2_000;
    expect(await call("tasks/cancel", { taskId: handle.taskId })).toEqual({ resultType: "complete" });
    expect((await tasks.store.get(handle.taskId))?.lastUpdatedAt).toBe(iso(T0 + 1_000));
    const e = await rejectionOf(call("tasks/cancel", { taskId: "nope" }), McpError);
    expect([e.code, e.message]).toEqual([-32602, 'Unknown task: "nope"']);
  });

  it("tasks/update: an empty complete result; each answer stamps lastUpdatedAt; inputResponses must be an object; an unknown task is -32602", async () => {
    const { tasks, clock, call } = managed();
    const got = deferred<JsonObject>();
    const handle = await tasks.start(async (task) => {
      got.resolve(await task.input({ a: { method: "elicitation/create", params: {} }, b: { method: "elicitation/create", params: {} } }));
      return {};
    });
    await storedWhen(tasks.store, handle.taskId, (t) => t.status === "input_required");
    clock.now = T0 + 1_000;
    expect(await call("tasks/update", { taskId: handle.taskId, inputResponses: { a: 1 } })).toEqual({ resultType: "complete" });
    expect(await tasks.store.get(handle.taskId)).toMatchObject({ status: "input_required", inputRequests: { b: { method: "elicitation/create", params: {} } }, inputResponses: { a: 1 }, lastUpdatedAt: iso(T0 + 1_000) });
    for (const inputResponses of [undefined, null, [], "a"]) {
      const e = await rejectionOf(call("tasks/update", { taskId: handle.taskId, inputResponses }), McpError);
      expect(e.code).toBe(-32602);
      expect(e.message).toMatch(/^expected params\.inputResponses to be an object, got /);
    }
    clock.now = T0 + 2_000;
    await call("tasks/update", { taskId: handle.taskId, inputResponses: { b: 2 } });
    expect(await got.promise).toEqual({ a: 1, b: 2 });
    const e = await rejectionOf(call("tasks/update", { taskId: "nope", inputResponses: {} }), McpError);
    expect([e.code, e.message]).toEqual([-32602, 'Unknown task: "nope"']);
  });

  it("tasks/update with the generated answer checks: an answer to an asked key that breaks the asked method's result is -32602 naming its pointer, and nothing is kept; keys not asked are ignored, whatever they hold", async () => {
    const clock = { now: T0 };
    const tasks = new TaskManager({ now: () => clock.now });
    // The answer to elicitation/create must be an object with an action (a stand-in for VALIDATORS.inputs' ElicitResult).
    const elicitResult = (v: unknown) =>
      typeof v === "object" && v !== null && typeof (v as { action?: unknown }).action === "string" ? undefined : { pointer: "/action", expected: "a string (required)", got: "nothing" };
    const handlers = tasks.handlersFor(-32021, { "elicitation/create": elicitResult });
    const call = (params: JsonObject) => handlers["tasks/update"](params, { _meta: META });
    const got = deferred<JsonObject>();
    const handle = await tasks.start(async (task) => {
      got.resolve(await task.input({ a: { method: "elicitation/create", params: {} } }));
      return {};
    });
    await storedWhen(tasks.store, handle.taskId, (t) => t.status === "input_required");
    const e = await rejectionOf(call({ taskId: handle.taskId, inputResponses: { a: { nope: 1 }, unknown: { ignored: true } } }), McpError);
    expect([e.code, e.message, e.data]).toEqual([
      -32602,
      "Invalid params: /inputResponses/a/action: expected a string (required), got nothing (the answer to elicitation/create)",
      { pointer: "/inputResponses/a/action", expected: "a string (required)" },
    ]);
    expect(await tasks.store.get(handle.taskId)).toMatchObject({ status: "input_required", inputRequests: { a: { method: "elicitation/create", params: {} } } });
    expect(await tasks.store.get(handle.taskId)).not.toHaveProperty("inputResponses");
    // The conformance suite's case: an unknown key is acknowledged and dropped.
    expect(await call({ taskId: handle.taskId, inputResponses: { "unknown-key": { ignored: true } } })).toEqual({ resultType: "complete" });
    expect(await call({ taskId: handle.taskId, inputResponses: { a: { action: "decline" }, "unknown-key": 7 } })).toEqual({ resultType: "complete" });
    expect(await got.promise).toEqual({ a: { action: "decline" } });
  });
});

describe("TaskWork.input and status", () => {
  it("input: the task is input_required with the requests and statusMessage; the answers, once taken, leave the store", async () => {
    const { tasks, call } = managed();
    const got = deferred<JsonObject>();
    const handle = await tasks.start(async (task) => {
      got.resolve(await task.input({ q: { method: "elicitation/create", params: {} } }, "need a name"));
      return new Promise(() => {});
    });
    const asking = await storedWhen(tasks.store, handle.taskId, (t) => t.status === "input_required");
    expect(asking).toMatchObject({ statusMessage: "need a name", inputRequests: { q: { method: "elicitation/create", params: {} } } });
    await call("tasks/update", { taskId: handle.taskId, inputResponses: { q: { action: "decline" } } });
    expect(await got.promise).toEqual({ q: { action: "decline" } });
    await vi.waitFor(async () => expect(await tasks.store.get(handle.taskId)).not.toHaveProperty("inputResponses"), { timeout: 5_000 });
    expect(await tasks.store.get(handle.taskId)).toMatchObject({ status: "working", statusMessage: "need a name" });
    expect(await tasks.store.get(handle.taskId)).not.toHaveProperty("inputRequests");
  });

  it("input without a statusMessage keeps the task's own", async () => {
    const { tasks, call } = managed();
    const handle = await tasks.start(async (task) => task.input({ q: {} }), { statusMessage: "queued" });
    await storedWhen(tasks.store, handle.taskId, (t) => t.status === "input_required");
    expect(await call("tasks/get", { taskId: handle.taskId })).toMatchObject({ status: "input_required", statusMessage: "queued", inputRequests: { q: {} } });
    await call("tasks/cancel", { taskId: handle.taskId });
  });

  it("input on a cancelled task rejects with -32800 at once; a cancel while it waits rejects it with -32800", async () => {
    const { tasks, call } = managed();
    const outcomes: unknown[] = [];
    const handle = await tasks.start(async (task) => {
      const first = task.input({ q: {} });
      outcomes.push(await first.catch((e: unknown) => e));
      outcomes.push(await task.input({ q: {} }).catch((e: unknown) => e));
      return {};
    });
    await storedWhen(tasks.store, handle.taskId, (t) => t.status === "input_required");
    await call("tasks/cancel", { taskId: handle.taskId });
    await vi.waitFor(() => expect(tasks.running).toBe(0), { timeout: 5_000 });
    expect(outcomes).toHaveLength(2);
    for (const e of outcomes) {
      expect(e).toBeInstanceOf(McpError);
      expect([(e as McpError).code, (e as McpError).message]).toEqual([-32800, "task cancelled"]);
    }
    expect((await tasks.store.get(handle.taskId))?.status).toBe("cancelled");
  });

  it("input on a task that is gone (expired) rejects with -32800; a store failure rejects with that failure", async () => {
    const { tasks, clock } = managed({ ttlMs: 1_000 });
    const gone = deferred<unknown>();
    const start = deferred();
    await tasks.start(async (task) => {
      await start.promise;
      gone.resolve(await task.input({ q: {} }).catch((e: unknown) => e));
      return {};
    });
    clock.now = T0 + 1_000;
    start.resolve();
    const e = await gone.promise;
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).code).toBe(-32800);

    const inner = new InMemoryTaskStore({ now: () => T0 });
    const store: TaskStore = { create: (t) => inner.create(t), get: (id) => inner.get(id), update: () => Promise.reject("no connection"), watch: (id, l) => inner.watch(id, l) };
    const broken = managed({ store }).tasks;
    const failed = deferred<unknown>();
    await broken.start(async (task) => {
      failed.resolve(await task.input({ q: {} }).catch((err: unknown) => err));
      return {};
    });
    const err = await failed.promise;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe("no connection");

    const down = new Error("store down");
    const failing = managed({ store: { ...store, update: () => Promise.reject(down) } }).tasks;
    const same = deferred<unknown>();
    await failing.start(async (task) => {
      same.resolve(await task.input({ q: {} }).catch((x: unknown) => x));
      return {};
    });
    expect(await same.promise).toBe(down);
  });

  it("status: sets statusMessage and stamps lastUpdatedAt; on a finished task it changes nothing", async () => {
    const { tasks, clock, call } = managed();
    let work!: TaskWork;
    const handle = await tasks.start((task) => {
      work = task;
      return new Promise(() => {});
    });
    await vi.waitFor(() => expect(work).toBeDefined(), { timeout: 5_000 });
    clock.now = T0 + 3_000;
    await work.status("step 2 of 3");
    expect(await tasks.store.get(handle.taskId)).toMatchObject({ status: "working", statusMessage: "step 2 of 3", lastUpdatedAt: iso(T0 + 3_000) });
    await call("tasks/cancel", { taskId: handle.taskId });
    clock.now = T0 + 4_000;
    await work.status("late");
    expect(await tasks.store.get(handle.taskId)).toMatchObject({ status: "cancelled", statusMessage: "step 2 of 3", lastUpdatedAt: iso(T0 + 3_000) });
  });
});

/** An in-memory store that counts the watchers still hooked and can fail chosen updates. */
function countingStore(fail: (current: StoredTask, next: StoredTask | undefined) => unknown = () => undefined) {
  const inner = new InMemoryTaskStore({ now: () => T0 });
  let watching = 0;
  const store: TaskStore = {
    create: (task) => inner.create(task),
    get: (taskId) => inner.get(taskId),
    update: (taskId, change) => {
      const current = inner.get(taskId);
      const failure = current === undefined ? undefined : fail(current, change(current));
      return failure === undefined ? inner.update(taskId, change) : Promise.reject(failure);
    },
    watch: (taskId, listener) => {
      watching++;
      const stop = inner.watch(taskId, listener);
      let stopped = false;
      return () => {
        if (!stopped) watching--;
        stopped = true;
        stop();
      };
    },
  };
  return { store, watching: () => watching };
}

describe("what a task holds on to", () => {
  it("its watch on the store (a shared store's subscription) ends with its work, and input's own watch and abort listener end with the wait", async () => {
    const { store, watching } = countingStore();
    const { tasks, call } = managed({ store });
    const release = deferred<JsonObject>();
    let signal!: AbortSignal;
    const handle = await tasks.start(async (task) => {
      signal = task.signal;
      await task.input({ q: {} });
      return release.promise;
    });
    await storedWhen(store, handle.taskId, (t) => t.status === "input_required");
    expect(watching()).toBe(2);
    expect(getEventListeners(signal, "abort")).toHaveLength(1);
    await call("tasks/update", { taskId: handle.taskId, inputResponses: { q: 1 } });
    await vi.waitFor(() => expect(watching()).toBe(1), { timeout: 5_000 });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    release.resolve({});
    await vi.waitFor(() => expect(tasks.running).toBe(0), { timeout: 5_000 });
    expect(watching()).toBe(0);
  });

  it("a store failure while clearing the answers the work took reaches onError; the work has its answers", async () => {
    const clearing = new Error("could not clear");
    const { store } = countingStore((current, next) => (current.status === "working" && current.inputResponses !== undefined && next !== undefined && !("inputResponses" in next) ? clearing : undefined));
    const errors: unknown[] = [];
    const { tasks, call } = managed({ store, onError: (e) => errors.push(e) });
    const got = deferred<JsonObject>();
    const handle = await tasks.start(async (task) => {
      got.resolve(await task.input({ q: {} }));
      return new Promise(() => {});
    });
    await storedWhen(store, handle.taskId, (t) => t.status === "input_required");
    await call("tasks/update", { taskId: handle.taskId, inputResponses: { q: "yes" } });
    expect(await got.promise).toEqual({ q: "yes" });
    await vi.waitFor(() => expect(errors).toEqual([clearing]), { timeout: 5_000 });
  });
});
