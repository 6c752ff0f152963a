/**
 * Header checks of createHttpHandler that depend on what the body carries, on both faces (the web
 * face called as a fetch-style handler, the native one over a loopback socket): a notification
 * whose headers agree with it, Mcp-Name beside a body without a string name, and Mcp-Name on a
 * method that has no name source.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { answer, describeFaces, headersFor, META } from "./support.js";

const post = (body: unknown, headers: Record<string, string>) =>
  new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: JSON.stringify(body) });

describeFaces("createHttpHandler", (face) => {
  describe("headers against the body", () => {
    it("a notification whose MCP-Protocol-Version is served and whose Mcp-Method agrees: 202", async () => {
      const handler = R.createHttpHandler(new R.McpServer({ logger: null }));
      const response = await answer(face, handler, post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, headersFor("notifications/cancelled")));
      expect(response.status).toBe(202);
      expect(await response.text()).toBe("");
    });

    it("Mcp-Name beside a body whose name is not a string: the header is not compared, the handler answers", async () => {
      const handler = R.createHttpHandler(new R.McpServer({ logger: null, handlers: { "prompts/get": () => ({ resultType: "complete", messages: [] }) } }));
      const response = await answer(face, handler, post({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: 5, _meta: META } }, { ...headersFor("prompts/get"), "mcp-name": "five" }));
      expect(response.status).not.toBe(400);
      expect(((await response.json()) as { error?: { code: number } }).error?.code).not.toBe(-32020);
    });

    it("Mcp-Name on a method without a name source is ignored, even an invalid one", async () => {
      const handler = R.createHttpHandler(new R.McpServer({ logger: null, handlers: { "prompts/list": () => ({ resultType: "complete", prompts: [], ttlMs: 0, cacheScope: "public" }) } }));
      const response = await answer(face, handler, post({ jsonrpc: "2.0", id: 1, method: "prompts/list", params: { _meta: META } }, { ...headersFor("prompts/list"), "mcp-name": "=?base64?broken?=" }));
      expect(response.status).toBe(200);
    });
  });
});
