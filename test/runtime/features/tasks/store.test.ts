/**
 * InMemoryTaskStore (templates/runtime/features/tasks.ts), the default task store, through its typed API:
 * when full it makes room for exactly one more task (expired tasks, then as few finished tasks
 * as needed, oldest first); an expired task is gone for get and update; a watcher hears only its
 * own task's changes, and a stop function called twice stops only its own watcher.
 */
import { describe, expect, it, vi } from "vitest";
import { InMemoryTaskStore } from "../../../../templates/runtime/features/memory-task-store.js";
import type { TaskStatus } from "../../../../templates/runtime/features/task-protocol.js";
import type { StoredTask } from "../../../../templates/runtime/features/task-store.js";

const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const task = (taskId: string, status: TaskStatus, ttlMs: number | null = null): StoredTask => ({
  taskId,
  status,
  createdAt: new Date(T0).toISOString(),
  lastUpdatedAt: new Date(T0).toISOString(),
  ttlMs,
});

describe("InMemoryTaskStore when full", () => {
  it("drops only as many finished tasks as it needs, oldest first", () => {
    const store = new InMemoryTaskStore({ maxTasks: 3, now: () => T0 });
    store.create(task("done-1", "completed"));
    store.create(task("done-2", "cancelled"));
    store.create(task("run", "working"));
    store.create(task("new-1", "working"));
    expect([store.size, store.get("done-1"), store.get("done-2")?.status]).toEqual([3, undefined, "cancelled"]);
    store.create(task("new-2", "input_required"));
    expect([store.size, store.get("done-2"), store.get("run")?.status, store.get("new-1")?.status, store.get("new-2")?.status]).toEqual([3, undefined, "working", "working", "input_required"]);
  });

  it("drops every expired task, finished or not, before any finished one", () => {
    let now = T0;
    const store = new InMemoryTaskStore({ maxTasks: 3, now: () => now });
    store.create(task("done", "failed"));
    store.create(task("short-1", "working", 1_000));
    store.create(task("short-2", "input_required", 1_000));
    now = T0 + 1_000;
    store.create(task("new", "working"));
    expect(store.size).toBe(2);
    expect(store.get("done")?.status).toBe("failed");
  });
});

describe("an expired task", () => {
  it("is unknown to update, which does not call the change", () => {
    let now = T0;
    const store = new InMemoryTaskStore({ now: () => now });
    store.create(task("t", "working", 500));
    const change = vi.fn((t: StoredTask) => ({ ...t, status: "cancelled" as const }));
    now = T0 + 500;
    expect(store.update("t", change)).toBeUndefined();
    expect(change).not.toHaveBeenCalled();
    expect(store.size).toBe(0);
  });
});

describe("watchers", () => {
  it("hear only their own task's changes, with the task as stored", () => {
    const store = new InMemoryTaskStore({ now: () => T0 });
    store.create(task("a", "working"));
    store.create(task("b", "working"));
    const heard: string[] = [];
    store.watch("a", (t) => heard.push(`${t.taskId}:${t.status}`));
    store.update("b", (t) => ({ ...t, status: "cancelled" }));
    store.update("a", (t) => ({ ...t, status: "completed" }));
    expect(heard).toEqual(["a:completed"]);
  });

  it("a stop function called again after its task's last watcher left does not stop a later watcher", () => {
    const store = new InMemoryTaskStore({ now: () => T0 });
    store.create(task("t", "working"));
    const stopFirst = store.watch("t", () => {});
    stopFirst();
    const heard: string[] = [];
    const stopSecond = store.watch("t", (t) => heard.push(t.status));
    stopFirst();
    store.update("t", (t) => ({ ...t, status: "input_required" }));
    stopSecond();
    store.update("t", (t) => ({ ...t, status: "working" }));
    expect(heard).toEqual(["input_required"]);
  });
});
