/**
 * Session Management of the 2025-era Streamable HTTP server (createSessionHttpHandler), on both
 * faces of the handler: the `Mcp-Session-Id` from initialize, 400 without it, 404 for an unknown,
 * ended or foreign session, DELETE, the bounds on sessions and idle time (a busy session outlives
 * it), principals (authenticate before the body, and before the 400/404 of GET and DELETE), the
 * stateless mode (405 for GET and DELETE), the envelope's exact refusals, and the option checks.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { deferred, deleteSession, getStream, open, post, POST_HEADERS, rpc, send, serve, sessionHeaders, text, waitFor, within, rawRequest, type Served, describeFaces } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const echo: R.McpServerOptions = {
  handlers: { "tools/call": (params, ctx) => text(`${params.name} by ${ctx.principal?.id ?? "nobody"} in ${ctx.http?.headers.get("mcp-session-id") ?? "no session"}`) },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeFaces("sessions", (face) => {
  it("initialize opens a session with a random id; its requests are served in it", async () => {
    served = await serve(face, echo);
    const a = await open(served.url);
    const b = await open(served.url);
    expect(a.sessionId).toMatch(UUID);
    expect(b.sessionId).toMatch(UUID);
    expect(a.sessionId).not.toBe(b.sessionId);
    expect(a.answer.json).toMatchObject({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25" } });
    const answer = await rpc(served.url, a.sessionId, 1, "tools/call", { name: "t" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.json).toEqual({ jsonrpc: "2.0", id: 1, result: text(`t by nobody in ${a.sessionId}`) });
    expect(served.handler.sessionCount).toBe(2);
  });

  it("a request without Mcp-Session-Id (other than initialize) is 400; an unknown session is 404", async () => {
    served = await serve(face, echo);
    await open(served.url);
    const without = await rpc(served.url, undefined, 1, "tools/call", { name: "t" });
    expect(without.status).toBe(400);
    expect(without.json).toMatchObject({ error: { code: -32600 } });
    const unknown = await rpc(served.url, "00000000-0000-4000-8000-000000000000", 1, "tools/call", { name: "t" });
    expect(unknown.status).toBe(404);
  });

  it("a POST naming an unknown session is refused before its body is read: 404, not 413", async () => {
    served = await serve(face, echo, { maxBodyBytes: 128 });
    const answer = await post(served.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x".repeat(1000) } }, sessionHeaders("00000000-0000-4000-8000-000000000000"));
    expect(answer.status).toBe(404);
  });

  it("an initialize that carries a session id is refused (400): it opens a new session", async () => {
    served = await serve(face, echo);
    const { sessionId } = await open(served.url);
    const again = await post(served.url, { jsonrpc: "2.0", id: 5, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }, sessionHeaders(sessionId));
    expect(again.status).toBe(400);
    expect(served.handler.sessionCount).toBe(1);
  });

  it("DELETE ends the session: 200, then 404 for its requests, its GET and a second DELETE", async () => {
    served = await serve(face, echo);
    const { sessionId } = await open(served.url);
    expect((await deleteSession(served.url, sessionId)).status).toBe(200);
    expect(served.handler.sessionCount).toBe(0);
    expect((await rpc(served.url, sessionId, 1, "tools/call", { name: "t" })).status).toBe(404);
    expect((await send(served.url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": sessionId } })).status).toBe(404);
    expect((await deleteSession(served.url, sessionId)).status).toBe(404);
  });

  it("a failed initialize opens no session", async () => {
    served = await serve(face, { handlers: { initialize: () => { throw new R.McpError(-32602, "no"); } } });
    const answer = await post(served.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }, { ...POST_HEADERS });
    expect(answer.json).toMatchObject({ id: 0, error: { code: -32602 } });
    await waitFor("the session ends", () => (served!.handler.sessionCount === 0 ? true : undefined));
    const id = answer.headers.get("mcp-session-id");
    expect(id).not.toBeNull();
    expect((await rpc(served.url, id!, 1, "ping")).status).toBe(404);
  });

  it("maxSessions: one more initialize is refused with 503 naming the option; an ended session frees its place", async () => {
    served = await serve(face, echo, { maxSessions: 2 });
    const first = await open(served.url);
    await open(served.url);
    const third = await post(served.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }, { ...POST_HEADERS });
    expect([third.status, third.headers.get("retry-after")]).toEqual([503, "1"]);
    expect(third.json).toEqual({ jsonrpc: "2.0", id: 0, error: { code: -32603, message: "Service Unavailable: 2 sessions are open (maxSessions)" } });
    expect(third.headers.get("mcp-session-id")).toBeNull();
    await deleteSession(served.url, first.sessionId);
    await open(served.url);
    expect(served.handler.sessionCount).toBe(2);
  });

  it("sessionIdleMs: a session with nothing in flight and no stream ends, and its id is 404 from then on", async () => {
    served = await serve(face, echo, { sessionIdleMs: 20 });
    // initialize alone: a second POST (notifications/initialized) could come after the 20 ms on a
    // loaded machine, and find the session already ended.
    const answer = await post(served.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }, { ...POST_HEADERS });
    expect(answer.status).toBe(200);
    const sessionId = answer.headers.get("mcp-session-id")!;
    await waitFor("the idle session ends", () => (served!.handler.sessionCount === 0 ? true : undefined));
    expect((await rpc(served.url, sessionId, 1, "tools/call", { name: "t" })).status).toBe(404);
  });

  it("sessionIdleMs: a session with a request in flight, or with its GET stream open, outlives it; once neither, it ends", async () => {
    const gate = deferred();
    const idleMs = 150;
    served = await serve(face, { handlers: { "tools/call": async () => (await gate.promise, text("late")) } }, { sessionIdleMs: idleMs });
    // initialize alone for each (a second POST would only give the idle timer a chance to win first).
    const initialize = async () => (await post(served!.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }, { ...POST_HEADERS })).headers.get("mcp-session-id")!;
    const [working, listening, idle] = [await initialize(), await initialize(), await initialize()];
    const call = rpc(served.url, working, 1, "tools/call", { name: "t" });
    const get = await getStream(served.url, listening);
    expect(get.status).toBe(200);
    await waitFor("the request is in flight", () => (served!.server.inFlight.received === 1 ? true : undefined));
    await waitFor("the idle session ends", () => (served!.handler.hasSession(idle) ? undefined : true));
    // Two more idle periods: the busy ones are still there.
    await new Promise((resolve) => setTimeout(resolve, 2 * idleMs));
    expect([served.handler.hasSession(working), served.handler.hasSession(listening)]).toEqual([true, true]);
    gate.resolve();
    expect((await call).json).toEqual({ jsonrpc: "2.0", id: 1, result: text("late") });
    get.abort();
    await waitFor("both end once idle", () => (served!.handler.sessionCount === 0 ? true : undefined));
  });

  it("the handler's close() ends every session and refuses new ones", async () => {
    served = await serve(face, echo);
    const { sessionId } = await open(served.url);
    await served.handler.close();
    expect(served.handler.sessionCount).toBe(0);
    expect((await rpc(served.url, sessionId, 1, "ping")).status).toBe(404);
    const again = await post(served.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }, { ...POST_HEADERS });
    expect(again.status).toBe(503);
  });
});

describeFaces("principals", (face) => {
  const bearer: R.Authenticate = (request) => {
    const token = request.headers.get("authorization");
    if (token === "Bearer alice") return { id: "alice" };
    if (token === "Bearer bob") return { id: "bob" };
    return new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } });
  };

  it("a session belongs to the principal that opened it: handlers see it, another principal gets 404, nobody 401", async () => {
    served = await serve(face, echo, { authenticate: bearer });
    const { sessionId } = await open(served.url, "2025-11-25", { authorization: "Bearer alice" });
    const mine = await rpc(served.url, sessionId, 1, "tools/call", { name: "t" }, { authorization: "Bearer alice" });
    expect(mine.json).toMatchObject({ result: text(`t by alice in ${sessionId}`) });
    const theirs = await rpc(served.url, sessionId, 2, "tools/call", { name: "t" }, { authorization: "Bearer bob" });
    expect(theirs.status).toBe(404);
    expect((await deleteSession(served.url, sessionId, { authorization: "Bearer bob" })).status).toBe(404);
    expect((await rpc(served.url, sessionId, 3, "tools/call", { name: "t" })).status).toBe(401);
    expect(served.handler.sessionCount).toBe(1);
  });

  it("authenticate runs before the body: a session POST declaring 4 MiB it never sends is answered 401 at once", async () => {
    served = await serve(face, echo, { authenticate: bearer });
    const { sessionId } = await open(served.url, "2025-11-25", { authorization: "Bearer alice" });
    const { host } = new URL(served.url);
    // Answered while the client still owes the whole body: a server that read it first would wait forever.
    const answer = await within(
      "the 401 before the body",
      rawRequest(served.url, [
        "POST /mcp HTTP/1.1",
        `Host: ${host}`,
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        `Mcp-Session-Id: ${sessionId}`,
        "Mcp-Protocol-Version: 2025-11-25",
        `Content-Length: ${4 * 1024 * 1024}`,
      ]),
      5000,
    );
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe("Bearer");
    expect(answer.body).toBe("");
    // The native face does not read a large body it refused: it closes the connection instead.
    if (face === "native") expect(answer.headers["connection"]).toBe("close");
    expect(served.server.inFlight.received).toBe(0);
  });

  it("GET and DELETE without credentials are 401 before the 400 of a missing session and the 404 of an unknown one", async () => {
    served = await serve(face, echo, { authenticate: bearer });
    const unknown = "00000000-0000-4000-8000-000000000000";
    const get = (headers: Record<string, string>) => send(served!.url, { method: "GET", headers: { accept: "text/event-stream", ...headers } });
    const del = (headers: Record<string, string>) => send(served!.url, { method: "DELETE", headers });
    for (const ask of [get, del]) {
      const anonymous = [await ask({}), await ask({ "mcp-session-id": unknown })];
      expect(anonymous.map((a) => [a.status, a.headers.get("www-authenticate"), a.text])).toEqual([
        [401, "Bearer", ""],
        [401, "Bearer", ""],
      ]);
      // With credentials, the session's own answers.
      const alice = { authorization: "Bearer alice" };
      expect([(await ask(alice)).status, (await ask({ ...alice, "mcp-session-id": unknown })).status]).toEqual([400, 404]);
    }
  });

  it("Host and Origin: a request naming another host is 403 and opens nothing", async () => {
    served = await serve(face, echo);
    const answer = await post(served.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: {} }, { ...POST_HEADERS, origin: "https://evil.example" });
    expect(answer.status).toBe(403);
    expect(served.handler.sessionCount).toBe(0);
  });
});

describeFaces("stateless mode (sessions: false)", (face) => {
  it("serves requests without initialize or session id, sets no Mcp-Session-Id, and offers no GET or DELETE", async () => {
    served = await serve(face, echo, { sessions: false });
    const answer = await rpc(served.url, undefined, 1, "tools/call", { name: "t" });
    expect(answer.json).toEqual({ jsonrpc: "2.0", id: 1, result: text("t by nobody in no session") });
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    const init = await post(served.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }, { ...POST_HEADERS });
    expect(init.headers.get("mcp-session-id")).toBeNull();
    for (const method of ["GET", "DELETE"]) {
      const refused = await send(served.url, { method, headers: { accept: "text/event-stream" } });
      expect([refused.status, refused.headers.get("allow")]).toEqual([405, "POST"]);
      expect(refused.json).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: `Method not allowed: ${method}; the MCP endpoint accepts POST` } });
    }
    expect(served.handler.sessionCount).toBe(0);
    expect(served.server.inFlight).toEqual({ sent: 0, received: 0 });
  });
});

describeFaces("the envelope", (face) => {
  it("415 for a body that is not JSON, 406 without both Accept types, 400 for a batch or bad JSON, 405 with Allow for PUT", async () => {
    served = await serve(face, echo);
    const { sessionId } = await open(served.url);
    const h = sessionHeaders(sessionId);
    expect((await post(served.url, "{}", { ...h, "content-type": "text/plain" })).status).toBe(415);
    expect((await post(served.url, "{}", { ...h, accept: "application/json" })).status).toBe(406);
    expect((await post(served.url, [{ jsonrpc: "2.0", id: 1, method: "ping" }], h)).status).toBe(400);
    const bad = await post(served.url, "{nope", h);
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });
    const put = await send(served.url, { method: "PUT", headers: h, body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
    expect(put.json).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Method not allowed: PUT; the MCP endpoint accepts GET, POST, DELETE" } });
    expect((await send(served.url, { method: "GET", headers: { "mcp-session-id": sessionId, accept: "application/json" } })).status).toBe(406);
  });
});

describe("options", () => {
  const server = new R.McpServer({ logger: null });
  it.each([
    ["maxSessions", { maxSessions: 0 }],
    ["maxSessions", { maxSessions: 1.5 }],
    ["sessionIdleMs", { sessionIdleMs: -1 }],
    ["maxInFlightPerSession", { maxInFlightPerSession: Number.NaN }],
    ["maxStoredEvents", { maxStoredEvents: 0 }],
    ["retryMs", { retryMs: Number.POSITIVE_INFINITY }],
    ["keepAliveMs", { keepAliveMs: -5 }],
    ["maxBodyBytes", { maxBodyBytes: 0 }],
    ["maxStreamBufferBytes", { maxStreamBufferBytes: "big" }],
    ["responses", { responses: "json" }],
    ["sessions", { sessions: "yes" }],
    ["eventStore", { eventStore: {} }],
    ["authenticate", { authenticate: "alice" }],
  ])("%s is checked when the handler is made", (name, options) => {
    expect(() => R.createSessionHttpHandler(server, options as R.SessionHttpHandlerOptions)).toThrow(name);
  });
});
