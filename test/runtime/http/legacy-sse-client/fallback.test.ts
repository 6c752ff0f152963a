/**
 * The fallback client of the session revisions (2025-03-26 basic/transports, Backwards
 * Compatibility): the InitializeRequest POSTed as Streamable HTTP; on 400, 404 or 405 a GET of
 * the URL, and HTTP+SSE from there when it opens a stream with an `endpoint` event. Against our
 * legacy-only server, the SDK 1.32 HTTP+SSE server, the SDK 1.32 Streamable HTTP server, and
 * servers that answer the POST with a status that must not switch the transport.
 */
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer as SdkMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as R from "../../../generated/2025-11-25/index.js";
import * as Old from "../../../generated/2024-11-05/index.js";
import { within } from "../../../helpers/async.js";
import { closeAll, listen, sdkSseServer, TEXT } from "./support.js";

afterEach(closeAll);

const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fallback-test", version: "1.0.0" } };

/** The global fetch, recording "METHOD path" of every request. */
function recording(): { fetch: R.FetchLike; log: string[] } {
  const log: string[] = [];
  return { log, fetch: (input, init) => (log.push(`${init.method ?? "GET"} ${new URL(input).pathname}`), fetch(input, init)) };
}

async function connect(url: string, options: Partial<R.FallbackHttpClientTransportOptions> = {}) {
  const { fetch, log } = recording();
  const errors: Error[] = [];
  const transport = R.createFallbackHttpClientTransport({ url, fetch, listen: false, ...options });
  const client = new R.McpClient({ logger: null, onError: (e) => errors.push(e) });
  await client.connect(transport, { initialize: false });
  return { client, transport, log, errors };
}

describe("fallback client: old servers", () => {
  it("against our legacy-only server (its SSE URL answers POST with 405): falls back, initializes and calls a tool over HTTP+SSE", async () => {
    const server = new Old.McpServer({ logger: null, handlers: { "tools/call": (params) => ({ content: [TEXT(`legacy ${params.name}`)] }) } });
    const handler = Old.createLegacySseHandler(server);
    const legacy = await listen(Old.toNodeListener(handler), () => server.close());
    const { client, transport, log } = await connect(`${legacy.origin}/sse`);
    const initialized = await within("initialize", client.initialize(INITIALIZE));
    expect(initialized).toMatchObject({ protocolVersion: "2024-11-05" });
    expect(transport.kind).toBe("http+sse");
    expect(transport.sessionId).toBeUndefined();
    await client.notify("notifications/initialized");
    expect(await within("tools/call", client.callTool({ name: "t" }))).toMatchObject({ content: [TEXT("legacy t")] });
    expect(log.slice(0, 3)).toEqual(["POST /sse", "GET /sse", "POST /messages"]);
    await client.close();
  });

  it("against the SDK 1.32 HTTP+SSE server (POST to its SSE URL is 404): falls back and works", async () => {
    const sdk = await sdkSseServer();
    const { client, transport } = await connect(`${sdk.origin}/sse`);
    expect(await within("initialize", client.initialize(INITIALIZE))).toMatchObject({ serverInfo: { name: "sdk-sse-server" } });
    expect(transport.kind).toBe("http+sse");
    await client.notify("notifications/initialized");
    expect(await within("tools/call", client.callTool({ name: "echo" }))).toEqual({ content: [TEXT("echo from the SDK")] });
    expect(sdk.requests.slice(0, 2)).toEqual(["POST /sse", "GET /sse"]);
    await client.close();
  });
});

describe("fallback client: servers it must not switch on", () => {
  it("a Streamable HTTP server (SDK 1.32 with sessions): stays on Streamable HTTP, no GET before initialize answered", async () => {
    const mcp = new SdkMcpServer({ name: "sdk-streamable", version: "1.0.0" });
    mcp.registerTool("echo", { description: "echo" }, () => ({ content: [TEXT("streamable")] }));
    const sdkTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await mcp.connect(sdkTransport);
    const server = await listen((req, res) => void sdkTransport.handleRequest(req, res).catch(() => res.destroy()), () => mcp.close());
    const { client, transport, log } = await connect(`${server.origin}/mcp`);
    await within("initialize", client.initialize(INITIALIZE));
    expect(transport.kind).toBe("streamable-http");
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await client.notify("notifications/initialized");
    expect(await within("tools/call", client.callTool({ name: "echo" }))).toEqual({ content: [TEXT("streamable")] });
    expect(log).toEqual(["POST /mcp", "POST /mcp", "POST /mcp"]);
    await client.close();
  });

  it("401 to the initialize POST is the client's problem, not the transport's: no GET, the request fails with its status", async () => {
    const seen: string[] = [];
    const server = await listen((req, res) => {
      seen.push(req.method ?? "");
      res.writeHead(401, { "www-authenticate": "Bearer" }).end();
    });
    const { client, transport } = await connect(`${server.origin}/mcp`);
    const error = await client.initialize(INITIALIZE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.HttpStatusError);
    expect((error as R.HttpStatusError).status).toBe(401);
    expect(seen).toEqual(["POST"]);
    expect(transport.kind).toBeUndefined();
  });

  it("a 400 whose URL opens no HTTP+SSE stream: the JSON-RPC error of the 400 answers initialize, as without the fallback", async () => {
    const server = await listen((req, res) => {
      if (req.method === "POST") {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32602, message: "no such version" } }));
      } else {
        res.writeHead(405, { allow: "POST" }).end();
      }
    });
    const { client, transport, log, errors } = await connect(`${server.origin}/mcp`);
    const error = await client.initialize(INITIALIZE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.McpError);
    expect((error as R.McpError).code).toBe(-32602);
    expect(log).toEqual(["POST /mcp", "GET /mcp"]);
    // The server answered in Streamable HTTP's terms (a JSON-RPC error): that is the transport from here on.
    expect(transport.kind).toBe("streamable-http");
    expect(errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/HTTP\+SSE fallback failed/));
  });

  it("rejects bad options where they are read", () => {
    expect(() => R.createFallbackHttpClientTransport({ url: "http://127.0.0.1:1/mcp", fallbackStatuses: [200] })).toThrow(/fallbackStatuses/);
    expect(() => R.createFallbackHttpClientTransport({ url: "http://127.0.0.1:1/mcp", endpointTimeoutMs: -1 })).toThrow(/endpointTimeoutMs/);
    expect(() => R.createFallbackHttpClientTransport({ url: "http://127.0.0.1:1/mcp", maxMessageBytes: 0 })).toThrow(/maxMessageBytes/);
  });
});
