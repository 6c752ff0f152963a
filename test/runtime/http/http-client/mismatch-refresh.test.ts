/**
 * The tools/list refresh after a HeaderMismatch (-32020) on a tools/call, against a scripted
 * server (test/runtime/http/http-session-client/support.ts): the refresh follows nextCursor page by page with
 * only the call's io.modelcontextprotocol/ `_meta` keys, stops after 16 pages, and when it fails
 * (an error answer, an HTTP error) the call gets the server's -32020 error and onerror says why.
 * Only a tools/call is retried; the retry is POSTed on the call's own signal.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { json, scriptedFetch, sse, within, type Call } from "../http-session-client/support.js";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" }, other: "x" };
const MISMATCH = { code: -32020, message: "Header mismatch" };
const refused = (id: unknown) => json({ jsonrpc: "2.0", id, error: MISMATCH }, 400, null);
const toolsPage = (id: unknown, tools: unknown[], nextCursor?: string) => json({ jsonrpc: "2.0", id, result: nextCursor === undefined ? { tools } : { tools, nextCursor } }, 200, null);
const annotated = { name: "t", inputSchema: { type: "object", properties: { r: { type: "string", "x-mcp-header": "R" } } } };

function open(script: (call: Call, index: number) => Response) {
  const { fetch, calls } = scriptedFetch(script);
  const transport = R.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch });
  const received: Record<string, unknown>[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => received.push(m as unknown as Record<string, unknown>);
  transport.onerror = (e) => errors.push(e);
  const send = (method: string, id: number) => within(method, transport.send({ jsonrpc: "2.0", id, method, params: { name: "t", arguments: { r: "eu" }, _meta: META } as R.JsonObject }));
  return { transport, calls, received, errors, send };
}

describe("HttpClientTransport: the refresh after a HeaderMismatch", () => {
  it("follows nextCursor with the call's io.modelcontextprotocol/ _meta only, then retries with the header of the last page", async () => {
    const t = open((c) => {
      const { id, method, params } = c.body as { id: unknown; method: string; params: { cursor?: string } };
      if (method === "tools/call") return c.headers["mcp-param-r"] === undefined ? refused(id) : json({ jsonrpc: "2.0", id, result: { content: [] } }, 200, null);
      return params.cursor === undefined ? toolsPage(id, [], "page-2") : toolsPage(id, [annotated]);
    });
    await t.send("tools/call", 1);
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } };
    expect(t.calls.map((c) => [c.body!["method"], c.body!["id"], c.body!["params"], c.headers["mcp-param-r"] ?? null])).toEqual([
      ["tools/call", 1, { name: "t", arguments: { r: "eu" }, _meta: META }, null],
      ["tools/list", "mcp-stubgen/tools-list-refresh/1", { _meta: meta }, null],
      ["tools/list", "mcp-stubgen/tools-list-refresh/2", { _meta: meta, cursor: "page-2" }, null],
      ["tools/call", 1, { name: "t", arguments: { r: "eu" }, _meta: META }, "eu"],
    ]);
    // The refresh's results go nowhere else: only the call's answer reached onmessage.
    expect(t.received).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [] } }]);
    expect(t.errors).toEqual([]);
    await t.transport.close();
  });

  it("reads at most 16 pages; the call then gets the -32020 error", async () => {
    let page = 0;
    const t = open((c) => {
      const id = c.body!["id"];
      return c.body!["method"] === "tools/call" ? refused(id) : toolsPage(id, [], `p${++page}`);
    });
    await t.send("tools/call", 1);
    expect(t.calls.map((c) => c.body!["method"])).toEqual(["tools/call", ...Array.from({ length: 16 }, () => "tools/list")]);
    expect(t.received).toEqual([{ jsonrpc: "2.0", id: 1, error: MISMATCH }]);
    await t.transport.close();
  });

  it("a tool whose annotation went away: the retry goes without the header; a call without _meta refreshes with an empty _meta", async () => {
    let lists = 0;
    const t = open((c) => {
      const { id, method } = c.body as { id: unknown; method: string };
      if (method === "tools/list") return toolsPage(id, [lists++ === 0 ? annotated : { name: "t", inputSchema: { type: "object", properties: { r: { type: "string" } } } }]);
      return c.headers["mcp-param-r"] === undefined ? json({ jsonrpc: "2.0", id, result: { content: [] } }, 200, null) : refused(id);
    });
    await within("list", t.transport.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }));
    await within("call", t.transport.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "t", arguments: { r: "eu" } } }));
    expect(t.calls.map((c) => [c.body!["method"], c.body!["params"], c.headers["mcp-param-r"] ?? null])).toEqual([
      ["tools/list", { _meta: META }, null],
      ["tools/call", { name: "t", arguments: { r: "eu" } }, "eu"],
      ["tools/list", { _meta: {} }, null],
      ["tools/call", { name: "t", arguments: { r: "eu" } }, null],
    ]);
    expect(t.received.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [] } });
    expect(t.errors).toEqual([]);
    await t.transport.close();
  });

  it("a cancel during the refresh, or right after it, sends no retry and reports nothing", async () => {
    for (const when of ["during", "after"] as const) {
      const { fetch, calls } = scriptedFetch((c) => {
        const id = c.body!["id"];
        if (c.body!["method"] === "tools/call") return refused(id);
        // The cancel while the refresh's response is on its way.
        transport.closeRequestStream(1);
        if (when === "after") return toolsPage(id, [annotated]);
        const body = sse();
        body.fail();
        return body.response;
      });
      const transport = R.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch });
      const received: unknown[] = [];
      const errors: Error[] = [];
      transport.onmessage = (m) => received.push(m);
      transport.onerror = (e) => errors.push(e);
      await expect(within(when, transport.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { r: "eu" }, _meta: META } }))).resolves.toBeUndefined();
      expect(calls.map((c) => c.body!["method"]), when).toEqual(["tools/call", "tools/list"]);
      expect(received, when).toEqual([]);
      expect(errors, when).toEqual([]);
      await transport.close();
    }
  });

  it("a refresh answered with an error, or with an HTTP error, gives the call its -32020 error and tells onerror", async () => {
    const t = open((c, i) => {
      const id = c.body!["id"];
      if (c.body!["method"] === "tools/call") return refused(id);
      if (i === 1) return json({ jsonrpc: "2.0", id, error: { code: -32603, message: "no" } }, 200, null);
      if (i === 3) return new Response("down", { status: 503 });
      return new Response(": nothing\n\n", { headers: { "content-type": "text/event-stream" } });
    });
    await t.send("tools/call", 1);
    await t.send("tools/call", 2);
    await t.send("tools/call", 3);
    expect(t.received).toEqual([
      { jsonrpc: "2.0", id: 1, error: MISMATCH },
      { jsonrpc: "2.0", id: 2, error: MISMATCH },
      { jsonrpc: "2.0", id: 3, error: MISMATCH },
    ]);
    expect(t.errors.map((e) => e.message)).toEqual([
      "tools/call (id 1): refreshing the tools after a HeaderMismatch failed: tools/list answered an error",
      "tools/call (id 2): refreshing the tools after a HeaderMismatch failed: tools/list: the server answered HTTP 503",
      "tools/call (id 3): refreshing the tools after a HeaderMismatch failed: tools/list gave no answer",
    ]);
    await t.transport.close();
  });

  it("a HeaderMismatch on another request, or another error on a tools/call, answers it at once: no refresh", async () => {
    const notFound = { code: -32601, message: "Method not found" };
    const t = open((c) => (c.body!["method"] === "tools/call" ? json({ jsonrpc: "2.0", id: c.body!["id"], error: notFound }, 404, null) : refused(c.body!["id"])));
    await t.send("prompts/get", 1);
    await t.send("tools/call", 2);
    expect(t.calls.map((c) => c.body!["method"])).toEqual(["prompts/get", "tools/call"]);
    expect(t.received).toEqual([
      { jsonrpc: "2.0", id: 1, error: MISMATCH },
      { jsonrpc: "2.0", id: 2, error: notFound },
    ]);
    await t.transport.close();
  });
});
