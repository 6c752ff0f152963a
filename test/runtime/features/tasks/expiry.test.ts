/**
 * Expiry and eviction end a task's work (features/tasks.ts, issue 28 defect 4): when the store
 * drops a task, its work's signal aborts with a reason that says why ("task expired" /
 * "task evicted"), a pending TaskWork.input() rejects with it, and nothing of the task stays in
 * the manager or the store, so tasks that expire unanswered do not accumulate.
 */
import { describe, expect, it, vi } from "vitest";
import { McpError, type JsonObject } from "../../../../templates/runtime/core/protocol.js";
import { InMemoryTaskStore } from "../../../../templates/runtime/features/memory-task-store.js";
import { TaskManager } from "../../../../templates/runtime/features/task-manager.js";

const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const MiB = 1024 * 1024;
const drain = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("an expired task's work", () => {
  it("20,000 tasks waiting on input, expiring in batches, store capped at 1,000: every work aborted as expired, the heap bounded", async () => {
    const clock = { now: T0 };
    const store = new InMemoryTaskStore({ maxTasks: 1_000, now: () => clock.now });
    const tasks = new TaskManager({ store, now: () => clock.now, ttlMs: 1_000 });
    const reasons = new Map<unknown, number>();
    const inputErrors = new Map<string, number>();
    let settled = 0;
    const count = <K>(map: Map<K, number>, key: K): void => void map.set(key, (map.get(key) ?? 0) + 1);
    const batch = async (): Promise<void> => {
      for (let i = 0; i < 500; i++) {
        await tasks.start(async (task) => {
          // What a real work holds while it waits (1 KiB on the heap), kept until the wait ends.
          const held = new Array<number>(128).fill(i);
          task.signal.addEventListener("abort", () => count(reasons, task.signal.reason), { once: true });
          try {
            await task.input({ q: { method: "roots/list" } });
          } catch (error) {
            count(inputErrors, error instanceof McpError ? `${error.code} ${error.message}` : String(error));
          } finally {
            settled++;
          }
          return { n: held.length };
        });
      }
      await drain();
      clock.now += 1_000; // this batch expires before the next one starts
    };
    for (let b = 0; b < 4; b++) await batch();
    const before = process.memoryUsage().heapUsed;
    for (let b = 4; b < 40; b++) await batch();
    store.get("none"); // lets the last batch expire
    await drain();
    const grown = process.memoryUsage().heapUsed - before;

    // Kept, the 18,000 works of batches 5 to 40 hold about 100 MiB (the issue measured 117 MiB for
    // 20,000); at most one batch is live at a time. The margin is for garbage not yet collected.
    expect(grown).toBeLessThan(40 * MiB);
    expect(reasons).toEqual(new Map([["task expired", 20_000]]));
    expect(inputErrors).toEqual(new Map([["-32800 task expired", 20_000]]));
    expect(settled).toBe(20_000);
    expect([tasks.running, store.size]).toEqual([0, 0]);
  });

  it("expires on its own time, with nobody calling the store: the signal aborts, input() rejects, the task is gone", async () => {
    const tasks = new TaskManager({ ttlMs: 30 });
    let signal: AbortSignal | undefined;
    let error: unknown;
    const handle = await tasks.start(async (task) => {
      signal = task.signal;
      await task.input({ q: {} }).catch((e: unknown) => (error = e));
      return {};
    });
    // A bounded wait for the store's own timer (30 ms of TTL), not a measured time.
    await vi.waitFor(() => expect(error).toBeDefined(), { timeout: 5_000, interval: 10 });
    expect(signal?.reason).toBe("task expired");
    expect(error).toBeInstanceOf(McpError);
    expect([(error as McpError).code, (error as McpError).message]).toEqual([-32800, "task expired"]);
    expect(tasks.running).toBe(0);
    expect(await tasks.store.get(handle.taskId)).toBeUndefined();
    expect((tasks.store as InMemoryTaskStore).size).toBe(0);
  });
});

describe("an evicted task's work", () => {
  it("a store that evicts a task whose work still runs: its signal aborts as evicted and the manager lets go of it", async () => {
    // Finished in the store while the work still runs (a task completed by another instance of a shared store, say).
    const store = new InMemoryTaskStore({ maxFinishedTasksPerPrincipal: 1, now: () => T0 });
    const tasks = new TaskManager({ store, now: () => T0 });
    let signal: AbortSignal | undefined;
    const handle = await tasks.start((task) => {
      signal = task.signal;
      return new Promise<JsonObject>(() => {});
    });
    await drain();
    store.update(handle.taskId, (t) => ({ ...t, status: "completed", result: {} }));
    expect(signal?.aborted).toBe(false);
    await tasks.start(() => ({}));
    await drain();
    expect(signal?.reason).toBe("task evicted");
    expect(tasks.running).toBe(0);
    expect(store.get(handle.taskId)).toBeUndefined();
  });
});
