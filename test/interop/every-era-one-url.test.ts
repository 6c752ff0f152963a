/**
 * One registration set, every era, one URL (issue 42, item 1): the registrations of
 * test/runtime/facade/every-era/registrations.ts made once on the generated cross-revision entry
 * (test/generated/every-era, McpServers), served by its createHttpHandler (the era router over
 * the stateless handler, a session handler per session revision and HTTP+SSE, with one set of
 * shared options) on node:http on loopback, native face. Every client sees the same tools in
 * tools/list and gets an answer from tools/call:
 * - SDK 1.32 (Streamable HTTP, and SSEClientTransport at /sse);
 * - SDK v2 2.4.0 with default options, `mode: "auto"` and `mode: { pin: "2026-07-28" }`;
 * - our generated McpClient of each of the six revisions over its own HTTP transport.
 */
import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport as SdkV1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as SdkV2Client, StreamableHTTPClientTransport as SdkV2Http } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as R24 from "../generated/2024-11-05/index.js";
import * as R0326 from "../generated/2025-03-26/index.js";
import * as R0618 from "../generated/2025-06-18/index.js";
import * as R25 from "../generated/2025-11-25/index.js";
import * as R26 from "../generated/2026-07-28/index.js";
import * as RDraft from "../generated/draft/index.js";
import { McpServers, type EveryEraHttpHandler } from "../generated/every-era/index.js";
import { within } from "../helpers/async.js";
import { listen, type Listening } from "../helpers/faces.js";
import { registerAll, TOOL_NAMES } from "../runtime/facade/every-era/registrations.js";

const CLIENT_INFO = { name: "every-era-client", version: "1.0.0" };
const ECHO = { name: "echo", arguments: { text: "hi" } };

/** The text of a tools/call result's first content block. */
const firstText = (result: unknown): unknown => (result as { content: Array<{ text?: unknown }> }).content[0]?.text;
const names = (result: { tools: ReadonlyArray<{ name: string }> }): string[] => result.tools.map((tool) => tool.name);

/** What our session-era McpClients share, for the tests that run them alike. */
interface SessionClient {
  connect(transport: unknown, options?: { readonly initialize?: boolean }): Promise<void>;
  initialize(params: { protocolVersion: string; capabilities: object; clientInfo: typeof CLIENT_INFO }): Promise<{ protocolVersion: string }>;
  notify(method: "notifications/initialized"): Promise<void>;
  listTools(params: object): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: typeof ECHO): Promise<unknown>;
  close(): Promise<void>;
}

describe("one registration set on one URL (McpServers.createHttpHandler, node:http native face)", () => {
  let server: McpServers;
  let handler: EveryEraHttpHandler;
  let served: Listening;
  beforeAll(async () => {
    server = new McpServers({ serverInfo: { name: "every-era", version: "1.0.0" }, logger: null });
    registerAll(server);
    handler = server.createHttpHandler({ path: "/mcp" });
    served = await listen("native", handler);
  });
  afterAll(async () => {
    await handler.close();
    await server.close();
    await served.close();
  });

  it("builds one handler per era behind the router: modern 2026-07-28, a session handler per Streamable HTTP session revision, HTTP+SSE", () => {
    expect(handler.modern?.httpBinding.supportedVersions).toEqual(["2026-07-28", "draft"]);
    expect(Object.keys(handler.sessions).sort()).toEqual(["2025-03-26", "2025-06-18", "2025-11-25"]);
    expect(handler.legacySse?.ssePath).toBe("/sse");
  });

  it("SDK 1.32, Streamable HTTP: a 2025-11-25 session", async () => {
    const client = new SdkV1Client(CLIENT_INFO);
    const transport = new SdkV1Http(new URL(served.url));
    await within("connect", client.connect(transport));
    expect(handler.sessions["2025-11-25"]!.hasSession(transport.sessionId!)).toBe(true);
    expect(names(await client.listTools())).toEqual(TOOL_NAMES);
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
    await client.close();
  });

  it("SDK 1.32, SSEClientTransport at /sse: HTTP+SSE (2024-11-05)", async () => {
    const client = new SdkV1Client(CLIENT_INFO);
    await within("connect", client.connect(new SSEClientTransport(new URL(`${served.origin}/sse`))));
    expect(names(await client.listTools())).toEqual(TOOL_NAMES);
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
    await client.close();
  });

  it.each([
    ["default options (initialize)", undefined, "2025-11-25"],
    ["mode 'auto' (server/discover)", { mode: "auto" }, "2026-07-28"],
    ["mode { pin: '2026-07-28' }", { mode: { pin: "2026-07-28" } }, "2026-07-28"],
  ] as const)("SDK v2 2.4.0, %s: %s", async (_label, versionNegotiation, version) => {
    const client = new SdkV2Client(CLIENT_INFO, versionNegotiation === undefined ? {} : { versionNegotiation });
    await within("connect", client.connect(new SdkV2Http(new URL(served.url))));
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect(names(await client.listTools())).toEqual(TOOL_NAMES);
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
    await client.close();
  });

  it.each([
    ["2026-07-28", () => new R26.McpClient({ clientInfo: CLIENT_INFO, logger: null }), (url: string) => R26.createHttpClientTransport({ url })],
    ["draft", () => new RDraft.McpClient({ clientInfo: CLIENT_INFO, logger: null }), (url: string) => RDraft.createHttpClientTransport({ url })],
  ] as const)("our %s McpClient over createHttpClientTransport: the stateless handler", async (_revision, makeClient, makeTransport) => {
    const client = makeClient();
    await client.connect(makeTransport(served.url));
    expect(names(await client.listTools({}))).toEqual(TOOL_NAMES);
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
    await client.close();
  });

  it.each([
    ["2025-11-25", () => new R25.McpClient({ logger: null }), (url: string) => R25.createSessionHttpClientTransport({ url, listen: false })],
    ["2025-06-18", () => new R0618.McpClient({ logger: null }), (url: string) => R0618.createSessionHttpClientTransport({ url, listen: false })],
    ["2025-03-26", () => new R0326.McpClient({ logger: null }), (url: string) => R0326.createSessionHttpClientTransport({ url, listen: false })],
    ["2024-11-05", () => new R24.McpClient({ logger: null }), (url: string) => R24.createLegacySseClientTransport({ url: url.replace(/\/mcp$/, "/sse") })],
  ] as const)("our %s McpClient: a session of that revision", async (revision, makeClient, makeTransport) => {
    const client = makeClient() as unknown as SessionClient;
    await client.connect(makeTransport(served.url), { initialize: false });
    expect((await within("initialize", client.initialize({ protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO }))).protocolVersion).toBe(revision);
    await client.notify("notifications/initialized");
    expect(names(await client.listTools({}))).toEqual(TOOL_NAMES);
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
    await client.close();
  });
});
