/**
 * McpServer.openConnection: one server, many connections at once (in-memory pairs here; the HTTP
 * handler opens one per POST). Connections share the server's prepared handler tables, have their
 * own requests in flight, close on their own, and close with the server; connect() is unchanged.
 */
import { describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import * as L from "../../../generated/2025-11-25/index.js";
import { abortOf, deferred } from "./support.js";

const DONE: R.CallToolResult = { resultType: "complete", content: [] };

/** A server whose tools/call hands its signal to the test and waits for it (or for `release`). */
function waitingServer(options: R.McpServerOptions = {}) {
  const started: AbortSignal[] = [];
  const waiting = deferred<void>();
  let expected = 0;
  const server = new R.McpServer({
    logger: null,
    handlers: {
      "tools/call": async (params, ctx) => {
        if (params.name === "echo") return { resultType: "complete", content: [{ type: "text", text: "echo" }] };
        started.push(ctx.signal);
        if (started.length === expected) waiting.resolve();
        await abortOf(ctx.signal);
        return DONE;
      },
    },
    ...options,
  });
  return {
    server,
    started,
    /** Resolves when `n` handlers are waiting. */
    whenWaiting(n: number) {
      expected = n;
      if (started.length >= n) waiting.resolve();
      return waiting.promise;
    },
  };
}

async function client(server: R.McpServer) {
  const [a, b] = R.createInMemoryTransportPair();
  const connection = server.openConnection(b);
  const c = new R.McpClient({ logger: null });
  await c.connect(a, { initialize: false });
  return { client: c, connection, clientEnd: a };
}

describe("openConnection", () => {
  it("serves several clients at once, each on its own connection; inFlight counts them all; the same request id on two connections is two requests", async () => {
    const w = waitingServer();
    const one = await client(w.server);
    const two = await client(w.server);
    const calls = [one.client.callTool({ name: "slow" }).catch((e: unknown) => e), two.client.callTool({ name: "slow" }).catch((e: unknown) => e)];
    await w.whenWaiting(2);
    // Both clients numbered their request 1: ids are unique per connection only.
    expect(one.connection.inFlight).toEqual({ sent: 0, received: 1 });
    expect(two.connection.inFlight).toEqual({ sent: 0, received: 1 });
    expect(w.server.inFlight).toEqual({ sent: 0, received: 2 });
    await expect(one.client.callTool({ name: "echo" })).resolves.toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "echo" }],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-server", version: "0.0.0" } },
    });

    await one.connection.close();
    expect(await abortOf(w.started[0]!)).toBe("Connection closed");
    expect(w.started[1]!.aborted).toBe(false);
    expect(w.server.inFlight).toEqual({ sent: 0, received: 1 });
    expect(await calls[0]).toBeInstanceOf(R.ConnectionClosedError);

    await w.server.close();
    expect(await abortOf(w.started[1]!)).toBe("Connection closed");
    expect(w.server.inFlight).toEqual({ sent: 0, received: 0 });
    expect(await calls[1]).toBeInstanceOf(R.ConnectionClosedError);
  });

  it("connect() keeps working beside opened connections, and close() closes both", async () => {
    const w = waitingServer();
    const [a, b] = R.createInMemoryTransportPair();
    await w.server.connect(b);
    const primary = new R.McpClient({ logger: null });
    await primary.connect(a, { initialize: false });
    const other = await client(w.server);
    const calls = [primary.callTool({ name: "slow" }).catch((e: unknown) => e), other.client.callTool({ name: "slow" }).catch((e: unknown) => e)];
    await w.whenWaiting(2);
    expect(w.server.inFlight).toEqual({ sent: 0, received: 2 });
    await w.server.close();
    expect(await Promise.all(w.started.map(abortOf))).toEqual(["Connection closed", "Connection closed"]);
    expect(await calls[0]).toBeInstanceOf(R.ConnectionClosedError);
    expect(await calls[1]).toBeInstanceOf(R.ConnectionClosedError);
    expect(w.server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("a connection the client closes leaves the server's set: nothing is held for it", async () => {
    const w = waitingServer();
    const c = await client(w.server);
    const call = c.client.callTool({ name: "slow" }).catch((e: unknown) => e);
    await w.whenWaiting(1);
    await c.client.close();
    expect(await abortOf(w.started[0]!)).toBe("Connection closed");
    expect(await call).toBeInstanceOf(R.ConnectionClosedError);
    expect(w.server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("connections share the server's prepared tables: the handler table is read when the server is made, never per connection", async () => {
    let reads = 0;
    const handlers = {
      get "tools/call"() {
        reads++;
        return () => DONE;
      },
    };
    const server = new R.McpServer({ logger: null, handlers });
    const after = reads;
    expect(after).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) {
      const c = await client(server);
      await expect(c.client.callTool({ name: "t" })).resolves.toMatchObject(DONE);
      await c.connection.close();
    }
    expect(reads).toBe(after);
  });

  it("every connection gets the server's options: onCancellation hears a cancel on any of them, with that connection's ids", async () => {
    const events: R.CancellationEvent[] = [];
    const w = waitingServer({ onCancellation: (e) => events.push(e) });
    const one = await client(w.server);
    const ac = new AbortController();
    const call = one.client.callTool({ name: "slow" }, { signal: ac.signal }).catch((e: unknown) => e);
    await w.whenWaiting(1);
    ac.abort("stop");
    expect(await call).toBeInstanceOf(R.RequestCancelledError);
    expect(await abortOf(w.started[0]!)).toBe("stop");
    expect(events).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason: "stop" }]);
  });

  it("a connection keeps the revision's default timeouts for the server's own requests", async () => {
    vi.useFakeTimers();
    try {
      const outcome = deferred<unknown>();
      const server = new R.McpServer({
        logger: null,
        handlers: {
          "tools/call": async (_p, ctx) => {
            const untyped = ctx as unknown as { request(method: string, params: object): Promise<unknown> };
            outcome.resolve(await untyped.request("x/never-answered", {}).catch((e: unknown) => e));
            return DONE;
          },
        },
      });
      const [a, b] = R.createInMemoryTransportPair();
      server.openConnection(b);
      // A raw peer that never answers the server's request.
      const sent: unknown[] = [];
      a.onmessage = (m) => sent.push(m);
      await a.start();
      await a.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } });
      await vi.advanceTimersByTimeAsync(R.RULES.defaultTimeoutMs);
      const error = await outcome.promise;
      expect(error).toBeInstanceOf(R.RequestTimeoutError);
      expect((error as R.RequestTimeoutError).timeoutMs).toBe(R.RULES.defaultTimeoutMs);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a transport whose start fails: the connection closes and the failure goes to onError", async () => {
    const errors: Error[] = [];
    const server = new R.McpServer({ logger: null, onError: (e) => errors.push(e) });
    let closed = 0;
    const connection = server.openConnection({
      start: () => Promise.reject(new Error("no start")),
      send: () => Promise.resolve(),
      close: () => (closed++, Promise.resolve()),
    });
    await vi.waitFor(() => expect(closed).toBe(1));
    expect(errors.map((e) => e.message)).toEqual(["no start"]);
    expect(connection.inFlight).toEqual({ sent: 0, received: 0 });
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("exists on the servers of earlier revisions too (2025-11-25: initialize per connection)", async () => {
    const server = new L.McpServer({ logger: null, serverInfo: { name: "legacy", version: "1" } });
    const [a, b] = L.createInMemoryTransportPair();
    const connection = server.openConnection(b);
    const c = new L.McpClient({ logger: null });
    await c.connect(a, { initialize: false });
    const init = await c.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } });
    expect(init.serverInfo).toEqual({ name: "legacy", version: "1" });
    await expect(c.ping()).resolves.toEqual({});
    await connection.close();
  });
});
