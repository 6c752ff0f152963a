// The Streamable HTTP server of the session revisions (2025-03-26, 2025-06-18, 2025-11-25): a
// web-standard handler, `(request: Request) => Promise<Response>`, bound to a generated McpServer.
// `initialize` opens a session (`Mcp-Session-Id`), served by one long-lived connection of the
// server, so the endpoint's rules (cancellation by notifications/cancelled, in-flight ids) apply
// to the whole session as they do over stdio. One URL takes POST (one message; a request is
// answered with JSON or an SSE stream carrying the messages about it first), GET (the session's
// own stream for the rest) and DELETE (the end of the session).
//
// Spec pages: basic/transports.mdx of each revision, "Streamable HTTP" (abbreviated "HTTP" below:
// Sending Messages to the Server, Listening for Messages from the Server, Multiple Connections,
// Resumability and Redelivery, Session Management, Protocol Version Header), and
// basic/utilities/cancellation.mdx. What differs between the protocol versions a session may
// negotiate is the server's generated `sessionBinding` (the catalog's ERA): the runtime knows
// none of them.

import type { Connection } from "../core/endpoint.js";
import { isObject, isRequestId } from "../core/json.js";
import {
  describeValue,
  ErrorCode,
  type HttpRequestContext,
  type JsonObject,
  type JsonRpcMessage,
  type Principal,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from "../core/protocol.js";
import { numberOption } from "../core/options.js";
import { InMemoryEventStore, type EventReplay, type EventStore } from "./event-store.js";
import { mediaType, report as guarded } from "./fetch.js";
import { acceptsBoth, authenticateOption, authenticateRequest, checkGuardOptions, hostProblem, readRequestBody, type Authenticate, type GuardOptions, type Refusal } from "./guards.js";
import type { HttpHandler, HttpRequestInfo } from "./http-server.js";
import { RegistryLink, SessionRegistryError, sessionRegistryOption, type SessionRegistry } from "./session-registry.js";
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseEvent } from "./sse.js";

/** What a revision's transport page asks of the server, by the protocol version a session negotiated. */
export interface SessionVersionRules {
  /**
   * HTTP, Protocol Version Header (2025-06-18 and later): the client sends the negotiated version
   * on every request after initialize; a value the server does not support is answered 400.
   */
  readonly versionHeader: boolean;
  /**
   * HTTP, Sending Messages to the Server (2025-11-25): the server SHOULD open an SSE stream with
   * an event of an id and empty data, so the client may resume it ("priming").
   */
  readonly priming: boolean;
  /**
   * HTTP, Sending Messages to the Server (2025-03-26 only; 2025-06-18 removed JSON-RPC
   * batching): a POST body may be an array of requests and notifications, or of responses.
   */
  readonly batches: boolean;
}

/** What createSessionHttpHandler needs to know of a revision: generated data (the catalog's ERA, McpServer.sessionBinding). */
export interface SessionBinding {
  /**
   * The protocol versions a session may negotiate, oldest first, with what each one's transport
   * page asks. A session whose version is none of them gets the first (the oldest) one's rules.
   */
  readonly versions: { readonly [version: string]: SessionVersionRules };
}

/** A server createSessionHttpHandler can serve: a generated McpServer of a session revision. */
export interface SessionServable {
  openConnection(transport: Transport): Connection;
  readonly sessionBinding: SessionBinding;
}

/** The binding's versions as the handler reads them, checked once. */
class VersionTable {
  readonly #rules: ReadonlyMap<string, SessionVersionRules>;
  /** The rules of a session whose version is not in the table (the oldest version's). */
  readonly oldest: SessionVersionRules;
  /** The versions, oldest first. */
  readonly versions: readonly string[];
  /** The versions, for the messages that name them. */
  readonly list: string;

  constructor(binding: unknown) {
    const versions = isObject(binding) ? binding["versions"] : undefined;
    const entries = isObject(versions) ? Object.entries(versions) : [];
    const valid = (rules: unknown): rules is SessionVersionRules =>
      isObject(rules) && typeof rules["versionHeader"] === "boolean" && typeof rules["priming"] === "boolean" && typeof rules["batches"] === "boolean";
    if (entries.length === 0 || !entries.every(([, rules]) => valid(rules))) {
      throw new TypeError(`createSessionHttpHandler needs a generated McpServer of a session revision (sessionBinding.versions: version → { versionHeader, priming, batches }), got ${describeValue(versions)}`);
    }
    this.#rules = new Map(entries as [string, SessionVersionRules][]);
    this.oldest = entries[0]![1] as SessionVersionRules;
    this.versions = entries.map(([version]) => version);
    this.list = this.versions.join(", ");
  }

  /** The rules of a version in the table; undefined for another. */
  get(version: string): SessionVersionRules | undefined {
    return this.#rules.get(version);
  }

  /** The rules of a session of this version: its own, or the oldest version's. */
  of(version: string | undefined): SessionVersionRules {
    return (version === undefined ? undefined : this.#rules.get(version)) ?? this.oldest;
  }
}

/** Options of createSessionHttpHandler; the Host/Origin rule's are GuardOptions' (as in createHttpHandler). */
export interface SessionHttpHandlerOptions extends GuardOptions {
  /**
   * Sessions: true (default), or false for the stateless mode of HTTP, Session Management ("a
   * server MAY assign a session ID"): no `Mcp-Session-Id`, every POST served on its own
   * connection, no GET stream, no DELETE, and a cancel only reaches a request of its own POST.
   */
  readonly sessions?: boolean | undefined;
  /** Sessions open at most (default 1024); one more `initialize` is refused with 503 naming this option. */
  readonly maxSessions?: number | undefined;
  /**
   * A session with nothing in flight and no stream open for this long (ms) ends, as by DELETE
   * (default 1 800 000, 30 minutes; Infinity: never).
   */
  readonly sessionIdleMs?: number | undefined;
  /** Requests of one session in flight at most (default 64); one more is refused with 429 naming this option. */
  readonly maxInFlightPerSession?: number | undefined;
  /**
   * Where the events of SSE streams are kept for resumption (HTTP, Resumability and
   * Redelivery). Default: an InMemoryEventStore per session, bounded by `maxStoredEvents`; a
   * store of yours is shared by every session (stream ids name their session); null: none (no
   * event ids, no priming events, no resumption).
   */
  readonly eventStore?: EventStore | null | undefined;
  /** Events the default store keeps per session (default 1000; its bytes are bounded at 4 MiB). */
  readonly maxStoredEvents?: number | undefined;
  /** The `retry:` (ms) sent with priming events: how long a client waits before it resumes (default 1000). */
  readonly retryMs?: number | undefined;
  /**
   * "auto" (default): a request is answered with JSON unless the server sends something about it
   * first, which turns the answer into an SSE stream; "sse": every request's answer is an SSE
   * stream (with a priming event where the revision has them, so the server may close it early
   * with closeStream and the client resumes it).
   */
  readonly responses?: "auto" | "sse" | undefined;
  /** Largest request body read, in bytes (default 4 MiB, at least 128); a larger one is refused with 413. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Bytes written to one SSE stream that its reader has not taken yet, at most (default 1 MiB,
   * at least 1024):
   * past it the stream is closed as if the client had gone (its events stay in the event store).
   */
  readonly maxStreamBufferBytes?: number | undefined;
  /** Interval (ms) of SSE comment lines on open streams (default 15000, at least 1000; 0: none). */
  readonly keepAliveMs?: number | undefined;
  /**
   * Who sent each request (as in createHttpHandler), asked for every POST, GET and DELETE. A
   * session belongs to the principal that opened it: a request of another principal (or of
   * none) naming its id is answered 404, as for an unknown session. Handlers see the session's
   * principal as `ctx.principal`.
   */
  readonly authenticate?: Authenticate | undefined;
  /** Failures of the HTTP layer itself (an event store that throws, a session that fails to close). */
  readonly onError?: ((error: Error) => void) | undefined;
  /**
   * Sessions shared by every instance behind a load balancer (http/session-registry.ts): a
   * session opened here is recorded there, and an id this instance does not hold is looked up
   * there and continued here. Default none: an unknown id is 404.
   */
  readonly sessionRegistry?: SessionRegistry | undefined;
}

/** The handler, with what a server does with its sessions besides answering requests. */
export interface SessionHttpHandler extends HttpHandler {
  /** Sessions open now. */
  readonly sessionCount: number;
  /** The protocol versions its sessions may negotiate, oldest first (the server's sessionBinding). */
  readonly versions: readonly string[];
  /**
   * Sends a notification on a session's GET stream (a `…/list_changed`, a resource update); with
   * no GET stream open it is only stored for a resumption. False: no such session.
   */
  notify(sessionId: string, method: string, params?: JsonObject): boolean;
  /**
   * Closes the SSE stream of a request without ending the request (2025-11-25 HTTP, Sending
   * Messages to the Server: the server MAY close the connection before the response, and the
   * client resumes with GET and `Last-Event-ID`). Only where the stream has an event id to
   * resume from; false otherwise (the stream stays open).
   */
  closeStream(sessionId: string, requestId: RequestId): boolean;
  /** Whether a session of this id is open here (how createEraRouter finds the handler of a session). */
  hasSession(sessionId: string): boolean;
  /** Ends every session (handlers abort, streams close) and refuses new ones from then on. */
  close(): Promise<void>;
}

const DEFAULTS = {
  maxSessions: 1024,
  sessionIdleMs: 30 * 60 * 1000,
  maxInFlightPerSession: 64,
  maxStoredEvents: 1000,
  retryMs: 1000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxStreamBufferBytes: 1024 * 1024,
  keepAliveMs: 15_000,
} as const;

const SESSION_HEADER = "mcp-session-id";
const CANCELLED = "notifications/cancelled";
const INITIALIZE = "initialize";
const JSON_HEADERS = { "content-type": "application/json" } as const;
const ALLOW = "GET, POST, DELETE";
const RESOLVED: Promise<void> = Promise.resolve();

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

// ---------------------------------------------------------------------------------------------
// Options

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (allowed.includes(value as T)) return value as T;
  throw new RangeError(`${name} must be one of ${allowed.join(", ")}, got ${describeValue(value)}`);
}

function flag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === "boolean") return value;
  throw new TypeError(`${name} must be a boolean, got ${describeValue(value)}`);
}

function eventStoreOption(value: unknown): EventStore | null | undefined {
  if (value === undefined || value === null) return value;
  if (isObject(value) && typeof value["storeEvent"] === "function" && typeof value["replayEventsAfter"] === "function") return value as unknown as EventStore;
  throw new TypeError(`eventStore must be an EventStore (storeEvent, replayEventsAfter) or null, got ${describeValue(value)}`);
}

// ---------------------------------------------------------------------------------------------
// Responses

function errorBody(id: RequestId | undefined, code: number, message: string): string {
  return JSON.stringify(id === undefined ? { jsonrpc: "2.0", error: { code, message } } : { jsonrpc: "2.0", id, error: { code, message } });
}

function reject(status: number, id: RequestId | undefined, code: number, message: string, headers?: Readonly<Record<string, string>>): Response {
  return new Response(errorBody(id, code, message), { status, headers: { ...JSON_HEADERS, ...headers } });
}

function refuse(refusal: Refusal): Response {
  return reject(refusal.status, undefined, ErrorCode.InvalidRequest, refusal.message, refusal.headers);
}

/** Node: a timer alone does not keep the process alive. */
function unref(timer: unknown): void {
  if (isObject(timer) && typeof timer["unref"] === "function") (timer["unref"] as () => void).call(timer);
}

/** An SSE event with an id (what a client resumes from); `data` "" is a priming event, with `retry:`. */
function eventWithId(id: string | undefined, data: string, retryMs: number): string {
  if (id === undefined) return sseEvent(data);
  return data === "" ? `id: ${id}\nretry: ${retryMs}\ndata: \n\n` : `id: ${id}\n${sseEvent(data)}`;
}

/** An id a store gave that can go into an `id:` line (no line break, no NUL, not empty). */
const VALID_EVENT_ID = /^[^\r\n\0]+$/;

// ---------------------------------------------------------------------------------------------
// One SSE response

/**
 * One open SSE response body. Writes are bounded by `maxBuffered` bytes not yet taken by the
 * reader; past it, or when the reader cancels (the client went away), the stream closes and
 * `onGone` runs once. Keep-alive comment lines every `keepAliveMs`.
 */
class SseOut {
  readonly response: Response;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #open = true;
  readonly #maxBuffered: number;
  readonly #onGone: () => void;

  constructor(headers: Readonly<Record<string, string>>, keepAliveMs: number, maxBuffered: number, signal: AbortSignal | undefined, onGone: () => void) {
    this.#maxBuffered = maxBuffered;
    this.#onGone = onGone;
    // Bytes queued and not yet taken by the reader count against maxBuffered (desiredSize is
    // maxBuffered minus them): the backpressure of a stream whose writer cannot wait.
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#gone(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: maxBuffered }),
    );
    if (keepAliveMs > 0) {
      const timer = setInterval(() => this.write(SSE_KEEP_ALIVE), keepAliveMs);
      unref(timer);
      this.#keepAlive = timer;
    }
    // A client already gone: the stream is gone on the next microtask (the caller holds `this` by then).
    if (signal?.aborted === true) queueMicrotask(() => this.#gone());
    else signal?.addEventListener("abort", () => this.#gone(), { once: true });
    this.response = new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
  }

  get open(): boolean {
    return this.#open;
  }

  write(text: string): void {
    const controller = this.#controller;
    if (!this.#open || controller === undefined) return;
    try {
      const bytes = encoder.encode(text);
      const room = controller.desiredSize ?? 0;
      // One message larger than the bound still goes through an empty queue; nothing joins a full one.
      if (room < this.#maxBuffered && bytes.byteLength > room) return this.#gone();
      controller.enqueue(bytes);
    } catch {
      this.#gone();
    }
  }

  /** Ends the response (the request's answer went out, or the session ended). */
  close(): void {
    if (!this.#open) return;
    this.#stop();
    try {
      this.#controller?.close();
    } catch {
      // already cancelled by the reader
    }
  }

  #stop(): void {
    this.#open = false;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
  }

  #gone(): void {
    if (!this.#open) return;
    this.#stop();
    try {
      this.#controller?.error(new Error("stream closed"));
    } catch {
      // already closed
    }
    this.#onGone();
  }
}

// ---------------------------------------------------------------------------------------------
// A session: the transport of its connection

/** What every session of one handler shares: the options as read, and the table of sessions. */
interface Shared {
  readonly server: SessionServable;
  readonly versions: VersionTable;
  readonly sessions: Map<string, Session>;
  readonly store: EventStore | null | undefined;
  readonly maxStoredEvents: number;
  readonly idleMs: number;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  readonly maxBuffered: number;
  readonly sseAlways: boolean;
  readonly onError: ((error: Error) => void) | undefined;
  /** Runs after a successful initialize, before its response is written (the session registry records it). */
  opened?: ((session: Session) => Promise<void>) | undefined;
}

/**
 * The answer to one POSTed request: pending (no byte sent: JSON is still possible), an SSE
 * stream, detached (the stream broke or the server closed it; its events are only stored, for a
 * resumption), or done (answered, cancelled, or the session ended).
 */
class RequestStream {
  state: "pending" | "sse" | "detached" | "done" = "pending";
  sse: SseOut | undefined;
  /** The writes of this stream, in order (an event store may be asynchronous). */
  chain: Promise<void> = RESOLVED;
  readonly response: Promise<Response>;
  resolve!: (response: Response) => void;

  readonly requestId: RequestId;
  readonly streamId: string;
  /** The POST's signal: it aborts when the client goes away (never a cancel). */
  readonly signal: AbortSignal;
  readonly isInitialize: boolean;
  /**
   * A member of a batch (2025-03-26): its response goes to the batch's JSON array instead
   * (undefined: none will come), and the messages about it go on the GET stream.
   */
  collect: ((text: string | undefined) => void) | undefined;

  constructor(requestId: RequestId, streamId: string, signal: AbortSignal, isInitialize: boolean) {
    this.requestId = requestId;
    this.streamId = streamId;
    this.signal = signal;
    this.isInitialize = isInitialize;
    this.response = new Promise((resolve) => (this.resolve = resolve));
  }
}

/**
 * One session (or, stateless, one POST): the transport of one connection of the server. It
 * routes what the server sends: a response and the messages related to its request onto that
 * request's stream (HTTP, Sending Messages to the Server 6), everything else onto the GET stream
 * (Listening for Messages from the Server), never one message on two streams (Multiple
 * Connections).
 */
class Session implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly sessionId: string | undefined;
  readonly principal: Principal | undefined;
  readonly http: HttpRequestContext;
  /** The protocol version negotiated (the initialize result's), and its rules. */
  version: string | undefined;
  rules: SessionVersionRules;
  connection!: Connection;
  /** Put before each request stream's number: a session continued here from a registry numbers its streams apart from the instance that opened it. */
  streamTag = "";
  /** The client's capabilities (its initialize), for the session registry. */
  clientCapabilities: JsonObject = {};

  readonly requests = new Map<RequestId, RequestStream>();
  readonly #byStream = new Map<string, RequestStream>();
  readonly #shared: Shared;
  readonly #store: EventStore | null;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #getStreamId: string;
  #streams = 0;
  #getSse: SseOut | undefined;
  #getChain: Promise<void> = RESOLVED;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #ended = false;

  constructor(shared: Shared, id: string | undefined, principal: Principal | undefined, http: HttpRequestContext) {
    this.#shared = shared;
    this.sessionId = id;
    this.principal = principal;
    this.http = http;
    this.rules = shared.versions.oldest;
    this.#headers = id === undefined ? {} : { [SESSION_HEADER]: id };
    // Stateless: nothing to resume from (there is no GET to resume with).
    this.#store = id === undefined ? null : shared.store === undefined ? new InMemoryEventStore({ maxEvents: shared.maxStoredEvents }) : shared.store;
    this.#getStreamId = `${id ?? ""}/0`;
    this.connection = shared.server.openConnection(this);
  }

  get ended(): boolean {
    return this.#ended;
  }

  start(): Promise<void> {
    return RESOLVED;
  }

  // -- what the client sent

  /** Hands a message to the connection; nothing the endpoint throws escapes. */
  deliver(message: JsonRpcMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      guarded(this.#shared.onError, error);
    }
  }

  /** A request: its stream, then the message. The caller checked its id is not in flight here. */
  begin(id: RequestId, message: JsonRpcMessage, signal: AbortSignal, isInitialize: boolean, collect?: (text: string | undefined) => void): Promise<Response> {
    const stream = new RequestStream(id, `${this.sessionId ?? ""}/${this.streamTag}${++this.#streams}`, signal, isInitialize);
    stream.collect = collect;
    this.requests.set(id, stream);
    this.#byStream.set(stream.streamId, stream);
    this.#touch();
    if (isInitialize) this.#expect(message);
    if (this.#shared.sseAlways && collect === undefined) this.#queue(stream, () => this.#openSse(stream));
    this.deliver(message);
    return stream.response;
  }

  /**
   * notifications/cancelled (Cancellation; any valid id, 0 included): the endpoint aborts the
   * handler and sends no response. Whether it did (the id names a cancellable request in
   * flight) shows in the connection's count of requests being handled, which the cancel lowers
   * at once; then the request's stream ends (HTTP: the server closes it after the response, and
   * none will come).
   */
  cancel(message: JsonRpcMessage): void {
    const before = this.connection.inFlight.received;
    this.deliver(message);
    const params = "params" in message ? message.params : undefined;
    const id = isObject(params) ? params["requestId"] : undefined;
    if (this.connection.inFlight.received >= before || !isRequestId(id)) return;
    const stream = this.requests.get(id);
    if (stream === undefined) return;
    this.#queue(stream, () => {
      if (stream.state === "done") return; // the session ended meanwhile
      if (stream.collect !== undefined) stream.collect(undefined);
      else if (stream.state === "pending") {
        // No response will come: the answer is an SSE stream that ends empty.
        const out = this.#sse(stream.signal, () => undefined);
        stream.resolve(out.response);
        out.close();
      }
      this.#finish(stream);
    });
  }

  // -- what the server sends

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#ended) return RESOLVED;
    const text = JSON.stringify(message); // throws for what JSON cannot carry: the endpoint answers -32603 instead
    if (!("method" in message)) {
      const stream = message.id === undefined ? undefined : this.requests.get(message.id);
      if (stream === undefined || stream.state === "done") return RESOLVED;
      if (stream.isInitialize) this.#initialized(message, stream);
      this.#queue(stream, () => this.#write(stream, text, true));
      return RESOLVED;
    }
    const related = options?.relatedRequestId;
    const stream = related === undefined ? undefined : this.requests.get(related);
    if (stream !== undefined && stream.state !== "done") this.#queue(stream, () => this.#write(stream, text, false));
    else this.#writeGet(text);
    return RESOLVED;
  }

  /** The endpoint closed the connection, or the session ends: every stream closes. */
  close(): Promise<void> {
    if (this.#ended) return RESOLVED;
    this.#ended = true;
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    if (this.sessionId !== undefined && this.#shared.sessions.get(this.sessionId) === this) this.#shared.sessions.delete(this.sessionId);
    for (const stream of this.requests.values()) {
      if (stream.collect !== undefined) stream.collect(undefined);
      else if (stream.state === "pending") stream.resolve(reject(404, stream.requestId, ErrorCode.InvalidRequest, "Session not found: the session ended before the request was answered", this.#headers));
      stream.sse?.close();
      stream.state = "done";
    }
    this.requests.clear();
    this.#byStream.clear();
    this.#getSse?.close();
    this.#getSse = undefined;
    return RESOLVED;
  }

  /** Ends the session (DELETE, idle expiry, the handler's close): its handlers abort. */
  async end(): Promise<void> {
    await this.connection.close().catch((error: unknown) => guarded(this.#shared.onError, error));
    await this.close();
  }

  /** Sends a notification outside any request (the handler's notify). */
  notify(method: string, params: JsonObject | undefined): void {
    if (this.#ended) return;
    this.#writeGet(JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }));
  }

  /** Closes a request's stream without ending the request, so the client resumes it (closeStream). */
  closeStream(id: RequestId): boolean {
    const stream = this.requests.get(id);
    if (stream === undefined || stream.collect !== undefined || stream.state === "done" || stream.state === "detached" || this.#store === null || !this.rules.priming) return false;
    this.#queue(stream, async () => {
      if (stream.state === "pending") await this.#openSse(stream);
      if (stream.state !== "sse") return;
      stream.sse?.close();
      stream.sse = undefined;
      stream.state = "detached";
    });
    return true;
  }

  // -- the GET stream and resumption

  /** GET without Last-Event-ID: the session's stream for messages outside requests; one at a time (409). */
  openGet(signal: AbortSignal): Promise<Response> {
    if (this.#getSse?.open === true) {
      return Promise.resolve(reject(409, undefined, ErrorCode.InvalidRequest, "Conflict: this session's GET stream is already open", this.#headers));
    }
    const out = this.#sse(signal, () => this.#getGone(out));
    this.#getSse = out;
    this.#touch();
    const primed = this.#getChain.then(async () => {
      if (this.rules.priming) {
        const id = await this.#storeEvent(this.#getStreamId, "");
        if (id !== undefined) out.write(eventWithId(id, "", this.#shared.retryMs));
      }
    });
    this.#getChain = primed.catch((error: unknown) => guarded(this.#shared.onError, error));
    return this.#getChain.then(() => out.response);
  }

  /**
   * GET with Last-Event-ID (Resumability and Redelivery): the events of that stream after the
   * id, on a new SSE response that then carries the stream on: the GET stream, or a request's
   * stream still unanswered (replacing a connection the server still believes open). A stream
   * already finished ends after its replay. Unknown ids, and ids of another session's streams:
   * 404, the event is none of this session's.
   */
  async resume(lastEventId: string, signal: AbortSignal): Promise<Response> {
    if (this.#store === null) return this.openGet(signal);
    let replay: EventReplay | undefined;
    try {
      replay = await this.#store.replayEventsAfter(lastEventId);
    } catch (error) {
      guarded(this.#shared.onError, error);
      replay = undefined;
    }
    const prefix = `${this.sessionId ?? ""}/`;
    if (replay === undefined || typeof replay.streamId !== "string" || !replay.streamId.startsWith(prefix) || !Array.isArray(replay.events)) {
      return reject(404, undefined, ErrorCode.InvalidRequest, `Not Found: no stream of this session has event ${describeValue(lastEventId)}`, this.#headers);
    }
    const events = replay.events.filter((e) => isObject(e) && typeof e.id === "string" && VALID_EVENT_ID.test(e.id) && typeof e.data === "string" && e.data !== "");
    const replayInto = (out: SseOut): void => {
      for (const event of events) out.write(eventWithId(event.id, event.data, this.#shared.retryMs));
    };
    if (replay.streamId === this.#getStreamId) {
      const attached = this.#getChain.then(() => {
        this.#getSse?.close();
        const out = this.#sse(signal, () => this.#getGone(out));
        this.#getSse = out;
        replayInto(out);
        this.#touch();
        return out.response;
      });
      this.#getChain = attached.then(() => undefined, () => undefined);
      return attached;
    }
    const stream = this.#byStream.get(replay.streamId);
    if (stream === undefined || stream.state === "done") {
      const out = this.#sse(signal, () => undefined);
      replayInto(out);
      out.close();
      return out.response;
    }
    return new Promise<Response>((resolve) => {
      this.#queue(stream, () => {
        // Unanswered and never streamed: its own POST still carries it (no event id was given out for it).
        if (stream.state === "pending") return resolve(reject(409, undefined, ErrorCode.InvalidRequest, "Conflict: that stream is still open on its own request", this.#headers));
        stream.sse?.close();
        const out = this.#sse(signal, () => this.#detach(stream, out));
        replayInto(out);
        if (stream.state === "done") out.close();
        else {
          stream.sse = out;
          stream.state = "sse";
        }
        resolve(out.response);
      });
    });
  }

  // -- writing

  #sse(signal: AbortSignal, onGone: () => void): SseOut {
    return new SseOut(this.#headers, this.#shared.keepAliveMs, this.#shared.maxBuffered, signal, onGone);
  }

  /** Runs `step` after the stream's earlier writes; a failure goes to onError, later steps still run. */
  #queue(stream: RequestStream, step: () => void | Promise<void>): void {
    stream.chain = stream.chain.then(step).catch((error: unknown) => guarded(this.#shared.onError, error));
  }

  /** One message on a request's stream: JSON when it is the response and nothing came before, else an SSE event. */
  async #write(stream: RequestStream, text: string, final: boolean): Promise<void> {
    if (stream.state === "done") return;
    if (stream.collect !== undefined) {
      if (!final) return this.#writeGet(text);
      stream.collect(text);
      return this.#finish(stream);
    }
    if (stream.state === "pending") {
      if (final) {
        stream.resolve(new Response(text, { status: 200, headers: { ...JSON_HEADERS, ...this.#headers } }));
        this.#finish(stream);
        return;
      }
      await this.#openSse(stream);
    }
    const id = await this.#storeEvent(stream.streamId, text);
    if (stream.state === "sse") stream.sse?.write(eventWithId(id, text, this.#shared.retryMs));
    if (final) this.#finish(stream);
  }

  /** The answer becomes an SSE stream, opened with a priming event where the revision has them. */
  async #openSse(stream: RequestStream): Promise<void> {
    if (stream.state !== "pending") return;
    const out = this.#sse(stream.signal, () => this.#detach(stream, out));
    stream.sse = out;
    stream.state = "sse";
    stream.resolve(out.response);
    if (this.rules.priming) {
      const id = await this.#storeEvent(stream.streamId, "");
      if (id !== undefined) out.write(eventWithId(id, "", this.#shared.retryMs));
    }
  }

  /**
   * The client went away from a request's stream, or its buffer overflowed: "disconnection
   * SHOULD NOT be interpreted as the client cancelling its request" (Sending Messages to the
   * Server). The request runs on; its events are stored for a resumption.
   */
  #detach(stream: RequestStream, out: SseOut): void {
    if (stream.sse !== out || stream.state !== "sse") return;
    stream.sse = undefined;
    stream.state = "detached";
  }

  #finish(stream: RequestStream): void {
    stream.state = "done";
    stream.sse?.close();
    stream.sse = undefined;
    if (this.requests.get(stream.requestId) === stream) this.requests.delete(stream.requestId);
    this.#byStream.delete(stream.streamId);
    this.#touch();
    // Stateless: the POST's connection ends with its answer.
    if (this.sessionId === undefined && this.requests.size === 0) void this.end();
  }

  #writeGet(text: string): void {
    if (this.sessionId === undefined) return; // stateless: there is no GET stream
    this.#getChain = this.#getChain
      .then(async () => {
        const id = await this.#storeEvent(this.#getStreamId, text);
        this.#getSse?.write(eventWithId(id, text, this.#shared.retryMs));
      })
      .catch((error: unknown) => guarded(this.#shared.onError, error));
  }

  #getGone(out: SseOut): void {
    if (this.#getSse !== out) return;
    this.#getSse = undefined;
    this.#touch();
  }

  /** An event's id from the store, or undefined (no store, or one that failed or gave an unusable id). */
  async #storeEvent(streamId: string, data: string): Promise<string | undefined> {
    const store = this.#store;
    if (store === null) return undefined;
    try {
      const id: unknown = await store.storeEvent(streamId, data);
      if (typeof id === "string" && VALID_EVENT_ID.test(id)) return id;
      guarded(this.#shared.onError, new TypeError(`eventStore.storeEvent must return a non-empty string without line breaks, got ${describeValue(id)}`));
    } catch (error) {
      guarded(this.#shared.onError, error);
    }
    return undefined;
  }

  // -- the lifecycle

  /** initialize's own params name the version the client asks for: its rules until the result says. */
  #expect(message: JsonRpcMessage): void {
    const params = "params" in message ? message.params : undefined;
    const asked = params?.["protocolVersion"];
    const rules = typeof asked === "string" ? this.#shared.versions.get(asked) : undefined;
    if (rules !== undefined) this.rules = rules;
  }

  /** The initialize response: the negotiated version sets the session's rules; an error ends the session. */
  #initialized(message: JsonRpcMessage, stream: RequestStream): void {
    const result = "result" in message ? message.result : undefined;
    const version = result?.["protocolVersion"];
    if (typeof version === "string") {
      this.version = version;
      this.rules = this.#shared.versions.of(version);
      const opened = this.#shared.opened;
      if (opened !== undefined && this.sessionId !== undefined) this.#queue(stream, () => opened(this));
      return;
    }
    // Session Management: the id is assigned "at initialization time"; a failed initialize opens none.
    // After the error response's write, which send() queues right after this returns.
    if (this.sessionId !== undefined) queueMicrotask(() => void stream.chain.then(() => this.end()));
  }

  /** Arms the idle expiry when nothing is in flight and no stream is open; disarms it otherwise. */
  #touch(): void {
    if (this.#ended || this.sessionId === undefined) return;
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
    if (this.requests.size > 0 || this.#getSse?.open === true || !Number.isFinite(this.#shared.idleMs)) return;
    const timer = setTimeout(() => void this.end(), this.#shared.idleMs);
    unref(timer);
    this.#idle = timer;
  }
}

// ---------------------------------------------------------------------------------------------
// The handler

/** The refusal of a protocol version header the session's revision does not accept, or null (HTTP, Protocol Version Header). */
function versionProblem(request: Request, session: Session, versions: VersionTable): Response | null {
  const version = request.headers.get("mcp-protocol-version");
  // Absent: "the server SHOULD assume" the negotiated version (or 2025-03-26 without one).
  if (version === null || !session.rules.versionHeader) return null;
  if (versions.get(version) === undefined) {
    return reject(400, undefined, ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version ${describeValue(version)} (supported: ${versions.list})`);
  }
  if (session.version !== undefined && version !== session.version) {
    return reject(400, undefined, ErrorCode.InvalidRequest, `Bad Request: MCP-Protocol-Version ${describeValue(version)} is not the version this session negotiated (${session.version})`);
  }
  return null;
}

/** One message of a POST body, checked: what it is, or the 400 that refuses the body. */
interface Read {
  readonly message: JsonRpcMessage;
  readonly method: string | undefined;
  readonly id: unknown;
  readonly hasId: boolean;
}

function readMessage(value: unknown): Read | Response {
  const invalid = (text: string, id?: RequestId): Response => reject(400, id, ErrorCode.InvalidRequest, `Invalid Request: ${text}`);
  if (!isObject(value) || value["jsonrpc"] !== "2.0") return invalid("each message must be a JSON-RPC 2.0 object");
  const method = value["method"];
  const params = value["params"];
  const hasId = "id" in value;
  const id = value["id"];
  if (method !== undefined && typeof method !== "string") return invalid("method must be a string");
  if (params !== undefined && !isObject(params)) return invalid("params must be an object", isRequestId(id) ? id : undefined);
  if (hasId && !isRequestId(id)) return invalid("the id must be a string or an integer");
  if (method === undefined && !(hasId && ("result" in value || "error" in value))) return invalid("the message has no method");
  return { message: value as unknown as JsonRpcMessage, method, id, hasId };
}

/** A copy of the request's headers and its URL, kept by a session for its handlers (`ctx.http`). */
function httpContext(request: Request, sessionId: string | undefined): HttpRequestContext {
  if (sessionId === undefined) return { headers: request.headers, url: request.url };
  const headers = new Headers(request.headers);
  headers.set(SESSION_HEADER, sessionId);
  return { headers, url: request.url };
}

/**
 * The Streamable HTTP handler of a generated McpServer of a session revision (2025-03-26,
 * 2025-06-18, 2025-11-25): POST, GET and DELETE on one URL, sessions opened by `initialize`, each
 * served by its own connection of the server. Serve it with any fetch-style runtime, or with
 * node:http through toNodeListener. Options are validated here: a bad one is a RangeError or
 * TypeError now, not a surprise at the first request.
 */
export function createSessionHttpHandler(server: SessionServable, options: SessionHttpHandlerOptions = {}): SessionHttpHandler {
  if (!isObject(server) || typeof server.openConnection !== "function") throw new TypeError("createSessionHttpHandler needs a generated McpServer (openConnection)");
  const versions = new VersionTable(server.sessionBinding);
  const stateful = flag("sessions", options.sessions, true);
  const maxSessions = numberOption("maxSessions", options.maxSessions, DEFAULTS.maxSessions, { min: 1, infinity: true });
  const maxInFlight = numberOption("maxInFlightPerSession", options.maxInFlightPerSession, DEFAULTS.maxInFlightPerSession, { min: 1, infinity: true });
  const maxBodyBytes = numberOption("maxBodyBytes", options.maxBodyBytes, DEFAULTS.maxBodyBytes, { min: 128 });
  checkGuardOptions(options);
  const authenticate = authenticateOption(options.authenticate);
  const sessions = new Map<string, Session>();
  const registryOption = sessionRegistryOption(options.sessionRegistry);
  const shared: Shared = {
    server,
    versions,
    sessions,
    store: eventStoreOption(options.eventStore),
    maxStoredEvents: numberOption("maxStoredEvents", options.maxStoredEvents, DEFAULTS.maxStoredEvents, { min: 1, infinity: true }),
    idleMs: numberOption("sessionIdleMs", options.sessionIdleMs, DEFAULTS.sessionIdleMs, { min: 1, infinity: true }),
    retryMs: numberOption("retryMs", options.retryMs, DEFAULTS.retryMs, { min: 0 }),
    keepAliveMs: numberOption("keepAliveMs", options.keepAliveMs, DEFAULTS.keepAliveMs, { min: 1000, zeroIsOff: true }),
    maxBuffered: numberOption("maxStreamBufferBytes", options.maxStreamBufferBytes, DEFAULTS.maxStreamBufferBytes, { min: 1024 }),
    sseAlways: oneOf("responses", options.responses, ["auto", "sse"], "auto") === "sse",
    onError: options.onError,
  };
  let closed = false;
  const registry = registryOption === undefined ? undefined : new RegistryLink<Session>(registryOption, shared.idleMs, (error) => guarded(options.onError, error));
  const recordOf = (session: Session) =>
    session.sessionId === undefined || session.version === undefined || session.ended
      ? undefined
      : { sessionId: session.sessionId, protocolVersion: session.version, clientCapabilities: session.clientCapabilities, ...(session.principal === undefined ? {} : { principal: session.principal.id }) };
  // A successful initialize is recorded before its response goes out: the client's next request may reach another instance.
  if (registry !== undefined) shared.opened = (session) => registry.save(session, recordOf(session)!);

  /** A session another instance opened, continued here from the registry's record (undefined: unknown there, or another principal's). */
  const restore = async (id: string, request: Request, principal: Principal | undefined): Promise<Session | undefined | Response> => {
    let record;
    try {
      record = await registry?.load(id);
    } catch (error) {
      if (!(error instanceof SessionRegistryError)) throw error;
      return reject(503, undefined, ErrorCode.InternalError, `Service Unavailable: ${error.message}`, { "retry-after": "1" });
    }
    if (record === undefined || record.principal !== principal?.id) return undefined;
    const raced = sessions.get(id);
    if (raced !== undefined) return raced;
    if (closed || sessions.size >= maxSessions) return reject(503, undefined, ErrorCode.InternalError, `Service Unavailable: ${maxSessions} sessions are open (maxSessions)`, { "retry-after": "1" });
    const session = new Session(shared, id, principal, httpContext(request, id));
    session.version = record.protocolVersion;
    session.rules = versions.of(record.protocolVersion);
    session.clientCapabilities = record.clientCapabilities;
    session.streamTag = `${crypto.randomUUID().slice(0, 8)}.`;
    sessions.set(id, session);
    void registry?.save(session, recordOf(session)!);
    return session;
  };

  /** The session a request names, or the refusal: 400 without the header, 404 unknown, ended or another principal's. */
  const sessionOf = async (request: Request, principal: Principal | undefined): Promise<Session | Response> => {
    const id = request.headers.get(SESSION_HEADER);
    if (id === null) return reject(400, undefined, ErrorCode.InvalidRequest, "Bad Request: the Mcp-Session-Id header is required (initialize opens a session)");
    let session: Session | Response | undefined = sessions.get(id);
    if (session === undefined && registry !== undefined) session = await restore(id, request, principal);
    if (session instanceof Response) return session;
    // Session Management: an unknown or ended session is 404, and so is another principal's (it is none of theirs).
    if (session === undefined || session.ended || session.principal?.id !== principal?.id) {
      return reject(404, undefined, ErrorCode.InvalidRequest, "Not Found: no such session (it ended, or it never existed)");
    }
    const found = session;
    registry?.touch(
      found,
      () => recordOf(found),
      () => void found.end(),
    );
    return versionProblem(request, session, versions) ?? session;
  };

  const post = async (request: Request, principal: Principal | undefined): Promise<Response> => {
    // HTTP, Sending Messages to the Server 1-2: a JSON body, and an Accept of both answers.
    if (mediaType(request.headers.get("content-type")) !== "application/json") {
      return reject(415, undefined, ErrorCode.InvalidRequest, "Unsupported Media Type: the body must be application/json");
    }
    if (!acceptsBoth(request.headers.get("accept"))) {
      return reject(406, undefined, ErrorCode.InvalidRequest, "Not Acceptable: the Accept header must list application/json and text/event-stream");
    }
    // A request naming a session is refused before its body is read when the session is none of its sender's.
    let named: Session | undefined;
    if (stateful && request.headers.has(SESSION_HEADER)) {
      const found = await sessionOf(request, principal);
      if (found instanceof Response) return found;
      named = found;
    }
    const bytes = await readRequestBody(request, maxBodyBytes);
    if (!(bytes instanceof Uint8Array)) return refuse(bytes);
    let body: unknown;
    try {
      body = JSON.parse(decoder.decode(bytes));
    } catch {
      return reject(400, undefined, ErrorCode.ParseError, "Parse error");
    }
    const parsed = Array.isArray(body) ? body.map(readMessage) : [readMessage(body)];
    const invalid = parsed.find((p): p is Response => p instanceof Response);
    if (invalid !== undefined) return invalid;
    const messages = parsed as Read[];
    if (Array.isArray(body)) return batch(request, principal, named, messages);
    const { message, method, id, hasId } = messages[0]!;
    const initialize = method === INITIALIZE && hasId;

    let session: Session;
    if (!stateful) {
      session = new Session(shared, undefined, principal, httpContext(request, undefined));
      const asked = request.headers.get("mcp-protocol-version");
      const rules = asked === null ? undefined : versions.get(asked);
      if (rules !== undefined) {
        session.version = asked!;
        session.rules = rules;
      } else if (asked !== null && !initialize) {
        void session.end();
        return reject(400, undefined, ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version ${describeValue(asked)} (supported: ${versions.list})`);
      }
    } else if (initialize) {
      if (request.headers.has(SESSION_HEADER)) return reject(400, id as RequestId, ErrorCode.InvalidRequest, "Invalid Request: initialize opens a new session and carries no Mcp-Session-Id");
      if (closed) return reject(503, id as RequestId, ErrorCode.InternalError, "Service Unavailable: the server is closing");
      if (sessions.size >= maxSessions) {
        return reject(503, id as RequestId, ErrorCode.InternalError, `Service Unavailable: ${maxSessions} sessions are open (maxSessions)`, { "retry-after": "1" });
      }
      // Session Management: the id "SHOULD be globally unique and cryptographically secure".
      const sessionId = crypto.randomUUID();
      session = new Session(shared, sessionId, principal, httpContext(request, sessionId));
      sessions.set(sessionId, session);
      const capabilities = "params" in message ? message.params?.["capabilities"] : undefined;
      if (isObject(capabilities)) session.clientCapabilities = capabilities;
    } else if (named === undefined) {
      return reject(400, undefined, ErrorCode.InvalidRequest, "Bad Request: the Mcp-Session-Id header is required (initialize opens a session)");
    } else if (named.ended) {
      return reject(404, undefined, ErrorCode.InvalidRequest, "Not Found: no such session (it ended, or it never existed)");
    } else {
      session = named;
    }

    if (!hasId || method === undefined) {
      // A notification or a response: 202 Accepted with no body (Sending Messages to the Server 4).
      if (method === CANCELLED) session.cancel(message);
      else session.deliver(message);
      if (!stateful) void session.end();
      const headers: Record<string, string> = stateful ? { [SESSION_HEADER]: session.sessionId ?? "" } : {};
      return new Response(null, { status: 202, headers });
    }
    const requestId = id as RequestId;
    // A second request with an id in flight would take over the first one's stream: refused here.
    if (session.requests.has(requestId)) return reject(400, requestId, ErrorCode.InvalidRequest, `Invalid Request: id ${describeValue(requestId)} is already in flight in this session`);
    if (session.requests.size >= maxInFlight) {
      return reject(429, requestId, ErrorCode.InternalError, `Too Many Requests: ${maxInFlight} requests of this session are in flight (maxInFlightPerSession)`, { "retry-after": "1" });
    }
    return session.begin(requestId, message, request.signal, initialize);
  };

  /**
   * A JSON-RPC batch (2025-03-26 sessions only; HTTP, Sending Messages to the Server 4-5): its
   * notifications and responses are handed over in order; with requests in it, the answer is
   * one JSON array of their responses once all have come (messages about them go on the GET
   * stream); a batch whose requests were all cancelled is answered 202, with nothing (JSON-RPC
   * 2.0 §6: never an empty array). Bounded by maxInFlightPerSession like single requests.
   */
  const batch = async (request: Request, principal: Principal | undefined, named: Session | undefined, messages: readonly Read[]): Promise<Response> => {
    const refused = (text: string): Response => reject(400, undefined, ErrorCode.InvalidRequest, `Invalid Request: ${text}`);
    if (messages.length === 0) return refused("an empty batch");
    if (messages.some((m) => m.method === INITIALIZE)) return refused("initialize is never part of a batch");
    let session: Session;
    if (stateful) {
      if (named === undefined) return reject(400, undefined, ErrorCode.InvalidRequest, "Bad Request: the Mcp-Session-Id header is required (initialize opens a session)");
      if (named.ended) return reject(404, undefined, ErrorCode.InvalidRequest, "Not Found: no such session (it ended, or it never existed)");
      session = named;
    } else {
      const asked = request.headers.get("mcp-protocol-version");
      session = new Session(shared, undefined, principal, httpContext(request, undefined));
      session.rules = versions.of(asked ?? undefined);
    }
    const requests = messages.filter((m) => m.hasId && m.method !== undefined);
    const problem = !session.rules.batches
      ? "JSON-RPC batches are not part of this session's protocol version"
      : requests.length > 0 && requests.length < messages.length && messages.some((m) => m.method === undefined)
        ? "a batch holds requests and notifications, or responses, not both"
        : new Set(requests.map((m) => m.id)).size < requests.length || requests.some((m) => session.requests.has(m.id as RequestId))
          ? "a request id of the batch is repeated or already in flight in this session"
          : null;
    if (problem === null && session.requests.size + requests.length > maxInFlight) {
      if (!stateful) void session.end();
      return reject(429, undefined, ErrorCode.InternalError, `Too Many Requests: ${maxInFlight} requests of this session may be in flight (maxInFlightPerSession)`, { "retry-after": "1" });
    }
    if (problem !== null) {
      if (!stateful) void session.end();
      return refused(problem);
    }
    const answers: (string | undefined)[] = [];
    let left = requests.length;
    let done!: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    for (const { message, method, id, hasId } of messages) {
      if (hasId && method !== undefined) {
        const slot = answers.push(undefined) - 1;
        void session.begin(id as RequestId, message, request.signal, false, (text) => {
          answers[slot] = text;
          if (--left === 0) done();
        });
      } else if (method === CANCELLED) session.cancel(message);
      else session.deliver(message);
    }
    const headers: Record<string, string> = stateful ? { [SESSION_HEADER]: session.sessionId ?? "" } : {};
    if (requests.length === 0) {
      if (!stateful) void session.end();
      return new Response(null, { status: 202, headers });
    }
    await all;
    const texts = answers.filter((t): t is string => t !== undefined);
    if (texts.length === 0) return new Response(null, { status: 202, headers });
    return new Response(`[${texts.join(",")}]`, { status: 200, headers: { ...JSON_HEADERS, ...headers } });
  };

  const get = async (request: Request, principal: Principal | undefined): Promise<Response> => {
    if (!stateful) return reject(405, undefined, ErrorCode.InvalidRequest, "Method not allowed: this server keeps no sessions, so it offers no GET stream", { allow: "POST" });
    const accept = request.headers.get("accept");
    if (accept === null || !/(^|,)\s*(text\/event-stream|text\/\*|\*\/\*)\s*(;|,|$)/i.test(accept)) {
      return reject(406, undefined, ErrorCode.InvalidRequest, "Not Acceptable: the Accept header must list text/event-stream");
    }
    const session = await sessionOf(request, principal);
    if (session instanceof Response) return session;
    const lastEventId = request.headers.get("last-event-id");
    return lastEventId === null ? session.openGet(request.signal) : session.resume(lastEventId, request.signal);
  };

  const remove = async (request: Request, principal: Principal | undefined): Promise<Response> => {
    if (!stateful) return reject(405, undefined, ErrorCode.InvalidRequest, "Method not allowed: this server keeps no sessions", { allow: "POST" });
    const session = await sessionOf(request, principal);
    if (session instanceof Response) return session;
    // Session Management: DELETE ends the session; its handlers abort (Cancellation: closing is a cancel).
    if (session.sessionId !== undefined) registry?.remove(session.sessionId);
    await session.end();
    return new Response(null, { status: 200 });
  };

  const METHODS: { readonly [method: string]: (request: Request, principal: Principal | undefined) => Promise<Response> | Response } = {
    POST: post,
    GET: get,
    DELETE: remove,
  };

  const handle = async (request: Request, info: HttpRequestInfo | undefined): Promise<Response> => {
    const forbidden = hostProblem(request, info?.localAddress, options);
    if (forbidden !== null) return reject(403, undefined, ErrorCode.InvalidRequest, `Forbidden: ${forbidden}`);
    const serve = Object.hasOwn(METHODS, request.method) ? METHODS[request.method] : undefined;
    if (serve === undefined) {
      if (request.method === "HEAD") return new Response(null, { status: 405, headers: { allow: ALLOW } });
      return reject(405, undefined, ErrorCode.InvalidRequest, `Method not allowed: ${request.method}`, { allow: ALLOW });
    }
    const principal = await authenticateRequest(authenticate, request);
    if (principal instanceof Response) return principal;
    return serve(request, principal);
  };

  const handler = async (request: Request, info?: HttpRequestInfo): Promise<Response> => {
    try {
      return await handle(request, info);
    } catch (error) {
      guarded(options.onError, error);
      return reject(500, undefined, ErrorCode.InternalError, "Internal error");
    }
  };
  const methods = {
    notify(sessionId: string, method: string, params?: JsonObject): boolean {
      if (typeof method !== "string" || method === "") throw new TypeError(`notify: method must be a non-empty string, got ${describeValue(method)}`);
      if (params !== undefined && !isObject(params)) throw new TypeError(`notify: params must be an object, got ${describeValue(params)}`);
      const session = sessions.get(sessionId);
      if (session === undefined) return false;
      session.notify(method, params);
      return true;
    },
    closeStream(sessionId: string, requestId: RequestId): boolean {
      return sessions.get(sessionId)?.closeStream(requestId) ?? false;
    },
    hasSession(sessionId: string): boolean {
      const session = sessions.get(sessionId);
      return session !== undefined && !session.ended;
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...sessions.values()].map((session) => session.end()));
    },
  };
  // sessionCount is read live (Object.assign would copy the getter's value once).
  Object.defineProperty(handler, "sessionCount", { get: () => sessions.size, enumerable: true });
  return Object.assign(handler, methods, { versions: versions.versions }) as SessionHttpHandler;
}
