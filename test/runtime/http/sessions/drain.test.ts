/**
 * Issue 44, item 3: the session handler's graceful drain, close({ drainMs }), over a real
 * node:http server on loopback, on both faces. From the start every new request is refused with
 * 503, Retry-After and Connection: close (a load balancer, or the client, sends it again to
 * another instance); a request in flight finishes; the GET stream ends at once with a `retry`
 * hint; a request still unanswered at the deadline is 503 when the session lives on in a
 * registry (another instance continues it), not the 404 that would tell its client to start
 * over; drainMs is validated.
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { deferred, describeFaces, getStream, open, rawRequest, rpc, serve, sessionHeaders, type Served } from "./support.js";

/** A server whose `slow` tool waits for release() (or its abort); `started` resolves when it runs. */
function gated() {
  const gate = deferred<void>();
  const started = deferred<void>();
  const options: R.McpServerOptions = {
    handlers: {
      "tools/call": async (params, ctx) => {
        if (params.name === "slow") {
          started.resolve();
          await Promise.race([gate.promise, new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }))]);
        }
        return { content: [{ type: "text", text: `${params.name} done` }] };
      },
    },
  };
  return { options, started: started.promise, release: () => gate.resolve() };
}

/** A raw request in the session on a connection of its own: what a load balancer would see. */
function rawPing(url: string, sessionId: string) {
  const target = new URL(url);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 99, method: "ping" });
  const headers = Object.entries({ ...sessionHeaders(sessionId), host: target.host, "content-length": String(body.length) }).map(([name, value]) => `${name}: ${value}`);
  return rawRequest(url, [`POST ${target.pathname} HTTP/1.1`, ...headers], body);
}

describeFaces("the session handler's close({ drainMs })", (face) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("lets a request in flight finish while every new request is refused with 503, Retry-After and Connection: close", async () => {
    const g = gated();
    served = await serve(face, g.options);
    const { sessionId } = await open(served.url);
    const inFlight = rpc(served.url, sessionId, 1, "tools/call", { name: "slow", arguments: {} });
    await g.started;
    const closing = served.handler.close({ drainMs: 30_000 });
    expect(served.handler.draining).toBe(true);

    const refused = await rawPing(served.url, sessionId);
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.headers["connection"]).toBe("close");
    expect(JSON.parse(refused.body)).toMatchObject({ id: 99, error: { code: -32603 } });
    // No new session either, and no GET stream.
    expect((await rpc(served.url, undefined, 2, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "late", version: "1" } })).status).toBe(503);
    expect((await getStream(served.url, sessionId)).status).toBe(503);

    g.release();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.text).toContain("slow done");
    // toNodeListener's native face closes the connection of a response written while its handler drains.
    if (face === "native") expect(answered.headers.get("connection")).toBe("close");
    await closing;
    expect(served.handler.sessionCount).toBe(0);
  });

  it("ends the GET stream at once with a retry hint, and waits for nothing else", async () => {
    served = await serve(face, {}, { retryMs: 250 });
    const { sessionId } = await open(served.url);
    const get = await getStream(served.url, sessionId);
    expect(get.status).toBe(200);
    expect((await get.next())?.retry).toBe("250"); // the priming event
    await served.handler.close({ drainMs: 30_000 });
    const rest = await get.rest();
    expect(rest.at(-1)).toEqual({ id: undefined, retry: "250", data: "" });
  });

  it("with a registry the session lives on: a request unanswered at the deadline is 503 with Retry-After, not 404, and the record stays", async () => {
    const registry = new R.InMemorySessionRegistry();
    const g = gated();
    served = await serve(face, g.options, { sessionRegistry: registry });
    const { sessionId } = await open(served.url);
    const inFlight = rpc(served.url, sessionId, 1, "tools/call", { name: "slow", arguments: {} });
    await g.started;
    await served.handler.close({ drainMs: 50 });
    const answered = await inFlight;
    expect(answered.status).toBe(503);
    expect(answered.headers.get("retry-after")).toBe("1");
    expect(answered.text).not.toContain("Session not found");
    expect(registry.load(sessionId)).toMatchObject({ sessionId, protocolVersion: "2025-11-25" });
  });

  it("without a registry the session is over with this server: the unanswered request is 404, as for any ended session", async () => {
    const g = gated();
    served = await serve(face, g.options);
    const { sessionId } = await open(served.url);
    const inFlight = rpc(served.url, sessionId, 1, "tools/call", { name: "slow", arguments: {} });
    await g.started;
    await served.handler.close({ drainMs: 0 });
    expect((await inFlight).status).toBe(404);
  });

  it("validates drainMs (a RangeError naming it) before anything closes", async () => {
    served = await serve(face);
    for (const drainMs of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, "100"]) {
      expect(() => served!.handler.close({ drainMs: drainMs as number }), String(drainMs)).toThrow(RangeError);
      expect(() => served!.handler.close({ drainMs: drainMs as number })).toThrow(/drainMs/);
    }
    expect(() => served!.handler.close(5 as never)).toThrow(TypeError);
    expect(served.handler.draining).toBe(false);
    const { sessionId } = await open(served.url);
    expect((await rpc(served.url, sessionId, 1, "ping")).status).toBe(200);
  });
});
