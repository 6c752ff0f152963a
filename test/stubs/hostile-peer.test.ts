/**
 * Defects a hostile peer (or hostile in-process values) could trigger, each at the wire level:
 * log lines of malformed cancels, throwing user callbacks, results that cannot be serialised,
 * handler lookups through Object.prototype, malformed responses, timeout values the platform
 * cannot arm, and one abort listener per shared signal.
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as R from "../generated/2025-11-25/index.js";
import * as S from "../generated/2026-07-28/index.js";
import type { JsonRpcMessage, Transport } from "../generated/2025-11-25/index.js";
import { aborted, cancelled, clientWithRawPeer, connectPair, deferred, serverWithRawPeer, settle, TapTransport } from "./harness.js";

/** An array nested `depth` deep, built without recursion. */
function nested(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function circular(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: 1 };
  value["self"] = value;
  return value;
}

/** Process warnings (TimeoutOverflowWarning, MaxListenersExceededWarning) seen during a test. */
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
beforeEach(() => {
  warnings.length = 0;
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

/**
 * A tapped transport that serialises what it sends as JSON, as stdio and HTTP do, so that a
 * value that cannot be serialised makes send() reject.
 */
class JsonTransport extends TapTransport {
  override async send(message: JsonRpcMessage, options?: { relatedRequestId?: string | number | undefined }) {
    return super.send(JSON.parse(JSON.stringify(message)) as JsonRpcMessage, options);
  }
}

describe("defect 1: describing a malformed cancel for the log is bounded and cannot throw", () => {
  it.each([
    ["an array nested 100,000 deep", () => nested(100_000)],
    ["a BigInt", () => 10n],
    ["a circular object", circular],
    ["an object with a throwing getter", () => ({ get x(): never { throw new Error("boom"); } })],
  ])("a cancel whose requestId is %s is ignored as malformed, logged in one short line, and the server keeps serving", async (_name, make) => {
    const lines: string[] = [];
    const { peer, events } = await serverWithRawPeer({ logger: (line) => lines.push(line) });
    await peer.send(cancelled(make(), "x".repeat(100_000)));
    await settle();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "ignored", cause: "malformed" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[mcp server\] ignored a cancellation \(malformed\) for id (an array|10|an object): x{200}…$/);
    await peer.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await settle();
    expect(peer.received).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("describeValue and describeCancellation: bounded, one line, never walking into a value", () => {
    expect(R.describeValue(nested(1_000_000))).toBe("an array");
    expect(R.describeValue(circular())).toBe("an object");
    expect(R.describeValue(12n)).toBe("12");
    expect(R.describeValue("a".repeat(10_000)).length).toBeLessThanOrEqual(205);
    const line = R.describeCancellation("server", { type: "received", requestId: "id\nforged", method: "tools/call", reason: "line one\n[mcp server] forged line" });
    expect(line).toBe("[mcp server] peer cancelled tools/call (id id\\u000aforged): line one\\u000a[mcp server] forged line");
    expect(line.split("\n")).toHaveLength(1);
    const long = R.describeCancellation("client", { type: "ignored", cause: "unknown-request", requestId: "r".repeat(1e6), reason: "z".repeat(1e6) });
    expect(long.length).toBeLessThan(600);
  });
});

describe("defect 2: a throwing logger or onCancellation never escapes and never leaves a call pending", () => {
  const hostile = {
    logger: () => {
      throw new Error("logger broke");
    },
    onCancellation: () => {
      throw new Error("observer broke");
    },
  };

  it("an aborted call still rejects with RequestCancelledError, sends its cancel and leaves nothing in flight", async () => {
    const { client, wire } = await clientWithRawPeer(hostile);
    const ac = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: ac.signal });
    await settle();
    ac.abort("stop");
    await expect(call).rejects.toBeInstanceOf(R.RequestCancelledError);
    await settle();
    expect(wire.cancels()).toEqual([cancelled(1, "stop")]);
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("a timed-out call still rejects with RequestTimeoutError", async () => {
    const { client, wire } = await clientWithRawPeer(hostile);
    await expect(client.callTool({ name: "slow" }, { timeoutMs: 5 })).rejects.toBeInstanceOf(R.RequestTimeoutError);
    await settle();
    expect(wire.cancels()).toEqual([cancelled(1, "Request timed out after 5 ms")]);
    expect(client.inFlight.sent).toBe(0);
  });

  it("a received cancel still aborts the handler and suppresses the response; a throwing onError is contained too", async () => {
    const started = deferred<AbortSignal>();
    const { wire, peer } = await serverWithRawPeer({
      ...hostile,
      onError: () => {
        throw new Error("onError broke");
      },
      handlers: {
        "tools/call": async (_params, ctx) => {
          started.resolve(ctx.signal);
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
          return { content: [] };
        },
      },
    });
    // The transport calls onmessage synchronously: whatever the callbacks throw must not reach it.
    const deliver = (message: unknown) => wire.onmessage?.(message as JsonRpcMessage);
    deliver({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t" } });
    const signal = await started.promise;
    expect(() => deliver(cancelled(7, "enough"))).not.toThrow();
    expect(signal.aborted).toBe(true);
    // A response to an unknown id with a broken error member reaches the throwing onError.
    expect(() => deliver({ jsonrpc: "2.0", id: 99, error: "denied" })).not.toThrow();
    expect(() => deliver(cancelled([[[]]]))).not.toThrow();
    deliver({ jsonrpc: "2.0", id: 8, method: "ping" });
    await settle();
    expect(peer.received).toEqual([{ jsonrpc: "2.0", id: 8, result: {} }]);
  });
});

describe("the cancel goes out before the call rejects", () => {
  it("a caller that closes the connection as soon as its aborted call rejects does not lose the cancel", async () => {
    const started = deferred<AbortSignal>();
    const { client, serverEvents } = await connectPair({
      server: { handlers: { "tools/call": async (_params, ctx) => (started.resolve(ctx.signal), await aborted(ctx.signal), { content: [] }) } },
    });
    const ac = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: ac.signal });
    const signal = await started.promise;
    // The caller is already waiting when the abort comes: its continuation is the first
    // microtask after the rejection.
    const closing = (async () => {
      try {
        await call;
      } catch {
        await client.close();
      }
    })();
    ac.abort("user pressed stop");
    await closing;
    await settle();
    expect(signal.reason).toBe("user pressed stop");
    expect(serverEvents).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason: "user pressed stop" }]);
  });

  it("a transport whose closeRequestStream throws: the call still rejects, the failure goes to onError", async () => {
    const [a, b] = S.createInMemoryTransportPair();
    const errors: Error[] = [];
    const client = new S.McpClient({ logger: null, onError: (e) => errors.push(e) });
    a.closeRequestStream = () => {
      throw new Error("stream table broke");
    };
    const server = new S.McpServer({ logger: null, handlers: { "tools/call": async (_p, ctx) => (await aborted(ctx.signal), { resultType: "complete", content: [] }) } });
    await server.connect(b);
    await client.connect(a);
    const ac = new AbortController();
    const call = client.callTool({ name: "t" }, { signal: ac.signal });
    await settle();
    ac.abort("stop");
    await expect(call).rejects.toBeInstanceOf(S.RequestCancelledError);
    expect(errors.map((e) => e.message)).toEqual(["stream table broke"]);
  });
});

describe("defect 3: a result that cannot be serialised still gets an answer", () => {
  async function serverOverJson(handlers: R.McpServerOptions["handlers"]) {
    const [a, b] = R.createInMemoryTransportPair();
    const errors: Error[] = [];
    const server = new R.McpServer({ logger: null, handlers, onError: (e) => errors.push(e) });
    const received: JsonRpcMessage[] = [];
    b.onmessage = (m) => received.push(m);
    await b.start();
    await server.connect(new JsonTransport(a));
    return { peer: b, received, errors };
  }

  it.each([
    ["a BigInt", () => ({ content: [], n: 1n })],
    ["a cycle", () => ({ content: [], loop: circular() })],
    ["nesting too deep for JSON", () => ({ content: [], deep: nested(1_000_000) })],
  ])("a result holding %s is answered with -32603, and the failure goes to onError", async (_name, make) => {
    const { peer, received, errors } = await serverOverJson({ "tools/call": () => make() as unknown as R.CallToolResult });
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } });
    await settle();
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: the response could not be sent" } }]);
    expect(errors).toHaveLength(1);
  });

  it("an McpError whose data cannot be serialised is answered with -32603 too", async () => {
    const { peer, received } = await serverOverJson({
      "tools/call": () => {
        throw new R.McpError(-32000, "custom", { big: 2n });
      },
    });
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } });
    await settle();
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: the response could not be sent" } }]);
  });

  it("a thrown value whose message getter throws becomes a plain -32603", async () => {
    const hostileError = new Error("x");
    Object.defineProperty(hostileError, "message", {
      get() {
        throw new Error("nope");
      },
    });
    const { peer, received } = await serverOverJson({
      "tools/call": () => {
        throw hostileError;
      },
    });
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } });
    await settle();
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } }]);
  });
});

describe("defect 4: handler tables use own properties only", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__"])(
    "a request with method %s gets -32601 Method not found",
    async (method) => {
      const { peer } = await serverWithRawPeer({ handlers: { "tools/call": () => ({ content: [] }) } });
      await peer.send({ jsonrpc: "2.0", id: 1, method, params: { a: 1 } });
      await peer.send({ jsonrpc: "2.0", method, params: { a: 1 } }); // as a notification: nothing
      await settle();
      expect(peer.received).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32601, message: `Method not found: ${method}` } }]);
    },
  );

  it("a client's handler table behaves the same", async () => {
    const { peer } = await clientWithRawPeer();
    await peer.send({ jsonrpc: "2.0", id: "c", method: "constructor" });
    await settle();
    expect(peer.received).toEqual([{ jsonrpc: "2.0", id: "c", error: { code: -32601, message: "Method not found: constructor" } }]);
  });
});

describe("defect 5: a malformed response rejects the call with InvalidResponseError", () => {
  it.each([
    ["error is a string", { error: "denied" }, 'error must be an object, got "denied"'],
    ["error.code is a string", { error: { code: "E1", message: "m" } }, 'error.code must be an integer, got "E1"'],
    ["error.code is not an integer", { error: { code: 1.5, message: "m" } }, "error.code must be an integer, got 1.5"],
    ["error.message is missing", { error: { code: -1 } }, "error.message must be a string, got undefined"],
    ["result is a number", { result: 5 }, "result must be an object, got 5"],
    ["result is null", { result: null }, "result must be an object, got null"],
    ["result is an array", { result: [] }, "result must be an object, got an array"],
    ["both result and error", { result: {}, error: { code: 1, message: "m" } }, "it has both result and error"],
  ])("%s", async (_name, body, problem) => {
    const errors: Error[] = [];
    const { client, peer } = await clientWithRawPeer({ onError: (e) => errors.push(e) });
    const other = client.ping();
    const call = client.callTool({ name: "t" });
    await settle();
    await peer.send({ jsonrpc: "2.0", id: 2, ...body });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.InvalidResponseError);
    expect(error).toMatchObject({ name: "InvalidResponseError", method: "tools/call", requestId: 2, message: `invalid response to tools/call (id 2): ${problem}` });
    expect(errors).toEqual([error]);
    // The other call is untouched and still gets its own result.
    expect(client.inFlight.sent).toBe(1);
    await peer.send({ jsonrpc: "2.0", id: 1, result: {} });
    await expect(other).resolves.toEqual({});
  });
});

describe("defect 6: timeout values the platform cannot arm", () => {
  it.each([
    ["Infinity", Number.POSITIVE_INFINITY],
    ["0", 0],
    ["2^31", 2 ** 31],
    ["2^40", 2 ** 40],
  ])("timeoutMs %s: no cancel after 30 ms, no TimeoutOverflowWarning, the response still resolves", async (_name, value) => {
    const { client, wire, peer } = await clientWithRawPeer();
    const call = client.callTool({ name: "t" }, { timeoutMs: value, maxTotalTimeoutMs: value });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(wire.cancels()).toEqual([]);
    expect(client.inFlight.sent).toBe(1);
    await peer.send({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    await expect(call).resolves.toEqual({ content: [] });
    expect(warnings).toEqual([]);
  });

  it.each([
    ["negative", -5],
    ["NaN", Number.NaN],
  ])("timeoutMs %s is a usage error: RangeError, nothing on the wire", async (_name, value) => {
    const { client, wire } = await clientWithRawPeer();
    await expect(client.callTool({ name: "t" }, { timeoutMs: value })).rejects.toThrow(RangeError);
    await expect(client.callTool({ name: "t" }, { maxTotalTimeoutMs: value })).rejects.toThrow(/maxTotalTimeoutMs must be an integer ≥ 1 or 0 \(off\) or Infinity \(no bound\), got /);
    await settle();
    expect(wire.sent).toEqual([]);
    expect(client.inFlight.sent).toBe(0);
  });

  it("a client whose defaults cannot be armed fails at construction", () => {
    expect(() => new R.McpClient({ defaultTimeoutMs: -1 })).toThrow(/defaultTimeoutMs must be/);
    expect(() => new R.McpClient({ defaultMaxTotalTimeoutMs: Number.NaN })).toThrow(/defaultMaxTotalTimeoutMs must be/);
  });

  it("2026-07-28: defaultTimeoutMs Infinity (or 0) turns the 60 s default off", async () => {
    for (const off of [Number.POSITIVE_INFINITY, 0]) {
      const [a, b] = S.createInMemoryTransportPair();
      const wire = new TapTransport(a as Transport);
      const client = new S.McpClient({ logger: null, defaultTimeoutMs: off, defaultMaxTotalTimeoutMs: off });
      // Slower than the 1 ms after which an unarmable timer would fire.
      const server = new S.McpServer({
        logger: null,
        handlers: { "tools/call": async () => (await new Promise((resolve) => setTimeout(resolve, 25)), { resultType: "complete", content: [] }) },
      });
      await server.connect(b);
      await client.connect(wire as S.Transport);
      // Every 2026-07-28 result identifies the server in its _meta (basic/index, per-response fields).
      await expect(client.callTool({ name: "t" })).resolves.toEqual({ resultType: "complete", content: [], _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-server", version: "0.0.0" } } });
      expect(wire.cancels()).toEqual([]);
    }
    expect(warnings).toEqual([]);
  });
});

describe("one abort listener per shared signal", () => {
  it("20 concurrent calls on one signal: one listener, no MaxListenersExceededWarning, 20 cancels on abort, none left after", async () => {
    const { client, wire } = await clientWithRawPeer();
    const ac = new AbortController();
    const calls = Array.from({ length: 20 }, (_, i) => client.callTool({ name: `t${i}` }, { signal: ac.signal }).catch((e: unknown) => e));
    await settle();
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(1);
    ac.abort("all of them");
    const outcomes = await Promise.all(calls);
    expect(outcomes.every((e) => e instanceof R.RequestCancelledError)).toBe(true);
    await settle();
    expect(wire.cancels()).toEqual(Array.from({ length: 20 }, (_, i) => cancelled(i + 1, "all of them")));
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
    expect(warnings).toEqual([]);
  });

  it("the listener stays while any request on the signal is pending, and goes with the last", async () => {
    const { client, peer } = await clientWithRawPeer();
    const ac = new AbortController();
    const first = client.ping({ signal: ac.signal });
    const second = client.ping({ signal: ac.signal });
    await settle();
    await peer.send({ jsonrpc: "2.0", id: 1, result: {} });
    await first;
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(1);
    await peer.send({ jsonrpc: "2.0", id: 2, result: {} });
    await second;
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
  });

  it("a request that times out on a shared signal removes itself (100 timeouts leave no listener)", async () => {
    const { client } = await clientWithRawPeer();
    const ac = new AbortController();
    const calls = Array.from({ length: 100 }, () => client.ping({ signal: ac.signal, timeoutMs: 1 }).catch((e: unknown) => e));
    const outcomes = await Promise.all(calls);
    expect(outcomes.every((e) => e instanceof R.RequestTimeoutError)).toBe(true);
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
  });
});
