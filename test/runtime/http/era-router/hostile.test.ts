/**
 * What a peer may send the router, and handlers that fail: every request gets an HTTP answer,
 * nothing throws out of the router, and it keeps no state of its own per request (it holds no
 * table: sessions are the session handlers' to know).
 */
import { afterEach, describe, expect, it } from "vitest";
import { post } from "../stateless/support.js";
import { R25, serveOneUrl, type OneUrl } from "./support.js";

const open: OneUrl[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" } as const;
const META_VERSION = "io.modelcontextprotocol/protocolVersion";

describe("hostile bodies and headers, at the wire", () => {
  it.each([
    ["bytes that are no UTF-8", new Uint8Array([0xff, 0xfe, 0x7b]), 400, -32700],
    ["JSON null", "null", 400, -32600],
    ["a _meta that is null (no claim: the session era)", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: null } }), 400, -32600],
    ["a _meta version that is an object (a claim: the modern -32602)", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [META_VERSION]: {} } } }), 400, -32602],
    ["an empty batch", "[]", 400, -32600],
  ])("%s: %i, %i", async (_label, body, status, code) => {
    const s = await serveOneUrl();
    open.push(s);
    const answer = await post(s.url, body, POST_HEADERS);
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ jsonrpc: "2.0", error: { code } });
    expect(s.errors).toEqual([]);
  });

  it("many unknown session ids: each 404, no session opened anywhere", async () => {
    const s = await serveOneUrl();
    open.push(s);
    for (let i = 0; i < 50; i++) {
      const answer = await post(s.url, { jsonrpc: "2.0", id: i, method: "tools/list" }, { ...POST_HEADERS, "mcp-session-id": `${"x".repeat(i * 40)}-${i}` });
      expect(answer.status).toBe(404);
    }
    expect(Object.values(s.sessions).map((handler) => handler.sessionCount)).toEqual([0, 0, 0]);
  });
});

describe("handlers that fail", () => {
  const request = (headers: Record<string, string> = {}) =>
    new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [META_VERSION]: "2026-07-28" } } }) });
  const session = Object.assign(async () => new Response(null, { status: 204 }), { hasSession: () => false, versions: ["2025-11-25"] });
  const BINDING = { meta: { protocolVersion: META_VERSION, clientCapabilities: "c", clientInfo: "i", required: [] }, supportedVersions: ["2026-07-28"] };

  it("a handler that throws: 500 Internal error, reported to onError (a throwing onError is contained)", async () => {
    const errors: Error[] = [];
    const router = R25.createEraRouter({
      modern: Object.assign(
        async () => {
          throw new Error("modern broke");
        },
        { httpBinding: BINDING },
      ),
      sessions: { "2025-11-25": session },
      onError: (error) => {
        errors.push(error);
        throw new Error("onError broke too");
      },
    });
    const answer = await router(request());
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
    expect(errors.map((e) => e.message)).toEqual(["modern broke"]);
  });

  it("a session handler whose hasSession throws: 500, not a crash", async () => {
    const errors: Error[] = [];
    const broken = Object.assign(async () => new Response(null, { status: 204 }), {
      hasSession: () => {
        throw new Error("hasSession broke");
      },
      versions: ["2025-11-25"],
    });
    const router = R25.createEraRouter({ sessions: { "2025-11-25": broken }, onError: (error) => void errors.push(error) });
    expect((await router(request({ "mcp-session-id": "s" }))).status).toBe(500);
    expect(errors.map((e) => e.message)).toEqual(["hasSession broke"]);
  });
});
