// The HTTP servers of the registration rows (registrations.ts): the registered tool of
// registered-tool.ts on our generated 2026-07-28 server (createHttpHandler, as ours-http.ts mounts
// it) and on SDK 2.x's McpServer (createMcpHandler, as sdk2-http.ts mounts it), one per variant.
import { McpServer as SdkServer } from "@modelcontextprotocol/server";
import * as v2026 from "../../../out/2026-07-28/index.js";
import { INPUT_JSON, INPUT_ZOD, RESULT, TOOL_NAME } from "../registered-tool.js";
import type { WebHandler } from "./node-bridge.js";
import { IN_FLIGHT_PER_PRINCIPAL } from "./ours-http.js";
import { sdk2Mounted } from "./sdk2-http.js";

export type RegisteredKey = "registered-ours-json" | "registered-ours-zod" | "registered-ours-off" | "registered-sdk2-zod" | "registered-sdk2-off";

function ours(schema: "json" | "zod", validate: boolean): WebHandler {
  const server = new v2026.McpServer({ logger: null, serverInfo: { name: "bench-server", version: "1.0.0" }, registrations: { validate } });
  if (schema === "zod") server.registerTool(TOOL_NAME, { inputSchema: INPUT_ZOD }, () => RESULT);
  else server.registerTool(TOOL_NAME, { inputSchema: INPUT_JSON }, () => RESULT);
  return v2026.createHttpHandler(server, { maxInFlightPerPrincipal: IN_FLIGHT_PER_PRINCIPAL });
}

function sdk2(withSchema: boolean): WebHandler {
  return sdk2Mounted(() => {
    const server = new SdkServer({ name: "bench-server", version: "1.0.0" });
    if (withSchema) server.registerTool(TOOL_NAME, { description: "forecast", inputSchema: INPUT_ZOD }, () => RESULT);
    else server.registerTool(TOOL_NAME, { description: "forecast" }, () => RESULT);
    return server;
  });
}

export const REGISTERED_SERVERS: Readonly<Record<RegisteredKey, () => WebHandler>> = {
  "registered-ours-json": () => ours("json", true),
  "registered-ours-zod": () => ours("zod", true),
  "registered-ours-off": () => ours("json", false),
  "registered-sdk2-zod": () => sdk2(true),
  "registered-sdk2-off": () => sdk2(false),
};
