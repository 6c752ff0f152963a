/**
 * The day the spec publishes a revision the generator has never heard of: a published schema
 * under a new label (test/prepare.mjs generates test/generated-unknown/: 2026-07-28's schema as
 * 2027-01-01, 2025-11-25's as 2025-12-31). The schema decides the era; the prose rules are the
 * nearest earlier known revision's; the output works for real over HTTP: the 2027-01-01 client
 * against the everything-server, and a 2027-01-01 stateless server and a 2025-12-31 session
 * server against their own clients, each served by its own output's toNodeListener on both faces
 * of the handler (test/helpers/faces.ts: its native face, and its web face through the bridge).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as R27 from "../generated-unknown/2027-01-01/index.js";
import * as R2512 from "../generated-unknown/2025-12-31/index.js";
import { RULES as RULES_2026 } from "../generated/2026-07-28/catalog.js";
import { RULES as RULES_2025 } from "../generated/2025-11-25/catalog.js";
import { startEverythingServer, type RunningEverythingServer } from "../helpers/everything-server.js";
import { FACES, webOnly, type Face } from "../helpers/faces.js";

const exported = (index: object, name: string) => typeof (index as Record<string, unknown>)[name] === "function";

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** `handler` on `face`, served by its own output's toNodeListener on a free loopback port. */
async function listen(face: Face, handler: R27.ServedHandler | R2512.ServedHandler, toNodeListener: (handler: R27.HttpHandler) => unknown): Promise<{ http: Server; url: string }> {
  const http = createServer((face === "native" ? toNodeListener(handler) : toNodeListener(webOnly(handler))) as Listener);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` };
}

describe("2026-07-28's schema labelled 2027-01-01: the stateless era", () => {
  it("exports the stateless HTTP server and client, not the session ones", () => {
    expect(exported(R27, "createHttpHandler")).toBe(true);
    expect(exported(R27, "createHttpClientTransport")).toBe(true);
    expect(exported(R27, "createSessionHttpHandler")).toBe(false);
    expect(exported(R27, "createSessionHttpClientTransport")).toBe(false);
  });

  it("follows 2026-07-28's prose rules, and says so in ERA", () => {
    expect(R27.REVISION).toBe("2027-01-01");
    expect(R27.ERA).toMatchObject({ era: "stateless", rulesOf: "2026-07-28", batches: false, sessionVersions: {} });
    expect(R27.RULES).toEqual(RULES_2026);
  });

  let everything: RunningEverythingServer | undefined;
  beforeAll(async () => {
    everything = await startEverythingServer();
  });
  afterAll(async () => {
    await everything?.stop();
  });

  it("its client speaks 2026-07-28 to the everything-server (request _meta filled, headers from its HTTP binding)", async () => {
    const client = new R27.McpClient({ logger: null, protocolVersion: "2026-07-28", clientInfo: { name: "unknown-revision-test", version: "1.0.0" } });
    await client.connect(R27.createHttpClientTransport({ url: everything!.url }), { initialize: false });
    try {
      const discovered = await client.discover();
      expect(discovered.supportedVersions).toContain("2026-07-28");
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("test_simple_text");
      const result = await client.callTool({ name: "test_simple_text", arguments: {} });
      expect(result.content[0]).toMatchObject({ type: "text" });
    } finally {
      await client.close();
    }
  });

  it.each(FACES)("a server of its own answers its client over real HTTP, with every request's _meta naming the version (%s face)", async (face) => {
    const seen: Array<Record<string, unknown> | undefined> = [];
    const server = new R27.McpServer({
      logger: null,
      protocolVersions: ["2027-01-01"],
      handlers: { "tools/list": (params) => (seen.push(params?._meta as Record<string, unknown> | undefined), { tools: [] }) },
    });
    const { http, url } = await listen(face, R27.createHttpHandler(server), R27.toNodeListener);
    const client = new R27.McpClient({ logger: null, clientInfo: { name: "c", version: "1" } });
    await client.connect(R27.createHttpClientTransport({ url }), { initialize: false });
    try {
      expect(await client.listTools()).toMatchObject({ tools: [] });
      expect(seen[0]?.[R27.RULES.requestMeta.protocolVersion]).toBe("2027-01-01");
    } finally {
      await client.close();
      http.closeAllConnections();
      http.close();
    }
  });
});

describe("2025-11-25's schema labelled 2025-12-31: the session era", () => {
  it("exports the session HTTP server and client, not the stateless ones", () => {
    expect(exported(R2512, "createSessionHttpHandler")).toBe(true);
    expect(exported(R2512, "createSessionHttpClientTransport")).toBe(true);
    expect(exported(R2512, "createHttpHandler")).toBe(false);
    expect(exported(R2512, "createHttpClientTransport")).toBe(false);
  });

  it("follows 2025-11-25's prose rules; its sessions may negotiate it besides the known versions", () => {
    expect(R2512.ERA).toMatchObject({ era: "session", rulesOf: "2025-11-25", batches: false });
    expect(Object.keys(R2512.ERA.sessionVersions)).toEqual(["2025-03-26", "2025-06-18", "2025-11-25", "2025-12-31"]);
    expect(R2512.ERA.sessionVersions["2025-12-31"]).toEqual({ versionHeader: true, priming: true, batches: false });
    expect(R2512.RULES).toEqual(RULES_2025);
    expect(new R2512.McpServer().sessionBinding.versions).toEqual(R2512.ERA.sessionVersions);
  });

  it.each(FACES)("its session server and client negotiate 2025-12-31 over real HTTP; the version header is checked against the server's table (%s face)", async (face) => {
    const server = new R2512.McpServer({ logger: null, handlers: { "tools/list": () => ({ tools: [] }) } });
    const handler = R2512.createSessionHttpHandler(server);
    expect(handler.versions).toEqual(["2025-03-26", "2025-06-18", "2025-11-25", "2025-12-31"]);
    const { http, url } = await listen(face, handler, R2512.toNodeListener);
    const transport = R2512.createSessionHttpClientTransport({ url });
    const client = new R2512.McpClient({ logger: null });
    await client.connect(transport, { initialize: false });
    try {
      const initialized = await client.initialize({ protocolVersion: "2025-12-31", capabilities: {}, clientInfo: { name: "c", version: "1" } });
      expect(initialized.protocolVersion).toBe("2025-12-31");
      expect(await client.listTools()).toMatchObject({ tools: [] });
      const refused = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2099-01-01" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "ping" }),
      });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("supported: 2025-03-26, 2025-06-18, 2025-11-25, 2025-12-31");
    } finally {
      await client.close();
      await handler.close();
      http.closeAllConnections();
      http.close();
    }
  });
});
