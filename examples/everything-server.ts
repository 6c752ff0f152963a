/**
 * An "everything" MCP server over HTTP that speaks every protocol era on one port, built from
 * the generated output alone: the server the official conformance suite tests
 * (`npm run conformance`; run `npm run generate` first).
 *
 *   npm run example:everything -- --port 3000     # serves http://127.0.0.1:3000/mcp and /sse
 *
 * One registration set on one object: out/every-era's McpServers (docs/one-endpoint.md, "One
 * server for every era"), which makes one generated McpServer per revision of the output and
 * serves them all behind one router (basic/versioning, "A dual-era server selects its behavior
 * from how the client opens"):
 *
 * - 2026-07-28 (stateless): a POST on /mcp that claims the per-request `_meta` mechanism, outside
 *   any session: every request is its own connection, answered with JSON or an SSE stream that
 *   is its own to cancel.
 * - 2025-11-25, 2025-06-18, 2025-03-26 (sessions): `initialize` on /mcp opens a session of the
 *   server of the version it asks for (the 2025-11-25 server answers the older ones where their
 *   revisions are not generated); later requests name it in Mcp-Session-Id. Every SSE event gets
 *   an id from the runtime's InMemoryEventStore (one per session), so a client resumes a closed
 *   stream with GET + Last-Event-ID (the `test_reconnection` tool closes its own on purpose,
 *   with the handler's closeStream). Sessions end with DELETE, after 30 idle minutes, or at
 *   shutdown (SIGINT, SIGTERM: a graceful drain of --drain-ms, default 10 s, below).
 * - 2024-11-05 (HTTP+SSE): GET /sse opens a session whose messages are POSTed to /messages.
 *
 * The registrations: the resources and prompts of examples/everything/ once for every era; the
 * tools of each era's table (examples/everything/tools.ts, which asks the client with
 * server->client requests, `requires: ["serverRequests"]`; examples/everything-2026/tools.ts,
 * which asks with multi round-trip requests, `requires: ["inputRequired"]`), each made on the
 * revisions that can have it.
 *
 * DNS rebinding protection: each handler serves only loopback Host and Origin headers.
 */
import { createServer } from "node:http";
import { Server, type AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import {
  toNodeListener,
  type ClientCapabilities,
  type HttpRequestContext,
  type LoggingLevel,
  type McpServer as McpServer2025,
  type McpServerOptions,
  type ServerCapabilities,
} from "../out/2025-11-25/index.js";
import type { McpServer as McpServer2026 } from "../out/2026-07-28/index.js";
import { McpServers, type EraFeature, type EveryEraHttpHandler } from "../out/every-era/index.js";
import { registerDiceApp } from "./apps/dice/server.js";
import { registerPrompts } from "./everything/prompts.js";
import { registerResources } from "./everything/resources.js";
import { withSkills } from "./everything/skills.js";
import { openSharedState, STATE_FLAGS, stateArgs } from "./everything/state.js";
import { everything2026, SERVER_INFO } from "./everything-2026/server.js";
import { registerTools } from "./everything/tools.js";

/** The capabilities of the session revisions' servers. */
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
/** The stateless revision whose options everything2026 makes. */
const MODERN = "2026-07-28";

/** Severity order of logging/setLevel (Logging, Log Levels: RFC 5424). */
const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const atLeast = (level: LoggingLevel, threshold: LoggingLevel) => LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);

// ---------------------------------------------------------------------------------------------
// One MCP session: what its handlers remember.

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

const onError =
  (era: string) =>
  (error: Error): void =>
    console.error(`[${era}] ${error.message}`);

/** --redis / --state-key (examples/everything/state.ts): where what outlives a request is kept. */
const { values: flags } = parseArgs({ options: { port: { type: "string", default: "3000" }, "drain-ms": { type: "string", default: "10000" }, ...STATE_FLAGS } });
/** --drain-ms: how long requests in flight may take to finish at SIGTERM (http.close validates it). */
const drainMs = Number(flags["drain-ms"]);
if (flags["drain-ms"].trim() === "" || !Number.isInteger(drainMs) || drainMs < 0) {
  console.error(`usage: everything-server.ts --drain-ms N   (N: whole milliseconds ≥ 0, not "${flags["drain-ms"]}")`);
  process.exit(2);
}
const state = await openSharedState(stateArgs(flags), onError("state")).catch((error: Error) => (console.error(error.message), process.exit(2)));

/**
 * The session revisions' own handlers: initialize (which remembers what the client declared and
 * answers with the version this revision's server negotiates: McpServers.protocolVersions) and
 * logging/setLevel.
 */
function sessionOptions(revision: string): McpServerOptions {
  const versions = (): readonly string[] => server.protocolVersions(revision);
  return {
    capabilities: CAPABILITIES,
    handlers: {
      initialize: (params, ctx) => {
        stateOf(ctx).client = params.capabilities;
        // Version negotiation (Lifecycle): the version the client asked for if this server
        // speaks it, else the newest it does; a client that cannot speak it disconnects.
        return {
          protocolVersion: versions().includes(params.protocolVersion) ? params.protocolVersion : versions()[0]!,
          capabilities: CAPABILITIES,
          serverInfo: SERVER_INFO,
          instructions: `Hello ${params.clientInfo.name}: the test_* tools, test:// resources and test_* prompts are those of the MCP conformance suite.`,
        };
      },
      // The runtime answers ping by itself; spelled out because "The receiver MUST respond
      // promptly with an empty response" (Utilities, Ping).
      ping: () => ({}),
      "logging/setLevel": ({ level }, ctx) => {
        stateOf(ctx).logLevel = level;
        return {};
      },
    },
    notificationHandlers: { "notifications/initialized": () => {} },
    // Several instances: a session's resources/subscribe is known to all, and resources/updated reaches it on any.
    ...(state.resourceBus === undefined ? {} : { registrations: { resourceBus: state.resourceBus } }),
  };
}

const modern = withSkills(everything2026({ onError: onError(MODERN), state }));
const server = new McpServers({
  serverInfo: SERVER_INFO,
  // Each era's tools are for the revisions that can have them (`requires`): the others are
  // skipped by design, so the one-line notes of registration are not printed.
  logger: null,
  revisions: (revision, { stateless }) => (stateless ? (revision === MODERN ? modern.options : undefined) : sessionOptions(revision)),
  onError: onError("server"),
});

/**
 * McpServers' registration methods seen as one revision's McpServer, for the tables typed with
 * that revision's types (examples/everything*); `requires` says which revisions they are for.
 */
function asRevision<S>(requires: readonly EraFeature[]): S {
  const withRequires = (config: object) => (requires.length === 0 ? config : { ...config, requires });
  const view = {
    registerTool: (name: string, config: object, handler: never) => server.registerTool(name, withRequires(config), handler),
    registerPrompt: (name: string, config: object, handler: never) => server.registerPrompt(name, withRequires(config), handler),
    registerResource: (name: string, uri: string, config: object, read: never) => server.registerResource(name, uri, withRequires(config), read),
    registerResourceTemplate: (name: string, uriTemplate: string, config: object, read: never) => server.registerResourceTemplate(name, uriTemplate, withRequires(config), read),
  };
  return view as unknown as S;
}

// Resources and prompts: the same in every era (examples/everything/), registered once.
registerResources(asRevision<McpServer2025>([]));
registerPrompts(asRevision<McpServer2025>([]));
// The session era's tools: server->client requests on the call's stream (sampling, elicitation),
// logs at the level logging/setLevel set, closeStream (SEP-1699).
registerTools(asRevision<McpServer2025>(["serverRequests"]), (ctx) => {
  const session = stateOf(ctx);
  return {
    ctx,
    client: session.client,
    // ctx.notify sends on this request's stream (relatedRequestId), before the result.
    log: (level, data) => (atLeast(level, session.logLevel) ? ctx.notify("notifications/message", { level, logger: "everything", data }) : Promise.resolve()),
    closeStream: () => {
      // Only a Streamable HTTP session whose client got a priming event id (2025-11-25) can
      // resume; closeStream says false for the others (HTTP+SSE has one stream).
      const sessionId = ctx.http?.headers.get("mcp-session-id");
      if (sessionId === null || sessionId === undefined) return false;
      const owner = Object.values(http.sessions).find((handler) => handler.hasSession(sessionId));
      return owner !== undefined && owner.closeStream(sessionId, ctx.requestId);
    },
  };
});
// The 2026-07-28 tools (input through multi round-trip requests, tasks) and its input prompt.
modern.register(asRevision<McpServer2026>(["inputRequired"]));
// An MCP App (docs/apps.md): roll_dice and its UI resource ui://everything/dice.html, every era.
registerDiceApp(server);

/**
 * Every era behind /mcp (and /sse): each handler serves loopback Host and Origin only (the
 * default). Session answers are SSE streams opened with a priming event (2025-11-25), so a client
 * can resume any of them; with --redis, sessions and their events are in Redis.
 */
const http: EveryEraHttpHandler = server.createHttpHandler({
  path: MCP_PATH,
  onError: onError("http"),
  sessions: {
    responses: "sse",
    retryMs: SSE_RETRY_MS,
    ...(state.sessionRegistry === undefined ? {} : { sessionRegistry: state.sessionRegistry }),
    ...(state.eventStore === undefined ? {} : { eventStore: state.eventStore }),
  },
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
const httpServer = createServer(toNodeListener(http, { onError: onError("node:http") }));

httpServer.listen(portFromArgs(), "127.0.0.1", () => {
  const { port } = httpServer.address() as AddressInfo;
  // toNodeListener takes the router's core: node:http served on the native face (no web Request/Response per request).
  const face = typeof http.serveCall === "function" ? "native" : "web";
  console.log(`listening on http://127.0.0.1:${port}/mcp (HTTP+SSE: http://127.0.0.1:${port}/sse; state ${state.describe}; node:http ${face} face)`);
});

/**
 * A graceful drain (docs/redis.md, "Deploying behind a load balancer"): the listener closes (new
 * connections are refused, so a balancer sends them to another instance), the handlers refuse
 * what still arrives on open connections with 503, Retry-After and Connection: close, end listen
 * and GET streams with a `retry` hint, and give the requests in flight (and the task works
 * running here) --drain-ms to finish; then the sessions end here (with --redis they live on in
 * Redis, and another instance continues them). Open connections are left to the balancer to
 * close (nginx: its upstream keepalive_timeout): a server that closes an idle keep-alive
 * connection races with a request already on its way there, which then fails unserved and, for a
 * POST, cannot be sent again by the balancer.
 */
async function shutdown(signal: string): Promise<void> {
  const sessions = Object.values(http.sessions).reduce((sum, handler) => sum + handler.sessionCount, 0);
  console.log(`${signal}: draining ${sessions} session(s), up to ${drainMs} ms`);
  // net.Server's close: node:http's own (Node ≥ 19) also drops the idle connections.
  Server.prototype.close.call(httpServer);
  await Promise.allSettled([http.close({ drainMs }), tasksSettled(drainMs)]);
  await Promise.allSettled([server.close()]);
  await state.close();
  await connectionsClosed(Math.min(drainMs, CONNECTIONS_WAIT_MS));
  httpServer.closeAllConnections();
  process.exit(0);
}

/** How long the drain waits for the clients to close their connections: the shipped nginx config's upstream keepalive_timeout (examples/deploy/nginx.conf). */
const CONNECTIONS_WAIT_MS = 2_000;

/** Waits (up to `ms`) until the clients, a balancer's kept-alive connections included, have closed every connection. */
async function connectionsClosed(ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  const open = () => new Promise<number>((resolve) => httpServer.getConnections((error, count) => resolve(error === null ? count : 0)));
  while ((await open()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
/** The task works running here get drainMs to finish too: their tasks are in the shared store, and none is left "working" with no work behind it. */
async function tasksSettled(ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while ((modern.options.tasks?.running ?? 0) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
process.once("SIGINT", (signal) => void shutdown(signal));
process.once("SIGTERM", (signal) => void shutdown(signal));
