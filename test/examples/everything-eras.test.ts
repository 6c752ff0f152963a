/**
 * The everything-server (examples/everything-server.ts, generated code only on the server path)
 * over real HTTP with our generated clients: a session on an older revision (the router opens
 * it on the version initialize asks for), `test_reconnection` closing its own SSE stream and our
 * session client resuming it with GET + Last-Event-ID, and the HTTP+SSE transport at /sse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as V from "../../out/2025-11-25/index.js";
import { within } from "../helpers/async.js";
import { startEverythingServer, type RunningEverythingServer } from "../helpers/everything-server.js";

let server: RunningEverythingServer | undefined;
let url = "";
beforeAll(async () => {
  server = await startEverythingServer();
  url = server.url;
});
afterAll(async () => {
  await server?.stop();
});

const CLIENT_INFO = { name: "everything-eras", version: "1.0.0" };
const textOf = (result: V.CallToolResult): string | undefined => (result.content[0]?.type === "text" ? result.content[0].text : undefined);

async function connected(transport: V.Transport, protocolVersion = "2025-11-25"): Promise<{ client: V.McpClient; version: string }> {
  const client = new V.McpClient({ logger: null });
  await client.connect(transport, { initialize: false });
  const result = await within("initialize", client.initialize({ protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO }));
  await client.notify("notifications/initialized");
  return { client, version: result.protocolVersion };
}

describe("everything-server: every era from the generated runtime", () => {
  it("an initialize asking for 2025-06-18 opens a 2025-06-18 session", async () => {
    const { client, version } = await connected(V.createSessionHttpClientTransport({ url, listen: false }), "2025-06-18");
    expect(version).toBe("2025-06-18");
    expect(textOf(await client.callTool({ name: "test_simple_text" }))).toContain("This is a simple text response");
    await client.close();
  });

  it("test_reconnection closes its SSE stream mid-call; our session client resumes it and gets the result", async () => {
    const { client } = await connected(V.createSessionHttpClientTransport({ url, listen: false }));
    const result = await within("test_reconnection", client.callTool({ name: "test_reconnection" }));
    expect(textOf(result)).toBe("Reconnection test completed: the result was sent after the stream was closed");
    await client.close();
  });

  it("HTTP+SSE at /sse (createLegacySseHandler): our HTTP+SSE client connects and calls a tool", async () => {
    const transport = V.createLegacySseClientTransport({ url: url.replace(/\/mcp$/, "/sse") });
    const { client } = await connected(transport);
    expect(transport.endpoint?.pathname).toBe("/messages");
    expect(textOf(await client.callTool({ name: "test_simple_text" }))).toContain("This is a simple text response");
    await client.close();
  });

  it("any other path: 404", async () => {
    expect((await fetch(url.replace(/\/mcp$/, "/other"), { method: "POST" })).status).toBe(404);
  });
});
