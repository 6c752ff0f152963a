/**
 * The in-memory task store's expiry queue (features/tasks.ts InMemoryTaskStore): tasks of mixed
 * TTLs expire exactly at their time, in any order of creation, each telling its watchers once;
 * and the places of tasks evicted long before their expiry do not pile up in the queue.
 */
import { describe, expect, it } from "vitest";
import { InMemoryTaskStore } from "../../../../templates/runtime/features/memory-task-store.js";
import type { StoredTask, TaskRemovalReason } from "../../../../templates/runtime/features/task-store.js";

const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const MiB = 1024 * 1024;

describe("the expiry queue", () => {
  it("expires each of 2,000 tasks of mixed TTLs exactly when its time comes, telling its watcher once", () => {
    let now = T0;
    const store = new InMemoryTaskStore({ maxTasks: 5_000, maxActiveTasksPerPrincipal: 5_000, now: () => now });
    let seed = 7;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const expiries = new Map<string, number>();
    const removed: [string, TaskRemovalReason][] = [];
    for (let i = 0; i < 2_000; i++) {
      const createdAt = T0 + Math.floor(random() * 1_000);
      const ttlMs = i % 10 === 0 ? null : Math.floor(random() * 5_000);
      const taskId = `t${i}`;
      const task: StoredTask = { taskId, status: i % 3 === 0 ? "input_required" : "working", createdAt: new Date(createdAt).toISOString(), lastUpdatedAt: new Date(createdAt).toISOString(), ttlMs };
      store.create(task);
      store.watch(taskId, () => {}, (reason) => removed.push([taskId, reason]));
      expiries.set(taskId, ttlMs === null ? Infinity : createdAt + ttlMs);
    }
    for (now = T0; now <= T0 + 6_000; now += 250) {
      store.get("tick");
      const expected = [...expiries].filter(([, at]) => at > now).map(([id]) => id);
      expect(store.size).toBe(expected.length);
      for (const id of expected.slice(0, 50)) expect(store.get(id)?.taskId).toBe(id);
    }
    expect(removed).toHaveLength(1_800);
    expect(new Set(removed.map(([id]) => id)).size).toBe(1_800);
    expect(removed.every(([, reason]) => reason === "expired")).toBe(true);
    expect(store.size).toBe(200);
  });

  it("200,000 finished tasks with a one-hour TTL, evicted past the quota: what is kept stays bounded", () => {
    const store = new InMemoryTaskStore({ now: () => T0 });
    const at = new Date(T0).toISOString();
    // Each result its own 1 KiB on the heap.
    const make = (i: number): StoredTask => ({ taskId: `t${i}`, status: "completed", createdAt: at, lastUpdatedAt: at, ttlMs: 3_600_000, result: { content: [], n: new Array<number>(128).fill(i) }, owner: "bob" });
    for (let i = 0; i < 2_000; i++) store.create(make(i));
    const before = process.memoryUsage().heapUsed;
    for (let i = 2_000; i < 200_000; i++) store.create(make(i));
    const grown = process.memoryUsage().heapUsed - before;
    expect(store.held("bob")).toEqual({ active: 0, finished: 1_000 });
    // Kept (as places in the expiry queue), 198,000 such tasks would hold about 250 MiB; the store
    // keeps 1,000 of them. The margin is for garbage not yet collected.
    expect(grown).toBeLessThan(80 * MiB);
  });
});
