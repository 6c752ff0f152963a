/**
 * The send path (Cancellation, Behavior Requirements 1-3 and 6), at the wire level (the exact
 * JSON the client sends, or that it sends nothing) and through the typed API.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { CancellationForbiddenError, ConnectionClosedError, RequestCancelledError, RequestTimeoutError } from "../../../generated/2025-11-25/index.js";
import { within } from "../../../helpers/async.js";
import { clientWithRawPeer, INITIALIZE_PARAMS, metaOf, settle } from "../../../helpers/harness.js";

const cancelOf = (requestId: number, reason: string) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId, reason },
});

describe("aborting a request", () => {
  it("rejects an aborted call with an error whose name, message, reason, instanceof and stack read as documented, and leaves Error.stackTraceLimit as it was", async () => {
    const { client } = await clientWithRawPeer();
    const limit = Error.stackTraceLimit;
    const ac = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: ac.signal });
    await settle();
    ac.abort("stop");
    const error = (await within("the aborted tools/call", call.catch((e: unknown) => e), 2_000)) as RequestCancelledError;
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("AbortError");
    expect(error.message).toBe("tools/call was cancelled: stop");
    expect(error.reason).toBe("stop");
    // Made in the abort listener without capturing frames (issue 33): the stack is still there.
    expect(typeof error.stack).toBe("string");
    expect(error.stack?.startsWith("AbortError: tools/call was cancelled: stop")).toBe(true);
    expect(error.stack).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("after").stack).toMatch(/\n\s+at /);
  });

  it("where the engine has no Error.stackTraceLimit, an aborted call still rejects with the documented error, and the knob stays absent", async () => {
    const { client } = await clientWithRawPeer();
    const knob = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
    const ac = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: ac.signal }).catch((e: unknown) => e);
    await settle();
    delete (Error as { stackTraceLimit?: number }).stackTraceLimit;
    try {
      ac.abort("stop");
      const error = (await within("the aborted tools/call", call, 2_000)) as RequestCancelledError;
      expect("stackTraceLimit" in Error).toBe(false);
      expect(error).toBeInstanceOf(RequestCancelledError);
      expect([error.name, error.message, error.reason]).toEqual(["AbortError", "tools/call was cancelled: stop", "stop"]);
    } finally {
      if (knob !== undefined) Object.defineProperty(Error, "stackTraceLimit", knob);
    }
  });

  it("sends exactly one notifications/cancelled with the id and reason, rejects, forgets the request and ignores a late response", async () => {
    const { client, wire, peer, events } = await clientWithRawPeer();
    const ac = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: ac.signal });
    await settle();
    expect(peer.requests("tools/call")).toEqual([{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } }]);

    ac.abort("user pressed stop");
    ac.abort("again"); // a second abort is a no-op
    const error = await within("the aborted tools/call", call.catch((e: unknown) => e), 2_000);
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect(error).toMatchObject({ name: "AbortError", reason: "user pressed stop", requestId: 1, method: "tools/call" });
    await settle();
    expect(wire.cancels()).toEqual([cancelOf(1, "user pressed stop")]);
    expect(client.inFlight.sent).toBe(0);

    // The late response is dropped: nothing resolves, nothing is sent back, it is reported.
    await peer.send({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    await settle();
    expect(wire.sent).toHaveLength(2);
    expect(events).toEqual([
      { type: "sent", requestId: 1, method: "tools/call", reason: "user pressed stop", cause: "abort" },
      { type: "late-response", requestId: 1 },
    ]);
  });

  it("sends cancelReason when given, else a string abort reason, else a generic text: never the caller's error object", async () => {
    const { client, wire } = await clientWithRawPeer();
    const reasons: Array<[unknown, string | undefined]> = [
      ["plain string", undefined],
      [new Error("secret database password in here"), undefined],
      [{ token: "secret" }, undefined],
      [new Error("secret"), "Shown to the server"],
      [undefined, undefined], // AbortController's default reason is a DOMException
    ];
    for (const [reason, cancelReason] of reasons) {
      const ac = new AbortController();
      const call = client.callTool({ name: "x" }, cancelReason === undefined ? { signal: ac.signal } : { signal: ac.signal, cancelReason });
      await settle(1);
      ac.abort(reason);
      const error = (await within("the aborted tools/call", call.catch((e: unknown) => e), 2_000)) as RequestCancelledError;
      expect(error.reason).toBe(ac.signal.reason); // the caller gets its own reason back, untouched
    }
    await settle();
    expect(wire.cancels().map((m) => ("params" in m ? m.params?.["reason"] : undefined))).toEqual([
      "plain string",
      "Request cancelled by the caller",
      "Request cancelled by the caller",
      "Shown to the server",
      "Request cancelled by the caller",
    ]);
    expect(JSON.stringify(wire.sent)).not.toContain("secret");
  });

  it("rejects at once and sends nothing when the signal is already aborted", async () => {
    const { client, wire } = await clientWithRawPeer();
    const error = await client.listTools(undefined, { signal: AbortSignal.abort("too late") }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError", reason: "too late" });
    await settle();
    expect(wire.sent).toEqual([]);
  });

  it("sends nothing after the response arrived", async () => {
    const { client, wire, peer } = await clientWithRawPeer();
    const ac = new AbortController();
    const call = client.listTools({}, { signal: ac.signal });
    await settle();
    await peer.send({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    await expect(within("the answered tools/list", call, 2_000)).resolves.toEqual({ tools: [] });
    ac.abort("after the fact");
    await settle();
    expect(wire.cancels()).toEqual([]);
  });

  it("adds one abort listener per signal however many requests share it, and removes it when the last settles: 10,000 requests on one long-lived signal", async () => {
    const { client, peer } = await clientWithRawPeer();
    const longLived = new AbortController();
    const answered: Array<Promise<unknown>> = [];
    for (let i = 0; i < 10_000; i++) answered.push(client.ping({ signal: longLived.signal }));
    expect(getEventListeners(longLived.signal, "abort")).toHaveLength(1);
    await settle();
    for (const m of peer.requests("ping")) await peer.send({ jsonrpc: "2.0", id: m.id, result: {} });
    await within("10,000 answered pings", Promise.all(answered), 2_000);
    expect(getEventListeners(longLived.signal, "abort")).toHaveLength(0);
    expect(client.inFlight.sent).toBe(0);
  });
});

describe("timeouts", () => {
  it("requests timing out on a shared signal leave it watched only by the ones still waiting, and it still cancels later ones", async () => {
    const { client, wire, peer } = await clientWithRawPeer();
    const ac = new AbortController();
    // id 1 waits with no timeout; ids 2-6 time out on the same signal.
    const waiting = client.callTool({ name: "stays" }, { signal: ac.signal }).catch((e: unknown) => e);
    const timedOut = await within(
      "five pings with timeoutMs: 1",
      Promise.all(Array.from({ length: 5 }, () => client.ping({ signal: ac.signal, timeoutMs: 1 }).catch((e: unknown) => e))),
      2_000,
    );
    expect(timedOut.every((e) => e instanceof RequestTimeoutError)).toBe(true);
    // The waiting request keeps the one listener; the timed-out ones took nothing away from it.
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(1);
    expect(client.inFlight.sent).toBe(1);
    await settle();
    await peer.send({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    expect(await within("the answered tools/call", waiting, 2_000)).toEqual({ content: [] });
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);

    // The same signal, used again after all that: its abort still cancels the new request.
    const later = client.callTool({ name: "later" }, { signal: ac.signal });
    await settle();
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(1);
    ac.abort("stop the later one");
    const error = await within("the later tools/call after abort", later.catch((e: unknown) => e), 2_000);
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect(error).toMatchObject({ requestId: 7, reason: "stop the later one" });
    await settle();
    expect(wire.cancels()).toEqual([
      ...[2, 3, 4, 5, 6].map((id) => cancelOf(id, "Request timed out after 1 ms")),
      cancelOf(7, "stop the later one"),
    ]);
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
    expect(client.inFlight.sent).toBe(0);
  });

  it("sends one cancel and rejects with RequestTimeoutError (not AbortError), code -32001", async () => {
    const { client, wire, events } = await clientWithRawPeer();
    const error = await client.callTool({ name: "x" }, { timeoutMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ name: "TimeoutError", code: -32001, timeoutMs: 20 });
    expect(error).not.toBeInstanceOf(RequestCancelledError);
    await settle();
    expect(wire.cancels()).toEqual([cancelOf(1, "Request timed out after 20 ms")]);
    expect(events).toEqual([{ type: "sent", requestId: 1, method: "tools/call", reason: "Request timed out after 20 ms", cause: "timeout" }]);
  });

  it("uses the client's defaultTimeoutMs when the request gives none", async () => {
    const { client } = await clientWithRawPeer({ defaultTimeoutMs: 15 });
    await expect(client.ping()).rejects.toMatchObject({ name: "TimeoutError", timeoutMs: 15 });
  });

  it("abort and timeout together give one cancel and the first cause", async () => {
    const { client, wire } = await clientWithRawPeer();
    const ac = new AbortController();
    const call = client.callTool({ name: "x" }, { signal: ac.signal, timeoutMs: 10 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 30));
    ac.abort("too late to matter");
    expect(await call).toBeInstanceOf(RequestTimeoutError);
    await settle();
    expect(wire.cancels()).toHaveLength(1);
  });
});

describe("initialize is never cancelled (Behavior Requirements 2)", () => {
  it("refuses a signal from untyped code with CancellationForbiddenError before anything is sent", async () => {
    const { client, wire } = await clientWithRawPeer();
    const untyped = client.initialize as (params: unknown, options: unknown) => Promise<unknown>;
    const error = await untyped.call(client, INITIALIZE_PARAMS, { signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancellationForbiddenError);
    expect(error).toMatchObject({ method: "initialize", why: "uncancellable" });
    const generic = client.request as (method: string, params: unknown, options: unknown) => Promise<unknown>;
    await expect(generic.call(client, "initialize", INITIALIZE_PARAMS, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancellationForbiddenError);
    await settle();
    expect(wire.sent).toEqual([]);
  });

  it("a timeout on initialize rejects locally and sends no cancellation", async () => {
    const { client, wire, peer, events } = await clientWithRawPeer();
    await expect(client.initialize(INITIALIZE_PARAMS, { timeoutMs: 10 })).rejects.toBeInstanceOf(RequestTimeoutError);
    await settle();
    expect(peer.requests("initialize")).toHaveLength(1);
    expect(wire.cancels()).toEqual([]);
    expect(events).toEqual([{ type: "timeout-local", requestId: 1, method: "initialize" }]);
  });
});

describe("task-augmented requests are cancelled with tasks/cancel (Behavior Requirements 3)", () => {
  const task = { ttl: 60_000 };

  it("returns the CreateTaskResult, and refuses a signal from untyped code before sending", async () => {
    const { client, wire, peer } = await clientWithRawPeer();
    const untyped = client.callTool as (params: unknown, options: unknown) => Promise<unknown>;
    const error = await untyped.call(client, { name: "x", task }, { signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "CancellationForbiddenError", why: "task-augmented", method: "tools/call" });
    await settle();
    expect(wire.sent).toEqual([]);

    const created = client.callTool({ name: "x", task });
    await settle();
    const created0 = { task: { taskId: "t1", status: "working", createdAt: "2025-11-25T00:00:00Z", lastUpdatedAt: "2025-11-25T00:00:00Z", ttl: 60_000 } };
    await peer.send({ jsonrpc: "2.0", id: 1, result: created0 });
    await expect(created).resolves.toEqual(created0);

    const cancelling = client.cancelTask({ taskId: "t1" });
    await settle();
    expect(peer.requests("tasks/cancel")).toEqual([{ jsonrpc: "2.0", id: 2, method: "tasks/cancel", params: { taskId: "t1" } }]);
    await peer.send({ jsonrpc: "2.0", id: 2, result: { ...created0.task, status: "cancelled" } });
    await expect(cancelling).resolves.toMatchObject({ taskId: "t1", status: "cancelled" });
    expect(wire.cancels()).toEqual([]);
  });

  it("a timeout on a task-augmented request sends no notifications/cancelled", async () => {
    const { client, wire } = await clientWithRawPeer();
    await expect(client.callTool({ name: "x", task }, { timeoutMs: 10 })).rejects.toBeInstanceOf(RequestTimeoutError);
    await settle();
    expect(wire.cancels()).toEqual([]);
  });
});

describe("progress", () => {
  it("onProgress sets a unique progressToken and receives progress while the request is pending", async () => {
    const { client, peer } = await clientWithRawPeer();
    const seen: unknown[] = [];
    const a = client.callTool({ name: "a", _meta: { other: 1 } }, { onProgress: (p) => seen.push(["a", p]) });
    const b = client.callTool({ name: "b" }, { onProgress: (p) => seen.push(["b", p]) });
    await settle();
    const [ra, rb] = peer.requests("tools/call");
    const tokenA = metaOf(ra)!;
    const tokenB = metaOf(rb)!;
    expect(tokenA["other"]).toBe(1);
    expect(tokenA.progressToken).toBeDefined();
    expect(tokenA.progressToken).not.toEqual(tokenB.progressToken);
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: tokenB.progressToken, progress: 1, total: 2, message: "half" } });
    await peer.send({ jsonrpc: "2.0", id: ra!.id, result: { content: [] } });
    await a;
    // Progress for a finished request is dropped.
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: tokenA.progressToken, progress: 5 } });
    await settle();
    expect(seen).toEqual([["b", { progress: 1, total: 2, message: "half" }]]);
    await peer.send({ jsonrpc: "2.0", id: rb!.id, result: { content: [] } });
    await b;
  });

  it("resetTimeoutOnProgress restarts the timeout, and maxTotalTimeoutMs caps the whole request", async () => {
    const { client, peer, wire } = await clientWithRawPeer();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const call = client
        .callTool({ name: "x" }, { onProgress: () => {}, timeoutMs: 40, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 150 })
        .catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(0);
      const token = metaOf(peer.requests("tools/call")[0])!.progressToken;
      // A progress notification every 30 ms keeps restarting the 40 ms timeout...
      for (let elapsed = 0; elapsed < 140; elapsed += 30) {
        await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: elapsed } });
        await vi.advanceTimersByTimeAsync(30);
      }
      // ...until the 150 ms hard cap ends it.
      await vi.advanceTimersByTimeAsync(20);
      const error = (await call) as RequestTimeoutError;
      expect(error).toBeInstanceOf(RequestTimeoutError);
      expect(error.timeoutMs).toBe(150);
      expect(wire.cancels()).toEqual([cancelOf(1, "Request timed out after 150 ms")]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("without resetTimeoutOnProgress, progress does not extend the timeout", async () => {
    const { client, peer } = await clientWithRawPeer();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const call = client.callTool({ name: "x" }, { onProgress: () => {}, timeoutMs: 40 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(30);
      const token = metaOf(peer.requests("tools/call")[0])!.progressToken;
      await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1 } });
      await vi.advanceTimersByTimeAsync(15);
      expect(await call).toMatchObject({ name: "TimeoutError", timeoutMs: 40 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("without resetTimeoutOnProgress, only the earlier of timeoutMs and maxTotalTimeoutMs is armed, and it fires with its own ms", async () => {
    for (const [timeoutMs, maxTotalTimeoutMs, fires] of [
      [40, 150, 40],
      [150, 30, 30],
      [50, 50, 50],
    ] as const) {
      const { client, wire } = await clientWithRawPeer();
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      try {
        const call = client.callTool({ name: "x" }, { timeoutMs, maxTotalTimeoutMs }).catch((e: unknown) => e);
        await vi.advanceTimersByTimeAsync(0);
        // One deadline cannot move, so one timer covers both (the 2026-07-28 defaults arm 60 s and 600 s on every request).
        expect(vi.getTimerCount()).toBe(1);
        await vi.advanceTimersByTimeAsync(fires - 1);
        expect(wire.cancels()).toEqual([]);
        await vi.advanceTimersByTimeAsync(1);
        expect(await call).toMatchObject({ name: "TimeoutError", timeoutMs: fires });
        expect(wire.cancels()).toEqual([cancelOf(1, `Request timed out after ${fires} ms`)]);
        expect(vi.getTimerCount()).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    }
  });

  it("with resetTimeoutOnProgress, both deadlines are armed (the timeout moves, the cap does not)", async () => {
    const { client } = await clientWithRawPeer();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const call = client.callTool({ name: "x" }, { onProgress: () => {}, timeoutMs: 40, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 150 }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(2);
      await vi.advanceTimersByTimeAsync(40);
      expect(await call).toMatchObject({ name: "TimeoutError", timeoutMs: 40 });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("connection close", () => {
  it("rejects every pending request with ConnectionClosedError and leaves no timer behind", async () => {
    const { client, wire, peer } = await clientWithRawPeer();
    const ac = new AbortController();
    const calls = [client.callTool({ name: "a" }, { timeoutMs: 200, signal: ac.signal }), client.listTools()];
    await settle();
    await peer.close();
    for (const call of calls) await expect(within<unknown>("a request pending at close", call, 2_000)).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 250)); // past the timeout: nothing fires
    expect(wire.cancels()).toEqual([]);
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });
  });
});
