/**
 * ctx.log at the wire, over real HTTP on loopback (features/logging.ts, core/logging.ts):
 * - SDK 1.x Client (Streamable HTTP, sessions) ↔ our 2025-11-25 server that declares `logging`
 *   and has no logging/setLevel handler of its own: the server answers setLevel itself; before
 *   it every level is sent (the SDK's default), after it only those at or above the level, per
 *   session (another session keeps its own level); a user's setLevel handler is still called,
 *   and its level honoured;
 * - our 2026-07-28 McpClient ↔ our 2026-07-28 server (stateless HTTP): each request's own
 *   `_meta` logLevel; none, no log message; a server that does not declare `logging` sends none.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import * as Sessions from "../generated/2025-11-25/index.js";
import * as Modern from "../generated/2026-07-28/index.js";
import { listen } from "../helpers/faces.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** A tool that logs one message at every level, lowest first, then answers. */
const everyLevel = async (_args: unknown, ctx: { log(level: (typeof LEVELS)[number], data: unknown, logger?: string): Promise<void> }) => {
  for (const level of LEVELS) await ctx.log(level, { said: level }, "chatty");
  return { content: [{ type: "text" as const, text: "done" }] };
};

describe("2025-11-25: logging/setLevel per session, SDK 1.x client", () => {
  async function sdkClient(url: string): Promise<{ client: Client; heard: string[] }> {
    const client = new Client({ name: "sdk-client", version: "1.0.0" });
    const heard: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      expect(n.params).toEqual({ level: n.params.level, logger: "chatty", data: { said: n.params.level } });
      heard.push(n.params.level);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    closers.push(() => client.close());
    return { client, heard };
  }

  it("sends every level until setLevel, then only those at or above it; the server answers setLevel itself; each session has its own level", async () => {
    const server = new Sessions.McpServer({ serverInfo: { name: "ours", version: "1.0.0" }, capabilities: { logging: {}, tools: {} }, logger: null });
    server.registerTool("chatty", { description: "logs at every level" }, everyLevel);
    const handler = Sessions.createSessionHttpHandler(server);
    const served = await listen("native", handler);
    closers.push(() => served.close(), () => handler.close());
    const a = await sdkClient(served.url);
    const b = await sdkClient(served.url);
    expect(a.client.getServerCapabilities()).toMatchObject({ logging: {} });

    await a.client.callTool({ name: "chatty", arguments: {} });
    expect(a.heard).toEqual(LEVELS);

    a.heard.length = 0;
    expect(await a.client.setLoggingLevel("warning")).toEqual({});
    await a.client.callTool({ name: "chatty", arguments: {} });
    expect(a.heard).toEqual(["warning", "error", "critical", "alert", "emergency"]);

    // setLevel changes it again, lower or higher
    a.heard.length = 0;
    await a.client.setLoggingLevel("critical");
    await a.client.callTool({ name: "chatty", arguments: {} });
    expect(a.heard).toEqual(["critical", "alert", "emergency"]);

    // b's session never set a level: it still hears everything
    await b.client.callTool({ name: "chatty", arguments: {} });
    expect(b.heard).toEqual(LEVELS);
  });

  it("calls a setLevel handler of the user's and honours the level it accepted; a refused one changes nothing", async () => {
    const asked: string[] = [];
    const server = new Sessions.McpServer({
      serverInfo: { name: "ours", version: "1.0.0" },
      capabilities: { logging: {}, tools: {} },
      logger: null,
      handlers: {
        "logging/setLevel": ({ level }) => {
          asked.push(level);
          if (level === "emergency") throw new Sessions.McpError(-32602, "not that one");
          return {};
        },
      },
    });
    server.registerTool("chatty", { description: "logs at every level" }, everyLevel);
    const handler = Sessions.createSessionHttpHandler(server);
    const served = await listen("native", handler);
    closers.push(() => served.close(), () => handler.close());
    const a = await sdkClient(served.url);
    await a.client.setLoggingLevel("alert");
    await expect(a.client.setLoggingLevel("emergency")).rejects.toThrow(/not that one/);
    await a.client.callTool({ name: "chatty", arguments: {} });
    expect(asked).toEqual(["alert", "emergency"]);
    expect(a.heard).toEqual(["alert", "emergency"]);
  });
});

describe("2026-07-28: the request's own _meta logLevel, our client", () => {
  async function serve(capabilities: Modern.McpServerOptions["capabilities"]) {
    const server = new Modern.McpServer({ serverInfo: { name: "ours", version: "1.0.0" }, capabilities, logger: null });
    server.registerTool("chatty", { description: "logs at every level" }, everyLevel);
    const served = await listen("native", Modern.createHttpHandler(server));
    closers.push(() => served.close());
    const heard: Array<{ level: string; logger?: string; data: unknown }> = [];
    const client = new Modern.McpClient({
      clientInfo: { name: "ours", version: "1.0.0" },
      logger: null,
      notificationHandlers: { "notifications/message": (params) => void heard.push(params) },
    });
    await client.connect(Modern.createHttpClientTransport({ url: served.url }));
    closers.push(() => client.close());
    return { client, heard };
  }
  const call = (client: Modern.McpClient, logLevel?: Modern.LoggingLevel) =>
    client.callTool({ name: "chatty", arguments: {}, ...(logLevel === undefined ? {} : { _meta: { "io.modelcontextprotocol/logLevel": logLevel } }) });

  it("sends the levels at or above each request's logLevel, and nothing for a request without one", async () => {
    const { client, heard } = await serve({ logging: {}, tools: {} });
    await call(client, "error");
    expect(heard.map((m) => m.level)).toEqual(["error", "critical", "alert", "emergency"]);
    expect(heard[0]).toEqual({ level: "error", logger: "chatty", data: { said: "error" } });
    heard.length = 0;
    await call(client);
    expect(heard).toEqual([]);
    // each request its own: a lower level on the next one, no state kept between them
    await call(client, "notice");
    expect(heard.map((m) => m.level)).toEqual(["notice", "warning", "error", "critical", "alert", "emergency"]);
  });

  it("sends none from a server that does not declare the logging capability", async () => {
    const { client, heard } = await serve({ tools: {} });
    await call(client, "debug");
    expect(heard).toEqual([]);
  });
});
