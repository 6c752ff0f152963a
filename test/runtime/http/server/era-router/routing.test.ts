/**
 * createEraRouter at the wire, on both faces of the router (test/helpers/faces.ts): one node:http
 * server on loopback in front of a 2026-07-28 handler, three session handlers (2025-11-25,
 * 2025-06-18, 2025-03-26) and the 2024-11-05 HTTP+SSE handler; raw requests with exactly the
 * headers each rule turns on, and which server answered (each one's `era` tool names its
 * revision). Also the options the router checks when it is made.
 */
import { afterEach, describe, expect, it } from "vitest";
import { answer as answerOn, describeFaces, type Face } from "../../../../helpers/faces.js";
import { META_KEYS } from "../../../../helpers/fixtures.js";
import { firstText, post, POST_HEADERS, R24, R25, R26, send, serveOneUrl, type Answer, type OneUrl, type OneUrlOptions } from "./support.js";

const open: OneUrl[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

async function serveOn(face: Face, options: OneUrlOptions = {}): Promise<OneUrl> {
  const served = await serveOneUrl(face, options);
  open.push(served);
  return served;
}
const MODERN_META = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: {} };

function initialize(url: string, protocolVersion: unknown, id: number | string = 1): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "wire", version: "1" } } }, POST_HEADERS);
}

/** Opens a session: initialize, then notifications/initialized; its id and the version negotiated. */
async function openSession(url: string, asked: string): Promise<{ id: string; version: string }> {
  const answer = await initialize(url, asked);
  expect(answer.status).toBe(200);
  const id = answer.headers.get("mcp-session-id");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const version = (answer.json as { result: { protocolVersion: string } }).result.protocolVersion;
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...POST_HEADERS, "mcp-session-id": id!, "mcp-protocol-version": version });
  expect(initialized.status).toBe(202);
  return { id: id!, version };
}

/** tools/call `era` in a session: the revision of the server that answered. */
async function eraIn(url: string, session: { id: string; version: string }, id = 2): Promise<string | undefined> {
  const answer = await post(url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "era" } }, { ...POST_HEADERS, "mcp-session-id": session.id, "mcp-protocol-version": session.version });
  expect(answer.status).toBe(200);
  return firstText((answer.json as { result: unknown }).result);
}

describeFaces("createEraRouter", (face) => {
  const oneUrl = (options: OneUrlOptions = {}): Promise<OneUrl> => serveOn(face, options);

  describe("initialize opens a session on the best session revision (Lifecycle, Version Negotiation)", () => {
    it.each(["2025-11-25", "2025-06-18", "2025-03-26"])("asking for %s: that revision's server, for the whole session", async (asked) => {
      const s = await oneUrl();
      const session = await openSession(s.url, asked);
      expect(session.version).toBe(asked);
      expect(await eraIn(s.url, session)).toBe(asked);
      expect(s.sessions[asked as "2025-11-25"].hasSession(session.id)).toBe(true);
      expect(Object.entries(s.sessions).filter(([, handler]) => handler.hasSession(session.id)).map(([revision]) => revision)).toEqual([asked]);
    });

    it("a version between two served ones: the newest served not newer than it", async () => {
      const s = await oneUrl({ sessions: ["2025-11-25", "2025-03-26"] });
      const session = await openSession(s.url, "2025-06-18");
      expect(await eraIn(s.url, session)).toBe("2025-03-26");
      expect(session.version).toBe("2025-03-26");
    });

    it("a later version than any served (2026-07-28 asked by initialize): the newest session revision", async () => {
      const s = await oneUrl();
      const session = await openSession(s.url, "2026-07-28");
      expect(session.version).toBe("2025-11-25");
      expect(await eraIn(s.url, session)).toBe("2025-11-25");
    });

    it.each([["an older one", "2024-11-05"], ["one that is no date", "v1"]])("%s: the newest session revision", async (_label, asked) => {
      const s = await oneUrl();
      const answer = await initialize(s.url, asked);
      expect(answer.status).toBe(200);
      expect((answer.json as { result: { protocolVersion: string } }).result.protocolVersion).toBe("2025-11-25");
      expect(s.sessions["2025-11-25"].hasSession(answer.headers.get("mcp-session-id")!)).toBe(true);
    });

    it("no string: routed to the newest session revision, whose server refuses it (InitializeRequestParams: protocolVersion is a string) and opens no session", async () => {
      const s = await oneUrl();
      const answer = await initialize(s.url, 20250618);
      expect(answer.json).toMatchObject({ error: { code: -32602, data: { pointer: "/protocolVersion", expected: "a string" } } });
      expect(Object.values(s.sessions).map((handler) => handler.sessionCount)).toEqual([0, 0, 0]);
    });
  });

  describe("a session's requests go to the handler that owns it", () => {
    it("GET opens that session's stream; DELETE ends that session only", async () => {
      const s = await oneUrl();
      const old = await openSession(s.url, "2025-03-26");
      const other = await openSession(s.url, "2025-11-25");
      const controller = new AbortController();
      const stream = await fetch(s.url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": old.id }, signal: controller.signal });
      expect(stream.status).toBe(200);
      expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(stream.headers.get("mcp-session-id")).toBe(old.id);
      controller.abort();

      const ended = await send(s.url, { method: "DELETE", headers: { "mcp-session-id": old.id } });
      expect(ended.status).toBe(200);
      expect(s.sessions["2025-03-26"].hasSession(old.id)).toBe(false);
      expect(s.sessions["2025-11-25"].hasSession(other.id)).toBe(true);
      // Transports, Session Management: an ended session is 404.
      const after = await post(s.url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "era" } }, { ...POST_HEADERS, "mcp-session-id": old.id });
      expect(after.status).toBe(404);
      expect(await eraIn(s.url, other)).toBe("2025-11-25");
    });

    it("a session id no handler knows: 404, even on a request that claims 2026-07-28", async () => {
      const s = await oneUrl();
      const unknown = await post(s.url, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN_META } }, { ...POST_HEADERS, "mcp-session-id": "no-such-session", "mcp-protocol-version": "2026-07-28" });
      expect(unknown.status).toBe(404);
      expect(unknown.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
      const get = await send(s.url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": "no-such-session" } });
      expect(get.status).toBe(404);
    });

    it("the missing MCP-Protocol-Version header of a session's request is the negotiated version, not an error", async () => {
      const s = await oneUrl();
      const session = await openSession(s.url, "2025-06-18");
      const answer = await post(s.url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "era" } }, { ...POST_HEADERS, "mcp-session-id": session.id });
      expect(answer.status).toBe(200);
      expect(firstText((answer.json as { result: unknown }).result)).toBe("2025-06-18");
    });
  });

  describe("outside a session, a POST that claims 2026-07-28 goes to the stateless handler", () => {
    const modernCall = (url: string, headers: Record<string, string>, params: Record<string, unknown>) =>
      post(url, { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "era", ...params } }, { ...POST_HEADERS, "mcp-method": "tools/call", "mcp-name": "era", ...headers });

    it("by its _meta version and header: served by the 2026-07-28 server", async () => {
      const s = await oneUrl();
      const answer = await modernCall(s.url, { "mcp-protocol-version": "2026-07-28" }, { _meta: MODERN_META });
      expect(answer.status).toBe(200);
      expect(firstText((answer.json as { result: unknown }).result)).toBe("2026-07-28");
    });

    it("by its _meta alone (no header): the 2026-07-28 handler's own HeaderMismatch", async () => {
      const s = await oneUrl();
      const answer = await modernCall(s.url, {}, { _meta: MODERN_META });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ id: 7, error: { code: -32020 } });
    });

    it("by a 2026-07-28 header without _meta: the modern -32602, never a session error", async () => {
      const s = await oneUrl();
      const answer = await modernCall(s.url, { "mcp-protocol-version": "2026-07-28" }, {});
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ id: 7, error: { code: -32602 } });
    });

    it("by a header naming an unknown version: UnsupportedProtocolVersion with the versions served", async () => {
      const s = await oneUrl();
      const answer = await modernCall(s.url, { "mcp-protocol-version": "1900-01-01x" }, {});
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "1900-01-01x" } } });
    });

    it("a session-era header (2025-06-18) without a session: the session era's 400 (Mcp-Session-Id required)", async () => {
      const s = await oneUrl();
      const answer = await post(s.url, { jsonrpc: "2.0", id: 8, method: "tools/list" }, { ...POST_HEADERS, "mcp-protocol-version": "2025-06-18" });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.json)).toContain("Mcp-Session-Id");
    });
  });

  describe("what belongs to no era", () => {
    it("GET and DELETE without a session id: the session era's refusals", async () => {
      const s = await oneUrl();
      expect((await send(s.url, { method: "GET", headers: { accept: "text/event-stream" } })).status).toBe(400);
      expect((await send(s.url, { method: "DELETE" })).status).toBe(400);
      const put = await send(s.url, { method: "PUT", headers: POST_HEADERS, body: "{}" });
      expect(put.status).toBe(405);
    });

    it("a body that is no JSON: a Parse error from the era its header names", async () => {
      const s = await oneUrl();
      const legacy = await post(s.url, "{not json", POST_HEADERS);
      expect(legacy.status).toBe(400);
      expect(legacy.json).toMatchObject({ error: { code: -32700 } });
      const modern = await post(s.url, "{not json", { ...POST_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" });
      expect(modern.status).toBe(400);
      expect(modern.json).toMatchObject({ error: { code: -32700 } });
    });

    it("a handler's own smaller maxBodyBytes still holds behind the router: 413 from the session handler", async () => {
      const s = await oneUrl({ sessionOptions: { maxBodyBytes: 1024 } });
      const padded = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "w", version: "1" }, pad: "x".repeat(2048) } };
      const answer = await post(s.url, padded, POST_HEADERS);
      expect(answer.status).toBe(413);
      expect(JSON.stringify(answer.json)).toContain("1024 bytes");
      expect(s.sessions["2025-11-25"].sessionCount).toBe(0);
    });

    it("a body past every handler's maxBodyBytes: 413 naming the bound, the connection closed, before any handler sees it", async () => {
      const s = await oneUrl({ sessionOptions: { maxBodyBytes: 1024 }, modernOptions: { maxBodyBytes: 1024 } });
      const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { pad: "x".repeat(4096) } });
      const answer = await post(s.url, big, POST_HEADERS);
      expect(answer.status).toBe(413);
      expect(answer.headers.get("connection")).toBe("close");
      expect(answer.json).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Payload Too Large: the body exceeds 1024 bytes" } });
      expect(Object.values(s.sessions).every((handler) => handler.sessionCount === 0)).toBe(true);
    });
  });

  describe("the HTTP+SSE transport of 2024-11-05 on its own paths", () => {
    it("GET /sse opens its stream with the endpoint event; POST /messages delivers to that session", async () => {
      const s = await oneUrl();
      const controller = new AbortController();
      const response = await fetch(`${s.origin}/sse`, { headers: { accept: "text/event-stream" }, signal: controller.signal });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
      const endpoint = /event: endpoint\ndata: (.*)\n/.exec(text)?.[1];
      expect(endpoint).toMatch(/^\/messages\?sessionId=/);
      const delivered = await post(`${s.origin}${endpoint}`, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "w", version: "1" } } }, { "content-type": "application/json" });
      expect(delivered.status).toBe(202);
      while (!text.includes('"protocolVersion"')) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toContain('"protocolVersion":"2024-11-05"');
      controller.abort();
    });

    it("without legacySse, /sse is the other eras' like any path", async () => {
      const s = await oneUrl();
      const router = R25.createEraRouter({ sessions: { "2025-11-25": s.sessions["2025-11-25"] } });
      const answer = await answerOn(face, router, new Request(`${s.origin}/sse`, { method: "GET", headers: { accept: "text/event-stream" } }));
      expect(answer.status).toBe(400); // the session handler: no Mcp-Session-Id
    });
  });

  describe("one era only", () => {
    it("no sessions: every request is the 2026-07-28 handler's, and initialize gets UnsupportedProtocolVersion naming 2026-07-28", async () => {
      const server = new R26.McpServer({ serverInfo: { name: "m", version: "1" }, logger: null, handlers: {} });
      const router = R26.createEraRouter({ modern: R26.createHttpHandler(server) });
      const request = new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: POST_HEADERS,
        body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "w", version: "1" } } }),
      });
      const answer = await answerOn(face, router, request);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 0, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "2025-11-25" } } });
    });

    it("no modern handler: a request claiming 2026-07-28 is the session era's (400: no session)", async () => {
      const s = await oneUrl({ modern: false });
      const answer = await post(s.url, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN_META } }, { ...POST_HEADERS, "mcp-protocol-version": "2026-07-28" });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.json)).toContain("Mcp-Session-Id");
    });
  });
});

describe("options, checked at construction", () => {
  const handler = (): R25.SessionHttpHandler => R25.createSessionHttpHandler(new R25.McpServer({ logger: null }));
  const legacy = (): R24.LegacySseHandler => R24.createLegacySseHandler(new R24.McpServer({ logger: null }));
  it.each([
    ["no handler at all", {}, /needs a modern handler, session handlers, or both/],
    ["a session key that is no session revision", { sessions: { "2026-07-28": handler() } }, /"2026-07-28" is not a session revision/],
    ["a session handler without hasSession", { sessions: { "2025-11-25": (async () => new Response()) as unknown as R25.SessionHttpHandler } }, /with hasSession/],
    ["a modern handler that is no function", { modern: "x" as unknown as R25.HttpHandler }, /modern must be a handler/],
    // Route handlers are the runtime's own: the router runs their pipelines, which a bare web function has not.
    ["a modern handler that is a bare web function", { modern: Object.assign(async () => new Response(), { httpBinding: { meta: { protocolVersion: "v" } } }) }, /modern must be a handler from createHttpHandler/],
    ["a session handler that is a bare web function", { sessions: { "2025-11-25": Object.assign(async () => new Response(), { hasSession: () => false, versions: ["2025-11-25"] }) } }, /sessions\["2025-11-25"\] must be a handler from createSessionHttpHandler/],
    // legacySse is the handler itself (it names its paths), no longer { handler, ssePath, messagesPath }.
    ["a legacySse that is { handler, ssePath }", { sessions: { "2025-11-25": handler() }, legacySse: { handler: legacy(), ssePath: "/sse" } }, /legacySse must be a handler from createLegacySseHandler, got an object/],
    ["a legacySse that is a bare web function", { sessions: { "2025-11-25": handler() }, legacySse: async () => new Response() }, /legacySse must be a handler from createLegacySseHandler, got a function/],
  ])("%s: a TypeError", (_label, options, message) => {
    expect(() => R25.createEraRouter(options as R25.EraRouterOptions)).toThrow(TypeError);
    expect(() => R25.createEraRouter(options as R25.EraRouterOptions)).toThrow(message);
  });

  it("a legacySse handler is made with its paths checked: a path without a slash, with a query, or the same twice is a TypeError", () => {
    const server = new R24.McpServer({ logger: null });
    expect(() => R24.createLegacySseHandler(server, { ssePath: "sse" })).toThrow(new TypeError('ssePath must be a path starting with "/" (no query, no fragment), got "sse"'));
    expect(() => R24.createLegacySseHandler(server, { messagesPath: "/messages?x=1" })).toThrow(new TypeError('messagesPath must be a path starting with "/" (no query, no fragment), got "/messages?x=1"'));
    expect(() => R24.createLegacySseHandler(server, { ssePath: "/a", messagesPath: "/a" })).toThrow(new TypeError('ssePath and messagesPath must differ, both are "/a"'));
    // The router takes the paths the handler names.
    const custom = R24.createLegacySseHandler(server, { ssePath: "/old/sse", messagesPath: "/old/messages" });
    expect([custom.ssePath, custom.messagesPath]).toEqual(["/old/sse", "/old/messages"]);
    expect(typeof R25.createEraRouter({ sessions: { "2025-11-25": handler() }, legacySse: custom })).toBe("function");
  });
});
