/**
 * A 2025-11-25 session client hears list_changed without calling anything by hand (issue 42):
 * connect() sends initialize then notifications/initialized, and the session HTTP client opens
 * its GET stream once initialized went out. Against our session server (createSessionHttpHandler)
 * and the official SDK 1.32 server (McpServer + StreamableHTTPServerTransport with sessions), both
 * on node:http, 127.0.0.1:0.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer as SdkServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as R from "../../../generated/2025-11-25/index.js";
import { serve, waitFor, type Served } from "../sessions/support.js";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** Our client, connected with connect() alone: it records the list_changed it hears and the HTTP methods it used. */
async function connectOurs(url: string) {
  const heard: string[] = [];
  const methods: string[] = [];
  const fetchRecorded: R.FetchLike = (input, init) => {
    methods.push(`${init.method ?? "GET"} ${typeof init.body === "string" ? (JSON.parse(init.body) as { method?: string }).method ?? "response" : ""}`.trim());
    return fetch(input, init);
  };
  const client = new R.McpClient({
    logger: null,
    clientInfo: { name: "listener", version: "1.0.0" },
    notificationHandlers: { "notifications/tools/list_changed": () => void heard.push("tools") },
  });
  const transport = R.createSessionHttpClientTransport({ url, fetch: fetchRecorded });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport, heard, methods };
}

describe("connect() over session HTTP opens the notification stream", () => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("our session server: initialize, initialized, then the GET stream; a list_changed sent after is heard", async () => {
    served = await serve("native", { serverInfo: { name: "ours", version: "1.0.0" } });
    const { client, transport, heard, methods } = await connectOurs(served.url);
    expect(client.serverVersion).toEqual({ name: "ours", version: "1.0.0" });
    await waitFor("the GET stream opens", () => served!.getSockets[0]);
    expect(methods.slice(0, 3)).toEqual(["POST initialize", "POST notifications/initialized", "GET"]);
    served.handler.notify(transport.sessionId!, "notifications/tools/list_changed");
    await waitFor("the list_changed", () => (heard.length === 1 ? true : undefined));
    expect(heard).toEqual(["tools"]);
  });

  it("the SDK 1.32 server: a tool registered after connect() makes it send tools/list_changed, and the client hears it", async () => {
    const sdk = new SdkServer({ name: "sdk-server", version: "1.32.0" }, { instructions: "from the SDK" });
    sdk.registerTool("first", { description: "one" }, () => ({ content: [] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await sdk.connect(transport);
    const http: Server = createServer((req, res) => void transport.handleRequest(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(async () => {
      await sdk.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    });
    const ours = await connectOurs(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    expect(ours.client.serverVersion).toEqual({ name: "sdk-server", version: "1.32.0" });
    expect(ours.client.instructions).toBe("from the SDK");
    expect(ours.client.serverCapabilities?.tools).toEqual({ listChanged: true });
    await waitFor("the GET stream opens", () => (ours.methods.includes("GET") ? true : undefined));
    // Give the SDK's standalone stream a moment to be registered before it has something to send.
    await new Promise((resolve) => setTimeout(resolve, 50));
    sdk.registerTool("second", { description: "two" }, () => ({ content: [] }));
    await waitFor("the list_changed", () => (ours.heard.length >= 1 ? true : undefined));
    expect(ours.heard[0]).toBe("tools");
  });
});
