/**
 * Requests that start in the same millisecond with the same delay share one deadline and one timer
 * (core/outgoing.ts Deadline): each still times out exactly at its own start plus its delay, in the
 * order the requests started, with its own cancel on the wire; a request of a later millisecond has
 * its own deadline; the timer goes when the last request waiting on it settles; and a timeout's
 * observer that settles other requests of the same deadline cannot leave one of them waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { outcome } from "../../../helpers/async.js";
import { RequestCancelledError, RequestTimeoutError } from "../../../generated/2025-11-25/index.js";
import { clientWithRawPeer } from "../../../helpers/harness.js";

const timedOut = (requestId: number, ms: number) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId, reason: `Request timed out after ${ms} ms` },
});

describe("shared deadlines", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("requests of one millisecond and one delay share a timer and all time out at that deadline, in start order", async () => {
    const { client, wire } = await clientWithRawPeer();
    const calls = [1, 2, 3].map(() => outcome(client.callTool({ name: "x" }, { timeoutMs: 100 })));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(calls.map((c) => c.value)).toEqual(["pending", "pending", "pending"]);
    expect(wire.cancels()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    for (const call of calls) expect(call.value).toMatchObject({ name: "TimeoutError", timeoutMs: 100 });
    expect(calls[0]!.value).toBeInstanceOf(RequestTimeoutError);
    expect(wire.cancels()).toEqual([timedOut(1, 100), timedOut(2, 100), timedOut(3, 100)]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a request of a later millisecond, or with another delay, waits on its own deadline", async () => {
    const { client, wire } = await clientWithRawPeer();
    const first = outcome(client.callTool({ name: "a" }, { timeoutMs: 100 }));
    const otherDelay = outcome(client.callTool({ name: "b" }, { timeoutMs: 120 }));
    await vi.advanceTimersByTimeAsync(50);
    const later = outcome(client.callTool({ name: "c" }, { timeoutMs: 100 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(3);
    await vi.advanceTimersByTimeAsync(50); // t = 100
    expect([first.value, otherDelay.value, later.value].map((v) => (v === "pending" ? v : "timed out"))).toEqual(["timed out", "pending", "pending"]);
    await vi.advanceTimersByTimeAsync(20); // t = 120
    expect(otherDelay.value).toMatchObject({ name: "TimeoutError", timeoutMs: 120 });
    expect(later.value).toBe("pending");
    await vi.advanceTimersByTimeAsync(29); // t = 149
    expect(later.value).toBe("pending");
    await vi.advanceTimersByTimeAsync(1); // t = 150: its own start plus 100
    expect(later.value).toMatchObject({ name: "TimeoutError", timeoutMs: 100 });
    expect(wire.cancels()).toEqual([timedOut(1, 100), timedOut(2, 120), timedOut(3, 100)]);
  });

  it("answered requests leave their deadline; the timer goes with the last one and the others still time out", async () => {
    const { client, peer, wire } = await clientWithRawPeer();
    const calls = [1, 2, 3].map(() => outcome(client.callTool({ name: "x" }, { timeoutMs: 100 })));
    await vi.advanceTimersByTimeAsync(0);
    const [r1, r2, r3] = peer.requests("tools/call");
    // The middle one and the first are answered: the list stays linked around them.
    await peer.send({ jsonrpc: "2.0", id: r2!.id, result: { content: [] } });
    await peer.send({ jsonrpc: "2.0", id: r1!.id, result: { content: [] } });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls.map((c) => c.value)).toEqual([{ content: [] }, { content: [] }, expect.objectContaining({ name: "TimeoutError" })]);
    expect(wire.cancels()).toEqual([timedOut(r3!.id as number, 100)]);

    // Every request of a deadline answered: its timer is cleared, nothing fires later.
    const more = [outcome(client.callTool({ name: "y" }, { timeoutMs: 100 })), outcome(client.callTool({ name: "z" }, { timeoutMs: 100 }))];
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    for (const request of peer.requests("tools/call").slice(3)) await peer.send({ jsonrpc: "2.0", id: request.id, result: { content: [] } });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(more.map((c) => c.value)).toEqual([{ content: [] }, { content: [] }]);
  });

  it("an observer of the first timeout that aborts the second and starts a new request: every request of the deadline still ends, the new one waits its own time", async () => {
    const second = new AbortController();
    let started: { value: unknown } | undefined;
    const { client, wire } = await clientWithRawPeer({
      onCancellation: (event) => {
        if (event.type !== "sent" || event.requestId !== 1) return;
        second.abort("stop");
        started = outcome(client.callTool({ name: "new" }, { timeoutMs: 100 }));
      },
    });
    const calls = [
      outcome(client.callTool({ name: "a" }, { timeoutMs: 100 })),
      outcome(client.callTool({ name: "b" }, { timeoutMs: 100, signal: second.signal })),
      outcome(client.callTool({ name: "c" }, { timeoutMs: 100 })),
    ];
    await vi.advanceTimersByTimeAsync(100);
    expect(calls[0]!.value).toBeInstanceOf(RequestTimeoutError);
    expect(calls[1]!.value).toBeInstanceOf(RequestCancelledError);
    expect(calls[2]!.value).toBeInstanceOf(RequestTimeoutError);
    expect(started?.value).toBe("pending");
    expect(wire.cancels().map((m) => ("params" in m ? m.params?.["requestId"] : undefined))).toEqual([1, 2, 3]);
    await vi.advanceTimersByTimeAsync(100);
    expect(started?.value).toMatchObject({ name: "TimeoutError", timeoutMs: 100 });
    expect(vi.getTimerCount()).toBe(0);
  });
});
