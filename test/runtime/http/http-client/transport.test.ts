/**
 * The Streamable HTTP client transport of 2026-07-28 (templates/runtime/http/http-client.ts) against
 * our own generated server (createHttpHandler on 127.0.0.1:0, on both faces: native node:http and
 * web-standard, test/helpers/faces.ts): the exact
 * headers of each request kind, JSON and SSE responses, cancel = closing the request's stream
 * (no notifications/cancelled), and a broken stream as its own error. No wall-clock assertions
 * beyond generous test timeouts: every step awaits an event.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { fixtureHandlers } from "../stateless/fixture-server.js";
import { abortOf, deferred, describeFaces, serve, type Face, type Served } from "../stateless/support.js";
import { connectClient, CLIENT_INFO, recordingFetch } from "./support.js";

const served: Served[] = [];
afterEach(async () => {
  for (const s of served.splice(0)) await s.close();
});

async function fixture(face: Face, onSlow?: (ctx: { readonly signal: AbortSignal }) => void): Promise<Served> {
  const s = await serve(face, { handlers: fixtureHandlers(onSlow) });
  served.push(s);
  return s;
}

const BASE = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
};

describeFaces("HttpClientTransport: headers per request kind", (face) => {
  it("sends exactly MCP-Protocol-Version, Mcp-Method, Mcp-Name and the tool's Mcp-Param-* headers", async () => {
    const s = await fixture(face);
    const { client, posted, errors } = await connectClient(s.url);
    const tools = await client.listTools({});
    expect(tools.tools.map((t) => t.name)).toContain("echo");
    const echoed = await client.callTool({ name: "echo", arguments: { text: "hi", region: "Hello, 世界", count: 42, options: { verbose: true } } });
    expect(echoed).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    await client.callTool({ name: "echo", arguments: { text: "no headers" } });
    await client.getPrompt({ name: "=?base64?x?=" }).catch((e: unknown) => e);
    const notFound = await client.readResource({ uri: "file:///tmp/a b" }).catch((e: unknown) => e);
    // No resources/read handler: 404 with -32601 in the body, which answers the request.
    expect(notFound).toBeInstanceOf(R.McpError);
    expect((notFound as R.McpError).code).toBe(-32601);

    expect(posted.map((p) => p.headers)).toEqual([
      { ...BASE, "mcp-method": "tools/list" },
      {
        ...BASE,
        "mcp-method": "tools/call",
        "mcp-name": "echo",
        // Value Encoding: non-ASCII as the base64 sentinel, integers in decimal, booleans lower case.
        "mcp-param-region": "=?base64?SGVsbG8sIOS4lueVjA==?=",
        "mcp-param-count": "42",
        "mcp-param-verbose": "true",
      },
      { ...BASE, "mcp-method": "tools/call", "mcp-name": "echo" },
      // A value that looks like the sentinel is encoded too.
      { ...BASE, "mcp-method": "prompts/get", "mcp-name": `=?base64?${btoa("=?base64?x?=")}?=` },
      { ...BASE, "mcp-method": "resources/read", "mcp-name": "file:///tmp/a b" },
    ]);
    // The version header equals the body's _meta, which the client fills on every request.
    for (const p of posted) {
      expect((p.body["params"] as { _meta: Record<string, unknown> })._meta).toMatchObject({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      });
    }
    expect(errors).toEqual([]);
    await client.close();
  });

  it("a notification: MCP-Protocol-Version (the last request's) and Mcp-Method, nothing else; 202 resolves", async () => {
    const s = await fixture(face);
    const { client, transport, posted } = await connectClient(s.url);
    await client.listTools({});
    // The one notification a 2026-07-28 client has (notify() refuses it: untyped code sends it).
    await transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } });
    expect(posted.map((p) => p.headers)).toEqual([
      { ...BASE, "mcp-method": "tools/list" },
      { ...BASE, "mcp-method": "notifications/cancelled" },
    ]);
    await client.close();
    // Before any request, the protocolVersion option names the version.
    const recorded = recordingFetch();
    const fresh = R.createHttpClientTransport({ url: s.url, protocolVersion: "2026-07-28", fetch: recorded.fetch });
    await fresh.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    expect(recorded.posted.map((p) => p.headers)).toEqual([{ ...BASE, "mcp-method": "notifications/cancelled" }]);
    await fresh.close();
  });

  it("drops tools whose x-mcp-header annotations are invalid from tools/list, and says why", async () => {
    const bad: R.Tool[] = [
      { name: "ok", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "A" } } } },
      { name: "number", inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } } },
      { name: "dup", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } } } },
      { name: "space", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "A B" } } } },
      { name: "items", inputSchema: { type: "object", properties: { l: { type: "array", items: { type: "string", "x-mcp-header": "L" } } } } },
      { name: "anyOf", inputSchema: { type: "object", anyOf: [{ properties: { a: { type: "string", "x-mcp-header": "A" } } }] } },
    ];
    const s = await serve(face, { handlers: { "tools/list": () => ({ resultType: "complete", tools: bad, ttlMs: 0, cacheScope: "public" }) } });
    served.push(s);
    const { client, errors } = await connectClient(s.url);
    const { tools } = await client.listTools({});
    expect(tools.map((t) => t.name)).toEqual(["ok"]);
    expect(errors.map((e) => e.message.split(":")[1]?.trim().split(" ")[1])).toEqual(['"number"', '"dup"', '"space"', '"items"', '"anyOf"']);
    await client.close();
  });
});

describeFaces("HttpClientTransport: responses", (face) => {
  it("reads an SSE response: the notifications before it reach the client, then the result", async () => {
    const s = await fixture(face);
    const { client, errors } = await connectClient(s.url, {
      notificationHandlers: { "notifications/message": (p) => void messages.push(p) },
    });
    const messages: unknown[] = [];
    const progress: R.Progress[] = [];
    const result = await client.callTool(
      { name: "test_logging_tool", _meta: { "io.modelcontextprotocol/logLevel": "info" } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result).toMatchObject({ content: [{ type: "text", text: "done" }] });
    expect(messages).toMatchObject([{ level: "info", data: "logged" }]);
    expect(errors).toEqual([]);
    await client.close();
  });
});

describeFaces("HttpClientTransport: cancel = closing the request's stream", (face) => {
  it("aborting mid-stream closes the stream: the handler's signal aborts, no notifications/cancelled is POSTed", async () => {
    const started = deferred<{ readonly signal: AbortSignal }>();
    const s = await fixture(face, (ctx) => started.resolve(ctx));
    const { client, posted, events } = await connectClient(s.url);
    const stop = new AbortController();
    const firstProgress = deferred<R.Progress>();
    const call = client.callTool({ name: "slow", arguments: {} }, { signal: stop.signal, onProgress: (p) => firstProgress.resolve(p) });
    expect(await firstProgress.promise).toMatchObject({ progress: 1, total: 2 });
    const ctx = await started.promise;
    stop.abort("the user pressed stop");
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.RequestCancelledError);
    expect((error as R.RequestCancelledError).reason).toBe("the user pressed stop");
    expect(await abortOf(ctx.signal)).toBe("request stream closed");
    expect(events).toEqual([
      { type: "sent", requestId: 1, method: "tools/call", reason: "the user pressed stop", cause: "abort", via: "stream-close" },
    ]);
    // Only the tools/call went out: the close is the cancel.
    expect(posted.map((p) => p.body["method"])).toEqual(["tools/call"]);
    expect(s.events).toMatchObject([{ type: "received", requestId: 1, method: "tools/call", reason: "request stream closed" }]);
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });
    // The connection goes on.
    await expect(client.callTool({ name: "echo", arguments: { text: "after" } })).resolves.toMatchObject({ content: [{ text: "after" }] });
    await client.close();
  });

  it("closeRequestStream is false for an id without a stream; close() rejects pending requests", async () => {
    const started = deferred<{ readonly signal: AbortSignal }>();
    const s = await fixture(face, (ctx) => started.resolve(ctx));
    const { client, transport } = await connectClient(s.url);
    expect(transport.closeRequestStream(99)).toBe(false);
    const call = client.callTool({ name: "slow", arguments: {} }).catch((e: unknown) => e);
    const ctx = await started.promise;
    await client.close();
    expect(await call).toBeInstanceOf(R.ConnectionClosedError);
    expect(await abortOf(ctx.signal)).toBe("request stream closed");
  });
});

describe("HttpClientTransport: header values", () => {
  it("encodes header values as the spec's table shows", () => {
    expect(R.encodeHeaderValue("us-west1")).toBe("us-west1");
    expect(R.encodeHeaderValue("Hello, 世界")).toBe("=?base64?SGVsbG8sIOS4lueVjA==?=");
    expect(R.encodeHeaderValue(" padded ")).toBe("=?base64?IHBhZGRlZCA=?=");
    expect(R.encodeHeaderValue("line1\nline2")).toBe("=?base64?bGluZTEKbGluZTI=?=");
    expect(R.encodeHeaderValue("=?base64?literal?=")).toBe("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    for (const value of ["Hello, 世界", " padded ", "line1\nline2", "=?base64?literal?=", ""]) {
      expect(R.decodeHeaderValue(R.encodeHeaderValue(value))).toBe(value);
    }
  });
});
