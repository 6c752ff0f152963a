// The HTTP+SSE transport of 2024-11-05 (basic/transports, "HTTP with SSE"), server side: a
// web-standard handler, `(request: Request) => Promise<Response>`, bound to a generated McpServer.
// Two endpoints: `GET <ssePath>` opens a session, a long-lived SSE stream whose first event is
// `endpoint` with the URI to POST to ("When a client connects, the server MUST send an endpoint
// event"); `POST <messagesPath>?sessionId=…` carries one client message, answered 202, and every
// server message goes on the session's stream as an SSE `message` event. Each session is one
// connection of the server; the stream closing ends the session and aborts its handlers.
// Later revisions keep serving it for old clients (2025-03-26 basic/transports, "Backwards
// Compatibility": servers "continue to host both the SSE and POST endpoints of the old transport").
//
// Everything a client sends is untrusted: sessions are counted and expire when idle, a POST body
// is bounded, requests in flight per session are bounded, and a session whose client does not
// read its stream is ended once its unread bytes pass a bound (nothing queues without limit).
// The revision has no DELETE (405): a client ends its session by closing the stream.

import type { Connection } from "../core/endpoint.js";
import { isObject, isRequestId } from "../core/json.js";
import { numberOption } from "../core/options.js";
import {
  describeValue,
  ErrorCode,
  type JsonObject,
  type JsonRpcMessage,
  type Principal,
  type RequestId,
  type Transport,
} from "../core/protocol.js";
import { mediaType, report } from "./fetch.js";
import { authenticateOption, authenticateRequest, checkGuardOptions, hostProblem, readRequestBody, type Authenticate, type GuardOptions, type Refusal } from "./guards.js";
import type { HttpHandler, HttpRequestInfo } from "./http-server.js";
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseEvent } from "./sse.js";

/** A server the HTTP+SSE handler can serve: any generated McpServer (one connection per session). */
export interface LegacySseServable {
  openConnection(transport: Transport): Connection;
}

/** Options of createLegacySseHandler; the Host/Origin rule's are GuardOptions' (2024-11-05: servers MUST validate `Origin`). */
export interface LegacySseHandlerOptions extends GuardOptions {
  /** Path of the SSE endpoint (GET), default "/sse". */
  readonly ssePath?: string | undefined;
  /** Path of the message endpoint (POST), default "/messages"; the `endpoint` event names it with `?sessionId=`. */
  readonly messagesPath?: string | undefined;
  /** Sessions open at most (default 1024); one more GET is refused with 503. */
  readonly maxSessions?: number | undefined;
  /**
   * A session with no POST for this long (ms), and no request of it in flight, is ended: its
   * stream closes (default 1 800 000, 30 minutes; Infinity: never).
   */
  readonly sessionIdleMs?: number | undefined;
  /** Largest POST body read, in bytes (default 4 MiB); a larger one is refused with 413. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Bytes written to a session's stream that have not left for its client yet, at most (default
   * 4 MiB; one message larger than that still goes when nothing else waits). Past it the client
   * is not keeping up: the session ends (its handlers abort).
   */
  readonly maxQueuedBytes?: number | undefined;
  /** Requests of one session in flight at most (default 256); one more POST is refused with 429. */
  readonly maxInFlightPerSession?: number | undefined;
  /** Interval (ms) of SSE comment lines on idle streams, for intermediaries (default 15000; 0: none). */
  readonly keepAliveMs?: number | undefined;
  /**
   * Who sent each request (see createHttpHandler). Run on the GET that opens a session and on
   * every POST; a session belongs to the principal that opened it, and a POST of another
   * principal (or of none, to a principal's session) is answered as an unknown session (404).
   */
  readonly authenticate?: Authenticate | undefined;
  /** Failures of the HTTP layer itself (a stream that could not be written, a throwing authenticate). */
  readonly onError?: ((error: Error) => void) | undefined;
}

const DEFAULTS = {
  ssePath: "/sse",
  messagesPath: "/messages",
  maxSessions: 1024,
  sessionIdleMs: 30 * 60 * 1000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxQueuedBytes: 4 * 1024 * 1024,
  maxInFlightPerSession: 256,
  keepAliveMs: 15_000,
} as const;

const RESOLVED: Promise<void> = Promise.resolve();
const CANCELLED = "notifications/cancelled";
const JSON_HEADERS = { "content-type": "application/json" } as const;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Node: a timer alone does not keep the process alive. */
function unref(timer: unknown): void {
  if (isObject(timer) && typeof timer["unref"] === "function") (timer["unref"] as () => void).call(timer);
}

/** A bound read once when the handler is made: a whole number ≥ min, or Infinity where allowed. */
function bound(name: string, value: unknown, fallback: number, min: number, infinite: boolean): number {
  return numberOption(name, value, fallback, { min, infinity: infinite });
}

/** A path option: a string starting with "/" and without a query or fragment. */
function pathOption(name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !value.startsWith("/") || /[?#]/.test(value)) {
    throw new TypeError(`${name} must be a path starting with "/" (no query, no fragment), got ${describeValue(value)}`);
  }
  return value;
}

function errorResponse(status: number, message: string, headers?: Readonly<Record<string, string>>): Response {
  const body: JsonObject = { jsonrpc: "2.0", error: { code: ErrorCode.InvalidRequest, message } };
  return new Response(JSON.stringify(body), { status, headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers } });
}

function refuse(refusal: Refusal): Response {
  return errorResponse(refusal.status, refusal.message, refusal.headers);
}

/** Why a session ended (the reason its handlers' signals abort with). */
type EndCause = "stream closed" | "idle" | "overflow" | "server closed";

/**
 * One session: the transport of its connection. `send` writes an SSE `message` event to the
 * stream; the stream's queue is measured in bytes and bounded (maxQueuedBytes): a client that
 * stops reading ends its session instead of growing the server.
 */
class LegacySession implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly sessionId: string;
  readonly principal: Principal | undefined;
  readonly http: { readonly headers: Headers; readonly url: string };
  readonly response: Response;
  /** Request ids received and not yet answered or cancelled (maxInFlightPerSession). */
  readonly inFlight = new Set<RequestId>();
  connection: Connection | undefined;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;
  readonly #idleMs: number;
  readonly #maxQueuedBytes: number;
  readonly #onEnd: (session: LegacySession) => void;
  #ended = false;

  constructor(id: string, request: Request, principal: Principal | undefined, endpoint: string, limits: { readonly maxQueuedBytes: number; readonly keepAliveMs: number; readonly idleMs: number }, onEnd: (session: LegacySession) => void) {
    this.sessionId = id;
    this.principal = principal;
    this.http = { headers: request.headers, url: request.url };
    this.#idleMs = limits.idleMs;
    this.#maxQueuedBytes = limits.maxQueuedBytes;
    this.#onEnd = onEnd;
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        // The client closed the stream (node adapter: the socket closed): the session is over.
        cancel: () => this.end("stream closed"),
      },
      { highWaterMark: limits.maxQueuedBytes, size: (chunk) => chunk.byteLength },
    );
    this.response = new Response(stream, { status: 200, headers: SSE_HEADERS });
    // The endpoint event: the URI (relative to the SSE URL) of this session's POSTs.
    this.#write(`event: endpoint\n${sseEvent(endpoint)}`);
    if (limits.keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#write(SSE_KEEP_ALIVE), limits.keepAliveMs);
      unref(this.#keepAlive);
    }
    this.touch();
    if (request.signal.aborted) this.end("stream closed");
    else request.signal.addEventListener("abort", () => this.end("stream closed"), { once: true });
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** A POST arrived: the idle timer starts again. When it fires with a request in flight, it waits another period. */
  touch(): void {
    if (this.#idleMs === Number.POSITIVE_INFINITY) return;
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => (this.inFlight.size > 0 ? this.touch() : this.end("idle")), this.#idleMs);
    unref(this.#idle);
  }

  start(): Promise<void> {
    return RESOLVED;
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#ended) return RESOLVED;
    // A response (or the server's own notifications/cancelled for it) ends a request in flight.
    if (!("method" in message)) this.inFlight.delete(message.id as RequestId);
    const text = JSON.stringify(message); // throws for what JSON cannot carry: the endpoint answers -32603 instead
    this.#write(sseEvent(text));
    return RESOLVED;
  }

  /** The server closed the connection: the session ends with it. */
  close(): Promise<void> {
    this.end("server closed");
    return RESOLVED;
  }

  /** Ends the session once: the stream closes, the session leaves the table, the connection closes (handlers abort). */
  end(cause: EndCause): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.inFlight.clear();
    try {
      if (cause === "overflow") this.#controller.error(new Error("the client does not read its stream"));
      else this.#controller.close();
    } catch {
      // Already cancelled by the consumer.
    }
    this.#onEnd(this);
    const connection = this.connection;
    if (connection !== undefined) queueMicrotask(() => void connection.close().catch(() => undefined));
  }

  #write(text: string): void {
    if (this.#ended) return;
    const bytes = encoder.encode(text);
    // desiredSize = maxQueuedBytes − bytes waiting: the client is too far behind when this one
    // would not fit (a single message goes when nothing else waits, however large).
    const desired = this.#controller.desiredSize ?? 0;
    if (desired < this.#maxQueuedBytes && bytes.byteLength > desired) {
      this.end("overflow");
      return;
    }
    try {
      this.#controller.enqueue(bytes);
    } catch {
      // The consumer is gone; its cancel ends the session.
    }
  }
}

/**
 * The HTTP+SSE handler (2024-11-05) of a generated McpServer: `GET ssePath` opens a session
 * (its stream starts with the `endpoint` event), `POST messagesPath?sessionId=…` delivers one
 * JSON-RPC message to that session (202). `notifications/cancelled` (any request id of the
 * session, 0 included) aborts the handler's `ctx.signal` and no response is sent; the stream
 * closing ends the session and aborts every handler of it. Serve it with toNodeListener, or beside
 * another handler (the paths it does not own answer 404).
 */
export function createLegacySseHandler(server: LegacySseServable, options: LegacySseHandlerOptions = {}): HttpHandler {
  const ssePath = pathOption("ssePath", options.ssePath, DEFAULTS.ssePath);
  const messagesPath = pathOption("messagesPath", options.messagesPath, DEFAULTS.messagesPath);
  if (ssePath === messagesPath) throw new TypeError(`ssePath and messagesPath must differ, both are ${describeValue(ssePath)}`);
  const maxSessions = bound("maxSessions", options.maxSessions, DEFAULTS.maxSessions, 1, true);
  const idleMs = bound("sessionIdleMs", options.sessionIdleMs, DEFAULTS.sessionIdleMs, 1, true);
  const maxBodyBytes = bound("maxBodyBytes", options.maxBodyBytes, DEFAULTS.maxBodyBytes, 1, false);
  const maxQueuedBytes = bound("maxQueuedBytes", options.maxQueuedBytes, DEFAULTS.maxQueuedBytes, 1, false);
  const maxInFlight = bound("maxInFlightPerSession", options.maxInFlightPerSession, DEFAULTS.maxInFlightPerSession, 1, true);
  const keepAliveMs = numberOption("keepAliveMs", options.keepAliveMs, DEFAULTS.keepAliveMs, { min: 1000, zeroIsOff: true });
  checkGuardOptions(options);
  const authenticate = authenticateOption(options.authenticate);
  const sessions = new Map<string, LegacySession>();
  const limits = { maxQueuedBytes, keepAliveMs, idleMs };

  const open = (request: Request, principal: Principal | undefined): Response => {
    if (sessions.size >= maxSessions) return errorResponse(503, `Service Unavailable: ${maxSessions} sessions are open (maxSessions)`, { "retry-after": "1" });
    // A session id is a capability: random (Web Crypto), never derived from anything the client sent.
    const id = globalThis.crypto.randomUUID();
    const session = new LegacySession(id, request, principal, `${messagesPath}?sessionId=${id}`, limits, (ended) => {
      if (sessions.get(ended.sessionId) === ended) sessions.delete(ended.sessionId);
    });
    if (session.ended) return errorResponse(499, "the client is gone");
    try {
      session.connection = server.openConnection(session);
    } catch (error) {
      session.end("server closed");
      throw error;
    }
    if (session.ended) return errorResponse(499, "the client is gone");
    sessions.set(id, session);
    return session.response;
  };

  const deliver = async (request: Request, info: HttpRequestInfo | undefined, url: URL, principal: Principal | undefined): Promise<Response> => {
    const session = sessions.get(url.searchParams.get("sessionId") ?? "");
    // Another principal's session is no session of this client: the same answer as an unknown one.
    if (session === undefined || session.ended || session.principal?.id !== principal?.id) return errorResponse(404, "Not Found: no such session");
    if (mediaType(request.headers.get("content-type")) !== "application/json") return errorResponse(415, "Unsupported Media Type: the body must be application/json");
    let body: unknown;
    if (info !== undefined && "parsedBody" in info) {
      // A router that serves several eras on one URL read (and bounded) the body already.
      body = info.parsedBody;
    } else {
      const bytes = await readRequestBody(request, maxBodyBytes);
      if (!(bytes instanceof Uint8Array)) return refuse(bytes);
      try {
        body = JSON.parse(decoder.decode(bytes));
      } catch {
        return errorResponse(400, "Parse error: the body is not JSON");
      }
    }
    if (!isObject(body) || body["jsonrpc"] !== "2.0") return errorResponse(400, "Invalid Request: the body must be one JSON-RPC 2.0 message");
    const method = body["method"];
    const isRequest = typeof method === "string" && "id" in body;
    if (isRequest && !isRequestId(body["id"])) return errorResponse(400, "Invalid Request: the id must be a string or an integer");
    if (session.ended) return errorResponse(404, "Not Found: no such session");
    if (isRequest) {
      // Refused here, not by the endpoint: its error response would carry the id and uncount the original.
      if (session.inFlight.has(body["id"] as RequestId)) return errorResponse(400, `Invalid Request: id ${describeValue(body["id"])} is already in flight`);
      if (session.inFlight.size >= maxInFlight) {
        return errorResponse(429, `Too Many Requests: ${maxInFlight} requests of this session are in flight (maxInFlightPerSession)`, { "retry-after": "1" });
      }
      session.inFlight.add(body["id"] as RequestId);
    } else if (method === CANCELLED && isObject(body["params"]) && isRequestId(body["params"]["requestId"])) {
      // A cancelled request gets no response (Cancellation): it leaves the count here.
      session.inFlight.delete(body["params"]["requestId"]);
    }
    session.touch();
    try {
      session.onmessage?.(body as unknown as JsonRpcMessage);
    } catch (error) {
      report(options.onError, error);
    }
    return new Response("Accepted", { status: 202, headers: { "content-type": "text/plain" } });
  };

  const handle = async (request: Request, info: HttpRequestInfo | undefined): Promise<Response> => {
    const url = new URL(request.url);
    const route = url.pathname === ssePath ? "sse" : url.pathname === messagesPath ? "messages" : null;
    if (route === null) return errorResponse(404, "Not Found");
    const forbidden = hostProblem(request, info?.localAddress, options);
    if (forbidden !== null) return errorResponse(403, `Forbidden: ${forbidden}`);
    const allowed = route === "sse" ? "GET" : "POST";
    // 2024-11-05 has no DELETE: a session ends when its stream closes.
    if (request.method !== allowed) return errorResponse(405, `Method Not Allowed: ${request.method}; ${route === "sse" ? ssePath : messagesPath} accepts ${allowed}`, { allow: allowed });
    const principal = await authenticateRequest(authenticate, request);
    if (principal instanceof Response) return principal;
    return route === "sse" ? open(request, principal) : deliver(request, info, url, principal);
  };

  return async (request, info) => {
    try {
      return await handle(request, info);
    } catch (error) {
      report(options.onError, error);
      return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: ErrorCode.InternalError, message: "Internal error" } }), { status: 500, headers: JSON_HEADERS });
    }
  };
}
