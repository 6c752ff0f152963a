/**
 * Send-path behaviours that mutation testing (npm run mutate, templates/runtime/core/outgoing.ts)
 * showed no test pinned: the cancel rule's edge cases, the bound of the recently-cancelled ids,
 * timeout option checks, a signal shared by requests that settle at different times, a restarted
 * timeout with no cap, progress without a timeout, responses to ids never sent, and hostile
 * progress notifications.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { cancelRule, RecentIds, timerDelay, type MethodPolicy } from "../../../../templates/runtime/core/outgoing.js";
import { RequestCancelledError, RequestTimeoutError } from "../../../generated/2025-11-25/index.js";
import { clientWithRawPeer, metaOf, settle } from "../../../helpers/harness.js";

const policy = (p: Partial<MethodPolicy>): MethodPolicy => ({ cancellable: true, taskAugmentable: false, paramsRequired: false, ...p });

describe("cancelRule", () => {
  it("only a task-augmentable method whose params carry `task` is task-augmented", () => {
    expect(cancelRule(policy({ taskAugmentable: true }), { task: {} })).toBe("task-augmented");
    // A `task` key on a method that is not task-augmentable changes nothing,
    expect(cancelRule(policy({ taskAugmentable: false }), { task: {} })).toBe("cancellable");
    // nor does a task-augmentable method without params, or without `task` in them.
    expect(cancelRule(policy({ taskAugmentable: true }), undefined)).toBe("cancellable");
    expect(cancelRule(policy({ taskAugmentable: true }), { name: "x" })).toBe("cancellable");
  });

  it("a method the catalog does not know is cancellable (no policy to forbid it); an uncancellable one is not", () => {
    expect(cancelRule(undefined, undefined)).toBe("cancellable");
    expect(cancelRule(undefined, { task: {} })).toBe("cancellable");
    expect(cancelRule(policy({ cancellable: false }), undefined)).toBe("uncancellable");
    expect(cancelRule(policy({}), undefined, false)).toBe("not-permitted");
  });
});

describe("RecentIds", () => {
  it("holds exactly `limit` ids, dropping the oldest first, so a long connection cannot grow it", () => {
    const ids = new RecentIds(3);
    for (const id of [1, 2, 3]) ids.add(id);
    expect([1, 2, 3].map((id) => ids.has(id))).toEqual([true, true, true]);
    ids.add(4);
    expect([1, 2, 3, 4].map((id) => ids.has(id))).toEqual([false, true, true, true]);
    // Adding again refreshes an id: it is now the newest.
    ids.add(2);
    ids.add(5);
    expect([2, 3, 4, 5].map((id) => ids.has(id))).toEqual([true, false, true, true]);
    for (let i = 0; i < 10_000; i++) ids.add(`x${i}`);
    expect(["x9997", "x9998", "x9999"].every((id) => ids.has(id)) && !ids.has("x9996")).toBe(true);
  });

  it("answers as a set that drops its oldest id over `limit` would, under any mix of adds, re-adds and deletes", () => {
    // The reference: the obvious implementation (a Set in insertion order, re-add moves to the end).
    class Reference {
      readonly ids = new Set<string | number>();
      constructor(readonly limit: number) {}
      add(id: string | number): void {
        this.ids.delete(id);
        this.ids.add(id);
        if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value as string | number);
      }
    }
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const limit of [1, 2, 5, 40]) {
      const expected = new Reference(limit);
      const ids = new RecentIds(limit);
      const universe = 3 * limit + 2;
      for (let step = 0; step < 20_000; step++) {
        const n = random(universe);
        const id = n % 2 === 0 ? n : `s${n}`;
        const op = random(10);
        if (op < 6) {
          expected.add(id);
          ids.add(id);
        } else if (op < 9) {
          expect(ids.delete(id)).toBe(expected.ids.delete(id));
        }
        for (let k = 0; k < universe; k++) {
          const probe = k % 2 === 0 ? k : `s${k}`;
          if (ids.has(probe) !== expected.ids.has(probe)) expect.fail(`limit ${limit}, step ${step}: has(${probe}) should be ${expected.ids.has(probe)}`);
        }
      }
    }
  });

});

describe("timerDelay", () => {
  it("refuses a negative, NaN or non-number timeout with a RangeError naming the option", () => {
    for (const bad of [-1, -0.5, Number.NaN, "10" as unknown as number]) expect(() => timerDelay("timeoutMs", bad)).toThrow(RangeError);
    expect(() => timerDelay("timeoutMs", -1)).toThrow(/^timeoutMs must be/);
    expect([undefined, 0, Number.POSITIVE_INFINITY].map((v) => timerDelay("t", v))).toEqual([undefined, undefined, undefined]);
    expect(timerDelay("t", 1)).toBe(1);
  });
});

describe("requests sharing one signal", () => {
  it("a signal watched by one request loses its listener when that request is answered, and by two when both are", async () => {
    const { client, peer } = await clientWithRawPeer();
    const alone = new AbortController();
    const call = client.callTool({ name: "a" }, { signal: alone.signal });
    await settle();
    expect(getEventListeners(alone.signal, "abort")).toHaveLength(1);
    await peer.send({ jsonrpc: "2.0", id: peer.requests("tools/call")[0]!.id, result: { content: [] } });
    await call;
    expect(getEventListeners(alone.signal, "abort")).toHaveLength(0);

    const shared = new AbortController();
    const both = [client.callTool({ name: "b" }, { signal: shared.signal }), client.callTool({ name: "c" }, { signal: shared.signal })];
    await settle();
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(1);
    for (const request of peer.requests("tools/call").slice(1)) await peer.send({ jsonrpc: "2.0", id: request.id, result: { content: [] } });
    await Promise.all(both);
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    expect(client.inFlight.sent).toBe(0);
  });

  it("after the first is answered, aborting the signal still cancels the second (exactly one cancel, for it)", async () => {
    const { client, peer, wire } = await clientWithRawPeer();
    const controller = new AbortController();
    const first = client.callTool({ name: "a" }, { signal: controller.signal });
    const second = client.callTool({ name: "b" }, { signal: controller.signal }).catch((e: unknown) => e);
    await settle();
    const [ra, rb] = peer.requests("tools/call");
    await peer.send({ jsonrpc: "2.0", id: ra!.id, result: { content: [] } });
    await first;
    controller.abort("stop");
    expect(await second).toBeInstanceOf(RequestCancelledError);
    expect(wire.cancels().map((m) => ("params" in m ? m.params?.["requestId"] : undefined))).toEqual([rb!.id]);
  });
});

describe("timeouts and progress", () => {
  it("resetTimeoutOnProgress without a cap: the restarted timeout still fires once progress stops", async () => {
    const { client, peer, wire } = await clientWithRawPeer();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      let outcome: unknown = "pending";
      void client.callTool({ name: "x" }, { onProgress: () => {}, timeoutMs: 40, resetTimeoutOnProgress: true }).catch((e: unknown) => (outcome = e));
      await vi.advanceTimersByTimeAsync(30);
      const token = metaOf(peer.requests("tools/call")[0])!.progressToken;
      await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1 } });
      await vi.advanceTimersByTimeAsync(35);
      expect(outcome).toBe("pending");
      await vi.advanceTimersByTimeAsync(10);
      expect(outcome).toBeInstanceOf(RequestTimeoutError);
      expect(wire.cancels()).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("resetTimeoutOnProgress with no timeout at all: progress arms no timer, the request waits for its response", async () => {
    const { client, peer } = await clientWithRawPeer({ defaultTimeoutMs: 0 });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      let outcome: unknown = "pending";
      void client.callTool({ name: "x" }, { onProgress: () => {}, resetTimeoutOnProgress: true }).then((r) => (outcome = r), (e: unknown) => (outcome = e));
      await vi.advanceTimersByTimeAsync(0);
      const request = peer.requests("tools/call")[0]!;
      await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: metaOf(request)!.progressToken, progress: 1 } });
      await vi.advanceTimersByTimeAsync(10_000);
      expect(outcome).toBe("pending");
      await peer.send({ jsonrpc: "2.0", id: request.id, result: { content: [] } });
      await vi.advanceTimersByTimeAsync(0);
      expect(outcome).toEqual({ content: [] });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("responses and progress the client never asked for", () => {
  it("a response to an id never sent is dropped without a late-response event; one to a cancelled request gets exactly one", async () => {
    const { client, peer, events } = await clientWithRawPeer();
    await peer.send({ jsonrpc: "2.0", id: 999, result: {} });
    await peer.send({ jsonrpc: "2.0", id: 998, result: "not an object" });
    await settle();
    expect(events.filter((e) => e.type === "late-response")).toEqual([]);
    const controller = new AbortController();
    const call = client.callTool({ name: "x" }, { signal: controller.signal }).catch(() => undefined);
    await settle();
    const id = peer.requests("tools/call")[0]!.id;
    controller.abort();
    await call;
    await peer.send({ jsonrpc: "2.0", id, result: "not an object" });
    await peer.send({ jsonrpc: "2.0", id, result: { content: [] } });
    await settle();
    expect(events.filter((e) => e.type === "late-response")).toEqual([{ type: "late-response", requestId: id }]);
  });

  it("progress without params, without a known token or with a non-number progress is ignored; odd total and message are left out (validation off: the send path's own rules)", async () => {
    const { client, peer } = await clientWithRawPeer({ validate: false });
    const seen: unknown[] = [];
    const call = client.callTool({ name: "x" }, { onProgress: (p) => seen.push(p) });
    await settle();
    const request = peer.requests("tools/call")[0]!;
    const token = metaOf(request)!.progressToken;
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress" });
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: { nested: token }, progress: 1 } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "unknown", progress: 1 } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: "1" } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 2, total: "10", message: 5 } });
    await settle();
    expect(seen).toEqual([{ progress: 2 }]);
    await peer.send({ jsonrpc: "2.0", id: request.id, result: { content: [] } });
    await call;
  });

  it("with validation on, a progress notification that breaks its schema is dropped and reported; a valid one is delivered", async () => {
    const errors: Error[] = [];
    const { client, peer } = await clientWithRawPeer({ onError: (error) => errors.push(error) });
    const seen: unknown[] = [];
    const call = client.callTool({ name: "x" }, { onProgress: (p) => seen.push(p) });
    await settle();
    const request = peer.requests("tools/call")[0]!;
    const token = metaOf(request)!.progressToken;
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress" });
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 2, total: "10", message: 5 } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 3, total: 10, message: "m" } });
    await settle();
    expect(seen).toEqual([{ progress: 3, total: 10, message: "m" }]);
    expect(errors.map((e) => [e.name, (e as { pointer?: string }).pointer])).toEqual([
      ["InvalidNotificationError", ""],
      ["InvalidNotificationError", "/message"],
    ]);
    expect(errors[1]!.message).toBe("notifications/progress dropped: its params break its schema at /message: expected a string, got 5");
    await peer.send({ jsonrpc: "2.0", id: request.id, result: { content: [] } });
    await call;
  });
});
