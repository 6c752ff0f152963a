/**
 * The receive path (Cancellation, Behavior Requirements 4-5, Error Handling, Implementation
 * Notes): a valid cancel aborts the handler's signal and suppresses the response; invalid ones
 * are ignored without any message to the peer and without disturbing anything else.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpError } from "../../generated/2025-11-25/index.js";
import { aborted, cancelled, connectPair, deferred, INITIALIZE_PARAMS, serverWithRawPeer, settle } from "../../helpers/harness.js";

/** A server whose tools/call handler runs until released or aborted. */
async function serverWithSlowTool(options: { throwOnAbort?: boolean } = {}) {
  const signals = new Map<unknown, AbortSignal>();
  const release = new Map<unknown, () => void>();
  const finished: unknown[] = [];
  const setup = await serverWithRawPeer({
    handlers: {
      "tools/call": async (params, ctx) => {
        signals.set(ctx.requestId, ctx.signal);
        const done = deferred();
        release.set(ctx.requestId, done.resolve);
        await Promise.race([done.promise, aborted(ctx.signal)]);
        finished.push(ctx.requestId);
        if (ctx.signal.aborted && options.throwOnAbort) throw new Error("aborted, cleaning up");
        return { content: [{ type: "text", text: `done ${params.name}` }] };
      },
    },
  });
  return { ...setup, signals, release, finished };
}

const call = (id: string | number, name = "t", extra: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, ...extra },
});

describe("a valid cancel", () => {
  it.each([false, true])("aborts ctx.signal with the reason, frees the entry, and sends no response (handler throws on abort: %s)", async (throwOnAbort) => {
    const { server, wire, peer, signals, events } = await serverWithSlowTool({ throwOnAbort });
    await peer.send(call(7));
    await settle();
    expect(server.inFlight.received).toBe(1);
    await peer.send(cancelled(7, "user pressed stop"));
    await settle();
    expect(signals.get(7)?.aborted).toBe(true);
    expect(signals.get(7)?.reason).toBe("user pressed stop");
    expect(server.inFlight.received).toBe(0);
    expect(wire.sent).toEqual([]);
    expect(events).toEqual([{ type: "received", requestId: 7, method: "tools/call", reason: "user pressed stop" }]);
  });

  it("a handler that first reads ctx.signal after the cancel arrived gets an already aborted signal with the reason", async () => {
    const gate = deferred();
    const seen: Array<{ aborted: boolean; reason: unknown }> = [];
    let late: AbortSignal | undefined;
    const { server, wire, peer, events } = await serverWithRawPeer({
      handlers: {
        "tools/call": async (_params, ctx) => {
          // Does not touch ctx.signal until the cancel has come and gone.
          await gate.promise;
          late = ctx.signal;
          seen.push({ aborted: late.aborted, reason: late.reason });
          return { content: [] };
        },
      },
    });
    await peer.send(call(3));
    await settle();
    await peer.send(cancelled(3, "stopped before you looked"));
    await settle();
    expect(events).toEqual([{ type: "received", requestId: 3, method: "tools/call", reason: "stopped before you looked" }]);
    gate.resolve();
    await settle();
    expect(seen).toEqual([{ aborted: true, reason: "stopped before you looked" }]);
    expect(late?.aborted).toBe(true);
    expect(server.inFlight.received).toBe(0);
    expect(wire.sent).toEqual([]); // a cancelled request gets no response
  });

  it("accepts string ids and a missing reason", async () => {
    const { wire, peer, signals } = await serverWithSlowTool();
    await peer.send(call("abc"));
    await settle();
    await peer.send(cancelled("abc"));
    await settle();
    expect(signals.get("abc")?.aborted).toBe(true);
    expect(wire.sent).toEqual([]);
  });
});

describe("ignored cancels: no message to the peer, nothing else disturbed", () => {
  const malformed: Array<[string, unknown]> = [
    ["params missing", { jsonrpc: "2.0", method: "notifications/cancelled" }],
    ["params not an object", { jsonrpc: "2.0", method: "notifications/cancelled", params: "1" }],
    ["params an array", { jsonrpc: "2.0", method: "notifications/cancelled", params: [1] }],
    ["requestId missing", { jsonrpc: "2.0", method: "notifications/cancelled", params: { reason: "x" } }],
    ["requestId a boolean", cancelled(true)],
    ["requestId a float", cancelled(1.5)],
    ["requestId an object", cancelled({ id: 1 })],
    ["requestId null", cancelled(null)],
    ["reason not a string", cancelled(1, 42)],
  ];

  it.each(malformed)("malformed: %s", async (_name, message) => {
    const { server, wire, peer, signals, release, events } = await serverWithSlowTool();
    await peer.send(call(1));
    await settle();
    await peer.send(message);
    await settle();
    expect(signals.get(1)?.aborted).toBe(false);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "ignored", cause: "malformed" });
    expect(wire.sent).toEqual([]);
    release.get(1)!();
    await settle();
    expect(wire.sent).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done t" }] } }]);
    expect(server.inFlight.received).toBe(0);
  });

  it("unknown ids, and ids of requests this side sent (same-direction rule)", async () => {
    const { server, wire, peer, signals, events } = await serverWithSlowTool();
    // The client's request has id 5, so no request the client sent has the id the server uses below.
    await peer.send(call(5));
    await settle();
    // The server sends a request of its own to the client; a cancel from the client naming that
    // id names a request the server sent, not one it received: the direction rule ignores it.
    const own = server.listRoots().then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await settle();
    const [ownRequest] = peer.requests("roots/list");
    const ownId = ownRequest!.id as number;
    expect(ownId).not.toBe(5);
    await peer.send(cancelled(99, "nope"));
    await peer.send(cancelled(ownId, "not yours"));
    await settle();
    expect(events).toEqual([
      { type: "ignored", cause: "unknown-request", requestId: 99, reason: "nope" },
      { type: "ignored", cause: "unknown-request", requestId: ownId, reason: "not yours" },
    ]);
    expect(signals.get(5)?.aborted).toBe(false);
    // The server's own request is not cancelled: still pending, nothing sent about it.
    expect(server.inFlight).toEqual({ sent: 1, received: 1 });
    expect(wire.sent.filter((m) => !("method" in m))).toEqual([]);
    expect(wire.sent.filter((m) => "method" in m && m.method === "notifications/cancelled")).toEqual([]);
    await peer.send({ jsonrpc: "2.0", id: ownId, result: { roots: [] } });
    await expect(own).resolves.toEqual({ result: { roots: [] } });
  });

  it("finished requests", async () => {
    const { wire, peer, release, events } = await serverWithSlowTool();
    await peer.send(call(1));
    await settle();
    release.get(1)!();
    await settle();
    expect(wire.sent).toHaveLength(1);
    await peer.send(cancelled(1, "too late"));
    await settle();
    expect(events).toEqual([{ type: "ignored", cause: "finished", requestId: 1, reason: "too late" }]);
    expect(wire.sent).toHaveLength(1);
  });

  it("initialize (the client MUST NOT cancel it; a server ignores such a cancel)", async () => {
    const init = deferred();
    let initSignal: AbortSignal | undefined;
    const { wire, peer, events } = await serverWithRawPeer({
      handlers: {
        initialize: async (_params, ctx) => {
          initSignal = ctx.signal;
          await init.promise;
          return { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } };
        },
      },
    });
    await peer.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE_PARAMS });
    await settle();
    await peer.send(cancelled(0, "please stop"));
    await settle();
    expect(initSignal?.aborted).toBe(false);
    expect(events).toEqual([{ type: "ignored", cause: "uncancellable", requestId: 0, reason: "please stop", method: "initialize" }]);
    init.resolve();
    await settle();
    expect(wire.responsesTo(0)).toHaveLength(1);
  });

  it("task-augmented requests (cancelled with tasks/cancel instead)", async () => {
    const { wire, peer, signals, release, events } = await serverWithSlowTool();
    await peer.send(call(5, "t", { task: { ttl: 1000 } }));
    await settle();
    await peer.send(cancelled(5, "wrong mechanism"));
    await settle();
    expect(signals.get(5)?.aborted).toBe(false);
    expect(events).toEqual([{ type: "ignored", cause: "task-augmented", requestId: 5, reason: "wrong mechanism", method: "tools/call" }]);
    release.get(5)!();
    await settle();
    expect(wire.responsesTo(5)).toHaveLength(1);
  });
});

describe("reporting and logging the reason (both sides SHOULD log)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("logs one line per event through logger, and the default logger writes to stderr, never stdout", async () => {
    const lines: string[] = [];
    const { peer } = await serverWithRawPeer({ logger: (line) => lines.push(line), handlers: { "tools/call": async (_p, ctx) => (await aborted(ctx.signal), { content: [] }) } });
    await peer.send(call(3));
    await settle();
    await peer.send(cancelled(3, "because"));
    await peer.send(cancelled(4));
    await settle();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("because");
    expect(lines[1]).toContain("unknown-request");

    const stderr = vi.spyOn(console, "error").mockImplementation(() => {});
    const stdout = vi.spyOn(process.stdout, "write");
    const log = vi.spyOn(console, "log");
    const pair = await connectPair({ server: { logger: undefined }, client: { logger: undefined } });
    const ac = new AbortController();
    const p = pair.client.ping({ signal: ac.signal }).catch(() => {});
    ac.abort("bye");
    await p;
    await settle();
    expect(stderr).toHaveBeenCalledTimes(2); // the client's "sent" line and the server's "finished"/"received" line
    expect(String(stderr.mock.calls[0]?.[0])).toContain("bye");
    expect(stdout).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it("logger: null is silent, and a throwing onCancellation does not break the connection", async () => {
    const stderr = vi.spyOn(console, "error").mockImplementation(() => {});
    const pair = await connectPair({
      server: { logger: null, onCancellation: () => { throw new Error("observer bug"); }, handlers: { "tools/call": async () => ({ content: [] }) } },
    });
    await pair.injectToServer(cancelled(12345));
    await settle();
    await expect(pair.client.callTool({ name: "still works" })).resolves.toEqual({ content: [] });
    expect(stderr).not.toHaveBeenCalled();
  });
});

describe("handler context", () => {
  it("a cancelled tools/call cancels the sampling/createMessage it started (ctx.request defaults to ctx.signal)", async () => {
    const samplingSignal = deferred<AbortSignal>();
    const pair = await connectPair({
      client: {
        handlers: {
          "sampling/createMessage": async (_params, ctx) => {
            samplingSignal.resolve(ctx.signal);
            await aborted(ctx.signal);
            return { role: "assistant", content: { type: "text", text: "never sent" }, model: "m" };
          },
        },
      },
      server: {
        handlers: {
          "tools/call": async (_params, ctx) => {
            await ctx.request("sampling/createMessage", { messages: [], maxTokens: 10 }).catch(() => {});
            return { content: [] };
          },
        },
      },
    });
    const ac = new AbortController();
    const toolCall = pair.client.callTool({ name: "uses sampling" }, { signal: ac.signal }).catch((e: unknown) => e);
    const signal = await samplingSignal.promise;
    ac.abort("stop everything");
    await toolCall;
    await settle();
    expect(signal.aborted).toBe(true);
    // The server cancelled its own sampling request (id 1 of the server), with the tool call's reason.
    expect(pair.serverWire.cancels()).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "stop everything" } }]);
    // Neither side answered a cancelled request.
    expect(pair.clientWire.responsesTo(1)).toEqual([]);
    expect(pair.serverWire.responsesTo(1)).toEqual([]);
    expect(pair.client.inFlight).toEqual({ sent: 0, received: 0 });
    expect(pair.server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("sendProgress sends progress with the request's token, and is a no-op without one", async () => {
    const { wire, peer } = await serverWithRawPeer({
      handlers: {
        "tools/call": async (_params, ctx) => {
          await ctx.sendProgress(1, 2, "half");
          return { content: [] };
        },
      },
    });
    await peer.send(call(1, "t", { _meta: { progressToken: "tok" } }));
    await peer.send(call(2));
    await settle();
    // Request 2 has no progressToken: its handler's sendProgress sends nothing.
    expect(wire.sent).toHaveLength(3);
    expect(wire.sent[0]).toEqual({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 2, message: "half" } });
    expect(wire.responsesTo(1)).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [] } }]);
    expect(wire.responsesTo(2)).toEqual([{ jsonrpc: "2.0", id: 2, result: { content: [] } }]);
  });

  it("carries requestId, method and _meta", async () => {
    const seen = deferred<unknown>();
    const { peer } = await serverWithRawPeer({
      handlers: { "tools/call": (_p, ctx) => (seen.resolve({ id: ctx.requestId, method: ctx.method, meta: ctx._meta }), { content: [] }) },
    });
    await peer.send(call("r1", "t", { _meta: { k: "v" } }));
    expect(await seen.promise).toEqual({ id: "r1", method: "tools/call", meta: { k: "v" } });
  });
});

describe("dispatch", () => {
  it("answers -32601 for a method without handler, and ping by default", async () => {
    const { wire, peer } = await serverWithRawPeer();
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    await peer.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await settle();
    expect(wire.sent).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found: tools/list" } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("a throwing handler becomes an error response: McpError keeps its code, anything else is -32603", async () => {
    const { wire, peer } = await serverWithRawPeer({
      handlers: {
        "tools/call": (params) => {
          if (params.name === "mcp") throw new McpError(-32602, "bad arguments", { field: "x" });
          throw new Error("boom");
        },
      },
    });
    await peer.send(call(1, "mcp"));
    await peer.send(call(2, "other"));
    await settle();
    expect(wire.sent).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad arguments", data: { field: "x" } } },
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "boom" } },
    ]);
  });

  it("refuses a request that omits params its schema requires with -32602, before any handler runs; optional params may be omitted", async () => {
    const ran: string[] = [];
    const { wire, peer } = await serverWithRawPeer({
      handlers: {
        "tools/call": (params) => (ran.push(params.name), { content: [] }),
        "tools/list": () => (ran.push("list"), { tools: [] }),
      },
    });
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call" });
    await peer.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await peer.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "t" } });
    await settle();
    expect(ran).toEqual(["list", "t"]);
    expect(wire.sent).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params: tools/call requires params" } },
      { jsonrpc: "2.0", id: 2, result: { tools: [] } },
      { jsonrpc: "2.0", id: 3, result: { content: [] } },
    ]);
  });
});
