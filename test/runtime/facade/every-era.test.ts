/**
 * McpServers (the generated cross-revision entry over runtime/facade/every-era.ts): one
 * registration set serves every revision
 * - in memory: our McpClient of each of the six revisions on its own connection of one
 *   McpServers, served by the revision its first message picks (initialize's protocolVersion,
 *   a 2026-07-28 request's `_meta` version);
 * - over stdio: a child process (every-era/stdio-server.ts) serving the set, reached by our
 *   2025-11-25 and 2026-07-28 clients;
 * and says at registration, not at call time, where a registration cannot exist.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import * as R24 from "../../generated/2024-11-05/index.js";
import * as R0326 from "../../generated/2025-03-26/index.js";
import * as R0618 from "../../generated/2025-06-18/index.js";
import * as R25 from "../../generated/2025-11-25/index.js";
import * as R26 from "../../generated/2026-07-28/index.js";
import * as RDraft from "../../generated/draft/index.js";
import { EveryEraServer, McpServers, REVISIONS } from "../../generated/every-era/index.js";
import { StdioClientTransport } from "../../generated/2025-11-25/stdio-spawn.js";
import { within } from "../../helpers/async.js";
import { registerAll, TOOL_NAMES } from "./every-era/registrations.js";

const CLIENT_INFO = { name: "every-era-client", version: "1.0.0" };
const ECHO = { name: "echo", arguments: { text: "hi" } };
const STDIO_SERVER = fileURLToPath(new URL("./every-era/stdio-server.ts", import.meta.url));

const firstText = (result: unknown): unknown => (result as { content: Array<{ text?: unknown }> }).content[0]?.text;
const names = (result: { tools: ReadonlyArray<{ name: string }> }): string[] => result.tools.map((tool) => tool.name);

/** What our McpClients of the session revisions share, for the tests that run them alike. */
interface SessionClient {
  connect(transport: unknown, options?: { readonly initialize?: boolean }): Promise<void>;
  initialize(params: { protocolVersion: string; capabilities: object; clientInfo: typeof CLIENT_INFO }): Promise<{ protocolVersion: string }>;
  notify(method: "notifications/initialized"): Promise<void>;
  listTools(params: object): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: object): Promise<unknown>;
  close(): Promise<void>;
}

/** What our McpClients of the stateless revisions share. */
interface StatelessClient {
  connect(transport: unknown): Promise<void>;
  listTools(params: object): Promise<{ tools: Array<{ name: string }>; resultType?: string }>;
  callTool(params: object): Promise<unknown>;
  close(): Promise<void>;
}

const SESSION = [
  ["2025-11-25", R25, () => new R25.McpClient({ logger: null })],
  ["2025-06-18", R0618, () => new R0618.McpClient({ logger: null })],
  ["2025-03-26", R0326, () => new R0326.McpClient({ logger: null })],
  ["2024-11-05", R24, () => new R24.McpClient({ logger: null })],
] as const;

const STATELESS = [
  ["2026-07-28", R26, () => new R26.McpClient({ clientInfo: CLIENT_INFO, logger: null })],
  ["draft", RDraft, () => new RDraft.McpClient({ clientInfo: CLIENT_INFO, logger: null })],
] as const;

let open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.map((item) => item.close()));
  open = [];
});

function everyEra(logger: ((line: string) => void) | null = null): McpServers {
  const server = new McpServers({ serverInfo: { name: "every-era", version: "1.0.0" }, logger });
  open.push(server);
  return server;
}

describe("in memory: one McpServers, a client of every revision", () => {
  it("serves all six revisions generated", () => {
    expect(REVISIONS).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"]);
    // Newest first; an undated label (draft) counts as newer than every dated one.
    expect(everyEra().served).toEqual(["draft", "2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
  });

  it.each(SESSION)("%s: initialize negotiates that revision, tools/list and tools/call answer", async (revision, R, makeClient) => {
    const server = everyEra();
    registerAll(server);
    const [clientSide, serverSide] = R.createInMemoryTransportPair();
    await server.connect(serverSide);
    const client = makeClient() as unknown as SessionClient;
    open.push(client);
    await client.connect(clientSide, { initialize: false });
    expect((await within("initialize", client.initialize({ protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO }))).protocolVersion).toBe(revision);
    await client.notify("notifications/initialized");
    expect(names(await client.listTools({}))).toEqual(TOOL_NAMES);
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
  });

  it.each(STATELESS)("%s: its requests' _meta version picks it; results are of the stateless era (resultType)", async (_revision, R, makeClient) => {
    const server = everyEra();
    registerAll(server);
    const [clientSide, serverSide] = R.createInMemoryTransportPair();
    await server.connect(serverSide);
    const client = makeClient() as unknown as StatelessClient;
    open.push(client);
    await client.connect(clientSide);
    const list = await client.listTools({});
    expect(names(list)).toEqual(TOOL_NAMES);
    expect(list.resultType).toBe("complete");
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
  });

  it("a registration made after the servers exist reaches them; update, disable and remove reach every revision", async () => {
    const server = everyEra();
    registerAll(server);
    const session = new R25.McpClient({ logger: null });
    const modern = new R26.McpClient({ clientInfo: CLIENT_INFO, logger: null });
    open.push(session, modern);
    const [a, b] = R25.createInMemoryTransportPair();
    await server.connect(b);
    await session.connect(a, { initialize: false });
    await session.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO });
    const [c, d] = R26.createInMemoryTransportPair();
    await server.connect(d);
    await modern.connect(c);
    await modern.listTools({});

    const late = server.registerTool("late", { description: "first" }, () => ({ content: [{ type: "text", text: "late" }] }));
    late.update({ description: "second" });
    const descriptions = async () => [(await session.listTools({})).tools, (await modern.listTools({})).tools].map((tools) => tools.find((t) => t.name === "late")?.description);
    expect(await descriptions()).toEqual(["second", "second"]);
    late.disable();
    expect(await descriptions()).toEqual([undefined, undefined]);
    late.enable();
    expect(await descriptions()).toEqual(["second", "second"]);
    late.remove();
    expect(await descriptions()).toEqual([undefined, undefined]);
  });
});

describe("over stdio: a child process serving the registration set", () => {
  const spawnServer = () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", STDIO_SERVER], stderr: "ignore" });
    return transport;
  };

  it("a 2025-11-25 client: initialize, tools/list, tools/call", async () => {
    const client = new R25.McpClient({ logger: null });
    open.push(client);
    await client.connect(spawnServer(), { initialize: false });
    expect((await within("initialize", client.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO }), 10_000)).protocolVersion).toBe("2025-11-25");
    await client.notify("notifications/initialized");
    expect(names(await client.listTools({}))).toEqual(TOOL_NAMES);
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
  });

  it("a 2026-07-28 client: tools/list (resultType complete), tools/call", async () => {
    const client = new R26.McpClient({ clientInfo: CLIENT_INFO, logger: null });
    open.push(client);
    await client.connect(spawnServer());
    const list = await within("tools/list", client.listTools({}), 10_000);
    expect(names(list)).toEqual(TOOL_NAMES);
    expect(list.resultType).toBe("complete");
    expect(firstText(await client.callTool(ECHO))).toBe("echo: hi");
  });
});

describe("a registration a revision cannot have is reported when it is registered", () => {
  it("a tool that requires multi round-trip requests: one line naming each session revision and why; served by the stateless ones only", async () => {
    const lines: string[] = [];
    const server = everyEra((line) => lines.push(line));
    registerAll(server);
    server.registerTool("ask", { description: "asks the user", requires: ["inputRequired"] }, () => ({ content: [{ type: "text", text: "asked" }] }));
    expect(lines).toEqual([
      'mcp: registerTool("ask") is not served on 2025-11-25 (no multi round-trip requests (InputRequiredResult, basic/patterns/mrtr)); 2025-06-18 (no multi round-trip requests (InputRequiredResult, basic/patterns/mrtr)); 2025-03-26 (no multi round-trip requests (InputRequiredResult, basic/patterns/mrtr)); 2024-11-05 (no multi round-trip requests (InputRequiredResult, basic/patterns/mrtr))',
    ]);
    const [a, b] = R25.createInMemoryTransportPair();
    await server.connect(b);
    const session = new R25.McpClient({ logger: null });
    open.push(session);
    await session.connect(a, { initialize: false });
    await session.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO });
    expect(names(await session.listTools({}))).toEqual(TOOL_NAMES);
    const [c, d] = R26.createInMemoryTransportPair();
    await server.connect(d);
    const modern = new R26.McpClient({ clientInfo: CLIENT_INFO, logger: null });
    open.push(modern);
    await modern.connect(c);
    expect(names(await modern.listTools({}))).toEqual([...TOOL_NAMES, "ask"]);
  });

  it("an outputSchema: not on the revisions whose tools have none (2025-03-26, 2024-11-05)", () => {
    const lines: string[] = [];
    everyEra((line) => lines.push(line)).registerTool("sum", { outputSchema: { type: "object", properties: { n: { type: "number" } } } as const }, () => ({ content: [], structuredContent: { n: 1 } }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mcp: registerTool\("sum"\) is not served on 2025-03-26 \(tools have no outputSchema.*\); 2024-11-05 \(tools have no outputSchema/);
  });

  it("a feature no served revision has (Tasks, not generated here) throws a RangeError naming every revision; an unknown feature is refused", () => {
    const server = everyEra();
    expect(() => server.registerTool("task", { requires: ["tasks"] }, () => ({ content: [] }))).toThrow(
      /^registerTool\("task"\): no served revision can have it: draft \(the Tasks extension is not generated into it\); 2026-07-28 \(.*\); 2024-11-05 \(the Tasks extension is not generated into it\)$/,
    );
    // @ts-expect-error: not an EraFeature
    expect(() => server.registerTool("odd", { requires: ["telepathy"] }, () => ({ content: [] }))).toThrow(RangeError);
  });

  it("options for a revision not served are refused", () => {
    expect(() => new McpServers({ revisions: { "1999-01-01": {} } })).toThrow(/"1999-01-01" is not a served revision/);
  });
});

describe("fewer revisions: the newest session revision's server answers the session versions not generated", () => {
  it("2025-11-25 and 2026-07-28 only: the 2025-11-25 server negotiates 2025-06-18 and 2025-03-26 too, and serves HTTP+SSE", async () => {
    const server = new EveryEraServer([R25, R26], { logger: null });
    open.push(server);
    expect(server.protocolVersions("2025-11-25")).toEqual(["2025-11-25", "2025-06-18", "2025-03-26"]);
    expect(server.protocolVersions("2026-07-28")).toEqual(["2026-07-28"]);
    const [a, b] = R0618.createInMemoryTransportPair();
    await server.connect(b);
    const client = new R0618.McpClient({ logger: null });
    open.push(client);
    await client.connect(a, { initialize: false });
    expect((await client.initialize({ protocolVersion: "2025-06-18", capabilities: {}, clientInfo: CLIENT_INFO })).protocolVersion).toBe("2025-06-18");
    const handler = server.createHttpHandler();
    open.push(handler);
    expect(Object.keys(handler.sessions)).toEqual(["2025-11-25"]);
    expect(handler.legacySse?.ssePath).toBe("/sse");
  });

  it("all six: each session revision negotiates its own version only; 2026-07-28's server also accepts draft (the router's one stateless route)", () => {
    const server = everyEra();
    expect(server.protocolVersions("2025-11-25")).toEqual(["2025-11-25"]);
    expect(server.protocolVersions("2025-06-18")).toEqual(["2025-06-18"]);
    expect(server.protocolVersions("2026-07-28")).toEqual(["2026-07-28", "draft"]);
    expect(server.protocolVersions("draft")).toEqual(["draft"]);
  });

  it("`revisions` as a function is asked once per revision whose server is made, with its era", async () => {
    const asked: Array<[string, boolean]> = [];
    const server = new McpServers({ logger: null, revisions: (revision, { stateless }) => (asked.push([revision, stateless]), { instructions: `for ${revision}` }) });
    open.push(server);
    registerAll(server);
    const [a, b] = R0326.createInMemoryTransportPair();
    await server.connect(b);
    const client = new R0326.McpClient({ logger: null });
    open.push(client);
    await client.connect(a, { initialize: false });
    expect((await client.initialize({ protocolVersion: "2025-03-26", capabilities: {}, clientInfo: CLIENT_INFO })).instructions).toBe("for 2025-03-26");
    expect(asked).toEqual([["2025-03-26", false]]);
  });
});

describe("a session-era-only registration (requires serverRequests)", () => {
  it("is not served on the stateless revisions, and says so at registration", () => {
    const lines: string[] = [];
    everyEra((line) => lines.push(line)).registerTool("sample", { requires: ["serverRequests"] }, () => ({ content: [] }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mcp: registerTool\("sample"\) is not served on draft \(no server-to-client requests.*\); 2026-07-28 \(no server-to-client requests/);
  });
});

