/**
 * The 2026-07-28 rules at the wire level: no initialize, `_meta` filled on every request, only
 * the client cancels, the server ends nothing but subscriptions/listen, stream-close cancel on
 * transports with a stream per request and a notification on stdio, default timeouts and a
 * hard cap, and a client disconnect aborting every handler of the server.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import type { CancellationEvent, JsonRpcMessage, RequestId, Transport } from "../../../generated/2026-07-28/index.js";
import { StdioTransport } from "../../../generated/2026-07-28/stdio.js";
import { META_KEYS } from "../../../helpers/fixtures.js";
import { aborted, deferred, settle, TapTransport, type WireRequest } from "../../../helpers/harness.js";

const LISTEN = { notifications: { toolsListChanged: true } };
const CALL_RESULT: R.CallToolResult = { resultType: "complete", content: [] };
/** CALL_RESULT as the client receives it: the server identifies itself in every result's _meta. */
const CALL_RECEIVED = { ...CALL_RESULT, _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-server", version: "0.0.0" } } };

type ServerHandlers = NonNullable<R.McpServerOptions["handlers"]>;

/** A 2026-07-28 client and server over an in-memory pair, both wires tapped. */
async function pair(options: { client?: R.McpClientOptions; handlers?: ServerHandlers; wrap?: (t: [Transport, Transport]) => [Transport, Transport] } = {}) {
  const [a, b] = (options.wrap ?? ((t) => t))(R.createInMemoryTransportPair());
  const clientWire = new TapTransport(a);
  const serverWire = new TapTransport(b);
  const clientEvents: CancellationEvent[] = [];
  const serverEvents: CancellationEvent[] = [];
  const client = new R.McpClient({ logger: null, onCancellation: (e) => clientEvents.push(e), ...options.client });
  const server = new R.McpServer({ logger: null, onCancellation: (e) => serverEvents.push(e), handlers: options.handlers });
  await server.connect(serverWire);
  await client.connect(clientWire, { initialize: false });
  return { client, server, clientWire, serverWire, clientEvents, serverEvents };
}

const requestsOn = (wire: TapTransport) => wire.sent.filter((m): m is WireRequest => "method" in m && "id" in m);

afterEach(() => {
  vi.useRealTimers();
});

describe("stateless lifecycle: no initialize, `_meta` on every request", () => {
  it("the first message on the wire is the request itself, and it carries the client's version, capabilities and info", async () => {
    const { client, clientWire } = await pair({
      client: { clientInfo: { name: "c", version: "2" }, capabilities: { roots: {} } },
      handlers: { "tools/call": () => CALL_RESULT },
    });
    expect("initialize" in client).toBe(false);
    await client.callTool({ name: "t" });
    expect(clientWire.sent[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "t",
        _meta: {
          [META_KEYS.protocolVersion]: "2026-07-28",
          [META_KEYS.clientCapabilities]: { roots: {} },
          [META_KEYS.clientInfo]: { name: "c", version: "2" },
        },
      },
    });
  });

  it("fills `_meta` for params-less methods, keeps the caller's own keys over the defaults, and merges the progress token", async () => {
    const { client, clientWire } = await pair({
      handlers: { "server/discover": () => ({ resultType: "complete", capabilities: {}, serverInfo: { name: "s", version: "1" }, supportedVersions: ["2026-07-28"], cacheScope: "private", ttlMs: 0 }), "tools/call": () => CALL_RESULT },
    });
    await client.discover().catch(() => undefined);
    await client.callTool({ name: "t", _meta: { [META_KEYS.protocolVersion]: "2099-01-01", custom: 1 } as never }, { onProgress: () => {} });
    const [discover, call] = requestsOn(clientWire);
    // No clientInfo configured: only the required keys, capabilities default to none.
    expect(discover!.params).toEqual({ _meta: { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: {} } });
    expect(call!.params?.["_meta"]).toEqual({ [META_KEYS.protocolVersion]: "2099-01-01", [META_KEYS.clientCapabilities]: {}, custom: 1, progressToken: 2 });
  });

  it("a server answers initialize, which this revision does not have, with method not found", async () => {
    const { serverWire } = await pair();
    await serverWire.inner.onmessage!({ jsonrpc: "2.0", id: 9, method: "initialize", params: {} });
    await settle();
    expect(serverWire.sent).toEqual([{ jsonrpc: "2.0", id: 9, error: { code: -32601, message: "Method not found: initialize" } }]);
  });
});

describe("only the client cancels; the server ends only subscriptions/listen", () => {
  it("the server ends a subscription: one notifications/cancelled with the listen request's id, no response, the client's listen settles and nothing else aborts", async () => {
    const callStarted = deferred<AbortSignal>();
    const releaseCall = deferred();
    let listenSignal: AbortSignal | undefined;
    const { client, serverWire, clientEvents, serverEvents } = await pair({
      handlers: {
        "subscriptions/listen": async (_params, ctx) => {
          listenSignal = ctx.signal;
          await ctx.end("server shutting down");
          return { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "s" } };
        },
        "tools/call": async (_params, ctx) => {
          callStarted.resolve(ctx.signal);
          await releaseCall.promise;
          return CALL_RESULT;
        },
      },
    });
    const call = client.callTool({ name: "slow" });
    const callSignal = await callStarted.promise;
    const listen = client.subscriptionsListen(LISTEN).catch((e: unknown) => e);
    const ended = await listen;
    expect(ended).toBeInstanceOf(R.RequestEndedByPeerError);
    expect(ended).toMatchObject({ method: "subscriptions/listen", requestId: 2, reason: "server shutting down" });
    await settle();
    expect(listenSignal?.aborted).toBe(true);
    expect(serverWire.sent).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "server shutting down" } }]);
    expect(serverEvents).toEqual([{ type: "sent", requestId: 2, method: "subscriptions/listen", reason: "server shutting down", cause: "end" }]);
    expect(clientEvents).toEqual([{ type: "ended", requestId: 2, method: "subscriptions/listen", reason: "server shutting down" }]);
    // The other request of the client goes on.
    expect(callSignal.aborted).toBe(false);
    releaseCall.resolve();
    await expect(call).resolves.toEqual(CALL_RECEIVED);
  });

  it("ending anything else is refused at run time from untyped code, and nothing is sent", async () => {
    let refusal: unknown;
    const { client, serverWire } = await pair({
      handlers: {
        "tools/call": async (_params, ctx) => {
          refusal = await (ctx as unknown as R.HandlerContext).end("no").catch((e: unknown) => e);
          return CALL_RESULT;
        },
      },
    });
    await expect(client.callTool({ name: "t" })).resolves.toEqual(CALL_RECEIVED);
    expect(refusal).toBeInstanceOf(R.CancellationForbiddenError);
    expect(serverWire.cancels()).toEqual([]);
  });

  it("the client ignores and reports a server cancel naming any other request, which goes on", async () => {
    const release = deferred();
    const { client, serverWire, clientEvents } = await pair({ handlers: { "tools/call": async () => (await release.promise, CALL_RESULT) } });
    const call = client.callTool({ name: "t" });
    await settle();
    await serverWire.inner.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "server wants out" } });
    await settle();
    expect(clientEvents).toEqual([{ type: "ignored", cause: "not-permitted", requestId: 1, reason: "server wants out" }]);
    release.resolve();
    await expect(call).resolves.toEqual(CALL_RECEIVED);
  });

  it("a client cancel of its own subscriptions/listen is an ordinary cancel", async () => {
    const { client, clientWire, serverEvents } = await pair({
      handlers: { "subscriptions/listen": async (_params, ctx) => (await aborted(ctx.signal), { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "s" } }) },
    });
    const ac = new AbortController();
    const listen = client.subscriptionsListen(LISTEN, { signal: ac.signal }).catch((e: unknown) => e);
    await settle();
    ac.abort("done listening");
    expect(await listen).toBeInstanceOf(R.RequestCancelledError);
    await settle();
    expect(clientWire.cancels()).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "done listening" } }]);
    expect(serverEvents).toEqual([{ type: "received", requestId: 1, method: "subscriptions/listen", reason: "done listening" }]);
  });

  it("the server may not cancel requests it sends: a signal is refused before anything goes out", async () => {
    const { server, serverWire } = await pair();
    const untyped = server as unknown as { request(method: string, params: object, options: R.RequestOptions): Promise<unknown> };
    await expect(untyped.request("sampling/createMessage", {}, { signal: new AbortController().signal })).rejects.toBeInstanceOf(R.CancellationForbiddenError);
    expect(serverWire.sent).toEqual([]);
  });
});

/** An in-memory pair whose transports carry each request on its own stream, like Streamable HTTP. */
function withRequestStreams([a, b]: [Transport, Transport]): [Transport, Transport] {
  const closed: RequestId[] = [];
  const open = new Set<RequestId>();
  const send = a.send.bind(a);
  a.send = (message: JsonRpcMessage, options) => {
    if ("method" in message && "id" in message) open.add(message.id);
    return send(message, options);
  };
  a.closeRequestStream = (id) => {
    if (!open.delete(id)) return false;
    closed.push(id);
    queueMicrotask(() => b.onrequeststreamclose?.(id));
    return true;
  };
  Object.assign(a, { closedStreams: closed });
  return [a, b];
}

describe("how the cancel is signalled depends on the transport", () => {
  it("on a transport with a stream per request, closing the stream is the cancel: no notification, the handler aborts, no response", async () => {
    const started = deferred<AbortSignal>();
    const { client, clientWire, serverWire, clientEvents, serverEvents } = await pair({
      wrap: withRequestStreams,
      handlers: { "tools/call": async (_p, ctx) => (started.resolve(ctx.signal), await aborted(ctx.signal), CALL_RESULT) },
    });
    const ac = new AbortController();
    const call = client.callTool({ name: "t" }, { signal: ac.signal }).catch((e: unknown) => e);
    const signal = await started.promise;
    ac.abort("stop");
    expect(await call).toBeInstanceOf(R.RequestCancelledError);
    await settle();
    expect(signal.aborted).toBe(true);
    expect(clientWire.cancels()).toEqual([]);
    expect((clientWire.inner as unknown as { closedStreams: RequestId[] }).closedStreams).toEqual([1]);
    expect(serverWire.sent).toEqual([]);
    expect(clientEvents).toEqual([{ type: "sent", requestId: 1, method: "tools/call", reason: "stop", cause: "abort", via: "stream-close" }]);
    expect(serverEvents).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason: "request stream closed" }]);
  });

  it("over stdio the client sends notifications/cancelled", async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const lines: string[] = [];
    toServer.on("data", (chunk: Buffer) => lines.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
    const started = deferred<AbortSignal>();
    const server = new R.McpServer({ logger: null, handlers: { "tools/call": async (_p, ctx) => (started.resolve(ctx.signal), await aborted(ctx.signal), CALL_RESULT) } });
    const client = new R.McpClient({ logger: null });
    await server.connect(new StdioTransport({ input: toServer, output: toClient }));
    await client.connect(new StdioTransport({ input: toClient, output: toServer }), { initialize: false });
    const ac = new AbortController();
    const call = client.callTool({ name: "t" }, { signal: ac.signal }).catch((e: unknown) => e);
    const signal = await started.promise;
    ac.abort("stop");
    expect(await call).toBeInstanceOf(R.RequestCancelledError);
    await aborted(signal);
    expect(JSON.parse(lines[1]!)).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "stop" } });
    await client.close();
    await server.close();
  });
});

describe("timeouts: a default and a hard cap, configurable per client and per request", () => {
  const slowServer = (): ServerHandlers => ({
    "tools/call": async (_p, ctx) => {
      // Progress every 50 s until cancelled.
      const timer = setInterval(() => void ctx.sendProgress(1), 50_000);
      await aborted(ctx.signal);
      clearInterval(timer);
      return CALL_RESULT;
    },
    "subscriptions/listen": async (_p, ctx) => (await aborted(ctx.signal), { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "s" } }),
  });

  it("a request that sets nothing times out after RULES.defaultTimeoutMs and is cancelled on the wire", async () => {
    vi.useFakeTimers();
    const { client, clientWire } = await pair({ handlers: slowServer() });
    const call = client.callTool({ name: "t" }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(R.RULES.defaultTimeoutMs - 1);
    expect(clientWire.cancels()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toBeInstanceOf(R.RequestTimeoutError);
    expect(clientWire.cancels()).toEqual([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: `Request timed out after ${R.RULES.defaultTimeoutMs} ms` } },
    ]);
  });

  it("resetting on progress is bounded by the default hard cap", async () => {
    vi.useFakeTimers();
    const { client } = await pair({ handlers: slowServer() });
    let outcome: unknown;
    void client.callTool({ name: "t" }, { onProgress: () => {}, resetTimeoutOnProgress: true }).catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(R.RULES.defaultMaxTotalTimeoutMs - 1);
    expect(outcome).toBeUndefined(); // progress kept resetting the 60 s timeout
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(R.RequestTimeoutError);
    expect(outcome).toMatchObject({ timeoutMs: R.RULES.defaultMaxTotalTimeoutMs });
  });

  it("the client's defaults override the revision's, and a request's own override the client's", async () => {
    vi.useFakeTimers();
    const { client } = await pair({ client: { defaultTimeoutMs: 1_000, defaultMaxTotalTimeoutMs: 5_000 }, handlers: slowServer() });
    const outcomes: Record<string, unknown> = {};
    void client.callTool({ name: "a" }).catch((e: unknown) => (outcomes["a"] = e));
    void client.callTool({ name: "b" }, { timeoutMs: 3_000 }).catch((e: unknown) => (outcomes["b"] = e));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(Object.keys(outcomes)).toEqual(["a"]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(outcomes["b"]).toMatchObject({ timeoutMs: 3_000 });
  });

  it("a subscription is long-lived: no default timeout or cap, unless the caller sets one", async () => {
    vi.useFakeTimers();
    const { client, clientWire } = await pair({ handlers: slowServer() });
    let outcome: unknown;
    void client.subscriptionsListen(LISTEN).catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(R.RULES.defaultMaxTotalTimeoutMs * 2);
    expect(outcome).toBeUndefined();
    expect(clientWire.cancels()).toEqual([]);
    void client.subscriptionsListen(LISTEN, { timeoutMs: 10 }).catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(10);
    expect(outcome).toBeInstanceOf(R.RequestTimeoutError);
  });
});

describe("a client disconnect cancels the client's requests", () => {
  it("every handler in flight on the server aborts and nothing is sent", async () => {
    const signals: AbortSignal[] = [];
    const { client, serverWire, server } = await pair({
      handlers: {
        "tools/call": async (_p, ctx) => (signals.push(ctx.signal), await aborted(ctx.signal), CALL_RESULT),
        "subscriptions/listen": async (_p, ctx) => (signals.push(ctx.signal), await aborted(ctx.signal), { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "s" } }),
      },
    });
    const pending = [client.callTool({ name: "a" }), client.callTool({ name: "b" }), client.subscriptionsListen(LISTEN)].map((p) => p.catch((e: unknown) => e));
    await settle();
    expect(signals).toHaveLength(3);
    expect(server.inFlight.received).toBe(3);
    await client.close();
    await settle();
    expect(signals.map((s) => s.aborted)).toEqual([true, true, true]);
    expect(server.inFlight.received).toBe(0);
    expect(serverWire.sent).toEqual([]);
    for (const outcome of await Promise.all(pending)) expect(outcome).toBeInstanceOf(R.ConnectionClosedError);
  });
});
