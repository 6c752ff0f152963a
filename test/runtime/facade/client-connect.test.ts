/**
 * connect() negotiates as the spec's lifecycle asks (issue 42, item 2): in the session era
 * `initialize` (the client's version, capabilities and info from its options) then
 * `notifications/initialized`, exactly, as the bytes a raw stdio server reads show; in 2026-07-28
 * `server/discover`, then `subscriptions/listen` for the list_changed the server offers. The
 * server's capabilities, info and instructions are kept; a version the client cannot speak
 * rejects and closes; `initialize: false` only attaches, and an initialize()/discover() sent by
 * hand then fills the getters. A discover refused for its version (-32022) is asked once more
 * where the refusal lists this client's version.
 */
import { PassThrough } from "node:stream";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../generated/2025-11-25/index.js";
import * as R26 from "../../generated/2026-07-28/index.js";
import { UNSUPPORTED_PROTOCOL_VERSION } from "../../generated/2026-07-28/types.js";
import { StdioTransport } from "../../generated/2025-11-25/stdio.js";
import { StdioTransport as StdioTransport26 } from "../../generated/2026-07-28/stdio.js";

type Message = { id?: number | string; method?: string; params?: Record<string, unknown> };

/** What `answer` returns to send an error response instead of a result. */
class Refusal {
  constructor(readonly error: { code: number; message: string; data?: unknown }) {}
}

/**
 * A raw server on stdio pipes: it records every line the client wrote, parsed, and answers each
 * request through `answer` (undefined: no answer; a Refusal: that error). The client's stdio
 * transport on its pipes comes with it (`stdio()`, `stdio26()`).
 */
function rawServer(answer: (message: Message) => unknown) {
  const c2s = new PassThrough();
  const s2c = new PassThrough();
  const lines: string[] = [];
  const received: Message[] = [];
  createInterface({ input: c2s }).on("line", (line) => {
    lines.push(line);
    const message = JSON.parse(line) as Message;
    received.push(message);
    if (message.id === undefined) return;
    const result = answer(message);
    if (result instanceof Refusal) s2c.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: result.error }) + "\n");
    else if (result !== undefined) s2c.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\n");
  });
  return {
    lines,
    received,
    /** The client's stdio transport on these pipes (2025-11-25's, or 2026-07-28's). */
    stdio: () => new StdioTransport({ input: s2c, output: c2s }),
    stdio26: () => new StdioTransport26({ input: s2c, output: c2s }),
  };
}

/** A transport whose close() is recorded. */
function recordingClose<T extends { close(): Promise<void> }>(transport: T): T & { closed: boolean } {
  const close = transport.close.bind(transport);
  return Object.assign(transport, {
    closed: false,
    close(this: T & { closed: boolean }) {
      this.closed = true;
      return close();
    },
  });
}

const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
});

const INIT_RESULT = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: { listChanged: true }, logging: {} },
  serverInfo: { name: "raw", version: "9.1.0" },
  instructions: "Call echo first.",
};

/** The getters of a client that heard INIT_RESULT: the server's capabilities, info, instructions and version. */
function expectHeard(client: R.McpClient): void {
  expect(client.serverCapabilities).toEqual(INIT_RESULT.capabilities);
  expect(client.serverVersion).toEqual({ name: "raw", version: "9.1.0" });
  expect(client.instructions).toBe("Call echo first.");
  expect(client.protocolVersion).toBe("2025-11-25");
}

describe("connect() on a 2025-11-25 client", () => {
  it("sends exactly initialize (its options' capabilities and clientInfo) then notifications/initialized, and keeps what the server said", async () => {
    const raw = rawServer((m) => (m.method === "initialize" ? INIT_RESULT : {}));
    const client = new R.McpClient({ logger: null, capabilities: { roots: { listChanged: true } }, clientInfo: { name: "tester", version: "1.2.3" } });
    clients.push(client);
    expect(client.serverCapabilities).toBeUndefined();
    await client.connect(raw.stdio());
    await new Promise((resolve) => setImmediate(resolve));
    expect(raw.received).toEqual([
      { jsonrpc: "2.0", id: expect.anything(), method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: { listChanged: true } }, clientInfo: { name: "tester", version: "1.2.3" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    expect(raw.lines).toHaveLength(2);
    expectHeard(client);
  });

  it("accepts an older version of its era that the server chose (2025-06-18), and says so", async () => {
    const raw = rawServer((m) => (m.method === "initialize" ? { ...INIT_RESULT, protocolVersion: "2025-06-18" } : {}));
    const client = new R.McpClient({ logger: null });
    clients.push(client);
    await client.connect(raw.stdio());
    expect(client.protocolVersion).toBe("2025-06-18");
    // No clientInfo in the options: the default one (initialize requires it).
    expect(raw.received[0]!.params!["clientInfo"]).toEqual(R.DEFAULT_CLIENT_INFO);
  });

  it("a protocolVersion this client cannot speak rejects with VersionNegotiationError and closes the transport; no initialized is sent", async () => {
    const raw = rawServer((m) => (m.method === "initialize" ? { ...INIT_RESULT, protocolVersion: "2099-01-01" } : {}));
    const client = new R.McpClient({ logger: null });
    clients.push(client);
    const transport = recordingClose(raw.stdio());
    const error = await client.connect(transport).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(R.VersionNegotiationError);
    expect((error as R.VersionNegotiationError).offered).toEqual(["2099-01-01"]);
    expect((error as R.VersionNegotiationError).supported).toContain("2025-11-25");
    await new Promise((resolve) => setImmediate(resolve));
    expect(raw.received.map((m) => m.method)).toEqual(["initialize"]);
    expect(transport.closed).toBe(true);
    await expect(client.ping()).rejects.toThrow();
    expect(client.serverCapabilities).toBeUndefined();
  });

  it("initialize: false only attaches: nothing is sent until the caller initializes", async () => {
    const raw = rawServer((m) => (m.method === "initialize" ? INIT_RESULT : {}));
    const client = new R.McpClient({ logger: null });
    clients.push(client);
    await client.connect(raw.stdio(), { initialize: false });
    await new Promise((resolve) => setImmediate(resolve));
    expect(raw.received).toEqual([]);
    const result = await client.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "me", version: "1" } });
    expect(result.serverInfo.name).toBe("raw");
    expect(raw.received.map((m) => m.method)).toEqual(["initialize"]);
    // The initialize sent by hand fills the getters as connect()'s would.
    expectHeard(client);
  });

  it("an initialize sent by hand whose answer names a version this client cannot speak leaves the getters empty", async () => {
    const raw = rawServer((m) => (m.method === "initialize" ? { ...INIT_RESULT, protocolVersion: "2099-01-01" } : {}));
    const client = new R.McpClient({ logger: null });
    clients.push(client);
    await client.connect(raw.stdio(), { initialize: false });
    await client.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "me", version: "1" } });
    expect(client.serverCapabilities).toBeUndefined();
    expect(client.protocolVersion).toBeUndefined();
  });

  it("against our McpServer in memory: the server sees initialized and the client its info", async () => {
    const [a, b] = R.createInMemoryTransportPair();
    const heard: string[] = [];
    const server = new R.McpServer({
      logger: null,
      serverInfo: { name: "ours", version: "2.0.0" },
      notificationHandlers: { "notifications/initialized": () => void heard.push("initialized") },
    });
    await server.connect(b);
    const client = new R.McpClient({ logger: null });
    clients.push(client, server);
    await client.connect(a);
    await expect.poll(() => heard).toEqual(["initialized"]);
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverVersion).toEqual({ name: "ours", version: "2.0.0" });
  });
});

describe("connect() on a 2026-07-28 client", () => {
  const DISCOVER = {
    resultType: "complete",
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: { listChanged: true }, prompts: {}, resources: { listChanged: true } },
    instructions: "stateless",
    cacheScope: "public",
    ttlMs: 0,
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw26", version: "1.0.0" } },
  };

  it("sends server/discover (its version in _meta), keeps the answer, then listens for the list_changed the server offers", async () => {
    const raw = rawServer((m) => (m.method === "server/discover" ? DISCOVER : undefined));
    const client = new R26.McpClient({ logger: null, clientInfo: { name: "t26", version: "1" } });
    clients.push(client);
    await client.connect(raw.stdio26());
    await expect.poll(() => raw.received.length).toBe(2);
    expect(raw.received[0]).toMatchObject({ method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t26", version: "1" } } } });
    expect(raw.received[1]).toMatchObject({ method: "subscriptions/listen", params: { notifications: { toolsListChanged: true, resourcesListChanged: true } } });
    expect(raw.received[1]!.params!["notifications"]).not.toHaveProperty("promptsListChanged");
    expect(client.serverCapabilities).toEqual(DISCOVER.capabilities);
    expect(client.serverVersion).toEqual({ name: "raw26", version: "1.0.0" });
    expect(client.instructions).toBe("stateless");
    expect(client.protocolVersion).toBe("2026-07-28");
  });

  it("no listen request where the server offers no list_changed", async () => {
    const raw = rawServer((m) => (m.method === "server/discover" ? { ...DISCOVER, capabilities: { tools: {} } } : undefined));
    const client = new R26.McpClient({ logger: null });
    clients.push(client);
    await client.connect(raw.stdio26());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(raw.received.map((m) => m.method)).toEqual(["server/discover"]);
  });

  const refusal = (supported: string[]) =>
    new Refusal({ code: UNSUPPORTED_PROTOCOL_VERSION, message: "Unsupported protocol version", data: { supported, requested: "2026-07-28" } });

  it("refused once for its version (-32022) by a server that lists 2026-07-28, it asks again and connects", async () => {
    let asked = 0;
    const raw = rawServer((m) => (m.method === "server/discover" ? (++asked === 1 ? refusal(["2026-07-28", "2025-11-25"]) : DISCOVER) : undefined));
    const client = new R26.McpClient({ logger: null });
    clients.push(client);
    await client.connect(raw.stdio26());
    expect(raw.received.filter((m) => m.method === "server/discover")).toHaveLength(2);
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverVersion).toEqual({ name: "raw26", version: "1.0.0" });
  });

  it("a -32022 whose supported list leaves out 2026-07-28 rejects with VersionNegotiationError after one request, and closes", async () => {
    const raw = rawServer((m) => (m.method === "server/discover" ? refusal(["2025-11-25"]) : undefined));
    const client = new R26.McpClient({ logger: null });
    clients.push(client);
    const transport = recordingClose(raw.stdio26());
    const error = await client.connect(transport).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(R26.VersionNegotiationError);
    expect((error as R26.VersionNegotiationError).offered).toEqual(["2025-11-25"]);
    expect(raw.received.map((m) => m.method)).toEqual(["server/discover"]);
    expect(transport.closed).toBe(true);
  });

  it("refused twice, it gives up with the server's error (no loop)", async () => {
    const raw = rawServer((m) => (m.method === "server/discover" ? refusal(["2026-07-28"]) : undefined));
    const client = new R26.McpClient({ logger: null });
    clients.push(client);
    const error = await client.connect(raw.stdio26()).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(R26.McpError);
    expect((error as R26.McpError).code).toBe(UNSUPPORTED_PROTOCOL_VERSION);
    expect(raw.received.map((m) => m.method)).toEqual(["server/discover", "server/discover"]);
  });

  it("initialize: false, then discover() by hand: the getters fill from its answer", async () => {
    const raw = rawServer((m) => (m.method === "server/discover" ? DISCOVER : undefined));
    const client = new R26.McpClient({ logger: null });
    clients.push(client);
    await client.connect(raw.stdio26(), { initialize: false });
    expect(client.serverCapabilities).toBeUndefined();
    await client.discover();
    expect(client.serverCapabilities).toEqual(DISCOVER.capabilities);
    expect(client.serverVersion).toEqual({ name: "raw26", version: "1.0.0" });
    expect(client.protocolVersion).toBe("2026-07-28");
  });

  it("a server whose supportedVersions leave out 2026-07-28 rejects the connect and closes", async () => {
    const raw = rawServer((m) => (m.method === "server/discover" ? { ...DISCOVER, supportedVersions: ["2025-11-25"] } : undefined));
    const client = new R26.McpClient({ logger: null });
    clients.push(client);
    const transport = recordingClose(raw.stdio26());
    const error = await client.connect(transport).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(R26.VersionNegotiationError);
    expect((error as R26.VersionNegotiationError).offered).toEqual(["2025-11-25"]);
    expect(transport.closed).toBe(true);
  });
});
