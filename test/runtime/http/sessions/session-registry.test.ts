/**
 * The session server's `sessionRegistry` (http/sessions/session-registry.ts), on both faces of
 * the handler, with two handlers in one process standing for two instances (the same over Redis
 * and in separate processes: test/integration/redis/instances.test.ts): a session opened on one
 * is recorded before its initialize is answered and continues on the other; another principal's
 * is 404 there; a registry that fails is 503, not 404; DELETE on one removes the record and ends
 * the other's copy at its next refresh; a failed initialize records nothing. And
 * InMemorySessionRegistry's bounds and expiry.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { open, post, rpc, serve, sessionHeaders, POST_HEADERS, waitFor, type Face, type Served, describeFaces } from "./support.js";

const served: Served[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

const whoami = (name: string): R.McpServerOptions => ({ handlers: { "tools/call": () => ({ content: [{ type: "text", text: name }] }) } });

async function pair(face: Face, registry: R.SessionRegistry, options: R.SessionHttpHandlerOptions = {}): Promise<[Served, Served]> {
  const eventStore = new R.InMemoryEventStore();
  const a = await serve(face, whoami("A"), { sessionRegistry: registry, eventStore, ...options });
  const b = await serve(face, whoami("B"), { sessionRegistry: registry, eventStore, ...options });
  served.push(a, b);
  return [a, b];
}

const text = (answer: { text: string }) => (JSON.parse(answer.text) as { result: { content: { text: string }[] } }).result.content[0]!.text;

describeFaces("sessionRegistry", (face) => {
  it("records a session before its initialize is answered; another instance continues it", async () => {
    const registry = new R.InMemorySessionRegistry();
    const [a, b] = await pair(face, registry);
    const answer = await post(a.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: { listChanged: true } }, clientInfo: { name: "c", version: "1" } } }, POST_HEADERS);
    const sessionId = answer.headers.get("mcp-session-id")!;
    expect(registry.load(sessionId)).toMatchObject({ sessionId, protocolVersion: "2025-11-25", clientCapabilities: { roots: { listChanged: true } } });
    expect(registry.load(sessionId)?.principal).toBeUndefined();
    const there = await rpc(b.url, sessionId, 1, "tools/call", { name: "x" });
    expect([there.status, text(there)]).toEqual([200, "B"]);
    expect(there.headers.get("mcp-session-id")).toBe(sessionId);
    expect(b.handler.sessionCount).toBe(1);
    // The version header is judged there as here: another supported version is served, an unknown one is 400.
    expect((await rpc(b.url, sessionId, 2, "ping", {}, {}, "2025-06-18")).status).toBe(200);
    expect((await rpc(b.url, sessionId, 4, "ping", {}, {}, "1999-01-01")).status).toBe(400);
    // Unknown everywhere: 404.
    expect((await rpc(b.url, "no-such-session", 3, "ping")).status).toBe(404);
  });

  it("another principal's session is 404 on the other instance too", async () => {
    const registry = new R.InMemorySessionRegistry();
    const authenticate: R.Authenticate = (request) => ({ id: request.headers.get("authorization") ?? "nobody" });
    const [a, b] = await pair(face, registry, { authenticate });
    const { sessionId } = await open(a.url, "2025-11-25", { authorization: "alice" });
    expect(registry.load(sessionId)?.principal).toBe("alice");
    expect((await rpc(b.url, sessionId, 1, "ping", {}, { authorization: "bob" })).status).toBe(404);
    expect(b.handler.sessionCount).toBe(0);
    expect((await rpc(b.url, sessionId, 1, "ping", {}, { authorization: "alice" })).status).toBe(200);
  });

  it("a registry that fails answers 503 (never a 404 that would end the client's session), and reaches onError", async () => {
    const failing: R.SessionRegistry = { save: () => undefined, load: () => Promise.reject(new Error("store down")), remove: () => undefined };
    const [, b] = await pair(face, failing);
    const answer = await rpc(b.url, "some-session", 1, "ping");
    expect(answer.status).toBe(503);
    expect(answer.text).toContain("the session registry failed: store down");
    expect(b.errors.map((e) => e.message)).toContain("store down");
  });

  it("DELETE on one instance is 404 on the other from its next request on, even with a registry that sends no removal notices", async () => {
    const shared = new R.InMemorySessionRegistry();
    // No watchRemovals: B learns of the DELETE only by reading the record, which it does on every request.
    const registry: R.SessionRegistry = { save: (r) => shared.save(r), load: (id) => shared.load(id), remove: (id, until) => shared.remove(id, until) };
    const [a, b] = await pair(face, registry, { sessionIdleMs: 400 });
    const { sessionId } = await open(a.url);
    expect((await rpc(b.url, sessionId, 1, "ping")).status).toBe(200);
    expect(b.handler.sessionCount).toBe(1);
    const removed = await fetch(a.url, { method: "DELETE", headers: sessionHeaders(sessionId) });
    expect(removed.status).toBe(200);
    expect(shared.load(sessionId)).toBeUndefined();
    expect((await rpc(b.url, sessionId, 2, "ping")).status).toBe(404);
    await waitFor("B's copy to end", () => (b.handler.sessionCount === 0 ? true : undefined));
    expect((await rpc(b.url, sessionId, 3, "ping")).status).toBe(404);
  });

  it("a failed initialize records nothing", async () => {
    const registry = new R.InMemorySessionRegistry();
    const a = await serve(face, { handlers: { initialize: () => Promise.reject(new R.McpError(-32602, "no")) } }, { sessionRegistry: registry });
    served.push(a);
    const answer = await post(a.url, { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }, POST_HEADERS);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32602 } });
    expect(registry.size).toBe(0);
  });
});

describe("InMemorySessionRegistry", () => {
  it("expires records at expiresAt and keeps at most maxSessions, dropping the one that expires first", () => {
    let now = 1000;
    const registry = new R.InMemorySessionRegistry({ maxSessions: 2, now: () => now });
    const record = (sessionId: string, expiresAt: number | null): R.SessionRecord => ({ sessionId, protocolVersion: "2025-11-25", clientCapabilities: {}, expiresAt });
    registry.save(record("a", 5000));
    registry.save(record("b", null));
    registry.save(record("c", 9000));
    expect([registry.load("a"), registry.load("b")?.sessionId, registry.load("c")?.sessionId]).toEqual([undefined, "b", "c"]);
    now = 9000;
    expect(registry.load("c")).toBeUndefined();
    expect(registry.load("b")?.sessionId).toBe("b");
    registry.remove("b", 10_000);
    expect(registry.size).toBe(0);
  });

  it("a removed id's tombstone refuses saves until it expires; tombstones are bounded by maxSessions; watchers hear removals", () => {
    let now = 1000;
    const registry = new R.InMemorySessionRegistry({ maxSessions: 2, now: () => now });
    const heard: string[] = [];
    const stop = registry.watchRemovals((id) => heard.push(id));
    const record = (sessionId: string): R.SessionRecord => ({ sessionId, protocolVersion: "2025-11-25", clientCapabilities: {}, expiresAt: null });
    registry.save(record("a"));
    registry.remove("a", 2000);
    registry.save(record("a"));
    expect(registry.load("a")).toBeUndefined();
    registry.remove("b", 3000);
    registry.remove("c", 4000);
    expect(registry.tombstones).toBe(2);
    expect(heard).toEqual(["a", "b", "c"]);
    // "a" (the first to expire) made room; "b" stands until 3000.
    registry.save(record("a"));
    registry.save(record("b"));
    expect([registry.load("a")?.sessionId, registry.load("b")]).toEqual(["a", undefined]);
    now = 3000;
    registry.save(record("b"));
    expect(registry.load("b")?.sessionId).toBe("b");
    stop();
    registry.remove("d", 5000);
    expect(heard).toHaveLength(3);
  });
});
