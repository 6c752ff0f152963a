/**
 * Every client against one URL (issue 29, One endpoint for every era): the generated servers of
 * 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 behind createEraRouter on a real
 * node:http server on loopback (test/runtime/http/server/era-router/support.ts), on both faces of
 * the router (test/helpers/faces.ts), each server's `era` tool naming its revision, so each test
 * sees which server a client reached:
 *
 * - the official SDK 1.32 client (StreamableHTTPClientTransport) and SDK v2 2.4.0
 *   (`@modelcontextprotocol/client`) with default options: sessions on 2025-11-25;
 * - SDK v2 pinned to 2026-07-28, and with `versionNegotiation: { mode: "auto" }`: 2026-07-28;
 * - our McpClient of every revision over its own HTTP transport (2026-07-28 stateless, the
 *   session revisions' session and fallback transports, 2024-11-05 HTTP+SSE at /sse), and the
 *   SDK 1.32 SSEClientTransport at /sse;
 * - a 2026-07-28 server alone: SDK v2 with default options is told which versions it serves
 *   (UnsupportedProtocolVersion in the 400's body), and connects with `mode: "auto"`.
 */
import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport as SdkV1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as SdkV2Client, StreamableHTTPClientTransport as SdkV2Http } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../helpers/async.js";
import { describeFaces, listen } from "../helpers/faces.js";
import { firstText, R0326, R0618, R24, R25, R26, serveOneUrl, type OneUrl } from "../runtime/http/server/era-router/support.js";

/** What the session revisions' generated McpClients share, for a test that runs the three alike. */
interface SessionClient {
  connect(transport: unknown, options: { initialize: false }): Promise<void>;
  initialize(params: ReturnType<typeof initializeParams>): Promise<{ protocolVersion: string }>;
  notify(method: "notifications/initialized"): Promise<void>;
  callTool(params: { name: string }): Promise<unknown>;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: "one-url-client", version: "1.0.0" };
const initializeParams = (protocolVersion: string) => ({ protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO });

describeFaces("one URL", (face) => {
  let s: OneUrl;
  beforeAll(async () => {
    s = await serveOneUrl(face);
  });
  afterAll(async () => {
    await s.close();
  });

  describe("the official SDKs, connecting with no options, reach the session era", () => {
    it("SDK 1.32 (StreamableHTTPClientTransport): a 2025-11-25 session, served by the 2025-11-25 server", async () => {
      const client = new SdkV1Client(CLIENT_INFO);
      const transport = new SdkV1Http(new URL(s.url));
      await within("connect", client.connect(transport));
      expect(transport.sessionId).toBeDefined();
      expect(s.sessions["2025-11-25"].hasSession(transport.sessionId!)).toBe(true);
      expect(firstText(await client.callTool({ name: "era" }))).toBe("2025-11-25");
      await client.close();
    });

    it("SDK v2 2.4.0 with default options (versionNegotiation 'legacy'): initialize, then a 2025-11-25 session", async () => {
      const client = new SdkV2Client(CLIENT_INFO);
      await within("connect", client.connect(new SdkV2Http(new URL(s.url))));
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect(firstText(await client.callTool({ name: "era" }))).toBe("2025-11-25");
      await client.close();
    });

    it("SDK 1.32 SSEClientTransport at /sse: the HTTP+SSE server", async () => {
      const client = new SdkV1Client(CLIENT_INFO);
      await within("connect", client.connect(new SSEClientTransport(new URL(`${s.origin}/sse`))));
      expect(firstText(await client.callTool({ name: "era" }))).toBe("2024-11-05");
      await client.close();
    });
  });

  describe("SDK v2 asking for 2026-07-28 reaches the stateless server on the same URL", () => {
    it.each([
      ["pinned", { mode: { pin: "2026-07-28" } }],
      ["auto (server/discover, then the modern era)", { mode: "auto" }],
    ] as const)("%s", async (_label, versionNegotiation) => {
      const client = new SdkV2Client(CLIENT_INFO, { versionNegotiation });
      await within("connect", client.connect(new SdkV2Http(new URL(s.url))));
      expect(firstText(await client.callTool({ name: "era" }))).toBe("2026-07-28");
      await client.close();
    });
  });

  describe("our clients of every revision, each served by its own revision's server", () => {
    it("2026-07-28: McpClient over createHttpClientTransport", async () => {
      const client = new R26.McpClient({ clientInfo: CLIENT_INFO, logger: null });
      await client.connect(R26.createHttpClientTransport({ url: s.url }), { initialize: false });
      expect(firstText(await client.callTool({ name: "era", arguments: {} }))).toBe("2026-07-28");
      await client.close();
    });

    it.each([
      ["2025-11-25", () => new R25.McpClient({ logger: null }), () => R25.createSessionHttpClientTransport({ url: s.url, listen: false })],
      ["2025-06-18", () => new R0618.McpClient({ logger: null }), () => R0618.createSessionHttpClientTransport({ url: s.url, listen: false })],
      ["2025-03-26", () => new R0326.McpClient({ logger: null }), () => R0326.createSessionHttpClientTransport({ url: s.url, listen: false })],
      ["2025-11-25", () => new R25.McpClient({ logger: null }), () => R25.createFallbackHttpClientTransport({ url: s.url, listen: false })],
    ] as const)("%s: McpClient over a session transport", async (revision, makeClient, makeTransport) => {
      // The three revisions' clients differ in their typed maps only; what this test calls they share.
      const client = makeClient() as unknown as SessionClient;
      await client.connect(makeTransport(), { initialize: false });
      const result = await within("initialize", client.initialize(initializeParams(revision)));
      expect(result.protocolVersion).toBe(revision);
      await client.notify("notifications/initialized");
      expect(firstText(await client.callTool({ name: "era" }))).toBe(revision);
      await client.close();
    });

    it("2024-11-05: McpClient over createLegacySseClientTransport at /sse", async () => {
      const client = new R24.McpClient({ logger: null });
      await client.connect(R24.createLegacySseClientTransport({ url: `${s.origin}/sse` }), { initialize: false });
      expect((await within("initialize", client.initialize(initializeParams("2024-11-05")))).protocolVersion).toBe("2024-11-05");
      await client.notify("notifications/initialized");
      expect(firstText(await client.callTool({ name: "era" }))).toBe("2024-11-05");
      await client.close();
    });
  });

  describe("a 2026-07-28 server alone (basic/versioning, Backward Compatibility)", () => {
    it("SDK v2 with default options is refused (400, UnsupportedProtocolVersion naming 2026-07-28 in the body); with mode 'auto' it connects", async () => {
      const server = new R26.McpServer({
        serverInfo: { name: "modern-only", version: "1.0.0" },
        logger: null,
        handlers: { "tools/list": () => ({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }) },
      });
      const served = await listen(face, R26.createHttpHandler(server));
      const url = new URL(served.url);
      try {
        const legacy = new SdkV2Client(CLIENT_INFO);
        // Its transport rejects the initialize POST's 400 as an HTTP error whose message carries
        // the body: the only diagnostic a client with no fall-forward can show its user.
        const error = (await within("connect", legacy.connect(new SdkV2Http(url)).then(() => undefined, (e: unknown) => e))) as { status?: unknown; message: string };
        expect(error).toBeInstanceOf(Error);
        expect(error.status).toBe(400);
        const body = JSON.parse(error.message.slice(error.message.indexOf("{"))) as unknown;
        expect(body).toEqual({ jsonrpc: "2.0", id: 0, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "2025-11-25" } } });

        const auto = new SdkV2Client(CLIENT_INFO, { versionNegotiation: { mode: "auto" } });
        await within("connect", auto.connect(new SdkV2Http(url)));
        expect((await auto.listTools()).tools).toEqual([]);
        await auto.close();
      } finally {
        await served.close();
      }
    });
  });
});
