/**
 * The session client drops a cancelled request's stream (issue 28, defect 8;
 * http/http-session-client.ts): the SDK 1.x server keeps a POST's SSE stream open until the
 * response, and sends none for a cancelled request, so a client that kept reading would hold
 * one connection per cancelled call until close(). Against the official SDK server on loopback,
 * counting the connections open on the server's side.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as R from "../../../generated/2025-11-25/index.js";
import { waitFor, within } from "../../../interop/support.js";

const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "session-cancel-test", version: "1.0.0" } };

interface Sdk {
  readonly url: string;
  /** Sockets open on the server's side now. */
  readonly sockets: Set<Socket>;
  /** HTTP responses not yet closed (a POST's SSE stream held open counts). */
  open: number;
  /** tools/call of "hang" started, and aborted by the SDK. */
  started: number;
  aborted: number;
  close(): Promise<void>;
}

let sdk: Sdk | undefined;
afterEach(async () => {
  await sdk?.close();
  sdk = undefined;
});

/** The SDK 1.x server with sessions: "hang" waits for its cancel and then returns (the SDK sends no response for it). */
async function startSdk(): Promise<Sdk> {
  const mcp = new McpServer({ name: "sdk-session-server", version: "1.0.0" });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  const sockets = new Set<Socket>();
  const side = { url: "", sockets, open: 0, started: 0, aborted: 0, close: async () => {} };
  mcp.registerTool("hang", { description: "waits for its cancellation" }, async (extra) => {
    side.started++;
    await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
    side.aborted++;
    return { content: [] };
  });
  await mcp.connect(transport);
  const http: Server = createServer((req, res) => {
    side.open++;
    res.on("close", () => side.open--);
    void transport.handleRequest(req, res).catch(() => res.destroy());
  });
  http.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return Object.assign(side, {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await mcp.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  });
}

describe("the session client and a cancelled request's stream", () => {
  it("100 cancelled calls against the SDK 1.x server leave no response stream open, and no connection beyond a small keep-alive pool", async () => {
    sdk = await startSdk();
    const server = sdk;
    const client = new R.McpClient({ logger: null, defaultTimeoutMs: 0 });
    await client.connect(R.createSessionHttpClientTransport({ url: server.url, listen: false }), { initialize: false });
    await within("initialize", client.initialize(INITIALIZE));
    await within("initialized", client.notify("notifications/initialized"));
    await within("a first call", client.listTools());
    const before = server.sockets.size;

    for (let i = 1; i <= 100; i++) {
      const controller = new AbortController();
      const call = client.callTool({ name: "hang" }, { signal: controller.signal }).catch((e: unknown) => e);
      await waitFor(`call ${i} to start on the server`, () => (server.started === i ? true : undefined));
      controller.abort("stop");
      expect(await within(`call ${i} to reject`, call)).toBeInstanceOf(R.RequestCancelledError);
    }
    await waitFor("the SDK to abort every handler", () => (server.aborted === 100 ? true : undefined));
    // Each cancelled call's stream is closed (no GET stream: listen false), and with it its
    // connection: what stays established is the client's small keep-alive pool, not 100 streams.
    await waitFor("every response stream to close", () => (server.open === 0 ? true : undefined), 10_000, () => `${server.open} responses open`);
    expect(server.sockets.size).toBeLessThanOrEqual(before + 8);
    // The client still works, on a fresh or pooled connection.
    expect(await within("a call after the cancels", client.listTools())).toMatchObject({ tools: [{ name: "hang" }] });
    await client.close();
  });
});
