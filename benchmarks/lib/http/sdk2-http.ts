// SDK 2.x over HTTP as its documentation mounts it: createMcpHandler with a per-request server
// factory (a fresh McpServer per POST, which is how the entry serves 2026-07-28), behind the
// Host and Origin validation the entry leaves to the user (its JSDoc example for a bare fetch
// handler, with the localhost allow-lists: the same checks our handler applies by default on a
// loopback bind).
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  McpServer,
  originValidationResponse,
} from "@modelcontextprotocol/server";
import { ECHO_RESULT, slowToolWithProgress, type Probe } from "../probe.js";
import type { WebHandler } from "./node-bridge.js";

function server(probe: Probe): McpServer {
  const mcp = new McpServer({ name: "bench-server", version: "1.0.0" });
  mcp.registerTool("echo", { description: "answers at once" }, () => ECHO_RESULT);
  mcp.registerTool("slow", { description: "waits for its signal" }, (ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const progress = () =>
      progressToken === undefined ? Promise.resolve() : ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: 0 } });
    return slowToolWithProgress(probe, ctx.mcpReq.signal, progress);
  });
  return mcp;
}

export function sdk2Handler(probe: Probe): WebHandler {
  return sdk2Mounted(() => server(probe));
}

/** createMcpHandler over a per-request server `factory`, behind the localhost Host and Origin checks. */
export function sdk2Mounted(factory: () => McpServer): WebHandler {
  const handler = createMcpHandler(factory);
  const hostnames = localhostAllowedHostnames();
  const origins = localhostAllowedOrigins();
  return async (request) => hostHeaderValidationResponse(request, hostnames) ?? originValidationResponse(request, origins) ?? handler.fetch(request);
}
