/**
 * connectBest (issue 42, item 2): with several revisions generated, the client of the best
 * revision both sides speak, over HTTP on loopback. Candidates newest first: 2026-07-28
 * (server/discover), then the session revisions (initialize). Against our 2026-07-28 server it
 * keeps the 2026 client; against our 2025-11-25 session server and the SDK 1.32 server it falls
 * back to 2025-11-25; against a session server that only speaks 2025-06-18 it connects that
 * revision's own client. An auth wall (401) is not an era mismatch: it is thrown at once.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer as SdkServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as R25 from "../../generated/2025-11-25/index.js";
import * as R0618 from "../../generated/2025-06-18/index.js";
import * as R26 from "../../generated/2026-07-28/index.js";
import { StdioClientTransport } from "../../generated/2025-11-25/stdio-spawn.js";
import { listen, type Listening } from "../../helpers/faces.js";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** The candidates, newest first, each with the transport its era uses over HTTP. */
function candidates(url: string) {
  const list: R25.ClientCandidate[] = [
    { revision: "2026-07-28", create: () => track(new R26.McpClient({ logger: null }), () => R26.createHttpClientTransport({ url })) },
    { revision: "2025-11-25", create: () => track(new R25.McpClient({ logger: null }), () => R25.createSessionHttpClientTransport({ url })) },
    { revision: "2025-06-18", create: () => track(new R0618.McpClient({ logger: null }), () => R0618.createSessionHttpClientTransport({ url })) },
  ];
  // Each client is connected over a transport of its own era: the transport factory follows the last client made.
  let next: () => R25.Transport = () => {
    throw new Error("no client made yet");
  };
  function track<C extends R25.NegotiatingClient>(client: C, transport: () => R25.Transport): C {
    closers.push(() => client.close());
    next = transport;
    return client;
  }
  return { list, transport: () => next() };
}

async function served(handler: Parameters<typeof listen>[1]): Promise<Listening> {
  const listening = await listen("native", handler);
  closers.push(() => listening.close());
  return listening;
}

describe("connectBest over HTTP", () => {
  it("our 2026-07-28 server: the 2026 client, nothing skipped", async () => {
    const server = new R26.McpServer({ logger: null, serverInfo: { name: "s26", version: "1" } });
    const { url } = await served(R26.createHttpHandler(server));
    const { list, transport } = candidates(url);
    const best = await R25.connectBest(list, transport);
    expect([best.revision, best.protocolVersion, best.skipped.length]).toEqual(["2026-07-28", "2026-07-28", 0]);
    expect(best.client).toBeInstanceOf(R26.McpClient);
  });

  it("our 2025-11-25 session server: server/discover fails as not this era, initialize on 2025-11-25 succeeds", async () => {
    const server = new R25.McpServer({ logger: null, serverInfo: { name: "s25", version: "1" } });
    const { url } = await served(R25.createSessionHttpHandler(server));
    const { list, transport } = candidates(url);
    const best = await R25.connectBest(list, transport);
    expect([best.revision, best.protocolVersion]).toEqual(["2025-11-25", "2025-11-25"]);
    expect(best.skipped.map((s) => s.revision)).toEqual(["2026-07-28"]);
    expect(R25.isEraMismatch(best.skipped[0]!.error)).toBe(true);
    expect(best.client).toBeInstanceOf(R25.McpClient);
    expect((best.client as R25.McpClient).serverVersion).toEqual({ name: "s25", version: "1" });
  });

  it("a session server that speaks only 2025-06-18: the 2025-06-18 client, connected afresh", async () => {
    const server = new R25.McpServer({ logger: null, protocolVersions: ["2025-06-18"] });
    const { url } = await served(R25.createSessionHttpHandler(server));
    const { list, transport } = candidates(url);
    const best = await R25.connectBest(list, transport);
    expect([best.revision, best.protocolVersion]).toEqual(["2025-06-18", "2025-06-18"]);
    expect(best.client).toBeInstanceOf(R0618.McpClient);
  });

  it("the SDK 1.32 server (sessions): falls back to 2025-11-25", async () => {
    const sdk = new SdkServer({ name: "sdk", version: "1.32.0" });
    const sdkTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await sdk.connect(sdkTransport);
    const http: Server = createServer((req, res) => void sdkTransport.handleRequest(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(async () => {
      await sdk.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    });
    const { list, transport } = candidates(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    const best = await R25.connectBest(list, transport);
    expect(best.revision).toBe("2025-11-25");
    expect((best.client as R25.McpClient).serverVersion).toEqual({ name: "sdk", version: "1.32.0" });
  });

  it("a 401 is not an era mismatch: thrown at once, no older revision tried", async () => {
    let posts = 0;
    const http: Server = createServer((_req, res) => {
      posts++;
      res.writeHead(401).end();
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const { list, transport } = candidates(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    const error = await R25.connectBest(list, transport).then(() => undefined, (e: unknown) => e);
    expect(R25.isEraMismatch(error)).toBe(false);
    expect(error).toMatchObject({ status: 401 });
    expect(posts).toBe(1);
  });

  it("no candidates is a RangeError", async () => {
    await expect(R25.connectBest([], () => R25.createInMemoryTransportPair()[0])).rejects.toThrow(RangeError);
  });
});

describe("connectBest over one connection (a transport, not a factory)", () => {
  /** Candidates over a connection given once: the 2026-07-28 client first, then 2025-11-25. */
  function oneConnectionCandidates(): R25.ClientCandidate[] {
    const made = (client: R25.NegotiatingClient) => (closers.push(() => client.close()), client);
    return [
      { revision: "2026-07-28", create: () => made(new R26.McpClient({ logger: null })) },
      { revision: "2025-11-25", create: () => made(new R25.McpClient({ logger: null })) },
    ];
  }

  it("a 2025-11-25 server in memory: server/discover is refused, initialize follows on the same connection, and the kept client works", async () => {
    const [a, b] = R25.createInMemoryTransportPair();
    const seen: string[] = [];
    const server = new R25.McpServer({ logger: null, serverInfo: { name: "mem25", version: "1" }, notificationHandlers: { "notifications/initialized": () => void seen.push("initialized") } });
    server.registerTool("echo", { inputSchema: { type: "object" } }, (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }));
    await server.connect(b);
    closers.push(() => server.close());
    const best = await R25.connectBest(oneConnectionCandidates(), a);
    expect([best.revision, best.protocolVersion]).toEqual(["2025-11-25", "2025-11-25"]);
    expect(best.skipped.map((s) => [s.revision, (s.error as R25.McpError).code])).toEqual([["2026-07-28", -32601]]);
    const client = best.client as R25.McpClient;
    expect(client.serverVersion).toEqual({ name: "mem25", version: "1" });
    await expect.poll(() => seen).toEqual(["initialized"]);
    expect(await client.callTool({ name: "echo", arguments: { x: 1 } })).toMatchObject({ content: [{ type: "text", text: '{"x":1}' }] });
  });

  it("a 2026-07-28 server in memory: the first candidate connects, nothing skipped", async () => {
    const [a, b] = R26.createInMemoryTransportPair();
    const server = new R26.McpServer({ logger: null, serverInfo: { name: "mem26", version: "1" } });
    await server.connect(b);
    closers.push(() => server.close());
    const best = await R25.connectBest(oneConnectionCandidates(), a);
    expect([best.revision, best.protocolVersion, best.skipped.length]).toEqual(["2026-07-28", "2026-07-28", 0]);
    expect((best.client as R26.McpClient).serverVersion).toEqual({ name: "mem26", version: "1" });
  });

  it("a real stdio server spawned once (examples/stdio-server.ts, 2025-11-25): both probes on its stdin, the kept client's close() ends it", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", "examples/stdio-server.ts"], stderr: () => undefined });
    closers.push(() => transport.close());
    const best = await R25.connectBest(oneConnectionCandidates(), transport);
    expect(best.revision).toBe("2025-11-25");
    expect(best.skipped.map((s) => s.revision)).toEqual(["2026-07-28"]);
    const client = best.client as R25.McpClient;
    expect(await client.callTool({ name: "echo", arguments: { text: "one process" } })).toMatchObject({ content: [{ type: "text", text: "one process" }] });
    expect(client.serverVersion).toEqual({ name: "mcp-stubgen-example", version: "0.1.0" });
    expect(transport.exit).toBeUndefined();
    await client.close();
    expect(transport.exit).toBeDefined();
  });

  it("where no candidate connects, the one connection is closed and the last error thrown", async () => {
    const [a, b] = R26.createInMemoryTransportPair();
    const server = new R26.McpServer({ logger: null, protocolVersions: ["2099-01-01"] });
    await server.connect(b);
    closers.push(() => server.close());
    let closes = 0;
    const close = a.close.bind(a);
    a.close = () => (closes++, close());
    const error = await R25.connectBest([oneConnectionCandidates()[0]!], a).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(R26.VersionNegotiationError);
    expect(closes).toBeGreaterThan(0); // the in-memory pair closes its peer too, which closes back
  });
});
