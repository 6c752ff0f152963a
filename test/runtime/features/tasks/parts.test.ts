/**
 * The parts of templates/runtime/features/tasks.ts a peer's bytes reach or a caller reads, on their own:
 * the task id tasks/get, tasks/update and tasks/cancel accept (a hostile id is refused with
 * -32602, never looked up), tasks/get's answer by status, what counts as a task handle, the
 * error a failed task rejects with, and the store's bound.
 */
import { describe, expect, it } from "vitest";
import { McpError } from "../../../../templates/runtime/core/protocol.js";
import { rejectionOf } from "../../../generator/support.js";
import { isTaskHandle, TaskFailedError } from "../../../../templates/runtime/features/client-task.js";
import { InMemoryTaskStore } from "../../../../templates/runtime/features/memory-task-store.js";
import { detailedTask, TaskManager } from "../../../../templates/runtime/features/task-manager.js";
import { TASKS_EXTENSION } from "../../../../templates/runtime/features/task-protocol.js";
import type { StoredTask } from "../../../../templates/runtime/features/task-store.js";

const META = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };

describe("the task id a client sends", () => {
  const handlers = new TaskManager().handlersFor(-32021);

  it("must be a string of 1 to 256 characters; anything else is -32602 naming what came", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"] as const) {
      for (const [taskId, shown] of [["", '""'], ["x".repeat(257), JSON.stringify("x".repeat(200) + "…")], [7, "7"], [undefined, "undefined"]] as const) {
        const e = await rejectionOf(handlers[method]({ taskId, inputResponses: {} }, { _meta: META }), McpError);
        expect(e.code).toBe(-32602);
        expect(e.message).toBe(`expected params.taskId to be a task id (a string of 1 to 256 characters), got ${shown}`);
      }
    }
  });

  it("of 256 characters is looked up (and unknown here)", async () => {
    const e = await rejectionOf(handlers["tasks/get"]({ taskId: "y".repeat(256) }, { _meta: META }), McpError);
    expect(e.code).toBe(-32602);
    expect(e.message).toMatch(/^Unknown task: "y{200}…"$/);
  });

  it("is not even read from a client that did not declare the extension", async () => {
    const e = await rejectionOf(handlers["tasks/get"]({ taskId: "" }, { _meta: {} }), McpError);
    expect(e.code).toBe(-32021);
  });
});

describe("tasks/get's answer by status", () => {
  const base: StoredTask = { taskId: "t", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: null };
  const extra = { inputRequests: { a: {} }, result: { content: [] }, error: { code: 1, message: "m" } };

  it("carries inputRequests only while input_required, result only when completed, error only when failed", () => {
    const keys = (status: StoredTask["status"]) => Object.keys(detailedTask({ ...base, ...extra, status })).filter((k) => k in extra);
    expect(keys("working")).toEqual([]);
    expect(keys("input_required")).toEqual(["inputRequests"]);
    expect(keys("completed")).toEqual(["result"]);
    expect(keys("failed")).toEqual(["error"]);
    expect(keys("cancelled")).toEqual([]);
    expect(Object.keys(detailedTask({ ...base, status: "completed" }))).not.toContain("result");
  });
});

describe("the client's reading of a server's answer", () => {
  it("a task handle has resultType task and a string task id", () => {
    expect(isTaskHandle({ resultType: "task", taskId: "t" })).toBe(true);
    expect(isTaskHandle({ resultType: "task", taskId: 5 })).toBe(false);
    expect(isTaskHandle({ resultType: "complete", taskId: "t" })).toBe(false);
    expect(isTaskHandle({ taskId: "t" })).toBe(false);
    expect(isTaskHandle(null)).toBe(false);
    expect(isTaskHandle("task")).toBe(false);
  });

  it("a failed task rejects with the server's code, message and data, or defaults for what is missing", () => {
    const full = new TaskFailedError("t1", { code: -32000, message: "disk full", data: { free: 0 } });
    expect([full.name, full.code, full.message, full.data, full.taskId]).toEqual(["TaskFailedError", -32000, "task t1 failed: disk full", { free: 0 }, "t1"]);
    const bare = new TaskFailedError("t2", { code: "x", message: 5 });
    expect([bare.code, bare.message, bare.data]).toEqual([-32603, "task t2 failed: task failed", undefined]);
    expect(new TaskFailedError("t3", "not an object").message).toBe("task t3 failed: task failed");
  });
});

describe("InMemoryTaskStore", () => {
  const at = (status: StoredTask["status"], taskId: string, ttlMs: number | null = null, createdAt = "2026-01-01T00:00:00.000Z"): StoredTask => ({ taskId, status, createdAt, lastUpdatedAt: createdAt, ttlMs });

  it("when full, drops expired tasks, then finished ones oldest first, never a task in progress", () => {
    let now = Date.parse("2026-01-01T00:00:00.000Z");
    const store = new InMemoryTaskStore({ maxTasks: 3, now: () => now });
    store.create(at("working", "w1"));
    store.create(at("completed", "done-old"));
    store.create(at("working", "short", 1_000));
    now += 2_000; // "short" has expired
    store.create(at("working", "w2"));
    expect([store.size, store.get("short"), store.get("done-old")?.status]).toEqual([3, undefined, "completed"]);
    store.create(at("failed", "f"));
    expect(store.get("done-old")).toBeUndefined();
    expect([store.get("w1")?.status, store.get("w2")?.status, store.get("f")?.status]).toEqual(["working", "working", "failed"]);
    store.update("f", (t) => ({ ...t, status: "working" }));
    let full: unknown;
    try {
      store.create(at("working", "w3"));
    } catch (e) {
      full = e;
    }
    expect(full).toBeInstanceOf(McpError);
    expect([(full as McpError).code, (full as McpError).message]).toEqual([-32603, "the task store is full (3 tasks in progress)"]);
    expect(store.size).toBe(3);
  });

  it("update tells each watcher, survives a throwing one, and a stopped watcher hears nothing more", () => {
    const store = new InMemoryTaskStore();
    store.create(at("working", "t"));
    const heard: string[] = [];
    const stopA = store.watch("t", (task) => heard.push(`a:${task.status}`));
    store.watch("t", () => {
      throw new Error("watcher broke");
    });
    const stopC = store.watch("t", (task) => heard.push(`c:${task.status}`));
    expect(store.update("t", (task) => ({ ...task, status: "input_required" }))?.status).toBe("input_required");
    stopA();
    store.update("t", (task) => ({ ...task, status: "completed" }));
    stopC();
    stopC();
    expect(store.update("t", () => undefined)?.status).toBe("completed");
    expect(store.update("missing", (task) => task)).toBeUndefined();
    expect(heard).toEqual(["a:input_required", "c:input_required", "c:completed"]);
  });

  it("refuses a bound that is not an integer of at least 1", () => {
    for (const maxTasks of [0, -1, 1.5, Number.NaN]) expect(() => new InMemoryTaskStore({ maxTasks })).toThrow(RangeError);
    expect(() => new InMemoryTaskStore({ maxTasks: 0 })).toThrow("maxTasks must be an integer ≥ 1, got 0");
    expect(() => new InMemoryTaskStore({ maxTasks: 1 })).not.toThrow();
  });
});
