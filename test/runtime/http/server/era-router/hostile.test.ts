/**
 * What a peer may send the router, and handlers that fail, on both faces of the router: every
 * request gets an HTTP answer, nothing throws out of the router, and it keeps no state of its
 * own per request (it holds no table: sessions are the session handlers' to know). The handlers
 * that fail are real runtime handlers (the router runs their pipelines) whose `serveCall` or
 * `hasSession` is replaced by one that throws.
 */
import { afterEach, describe, expect, it } from "vitest";
import { answer, describeFaces } from "../../../../helpers/faces.js";
import { modernServer, post, POST_HEADERS, R25, R26, serveOneUrl, sessionServer, type OneUrl } from "./support.js";

const open: OneUrl[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

const META_VERSION = "io.modelcontextprotocol/protocolVersion";

describeFaces("the era router", (face) => {
  describe("hostile bodies and headers, at the wire", () => {
    it.each([
      ["bytes that are no UTF-8", new Uint8Array([0xff, 0xfe, 0x7b]), 400, -32700],
      ["JSON null", "null", 400, -32600],
      ["a _meta that is null (no claim: the session era)", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: null } }), 400, -32600],
      ["a _meta version that is an object (a claim: the modern -32602)", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [META_VERSION]: {} } } }), 400, -32602],
      ["an empty batch", "[]", 400, -32600],
    ])("%s", async (_label, body, status, code) => {
      const s = await serveOneUrl(face);
      open.push(s);
      const answer = await post(s.url, body, POST_HEADERS);
      expect(answer.status).toBe(status);
      expect(answer.json).toMatchObject({ jsonrpc: "2.0", error: { code } });
      expect(s.errors).toEqual([]);
    });

    it("many unknown session ids: each 404, no session opened anywhere", async () => {
      const s = await serveOneUrl(face);
      open.push(s);
      for (let i = 0; i < 50; i++) {
        const answer = await post(s.url, { jsonrpc: "2.0", id: i, method: "tools/list" }, { ...POST_HEADERS, "mcp-session-id": `${"x".repeat(i * 40)}-${i}` });
        expect(answer.status).toBe(404);
      }
      expect(Object.values(s.sessions).map((handler) => handler.sessionCount)).toEqual([0, 0, 0]);
    });
  });

  describe("handlers that fail", () => {
    const request = (headers: Record<string, string> = {}, body: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [META_VERSION]: "2026-07-28" } } }) =>
      new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(body) });
    const INTERNAL = { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } };

    it.each([
      ["throws", () => {
        throw new Error("modern broke");
      }],
      ["rejects", () => Promise.reject(new Error("modern broke"))],
    ])("a handler whose serveCall %s: 500 Internal error, reported to onError (a throwing onError is contained)", async (_label, serveCall) => {
      const errors: Error[] = [];
      const real = R26.createHttpHandler(modernServer());
      const router = R25.createEraRouter({
        modern: Object.assign((r: Request) => real(r), real, { serveCall }),
        sessions: { "2025-11-25": R25.createSessionHttpHandler(sessionServer()) },
        onError: (error) => {
          errors.push(error);
          throw new Error("onError broke too");
        },
      });
      const response = await answer(face, router, request({ "mcp-protocol-version": "2026-07-28" }));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual(INTERNAL);
      expect(errors.map((e) => e.message)).toEqual(["modern broke"]);
    });

    it("a handler whose routing throws after the router read the body for it: 500, reported to that handler's onError", async () => {
      const routerErrors: Error[] = [];
      const handlerErrors: Error[] = [];
      const real = R26.createHttpHandler(modernServer(), { onError: (error) => void handlerErrors.push(error) });
      const pipeline = {
        ...real.httpPipeline,
        serve: () => {
          throw new Error("routing broke");
        },
      };
      const router = R25.createEraRouter({
        modern: Object.assign((r: Request) => real(r), real, { httpPipeline: pipeline }),
        sessions: { "2025-11-25": R25.createSessionHttpHandler(sessionServer()) },
        onError: (error) => void routerErrors.push(error),
      });
      // No header: the router reads the body, whose _meta claims 2026-07-28.
      const response = await answer(face, router, request());
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual(INTERNAL);
      expect(handlerErrors.map((e) => e.message)).toEqual(["routing broke"]);
      expect(routerErrors).toEqual([]);
    });

    it("a session handler whose hasSession throws: 500, not a crash", async () => {
      const errors: Error[] = [];
      const real = R25.createSessionHttpHandler(sessionServer());
      const broken = Object.assign((r: Request) => real(r), real, {
        hasSession: () => {
          throw new Error("hasSession broke");
        },
      });
      const router = R25.createEraRouter({ sessions: { "2025-11-25": broken }, onError: (error) => void errors.push(error) });
      const response = await answer(face, router, request({ "mcp-session-id": "s" }));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual(INTERNAL);
      expect(errors.map((e) => e.message)).toEqual(["hasSession broke"]);
    });

    it("a handler whose server throws while serving: that handler's own 500, the router's onError not called", async () => {
      const routerErrors: Error[] = [];
      const handlerErrors: Error[] = [];
      const server = new R25.McpServer({ logger: null });
      const real = R25.createSessionHttpHandler(server, { onError: (error) => void handlerErrors.push(error) });
      // The session handler's own code fails after admission (its server cannot open a connection).
      server.openConnection = () => {
        throw new Error("openConnection broke");
      };
      const router = R25.createEraRouter({ sessions: { "2025-11-25": real }, onError: (error) => void routerErrors.push(error) });
      const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "w", version: "1" } } };
      const response = await answer(face, router, request({}, initialize));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual(INTERNAL);
      expect(handlerErrors.map((e) => e.message)).toEqual(["openConnection broke"]);
      expect(routerErrors).toEqual([]);
    });
  });
});
