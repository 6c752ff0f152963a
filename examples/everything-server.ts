/**
 * An "everything" MCP server over Streamable HTTP that speaks both protocol eras on one URL: the
 * server the official conformance suite tests (`npm run conformance`; run `npm run generate`
 * first).
 *
 *   npm run example:everything -- --port 3000     # serves http://127.0.0.1:3000/mcp
 *
 * Each POST is routed by its protocol version (examples/everything-2026/era.ts; basic/versioning,
 * "A dual-era server selects its behavior from how the client opens"):
 *
 * - 2026-07-28 (modern): a request that claims the per-request `_meta` mechanism, outside any
 *   session, goes to one stateless McpServer generated for 2026-07-28 (examples/everything-2026/)
 *   behind the generated Streamable HTTP runtime (createHttpHandler + toNodeListener): every
 *   request is its own connection, answered with JSON or an SSE stream that is its own to cancel.
 * - 2025-11-25 (legacy): `initialize` opens a session with its own McpServer generated for
 *   2025-11-25, behind the official SDK's StreamableHTTPServerTransport, which fits the generated
 *   Transport interface; later requests name it in Mcp-Session-Id. The event store gives every
 *   SSE event an id, so a client resumes a closed stream with GET + Last-Event-ID (the
 *   `test_reconnection` tool closes its own on purpose). Sessions end with DELETE or at shutdown
 *   (SIGINT, SIGTERM); there is no idle expiry.
 *
 * DNS rebinding protection: only loopback Host and Origin headers are served, in both eras.
 *
 * The MCP behaviour is the generated McpServers': the tools, resources and prompts are registered
 * on them (registerTool and the others: lists, calls with validated arguments, reads, completion,
 * subscriptions), from tables in examples/everything/ (shared by both eras where their content is
 * the same) and examples/everything-2026/; a handler for each other method, given the runtime's
 * context (cancellation signal, progress, notifications on the request's own stream).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, McpServer, type ClientCapabilities, type LoggingLevel, type ServerCapabilities } from "../out/2025-11-25/index.js";
import { createHttpHandler, toNodeListener } from "../out/2026-07-28/index.js";
import { InMemoryEventStore } from "./everything/event-store.js";
import { registerPrompts } from "./everything/prompts.js";
import { registerResources } from "./everything/resources.js";
import { SessionTransport } from "./everything/session-transport.js";
import { isModern } from "./everything-2026/era.js";
import { createEverything2026Server } from "./everything-2026/server.js";
import { registerTools } from "./everything/tools.js";

const SERVER_INFO = { name: "mcp-stubgen-everything", version: "0.1.0" };
/** The revision the session half was generated from, the only one its initialize agrees to (2026-07-28 needs no initialize). */
const PROTOCOL_VERSION = "2025-11-25";
const CAPABILITIES: ServerCapabilities = {
  tools: {},
  resources: { subscribe: true },
  prompts: {},
  logging: {},
  completions: {},
};
/** The SSE `retry` field (ms) of each stream's priming event: how soon a client reconnects. */
const SSE_RETRY_MS = 500;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

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

interface Session {
  readonly transport: SessionTransport;
  readonly server: McpServer;
}

function createMcpServer(state: SessionState, transport: SessionTransport): McpServer {
  const server = new McpServer({
    handlers: {
      initialize: (params) => {
        state.client = params.capabilities;
        // Version negotiation (Lifecycle): a server answers with the version the client asked
        // for if it supports it, else with one it does support. Its sessions support only the
        // revision it was generated from; a client that cannot speak it disconnects.
        return {
          protocolVersion: PROTOCOL_VERSION,
          capabilities: CAPABILITIES,
          serverInfo: SERVER_INFO,
          instructions: `Hello ${params.clientInfo.name}: the test_* tools, test:// resources and test_* prompts are those of the MCP conformance suite.`,
        };
      },
      // The runtime answers ping by itself; spelled out here because "The receiver MUST respond
      // promptly with an empty response" (Utilities, Ping).
      ping: () => ({}),

      "logging/setLevel": ({ level }) => {
        state.logLevel = level;
        return {};
      },
    },
    notificationHandlers: {
      "notifications/initialized": () => {},
    },
    // A request the client cancelled gets no response: drop the transport's note about it.
    onCancellation: (event) => {
      if (event.type === "received") transport.forget(event.requestId);
    },
    onError: (error) => console.error(`[session ${transport.sessionId ?? "-"}] ${error.message}`),
  });
  // Tools, resources and prompts: registered. tools/list and tools/call, resources/list,
  // templates/list, read, subscribe and unsubscribe, prompts/list and get, completion/complete
  // are the registrations' (they follow the capabilities declared above).
  registerTools(server, (ctx) => ({
    ctx,
    client: state.client,
    // ctx.notify sends on this request's stream (relatedRequestId), before the result.
    log: (level, data) => (atLeast(level, state.logLevel) ? ctx.notify("notifications/message", { level, logger: "everything", data }) : Promise.resolve()),
    closeStream: () => {
      // The SDK hands closeSSEStream only to requests whose client got a priming event id
      // (protocol version 2025-11-25 or later, event store configured): only they can resume.
      const close = transport.extra(ctx.requestId)?.closeSSEStream;
      close?.();
      return close !== undefined;
    },
  }));
  registerResources(server);
  registerPrompts(server);
  return server;
}

const sessions = new Map<string, Session>();

/**
 * A new session for an initialize POST. The transport gives it its id while it handles that
 * POST (onsessioninitialized), which is when it joins `sessions`.
 */
async function openSession(): Promise<Session> {
  const http = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (id) => {
      sessions.set(id, session);
      console.log(`session ${id} opened (${sessions.size} open)`);
    },
    eventStore: new InMemoryEventStore(),
    retryInterval: SSE_RETRY_MS,
  });
  const transport = new SessionTransport(http, () => {
    const id = transport.sessionId;
    if (id !== undefined && sessions.delete(id)) console.log(`session ${id} closed (${sessions.size} open)`);
  });
  const server = createMcpServer({ client: {}, logLevel: "info" }, transport);
  const session: Session = { transport, server };
  await server.connect(transport);
  return session;
}

// ---------------------------------------------------------------------------------------------
// 2026-07-28: one stateless McpServer behind the generated Streamable HTTP runtime. Every POST is
// its own connection of that server; nothing is kept between requests.

const modernServer = createEverything2026Server({ onError: (error) => console.error(`[2026-07-28] ${error.message}`) });
const onHttpError = (error: Error): void => console.error(`[2026-07-28 http] ${error.message}`);
const modernHandler = createHttpHandler(modernServer, { onError: onHttpError });
const modernListener = toNodeListener(modernHandler, { onError: onHttpError });

/**
 * Hands a request whose body the router has read (and bounded) to the 2026-07-28 runtime. A body
 * the router could parse goes as `parsedBody` (HttpRequestInfo: the runtime then reads nothing of
 * the request's own); one it could not is replayed as the request's body, for the runtime to
 * answer with its own Parse error.
 */
function serveModern(req: IncomingMessage, res: ServerResponse, raw: Buffer, body: { readonly parsed: unknown } | undefined): void {
  if (body !== undefined) {
    toNodeListener((request, info) => modernHandler(request, { ...info, parsedBody: body.parsed }), { onError: onHttpError })(req, res);
    return;
  }
  const replay = Object.assign(Readable.from(raw.length === 0 ? [] : [raw]), { method: req.method, url: req.url, headers: req.headers, socket: req.socket });
  modernListener(replay, res);
}

// ---------------------------------------------------------------------------------------------
// HTTP: one endpoint, /mcp, both eras.

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const isLoopbackUrl = (url: string): boolean => URL.canParse(url) && LOOPBACK.has(new URL(url).hostname);

/**
 * DNS rebinding protection (Transports, Security Warning: servers MUST validate the Origin
 * header; local servers SHOULD bind to localhost only): a page on evil.example whose name
 * resolves to 127.0.0.1 reaches this server with Host and Origin naming evil.example. Checked
 * here for both eras (the 2026-07-28 runtime checks the same again).
 */
function rebindingRefusal(req: IncomingMessage): string | undefined {
  const { host, origin } = req.headers;
  if (host === undefined || !isLoopbackUrl(`http://${host}`)) return `Host ${host ?? "(none)"} is not a loopback host`;
  if (origin !== undefined && !isLoopbackUrl(origin)) return `Origin ${origin} is not a loopback origin`;
  return undefined;
}

/** A JSON-RPC error as the HTTP response (errors outside any session, before the transport). */
function replyError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The first value of a header node:http may give as a list. */
const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const isInitializeRequest = (body: unknown): boolean =>
  typeof body === "object" && body !== null && "method" in body && body.method === "initialize" && "id" in body;

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") return void res.writeHead(404).end("Not Found");
  const refusal = rebindingRefusal(req);
  if (refusal !== undefined) return replyError(res, 403, -32000, `Forbidden: ${refusal}`);
  if (req.method !== "POST" && req.method !== "GET" && req.method !== "DELETE") {
    return void res.writeHead(405, { Allow: "GET, POST, DELETE" }).end("Method Not Allowed");
  }

  // POST bodies are read here: the era of a request may show only in its _meta, and an
  // initialize without a session id opens a session.
  let raw: Buffer = Buffer.alloc(0);
  let body: unknown;
  let parsed = true;
  if (req.method === "POST") {
    try {
      raw = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) return replyError(res, 413, ErrorCode.InvalidRequest, "Request body too large");
      throw error;
    }
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      parsed = false;
    }
  }

  const sessionId = req.headers["mcp-session-id"];
  if (isModern({ method: req.method, protocolVersion: first(req.headers["mcp-protocol-version"]), sessionId: first(sessionId), body })) {
    return serveModern(req, res, raw, parsed ? { parsed: body } : undefined);
  }
  if (!parsed) return replyError(res, 400, ErrorCode.ParseError, "Parse error");
  if (sessionId === undefined) {
    if (req.method === "POST" && isInitializeRequest(body)) return (await openSession()).transport.handle(req, res, body);
    return replyError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required (initialize first)");
  }
  const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
  // Transports, Session Management: an unknown or ended session gets 404, and the client starts over.
  if (session === undefined) return replyError(res, 404, -32001, "Session not found");
  return session.transport.handle(req, res, body);
}

// ---------------------------------------------------------------------------------------------

/** `--port N` (default 3000; 0 picks a free port). Exits with a usage line when it is not a port. */
function portFromArgs(): number {
  const { values } = parseArgs({ options: { port: { type: "string", default: "3000" } } });
  const port = Number(values.port);
  if (values.port.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`usage: everything-server.ts [--port N]   (N in 0..65535, not "${values.port}")`);
    process.exit(2);
  }
  return port;
}

const httpServer = createServer((req, res) => {
  route(req, res).catch((error: unknown) => {
    console.error(`[http] ${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`);
    if (!res.headersSent) replyError(res, 500, ErrorCode.InternalError, "Internal error");
    else res.end();
  });
});

httpServer.listen(portFromArgs(), "127.0.0.1", () => {
  const { port } = httpServer.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${port}/mcp`);
});

/** Closes every session (their handlers abort, their streams end), then the listener. */
async function shutdown(signal: string): Promise<void> {
  console.log(`${signal}: closing ${sessions.size} session(s)`);
  await Promise.allSettled([...sessions.values()].map((session) => session.server.close()));
  httpServer.close(() => process.exit(0));
  httpServer.closeAllConnections();
}
process.once("SIGINT", (signal) => void shutdown(signal));
process.once("SIGTERM", (signal) => void shutdown(signal));
