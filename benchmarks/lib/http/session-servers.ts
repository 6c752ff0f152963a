// The session-era HTTP servers (2025-11-25 Streamable HTTP with sessions), each a web-standard
// handler behind the same node:http bridge as the 2026-07-28 rows, whose slow tool reports to a
// probe:
// - ours: createSessionHttpHandler(server) from out/2025-11-25, with its defaults (Host/Origin
//   validation on for a loopback bind, an in-memory event store per session, "auto" answers);
// - SDK 1.x: WebStandardStreamableHTTPServerTransport from @modelcontextprotocol/sdk, the core that
//   its node-only StreamableHTTPServerTransport wraps (through @hono/node-server, which the shared
//   bridge replaces here), one transport and McpServer per session as its documentation mounts
//   sessions;
// - SDK 2.x: the same class from @modelcontextprotocol/server, the same per-session wiring;
// both SDKs behind the Host/Origin checks SDK 2's JSDoc gives for a bare fetch handler (as in
// sdk2-http.ts; SDK 1.x's own allowedHosts needs the port, known only once listening);
// - the floor: the same exchanges with no MCP (floor-session-http.ts).
// Every side keeps its defaults otherwise: the SDKs answer every POST request with an SSE stream,
// ours with one JSON body unless the handler sends something about the request first.
import { randomUUID } from "node:crypto";
import { McpServer as Sdk1Server } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport as Sdk1Transport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  McpServer as Sdk2Server,
  originValidationResponse,
  WebStandardStreamableHTTPServerTransport as Sdk2Transport,
} from "@modelcontextprotocol/server";
import * as v2025 from "../../../out/2025-11-25/index.js";
import { ECHO_RESULT, slowToolWithProgress, type Probe } from "../probe.js";
import { sessionFloorHandler } from "./floor-session-http.js";
import type { WebHandler } from "./node-bridge.js";

export type SessionSide = "ours" | "sdk1" | "sdk2" | "floor";
export const SESSION_SIDES: readonly SessionSide[] = ["ours", "sdk1", "sdk2", "floor"];

/** The generated session handler as is (a WebHandler; toNodeListener takes it as an HttpHandler, faces.ts). */
export function oursSessionHandler(probe: Probe): v2025.SessionHttpHandler {
  const server = new v2025.McpServer({
    logger: null,
    serverInfo: { name: "bench-server", version: "1.0.0" },
    handlers: {
      "tools/call": (params, ctx) => (params.name === "slow" ? slowToolWithProgress(probe, ctx.signal, () => ctx.sendProgress(0)) : ECHO_RESULT),
    },
  });
  return v2025.createSessionHttpHandler(server);
}

/** What both SDK lines' transport and server have in common here. */
interface SdkTransport {
  handleRequest(request: Request): Promise<Response>;
}

/**
 * The documented session wiring of both SDK lines: a POST without a session id (an initialize)
 * gets a fresh transport and server, which the transport files under its new id once initialized;
 * a request naming a known session goes to its transport; an unknown one is 404, a missing one 400.
 */
function perSession(open: (register: (id: string, transport: SdkTransport) => void, forget: (id: string) => void) => Promise<SdkTransport>): WebHandler {
  const sessions = new Map<string, SdkTransport>();
  const register = (id: string, transport: SdkTransport): void => void sessions.set(id, transport);
  const forget = (id: string): void => void sessions.delete(id);
  const error = (status: number, message: string): Response => Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }, { status });
  return async (request) => {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) return sessions.get(id)?.handleRequest(request) ?? error(404, "Session not found");
    if (request.method !== "POST") return error(400, "Mcp-Session-Id required");
    return (await open(register, forget)).handleRequest(request);
  };
}

/** The Host and Origin checks in front of an SDK handler, as our handler applies them by default on loopback. */
function guarded(handler: WebHandler): WebHandler {
  const hostnames = localhostAllowedHostnames();
  const origins = localhostAllowedOrigins();
  return async (request) => hostHeaderValidationResponse(request, hostnames) ?? originValidationResponse(request, origins) ?? handler(request);
}

function sdk1SessionHandler(probe: Probe): WebHandler {
  return guarded(perSession(async (register, forget) => {
    const transport = new Sdk1Transport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => register(id, transport),
      onsessionclosed: (id) => forget(id),
    });
    const server = new Sdk1Server({ name: "bench-server", version: "1.0.0" });
    // No inputSchema: no argument validation, as on our side.
    server.registerTool("echo", { description: "answers at once" }, () => ECHO_RESULT);
    server.registerTool("slow", { description: "waits for its signal" }, (extra) => {
      const progressToken = extra._meta?.progressToken;
      const progress = () =>
        progressToken === undefined ? Promise.resolve() : extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: 0 } });
      return slowToolWithProgress(probe, extra.signal, progress);
    });
    await server.connect(transport);
    return transport;
  }));
}

function sdk2SessionHandler(probe: Probe): WebHandler {
  return guarded(perSession(async (register, forget) => {
    const transport = new Sdk2Transport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => register(id, transport),
      onsessionclosed: (id) => forget(id),
    });
    const server = new Sdk2Server({ name: "bench-server", version: "1.0.0" });
    server.registerTool("echo", { description: "answers at once" }, () => ECHO_RESULT);
    server.registerTool("slow", { description: "waits for its signal" }, (ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      const progress = () =>
        progressToken === undefined ? Promise.resolve() : ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: 0 } });
      return slowToolWithProgress(probe, ctx.mcpReq.signal, progress);
    });
    await server.connect(transport);
    return transport;
  }));
}

export const SESSION_SERVERS: Readonly<Record<SessionSide, (probe: Probe) => WebHandler>> = {
  ours: oursSessionHandler,
  sdk1: sdk1SessionHandler,
  sdk2: sdk2SessionHandler,
  floor: sessionFloorHandler,
};
