/**
 * Registrations against the official SDK clients, over real HTTP on loopback, on both faces of
 * our handlers (test/helpers/faces.ts):
 * - SDK 1.x Client (Streamable HTTP, sessions) ↔ our 2025-11-25 server behind
 *   createSessionHttpHandler: it lists the registered tools, its own check of structuredContent
 *   against our outputSchema accepts what we send, and an invalid call comes back as a tool
 *   execution error naming the pointer;
 * - SDK v2 Client (2026-07-28, stateless HTTP) ↔ our 2026-07-28 server behind createHttpHandler:
 *   the same, with the result's resultType filled by the registry.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import * as Sessions from "../generated/2025-11-25/index.js";
import * as Modern from "../generated/2026-07-28/index.js";
import { describeFaces, listen } from "../helpers/faces.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const INPUT = { type: "object", properties: { city: { type: "string", minLength: 2 }, days: { type: "integer", minimum: 1, maximum: 7 } }, required: ["city"] } as const;
const OUTPUT = z.object({ city: z.string(), forecast: z.array(z.object({ day: z.number().int(), high: z.number() })) });

/** What a weather tool answers: the structured result only (the registry writes the text content). */
const forecast = (args: { city: string; days?: number }) => ({
  structuredContent: { city: args.city, forecast: Array.from({ length: args.days ?? 1 }, (_, i) => ({ day: i + 1, high: 20 + i })) },
});

describeFaces("registrations over HTTP", (face) => {
  describe("SDK 1.x client ↔ our 2025-11-25 server (session HTTP) with registered tools", () => {
    it("lists and calls a registered tool; the SDK's structuredContent check accepts ours; an invalid call is a tool error", async () => {
      const server = new Sessions.McpServer({ serverInfo: { name: "ours", version: "1.0.0" }, logger: null });
      const handler = Sessions.createSessionHttpHandler(server);
      const served = await listen(face, handler);
      closers.push(() => served.close(), () => handler.close());
      server.registerTool("weather", { description: "forecast", inputSchema: INPUT, outputSchema: OUTPUT }, forecast);
      const client = new ClientV1({ name: "sdk-client", version: "1.0.0" });
      await client.connect(new TransportV1(new URL(served.url)));
      closers.push(() => client.close());
      expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
      const { tools } = await client.listTools();
      expect(tools).toEqual([expect.objectContaining({ name: "weather", description: "forecast", inputSchema: INPUT, outputSchema: expect.objectContaining({ type: "object" }) })]);
      const result = await client.callTool({ name: "weather", arguments: { city: "Oslo", days: 2 } });
      expect(result.structuredContent).toEqual({ city: "Oslo", forecast: [{ day: 1, high: 20 }, { day: 2, high: 21 }] });
      expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
      const invalid = await client.callTool({ name: "weather", arguments: { city: "Oslo", days: 9 } });
      expect(invalid).toEqual({ content: [{ type: "text", text: "Invalid arguments for tool weather: /days: must be ≤ 7" }], isError: true });
    });
  });

  describe("SDK v2 client ↔ our 2026-07-28 server (stateless HTTP) with registered tools", () => {
    it("lists and calls a registered tool; an invalid call is a tool error", async () => {
      const server = new Modern.McpServer({ serverInfo: { name: "ours", version: "1.0.0" }, logger: null });
      server.registerTool("weather", { description: "forecast", inputSchema: INPUT, outputSchema: OUTPUT }, forecast);
      const served = await listen(face, Modern.createHttpHandler(server));
      closers.push(() => served.close());
      const client = new Client({ name: "sdk-v2-client", version: "2.4.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      closers.push(() => client.close());
      expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["weather"]);
      const result = await client.callTool({ name: "weather", arguments: { city: "Rome" } });
      expect(result).toMatchObject({ structuredContent: { city: "Rome", forecast: [{ day: 1, high: 20 }] } });
      const invalid = await client.callTool({ name: "weather", arguments: { city: "R" } });
      expect(invalid).toMatchObject({ isError: true, content: [{ type: "text", text: "Invalid arguments for tool weather: /city: must have at least 2 characters" }] });
    });
  });
});
