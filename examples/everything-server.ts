/**
 * An "everything" MCP server over HTTP that speaks every protocol era on one port, built from
 * the generated output alone: the server the official conformance suite tests
 * (`npm run conformance`; run `npm run generate` first).
 *
 *   npm run example:everything -- --port 3000     # serves http://127.0.0.1:3000/mcp and /sse
 *
 * One handler, the runtime's createEraRouter (docs/one-endpoint.md; basic/versioning, "A
 * dual-era server selects its behavior from how the client opens"), in front of three:
 *
 * - 2026-07-28 (modern): a POST on /mcp that claims the per-request `_meta` mechanism, outside
 *   any session, goes to one stateless McpServer generated for 2026-07-28
 *   (examples/everything-2026/) behind createHttpHandler: every request is its own connection,
 *   answered with JSON or an SSE stream that is its own to cancel.
 * - 2025-11-25, 2025-06-18, 2025-03-26 (sessions): `initialize` on /mcp opens a session of one
 *   McpServer generated for 2025-11-25 that negotiates any of the three, behind
 *   createSessionHttpHandler; later requests name it in Mcp-Session-Id. Every SSE event gets an
 *   id from the runtime's InMemoryEventStore (one per session), so a client resumes a closed
 *   stream with GET + Last-Event-ID (the `test_reconnection` tool closes its own on purpose,
 *   with the handler's closeStream). Sessions end with DELETE, after 30 idle minutes, or at
 *   shutdown (SIGINT, SIGTERM).
 * - 2024-11-05 (HTTP+SSE): GET /sse opens a session whose messages are POSTed to /messages,
 *   behind createLegacySseHandler, with the same handlers.
 *
 * DNS rebinding protection: each handler serves only loopback Host and Origin headers.
 *
 * The MCP behaviour is the generated McpServers': one handler per method, each given the
 * runtime's context (cancellation signal, progress, notifications on the request's own stream).
 * The tools, resources and prompts are tables in examples/everything/ (shared by both eras where
 * their content is the same) and examples/everything-2026/.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import {
  createEraRouter,
  createLegacySseHandler,
  createSessionHttpHandler,
  McpServer,
  toNodeListener,
  type ClientCapabilities,
  type HttpRequestContext,
  type LoggingLevel,
  type RequestId,
  type ServerCapabilities,
} from "../out/2025-11-25/index.js";
import { createHttpHandler } from "../out/2026-07-28/index.js";
import { registerPrompts } from "./everything/prompts.js";
import { registerResources } from "./everything/resources.js";
import { openSharedState, STATE_FLAGS, stateArgs } from "./everything/state.js";
import { createEverything2026Server } from "./everything-2026/server.js";
import { registerTools } from "./everything/tools.js";

const SERVER_INFO = { name: "mcp-stubgen-everything", version: "0.1.0" };
/**
 * The versions the session server's initialize agrees to, newest first: the revision it was
 * generated from and the older session revisions, whose messages it speaks too (2026-07-28 needs
 * no initialize). The HTTP+SSE server also agrees to 2024-11-05, that transport's own revision.
 */
const SESSION_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26"];
const LEGACY_SSE_VERSIONS: readonly string[] = [...SESSION_VERSIONS, "2024-11-05"];
const CAPABILITIES: ServerCapabilities = {
  tools: {},
  resources: { subscribe: true },
  prompts: {},
  logging: {},
  completions: {},
};
/** The SSE `retry` field (ms) of each stream's priming event: how soon a client reconnects. */
const SSE_RETRY_MS = 500;
/** The Streamable HTTP endpoint of both eras (HTTP+SSE has its own two paths, /sse and /messages); any other path is 404. */
const MCP_PATH = "/mcp";

/** Severity order of logging/setLevel (Logging, Log Levels: RFC 5424). */
const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const atLeast = (level: LoggingLevel, threshold: LoggingLevel) => LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);

// ---------------------------------------------------------------------------------------------
// One MCP session: the generated McpServer and what its handlers remember.

interface SessionState {
  /** The capabilities the client declared in initialize: may the server sample, elicit? */
  client: ClientCapabilities;
  /** Set by logging/setLevel; until then the server sends info and above. */
  logLevel: LoggingLevel;
}

/**
 * Each session's state, found by its connection's HTTP context (one object per session, the
 * same for all of the session's requests), and dropped with the session.
 */
const states = new WeakMap<HttpRequestContext, SessionState>();
function stateOf(ctx: { readonly http: HttpRequestContext | undefined }): SessionState {
  const key = ctx.http;
  if (key === undefined) return { client: {}, logLevel: "info" };
  let state = states.get(key);
  if (state === undefined) states.set(key, (state = { client: {}, logLevel: "info" }));
  return state;
}

/** Closes the SSE stream of a request of a Streamable HTTP session so its client resumes it; false where it cannot. */
type CloseStream = (sessionId: string, requestId: RequestId) => boolean;

function createMcpServer(versions: readonly string[], closeRequestStream: CloseStream): McpServer {
  const server = new McpServer({
    protocolVersions: versions,
    handlers: {
      initialize: (params, ctx) => {
        const state = stateOf(ctx);
        state.client = params.capabilities;
        // Version negotiation (Lifecycle): a server answers with the version the client asked
        // for if it supports it, else with one it does support (the newest); a client that
        // cannot speak it disconnects.
        return {
          protocolVersion: versions.includes(params.protocolVersion) ? params.protocolVersion : versions[0]!,
          capabilities: CAPABILITIES,
          serverInfo: SERVER_INFO,
          instructions: `Hello ${params.clientInfo.name}: the test_* tools, test:// resources and test_* prompts are those of the MCP conformance suite.`,
        };
      },
      // The runtime answers ping by itself; spelled out here because "The receiver MUST respond
      // promptly with an empty response" (Utilities, Ping).
      ping: () => ({}),

      "logging/setLevel": ({ level }, ctx) => {
        stateOf(ctx).logLevel = level;
        return {};
      },

    },
    notificationHandlers: {
      "notifications/initialized": () => {},
    },
    onError: (error) => console.error(`[session] ${error.message}`),
  });
  // Tools, resources and prompts: registered. tools/list and tools/call, resources/list,
  // templates/list, read, subscribe and unsubscribe, prompts/list and get, completion/complete
  // are the registrations' (they follow the capabilities declared above).
  registerTools(server, (ctx) => {
    const state = stateOf(ctx);
    return {
      ctx,
      client: state.client,
      // ctx.notify sends on this request's stream (relatedRequestId), before the result.
      log: (level, data) => (atLeast(level, state.logLevel) ? ctx.notify("notifications/message", { level, logger: "everything", data }) : Promise.resolve()),
      closeStream: () => {
        // Only a Streamable HTTP session whose client got a priming event id (2025-11-25)
        // can resume; closeStream says false for the others (HTTP+SSE has one stream).
        const sessionId = ctx.http?.headers.get("mcp-session-id");
        return sessionId !== null && sessionId !== undefined && closeRequestStream(sessionId, ctx.requestId);
      },
    };
  });
  registerResources(server);
  registerPrompts(server);
  return server;
}

// ---------------------------------------------------------------------------------------------
// The handlers of each era, and the one router in front of them.

const onError =
  (era: string) =>
  (error: Error): void =>
    console.error(`[${era}] ${error.message}`);

/** --redis / --state-key (examples/everything/state.ts): where what outlives a request is kept. */
const { values: flags } = parseArgs({ options: { port: { type: "string", default: "3000" }, ...STATE_FLAGS } });
const state = await openSharedState(stateArgs(flags), onError("state")).catch((error: Error) => (console.error(error.message), process.exit(2)));

/** 2025-03-26 … 2025-11-25: sessions of one McpServer, with the runtime's InMemoryEventStore per session (the default). */
const sessionHttp = createSessionHttpHandler(
  createMcpServer(SESSION_VERSIONS, (sessionId, requestId) => sessionHttp.closeStream(sessionId, requestId)),
  // Every answer an SSE stream opened with a priming event (2025-11-25): a client can resume any
  // of them, and the suite's multiple-streams scenario sees streams, not JSON.
  // With --redis, sessions and their events are in Redis: a session continues on any instance.
  {
    path: MCP_PATH,
    responses: "sse",
    retryMs: SSE_RETRY_MS,
    onError: onError("session http"),
    ...(state.sessionRegistry === undefined ? {} : { sessionRegistry: state.sessionRegistry }),
    ...(state.eventStore === undefined ? {} : { eventStore: state.eventStore }),
  },
);

/** 2024-11-05: HTTP+SSE (GET /sse, POST /messages?sessionId=…). Its one stream per session cannot be closed early. */
const legacyServer = createMcpServer(LEGACY_SSE_VERSIONS, () => false);
const legacySse = createLegacySseHandler(legacyServer, { onError: onError("http+sse") });

/** 2026-07-28: one stateless McpServer; every POST is its own connection of it, nothing is kept between requests. */
const modern = createHttpHandler(createEverything2026Server({ onError: onError("2026-07-28"), state }), { path: MCP_PATH, onError: onError("2026-07-28 http") });

const router = createEraRouter({
  modern,
  sessions: { "2025-11-25": sessionHttp },
  legacySse,
  onError: onError("router"),
});


// ---------------------------------------------------------------------------------------------

/** `--port N` (default 3000; 0 picks a free port). Exits with a usage line when it is not a port. */
function portFromArgs(): number {
  const values = flags;
  const port = Number(values.port);
  if (values.port.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`usage: everything-server.ts [--port N] [--redis URL --state-key HEX]   (N in 0..65535, not "${values.port}")`);
    process.exit(2);
  }
  return port;
}

// The router's native face: node:http is served without a web Request or Response per request.
const httpServer = createServer(toNodeListener(router, { onError: onError("http") }));

httpServer.listen(portFromArgs(), "127.0.0.1", () => {
  const { port } = httpServer.address() as AddressInfo;
  // toNodeListener takes the router's core: node:http served on the native face (no web Request/Response per request).
  const face = typeof router.serveCall === "function" ? "native" : "web";
  console.log(`listening on http://127.0.0.1:${port}/mcp (HTTP+SSE: http://127.0.0.1:${port}/sse; state ${state.describe}; node:http ${face} face)`);
});

/** Closes every session (their handlers abort, their streams end), then the listener. */
async function shutdown(signal: string): Promise<void> {
  console.log(`${signal}: closing ${sessionHttp.sessionCount} session(s)`);
  await Promise.allSettled([sessionHttp.close(), legacyServer.close()]);
  await state.close();
  httpServer.close(() => process.exit(0));
  httpServer.closeAllConnections();
}
process.once("SIGINT", (signal) => void shutdown(signal));
process.once("SIGTERM", (signal) => void shutdown(signal));
