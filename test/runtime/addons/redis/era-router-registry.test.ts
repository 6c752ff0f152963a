/**
 * Issue 44, item 2: the era router routes by the shared registry. Two instances, each an era
 * router over the three session handlers (2025-11-25, 2025-06-18, 2025-03-26) and the 2026-07-28
 * one, on both faces, share a RedisSessionRegistry on one real redis-server. A session opened on
 * A under each session revision is served on B by that revision's handler (its `era` tool names
 * the revision), which B continues from the record; before, B sent it to its newest handler.
 */
import { afterEach, expect, it } from "vitest";
import { RedisSessionRegistry } from "../../../../templates/runtime/addons/redis/session-registry.js";
import { describeFaces } from "../../../helpers/faces.js";
import { firstText, post, POST_HEADERS, serveOneUrl, SESSION_REVISIONS, type OneUrl } from "../../http/server/era-router/support.js";
import { redisPairs } from "./support.js";

const { pair } = redisPairs("era-router");
const open: OneUrl[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** The headers of a request in a session of `version` (2025-03-26 has no MCP-Protocol-Version header). */
const inSession = (id: string, version: string): Record<string, string> =>
  version === "2025-03-26" ? { ...POST_HEADERS, "mcp-session-id": id } : { ...POST_HEADERS, "mcp-session-id": id, "mcp-protocol-version": version };

describeFaces("two era routers on one registry", (face) => {
  it.each(SESSION_REVISIONS)("a session opened on A under %s is served on B by that revision's handler", async (revision) => {
    const [one, two] = await pair();
    const a = await serveOneUrl(face, { sessionOptions: { sessionRegistry: new RedisSessionRegistry(one) } });
    const b = await serveOneUrl(face, { sessionOptions: { sessionRegistry: new RedisSessionRegistry(two) } });
    open.push(a, b);
    const init = await post(a.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "wire", version: "1" } } }, POST_HEADERS);
    expect(init.status).toBe(200);
    const id = init.headers.get("mcp-session-id")!;
    expect((init.json as { result: { protocolVersion: string } }).result.protocolVersion).toBe(revision);
    expect((await post(a.url, { jsonrpc: "2.0", method: "notifications/initialized" }, inSession(id, revision))).status).toBe(202);

    for (const request of [2, 3]) {
      const answer = await post(b.url, { jsonrpc: "2.0", id: request, method: "tools/call", params: { name: "era" } }, inSession(id, revision));
      expect(answer.status).toBe(200);
      expect(firstText((answer.json as { result: unknown }).result)).toBe(revision);
    }
    // B continued it on that handler alone.
    expect(Object.entries(b.sessions).filter(([, handler]) => handler.hasSession(id)).map(([served]) => served)).toEqual([revision]);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it("an id unknown to the registry still goes to the newest handler, which answers 404", async () => {
    const [one] = await pair();
    const b = await serveOneUrl(face, { sessionOptions: { sessionRegistry: new RedisSessionRegistry(one) } });
    open.push(b);
    const answer = await post(b.url, { jsonrpc: "2.0", id: 1, method: "ping" }, inSession("no-such-session", "2025-11-25"));
    expect(answer.status).toBe(404);
  });
});
