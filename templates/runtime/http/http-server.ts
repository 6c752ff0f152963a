// The Streamable HTTP server of the stateless revisions (2026-07-28 and later): a web-standard
// handler, `(request: Request) => Promise<Response>`, bound to a generated McpServer. Every POST
// is its own connection of the server (request ids are unique per client only, and there is no
// session), answered with one JSON object or an SSE stream scoped to that request; closing that
// stream is the request's cancel.
//
// Spec pages (2026-07-28): basic/transports/streamable-http (abbreviated "HTTP" below),
// basic/index (per-request `_meta`, error codes), basic/versioning, basic/patterns/cancellation.
// Revision facts (supported versions, `_meta` keys, error codes, `Mcp-Name` sources, tool methods)
// come from the server's generated `httpBinding`; the runtime knows none of them.

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
  type TransportSendOptions,
} from "../core/protocol.js";
import { report as guarded } from "./fetch.js";
import { authenticateOption, authenticateRequest, checkGuardOptions, envelopeProblem, hostProblem, hostSyntaxProblem, readRequestBody, type Authenticate, type GuardOptions, type Refusal } from "./guards.js";
import { argumentAt, decodeHeaderValue, headerMatches, toolHeaders, type ToolHeader } from "./headers.js";
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseEvent } from "./sse.js";

/** What createHttpHandler needs to know of a revision: generated data (HTTP_RULES in server.ts). */
export interface HttpBinding {
  /** The revision the server was generated from (the version of the server's own internal requests). */
  readonly revision: string;
  /** Protocol versions the server serves; anything else is UnsupportedProtocolVersion. */
  readonly supportedVersions: readonly string[];
  /** The request `_meta` keys (RULES.requestMeta) and those every request MUST carry (the schema's `required`). */
  readonly meta: {
    readonly protocolVersion: string;
    readonly clientCapabilities: string;
    readonly clientInfo: string;
    readonly required: readonly string[];
  };
  /** Method → the params field the `Mcp-Name` header mirrors (HTTP, Standard Request Headers). */
  readonly nameSources: { readonly [method: string]: string };
  /** The tool methods whose `x-mcp-header` annotations map arguments to `Mcp-Param-*` headers; null: none. */
  readonly toolHeaders: { readonly list: string; readonly call: string; readonly arguments: string } | null;
  /** The schema's codes of HeaderMismatchError, UnsupportedProtocolVersionError, MissingRequiredClientCapabilityError. */
  readonly errors: {
    readonly headerMismatch: number;
    readonly unsupportedProtocolVersion: number;
    readonly missingRequiredClientCapability: number | null;
  };
}

/** A server createHttpHandler can serve: a generated McpServer of a revision with the stateless HTTP binding. */
export interface HttpServable {
  openConnection(transport: Transport): Connection;
  readonly httpBinding: HttpBinding;
}

/** What the runtime knows of the connection a request came on (the node adapter fills it). */
export interface HttpRequestInfo {
  /** The local address the request arrived at; a loopback address turns on the loopback Host/Origin check. */
  readonly localAddress?: string | undefined;
  /**
   * The body, already read and parsed as JSON by whoever routed the request here (a server that
   * serves several protocol eras on one URL looks at it first); the request's own body is then
   * not read. Its size is the router's to bound.
   */
  readonly parsedBody?: unknown;
}

/** A web-standard HTTP handler; the second argument is optional (toNodeListener passes it). */
export type HttpHandler = (request: Request, info?: HttpRequestInfo) => Promise<Response>;

/** Options of createHttpHandler; the Host/Origin rule's (dnsRebindingProtection, allowedHosts, allowedOrigins) are GuardOptions'. */
export interface HttpHandlerOptions extends GuardOptions {
  /** Largest request body read, in bytes (default 4 MiB, at least 128: no smaller request carries its `_meta`); a larger one is refused with 413. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Interval (ms) of SSE comment lines on open response streams, so that idle long-lived streams
   * (subscriptions/listen) are not closed by intermediaries (HTTP, Receiving Messages). Default
   * 15000; at least 1000; 0: none.
   */
  readonly keepAliveMs?: number | undefined;
  /**
   * Bytes at most written to one SSE response stream and not yet taken by its reader (default
   * 1 MiB; a whole number ≥ 1024). Sends on a stream wait for its reader: each resolves only
   * while less than 64 KiB (or this bound, when smaller) wait unread, so a handler that awaits
   * its sends (the subscription hub does; ctx.notify and ctx.sendProgress resolve then) never
   * reaches the bound, and the hub coalesces while the reader lags. A write when the bound is
   * already reached ends the stream as an overflow: what waits is dropped, the response ends,
   * the request's signal aborts, and onCancellation reports it as received, with a reason that
   * says so.
   */
  readonly maxStreamBufferBytes?: number | undefined;
  /**
   * How long (ms) the `x-mcp-header` annotations read from the server's own tools/list handler are
   * reused (an integer ≥ 0). Default: the `ttlMs` that handler's result gives (0: read again for
   * every tools/call).
   */
  readonly toolHeadersTtlMs?: number | undefined;
  /**
   * Who sent each request: a principal (`{ id, …claims }`), or a Response to answer with instead
   * (401 with `WWW-Authenticate`, 403, …). Called after the Host/Origin and envelope checks and
   * before the body is read. The principal reaches handlers as `ctx.principal` (with the request
   * as `ctx.http`) and binds what the runtime keeps between requests (tasks, `requestState`,
   * listen streams) and the quotas per principal. Default: none (every request is anonymous).
   */
  readonly authenticate?: Authenticate | undefined;
  /**
   * Requests in flight at most, over every client (default 4096). A request counts from the
   * moment it is authenticated, before its body is read, until its response ends (an SSE
   * response: until the stream closes, so open listen streams count). One more is refused with
   * 429 Too Many Requests and a JSON-RPC error naming this option.
   */
  readonly maxInFlight?: number | undefined;
  /**
   * Requests in flight at most of one principal (`authenticate`'s `id`), so that one client
   * cannot take every slot (default 256); one more is refused like maxInFlight's, naming this
   * option, and no other principal notices. Requests without a principal share one quota.
   */
  readonly maxInFlightPerPrincipal?: number | undefined;
  /** Failures of the HTTP layer itself (a tools/list that fails, a body that cannot be read). */
  readonly onError?: ((error: Error) => void) | undefined;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_MAX_IN_FLIGHT = 4096;
const DEFAULT_MAX_IN_FLIGHT_PER_PRINCIPAL = 256;
const DEFAULT_MAX_STREAM_BUFFER_BYTES = 1024 * 1024;
/** Unread bytes of a response stream at which its sends start to wait for the reader. */
const STREAM_HIGH_WATER_BYTES = 64 * 1024;
/** The name of the error an overflowed response stream ends with (the node adapter then drops the connection). */
const STREAM_OVERFLOW = "StreamOverflowError";
/** The smallest sane maxStreamBufferBytes: room for a few ordinary messages. */
const MIN_STREAM_BUFFER_BYTES = 1024;
const CANCELLED = "notifications/cancelled";
const RESOLVED: Promise<void> = Promise.resolve();
const NONE: readonly ToolHeader[] = [];

const JSON_HEADERS = { "content-type": "application/json" } as const;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** A JSON-RPC error response; `id` undefined: the error response has no id (HTTP: "has no `id`"). */
function errorMessage(id: RequestId | undefined, code: number, message: string, data?: unknown): JsonObject {
  const error: JsonObject = data === undefined ? { code, message } : { code, message, data };
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

function jsonResponse(status: number, body: JsonObject, headers?: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body), { status, headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers } });
}

function rejectWith(status: number, id: RequestId | undefined, code: number, message: string, data?: unknown): Response {
  return jsonResponse(status, errorMessage(id, code, message, data));
}

/** A guard's refusal as a response: an InvalidRequest error without id (a HEAD: no body). */
function refuse(refusal: Refusal): Response {
  if (refusal.empty === true) return new Response(null, { status: refusal.status, headers: { ...refusal.headers } });
  return jsonResponse(refusal.status, errorMessage(undefined, ErrorCode.InvalidRequest, refusal.message), refusal.headers);
}


// ---------------------------------------------------------------------------------------------
// The server's own requests (tools/list for the x-mcp-header annotations)

/** How long the server's own tools/list may take before the HTTP layer stops waiting (and treats it as failed). */
const OWN_REQUEST_TIMEOUT_MS = 10_000;

/** Node: a timer alone does not keep the process alive. */
function unref(timer: unknown): void {
  if (isObject(timer) && typeof timer["unref"] === "function") (timer["unref"] as () => void).call(timer);
}

/**
 * Sends one request to a new connection of the server and returns its result; past
 * OWN_REQUEST_TIMEOUT_MS the connection closes (the handler's signal aborts) and it rejects.
 */
function callOwn(server: HttpServable, method: string, params: JsonObject): Promise<JsonObject> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${method} did not answer within ${OWN_REQUEST_TIMEOUT_MS} ms`));
      void connection.close().catch(() => undefined);
    }, OWN_REQUEST_TIMEOUT_MS);
    unref(timer);
    // Method shorthand, not arrow properties: nothing to name per call where a transpiler keeps names (tsx).
    const transport: Transport = {
      start() {
        return RESOLVED;
      },
      close() {
        return RESOLVED;
      },
      send(message) {
        if ("method" in message) return RESOLVED;
        clearTimeout(timer);
        if ("error" in message) reject(new Error(`${method} failed: ${message.error.message}`));
        else resolve(message.result);
        void connection.close().catch(() => undefined);
        return RESOLVED;
      },
    };
    const connection = server.openConnection(transport);
    transport.onmessage?.({ jsonrpc: "2.0", id: 1, method, params });
  });
}

const MAX_LIST_PAGES = 100;
const MAX_TOOLS = 10_000;
/** After a tools/list that failed (or a server without one), how long until it is asked again. */
const RETRY_FAILED_LIST_MS = 1000;

/**
 * The `x-mcp-header` annotations of the server's tools, by tool name, read from its own tools/list
 * handler and reused for `toolHeadersTtlMs` or the `ttlMs` of that handler's result. Reads are
 * shared while one is under way; the annotations of an inputSchema object are scanned once.
 */
class ToolHeaders {
  readonly #server: HttpServable;
  readonly #binding: HttpBinding;
  readonly #list: string;
  readonly #options: HttpHandlerOptions;
  readonly #scanned = new WeakMap<object, readonly ToolHeader[]>();
  #byTool: ReadonlyMap<string, readonly ToolHeader[]> = new Map();
  #expires = 0;
  #reading: Promise<void> | undefined;

  constructor(server: HttpServable, binding: HttpBinding, list: string, options: HttpHandlerOptions) {
    this.#server = server;
    this.#binding = binding;
    this.#list = list;
    this.#options = options;
  }

  async of(tool: string): Promise<readonly ToolHeader[]> {
    if (Date.now() >= this.#expires) {
      this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
      await this.#reading;
    }
    return this.#byTool.get(tool) ?? NONE;
  }

  async #read(): Promise<void> {
    const meta = this.#binding.meta;
    const byTool = new Map<string, readonly ToolHeader[]>();
    let ttlMs = 0;
    let failed = false;
    try {
      let cursor: string | undefined;
      const cursors = new Set<string>();
      let count = 0;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const params: JsonObject = { _meta: { [meta.protocolVersion]: this.#binding.revision, [meta.clientCapabilities]: {} } };
        if (cursor !== undefined) params["cursor"] = cursor;
        const result = await callOwn(this.#server, this.#list, params);
        if (page === 0 && typeof result["ttlMs"] === "number" && result["ttlMs"] > 0) ttlMs = result["ttlMs"];
        const tools = Array.isArray(result["tools"]) ? result["tools"] : [];
        for (const tool of tools) {
          if (++count > MAX_TOOLS) break;
          if (!isObject(tool) || typeof tool["name"] !== "string") continue;
          const declarations = this.#declarations(tool["name"], tool["inputSchema"]);
          if (declarations.length > 0) byTool.set(tool["name"], declarations);
        }
        const next = result["nextCursor"];
        if (typeof next !== "string" || cursors.has(next) || count > MAX_TOOLS) break;
        cursors.add(next);
        cursor = next;
      }
    } catch (error) {
      failed = true;
      guarded(this.#options.onError, error);
    }
    this.#byTool = byTool;
    this.#expires = Date.now() + (this.#options.toolHeadersTtlMs ?? (failed ? RETRY_FAILED_LIST_MS : ttlMs));
  }

  /**
   * A tool's annotations, scanned once per inputSchema object with the client's scan (headers.ts):
   * a tool that scan finds invalid is one conforming clients exclude from tools/list, so no
   * header is expected for it; the server's own misdefined tool is reported through onError.
   */
  #declarations(tool: string, inputSchema: unknown): readonly ToolHeader[] {
    if (!isObject(inputSchema)) return NONE;
    let declarations = this.#scanned.get(inputSchema);
    if (declarations === undefined) {
      const scanned = toolHeaders(inputSchema);
      if (typeof scanned === "string") guarded(this.#options.onError, new Error(`tools/list: tool ${describeValue(tool)} has an invalid x-mcp-header annotation, so clients exclude it: ${scanned}`));
      declarations = typeof scanned === "string" || scanned.length === 0 ? NONE : scanned;
      this.#scanned.set(inputSchema, declarations);
    }
    return declarations;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests in flight, over all and per principal

/** A bound on requests in flight: a whole number ≥ 1 or Infinity, read once when the handler is made. */
function inFlightLimit(name: "maxInFlight" | "maxInFlightPerPrincipal", value: number | undefined, fallback: number): number {
  return numberOption(name, value, fallback, { min: 1, infinity: true });
}

/**
 * One request's place in the in-flight counts; released once, by whoever ends the request. It
 * holds its quota and owner rather than a closure: one object per request, not two.
 */
class Slot {
  /** The response is an SSE stream: its exchange releases the slot when the stream ends. */
  kept = false;
  #quota: InFlightQuota | undefined;
  readonly #owner: string | undefined;
  constructor(quota: InFlightQuota, owner: string | undefined) {
    this.#quota = quota;
    this.#owner = owner;
  }
  release(): void {
    const quota = this.#quota;
    this.#quota = undefined;
    quota?.release(this.#owner);
  }
}

/**
 * Requests in flight, in all and by principal id (undefined: the anonymous quota); a principal
 * leaves the map with its last request. O(1) per request.
 */
class InFlightQuota {
  readonly #max: number;
  readonly #perPrincipal: number;
  readonly #byPrincipal = new Map<string | undefined, number>();
  #total = 0;

  constructor(max: number, perPrincipal: number) {
    this.#max = max;
    this.#perPrincipal = perPrincipal;
  }

  /** A slot for a request of `owner`, or the refusal's message (which bound, and the option that sets it). */
  acquire(owner: string | undefined): Slot | string {
    const held = this.#byPrincipal.get(owner) ?? 0;
    if (held >= this.#perPrincipal) return `Too Many Requests: ${this.#perPrincipal} requests of this principal are in flight (maxInFlightPerPrincipal)`;
    if (this.#total >= this.#max) return `Too Many Requests: ${this.#max} requests are in flight (maxInFlight)`;
    this.#byPrincipal.set(owner, held + 1);
    this.#total++;
    return new Slot(this, owner);
  }

  /** A slot of `owner` ends (Slot.release, once per slot). */
  release(owner: string | undefined): void {
    this.#total--;
    const left = (this.#byPrincipal.get(owner) ?? 1) - 1;
    if (left > 0) this.#byPrincipal.set(owner, left);
    else this.#byPrincipal.delete(owner);
  }
}

// ---------------------------------------------------------------------------------------------
// One request's exchange: the transport of its connection

/**
 * The transport of one POSTed request's connection. The response is JSON when the handler
 * answers before it sends anything else; the first related notification (progress, a log
 * message, a subscription's acknowledgment) turns it into an SSE stream that carries the rest and
 * ends with the response (HTTP, Sending Messages 6; Receiving Messages). When the client closes
 * the stream (or the request's signal aborts), that is the request's cancel (HTTP, Cancellation):
 * the endpoint hears `onrequeststreamclose`, and nothing more is written for it.
 *
 * The stream has backpressure: its queue counts bytes, a send resolves only when the queue is
 * below its high-water mark (the reader's pull says when), and a write that finds
 * `maxStreamBufferBytes` already waiting ends the stream as an overflow (a cancel, with that reason).
 */
class Exchange implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onrequeststreamclose?: ((requestId: RequestId, reason?: string) => void) | undefined;
  readonly principal: Principal | undefined;
  readonly http: { readonly headers: Headers; readonly url: string };

  readonly response: Promise<Response>;
  readonly #id: RequestId;
  readonly #statusOf: (code: number) => number;
  readonly #keepAliveMs: number;
  readonly #maxBuffered: number;
  readonly #signal: AbortSignal;
  readonly #slot: Slot;
  /** Sends waiting for the reader to take what is queued (resolved by pull, or at the end). */
  #waiting: (() => void)[] = [];
  #finished = false;
  #resolve!: (response: Response) => void;
  #state: "pending" | "streaming" | "done" = "pending";
  #stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #connection: Connection | undefined;

  constructor(request: Request, principal: Principal | undefined, id: RequestId, statusOf: (code: number) => number, keepAliveMs: number, maxBuffered: number, slot: Slot) {
    this.principal = principal;
    this.#slot = slot;
    this.http = { headers: request.headers, url: request.url };
    this.#id = id;
    this.#signal = request.signal;
    this.#statusOf = statusOf;
    this.#keepAliveMs = keepAliveMs;
    this.#maxBuffered = maxBuffered;
    this.response = new Promise((resolve) => (this.#resolve = resolve));
  }

  /** Serves the request on a new connection of the server; resolves with the HTTP response. */
  serve(server: HttpServable, message: JsonRpcMessage): Promise<Response> {
    // A client already gone has nothing to cancel: the request is never handled.
    if (this.#signal.aborted) return Promise.resolve(new Response(null, { status: 499 }));
    this.#connection = server.openConnection(this);
    // The exchange is its own listener (handleEvent): no closure per request.
    this.#signal.addEventListener("abort", this);
    this.onmessage?.(message);
    return this.response;
  }

  start(): Promise<void> {
    return RESOLVED;
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    // Nothing is written after the response, the server's end of the request, or a cancel.
    if (this.#state === "done") return RESOLVED;
    if (!("method" in message)) {
      if (message.id !== this.#id) return RESOLVED;
      const text = JSON.stringify(message); // throws for what JSON cannot carry: the endpoint answers -32603 instead
      if (this.#state === "pending") {
        const status = "error" in message ? this.#statusOf(message.error.code) : 200;
        this.#resolve(new Response(text, { status, headers: JSON_HEADERS }));
      } else {
        this.#write(sseEvent(text));
      }
      this.#finish();
      return RESOLVED;
    }
    if ("id" in message) {
      // HTTP, Receiving Messages: the server MUST NOT send independent requests on this stream.
      return Promise.reject(new Error(`${message.method}: Streamable HTTP carries no server-to-client requests in this revision (ask with an InputRequiredResult)`));
    }
    // A notification: only those related to this request have a stream to go on.
    if (options?.relatedRequestId !== this.#id) return RESOLVED;
    const text = JSON.stringify(message);
    if (this.#state === "pending") this.#openStream();
    this.#write(sseEvent(text));
    // The server ended the request (ctx.end of a subscriptions/listen): no response follows.
    if (message.method === CANCELLED && isObject(message.params) && message.params["requestId"] === this.#id) this.#finish();
    return this.#room();
  }

  /** Bytes written to the stream that its reader has not taken yet. */
  #queued(): number {
    const desired = this.#stream?.desiredSize ?? null;
    return desired === null ? 0 : this.#highWater() - desired;
  }

  #highWater(): number {
    return Math.min(STREAM_HIGH_WATER_BYTES, this.#maxBuffered);
  }

  /** Resolves once the stream's queue is below its high-water mark, or the exchange is over. */
  #room(): Promise<void> {
    if (this.#state === "done" || this.#queued() < this.#highWater()) return RESOLVED;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** The reader made room (or the exchange ended): every waiting send goes on. */
  #wake(): void {
    if (this.#waiting.length === 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** The connection closed (the server's close()): an unanswered request gets 503, a stream ends. */
  close(): Promise<void> {
    if (this.#state === "pending") {
      this.#resolve(rejectWith(503, this.#id, ErrorCode.InternalError, "the server closed the connection before answering"));
    }
    if (this.#state !== "done") this.#finish();
    return RESOLVED;
  }

  /** The request's signal aborted (EventListener object: the exchange listens as itself). */
  handleEvent(): void {
    this.#clientGone();
  }

  /**
   * The client went away (its signal aborted, or it cancelled the response body), or its stream
   * overflowed (`reason`): the cancel.
   */
  #clientGone(reason?: string): void {
    if (this.#state === "done") return;
    const wasPending = this.#state === "pending";
    this.#finish();
    try {
      if (reason === undefined) this.onrequeststreamclose?.(this.#id);
      else this.onrequeststreamclose?.(this.#id, reason);
    } finally {
      // Nobody reads it; a response must still settle the handler's promise.
      if (wasPending) this.#resolve(new Response(null, { status: 499 }));
    }
  }

  #openStream(): void {
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#stream = controller;
        },
        // Called whenever the queue is below the high-water mark after a read: room again.
        pull: () => this.#wake(),
        cancel: () => this.#clientGone(),
      },
      { highWaterMark: this.#highWater(), size: (chunk) => chunk.byteLength },
    );
    this.#state = "streaming";
    this.#slot.kept = true;
    if (this.#keepAliveMs > 0) {
      // A comment only on an idle stream: one with unread data needs none, and a reader that
      // does not read must not be sent more.
      const timer = setInterval(() => {
        if (this.#queued() === 0) this.#write(SSE_KEEP_ALIVE);
      }, this.#keepAliveMs);
      unref(timer); // an open stream alone does not keep the process alive
      this.#keepAlive = timer;
    }
    this.#resolve(new Response(stream, { status: 200, headers: SSE_HEADERS }));
  }

  #write(text: string): void {
    const stream = this.#stream;
    if (stream === undefined) return;
    const queued = this.#queued();
    if (queued >= this.#maxBuffered) return this.#overflow(queued);
    try {
      stream.enqueue(encoder.encode(text));
    } catch {
      // The consumer is gone; its cancel ends the exchange.
    }
  }

  /**
   * The reader left `maxStreamBufferBytes` unread and more came: the stream ends with an error
   * (what waits is dropped: a reader that does not read gets no more of it) and the request is
   * cancelled, with why.
   */
  #overflow(queued: number): void {
    const stream = this.#stream;
    this.#stream = undefined;
    try {
      stream?.error(Object.assign(new Error("response stream overflow"), { name: STREAM_OVERFLOW }));
    } catch {
      // Already closed or cancelled.
    }
    this.#clientGone(`response stream overflow: the client left ${queued} bytes unread (maxStreamBufferBytes ${this.#maxBuffered})`);
  }

  /** The end of the exchange: the stream closes, and so does the connection (on a later microtask). */
  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#state = "done";
    this.#slot.release();
    this.#signal.removeEventListener("abort", this);
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#wake();
    try {
      this.#stream?.close();
    } catch {
      // Already cancelled by the consumer.
    }
    const connection = this.#connection;
    if (connection !== undefined) queueMicrotask(() => void connection.close().catch(() => undefined));
  }
}

// ---------------------------------------------------------------------------------------------
// The handler

/**
 * The Streamable HTTP handler of a generated McpServer (a revision with the stateless HTTP
 * binding): POST only; one JSON-RPC request or notification per body; the request `_meta` and
 * the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers checked
 * against each other; each request served on its own connection of the server. Serve it with
 * any fetch-style runtime, or with node:http through toNodeListener.
 */
export function createHttpHandler(server: HttpServable, options: HttpHandlerOptions = {}): HttpHandler & { readonly httpBinding: HttpBinding } {
  const binding = server.httpBinding;
  const { errors, meta } = binding;
  const maxBodyBytes = numberOption("maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, { min: 128 });
  const keepAliveMs = numberOption("keepAliveMs", options.keepAliveMs, DEFAULT_KEEP_ALIVE_MS, { min: 1000, zeroIsOff: true });
  const maxStreamBufferBytes = numberOption("maxStreamBufferBytes", options.maxStreamBufferBytes, DEFAULT_MAX_STREAM_BUFFER_BYTES, { min: MIN_STREAM_BUFFER_BYTES });
  numberOption("toolHeadersTtlMs", options.toolHeadersTtlMs, undefined, { min: 0 });
  checkGuardOptions(options);
  const authenticate = authenticateOption(options.authenticate);
  const inFlight = new InFlightQuota(
    inFlightLimit("maxInFlight", options.maxInFlight, DEFAULT_MAX_IN_FLIGHT),
    inFlightLimit("maxInFlightPerPrincipal", options.maxInFlightPerPrincipal, DEFAULT_MAX_IN_FLIGHT_PER_PRINCIPAL),
  );
  const supported = [...binding.supportedVersions];
  const versionsText = supported.join(", ");
  // HTTP status of an error response (basic/index, Error Codes; HTTP, Protocol Version Header and
  // Server Validation): 404 for an unknown method, 400 for the transport's own errors and
  // malformed messages; any other error stays in-band on 200.
  const statuses = new Map<number, number>([
    [ErrorCode.MethodNotFound, 404],
    [ErrorCode.ParseError, 400],
    [ErrorCode.InvalidRequest, 400],
    [errors.headerMismatch, 400],
    [errors.unsupportedProtocolVersion, 400],
  ]);
  if (errors.missingRequiredClientCapability !== null) statuses.set(errors.missingRequiredClientCapability, 400);
  const statusOf = (code: number): number => statuses.get(code) ?? 200;
  const annotations = binding.toolHeaders === null ? null : new ToolHeaders(server, binding, binding.toolHeaders.list, options);

  const headerMismatch = (id: RequestId | undefined, text: string): Response => rejectWith(400, id, errors.headerMismatch, `Header mismatch: ${text}`);
  const unsupported = (id: RequestId | undefined, requested: string): Response =>
    rejectWith(400, id, errors.unsupportedProtocolVersion, "Unsupported protocol version", { supported, requested });

  /** Invalid params when the request `_meta` lacks a required key or has one of the wrong type (basic/index, `_meta`). */
  const metaProblem = (params: JsonObject | undefined): string | null => {
    const m = params?.["_meta"];
    if (!isObject(m)) return `every request carries _meta with ${meta.required.join(" and ")} (protocol versions: ${versionsText})`;
    for (const key of meta.required) {
      if (!Object.hasOwn(m, key)) return `_meta lacks ${key} (protocol versions: ${versionsText})`;
    }
    const version = m[meta.protocolVersion];
    if (version !== undefined && typeof version !== "string") return `_meta ${meta.protocolVersion} must be a string`;
    const capabilities = m[meta.clientCapabilities];
    if (capabilities !== undefined && !isObject(capabilities)) return `_meta ${meta.clientCapabilities} must be an object`;
    const client = m[meta.clientInfo];
    if (client !== undefined && !(isObject(client) && typeof client["name"] === "string" && typeof client["version"] === "string")) {
      return `_meta ${meta.clientInfo} must be an object with a string name and version`;
    }
    return null;
  };

  /** `Mcp-Param-*` against the arguments, for tools/call (HTTP, Server Behavior for Custom Headers). */
  const paramHeaderProblem = async (request: Request, params: JsonObject): Promise<string | null> => {
    const tool = params["name"];
    if (annotations === null || typeof tool !== "string") return null;
    const declarations = await annotations.of(tool);
    if (declarations.length === 0) return null;
    const args = params[binding.toolHeaders?.arguments ?? "arguments"];
    for (const { path, header } of declarations) {
      const value = argumentAt(args, path);
      // A null or absent value: the client omits the header and the server expects none.
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") continue;
      const name = `Mcp-Param-${header}`;
      const raw = request.headers.get(name);
      if (raw === null) return `the ${name} header is missing; the body carries ${path.join(".")}`;
      const decoded = decodeHeaderValue(raw);
      if (decoded === null) return `the ${name} header has an invalid value`;
      if (!headerMatches(decoded, value)) return `the ${name} header value ${describeValue(decoded)} does not match the body value ${describeValue(value)}`;
    }
    return null;
  };

  const serveNotification = (request: Request, principal: Principal | undefined, method: string, message: JsonRpcMessage): Response => {
    // HTTP, Sending Messages: header requirements for notification POSTs are not defined; the
    // headers a client did send must still agree with the body.
    const methodHeader = request.headers.get("mcp-method");
    if (methodHeader !== null && methodHeader !== method) return headerMismatch(undefined, `Mcp-Method ${describeValue(methodHeader)} does not match the body method ${describeValue(method)}`);
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && !supported.includes(version)) return unsupported(undefined, version);
    // Its own connection, like every POST. A notifications/cancelled names a request of that
    // connection, which has none: it is ignored (reported as an unknown request). Request ids are
    // unique per client only and HTTP has no session, so it cannot safely name a request another
    // POST carries; over HTTP the cancel is closing that request's stream (basic/patterns/cancellation).
    const sink: Transport = { start: () => RESOLVED, close: () => RESOLVED, send: () => RESOLVED, principal, http: { headers: request.headers, url: request.url } };
    const connection = server.openConnection(sink);
    sink.onmessage?.(message);
    void connection.close().catch(() => undefined);
    return new Response(null, { status: 202 });
  };

  /**
   * The version a request that claims none of this era asks for, or null: no `_meta` version and
   * an `MCP-Protocol-Version` header naming no version served, or none and an `initialize`'s own
   * `protocolVersion` (a client of a revision with the handshake). basic/versioning, Backward
   * Compatibility: "A server that supports only modern versions SHOULD name the protocol versions
   * it supports in any error it returns to an `initialize` request"; UnsupportedProtocolVersion
   * carries them as data (`supported`), which a client can read and act on.
   */
  const legacyClaim = (request: Request, method: string, params: JsonObject | undefined): string | null => {
    const m = params?.["_meta"];
    if (isObject(m) && Object.hasOwn(m, meta.protocolVersion)) return null;
    const header = request.headers.get("mcp-protocol-version");
    if (header !== null) return supported.includes(header) ? null : header;
    const asked = method === "initialize" ? params?.["protocolVersion"] : undefined;
    return typeof asked === "string" ? asked : null;
  };

  const serveRequest = async (request: Request, principal: Principal | undefined, slot: Slot, id: RequestId, method: string, params: JsonObject | undefined, message: JsonRpcMessage): Promise<Response> => {
    const legacy = legacyClaim(request, method, params);
    if (legacy !== null) return unsupported(id, legacy);
    const problem = metaProblem(params);
    if (problem !== null) return rejectWith(400, id, ErrorCode.InvalidParams, `Invalid params: ${problem}`);
    const claimed = (params!["_meta"] as JsonObject)[meta.protocolVersion] as string;
    // HTTP, Protocol Version Header: required, and equal to the `_meta` version; then supported.
    const version = request.headers.get("mcp-protocol-version");
    if (version === null) return headerMismatch(id, `the MCP-Protocol-Version header is missing (protocol versions: ${versionsText})`);
    if (version !== claimed) return headerMismatch(id, `MCP-Protocol-Version header value ${describeValue(version)} does not match body value ${describeValue(claimed)}`);
    if (!supported.includes(claimed)) return unsupported(id, claimed);
    // HTTP, Standard Request Headers: Mcp-Method on every request, Mcp-Name where it has a source.
    const methodHeader = request.headers.get("mcp-method");
    if (methodHeader === null) return headerMismatch(id, "the Mcp-Method header is missing");
    if (methodHeader !== method) return headerMismatch(id, `Mcp-Method header value ${describeValue(methodHeader)} does not match body value ${describeValue(method)}`);
    if (Object.hasOwn(binding.nameSources, method)) {
      const field = binding.nameSources[method]!;
      const bodyName = params?.[field];
      const nameHeader = request.headers.get("mcp-name");
      if (nameHeader === null) {
        if (typeof bodyName === "string") return headerMismatch(id, `the Mcp-Name header is missing; the body carries params.${field}`);
      } else {
        const decoded = decodeHeaderValue(nameHeader);
        if (decoded === null) return headerMismatch(id, "the Mcp-Name header has an invalid value");
        if (typeof bodyName === "string" && decoded !== bodyName) {
          return headerMismatch(id, `Mcp-Name header value ${describeValue(decoded)} does not match body value ${describeValue(bodyName)}`);
        }
      }
    }
    if (binding.toolHeaders !== null && method === binding.toolHeaders.call && params !== undefined) {
      const paramProblem = await paramHeaderProblem(request, params);
      if (paramProblem !== null) return headerMismatch(id, paramProblem);
    }
    return new Exchange(request, principal, id, statusOf, keepAliveMs, maxStreamBufferBytes, slot).serve(server, message);
  };

  const handle = async (request: Request, info: HttpRequestInfo | undefined): Promise<Response> => {
    const invalidHost = hostSyntaxProblem(request.headers.get("host"));
    if (invalidHost !== null) return refuse({ status: 400, message: `Bad Request: ${invalidHost}` });
    const forbidden = hostProblem(request, info?.localAddress, options);
    if (forbidden !== null) return refuse({ status: 403, message: `Forbidden: ${forbidden}` });
    const refusal = envelopeProblem(request);
    if (refusal !== null) return refuse(refusal);
    const principal = await authenticateRequest(authenticate, request);
    if (principal instanceof Response) return principal;
    // Quotas of requests in flight (tools, Security Considerations: servers MUST rate limit
    // invocations): counted before the body is read; a stream's exchange releases its own slot.
    // 429 Too Many Requests (RFC 6585 §4): the spec defines no code of its own for it.
    const slot = inFlight.acquire(principal?.id);
    if (typeof slot === "string") return jsonResponse(429, errorMessage(undefined, ErrorCode.InternalError, slot), { "retry-after": "1" });
    try {
      return await handleMessage(request, info, principal, slot);
    } finally {
      if (!slot.kept) slot.release();
    }
  };

  const handleMessage = async (request: Request, info: HttpRequestInfo | undefined, principal: Principal | undefined, slot: Slot): Promise<Response> => {
    let body: unknown;
    if (info !== undefined && "parsedBody" in info) {
      body = info.parsedBody;
    } else {
      const bytes = await readRequestBody(request, maxBodyBytes);
      if (!(bytes instanceof Uint8Array)) return refuse(bytes);
      try {
        body = JSON.parse(decoder.decode(bytes));
      } catch {
        return rejectWith(400, undefined, ErrorCode.ParseError, "Parse error");
      }
    }
    // HTTP, Sending Messages 4: a single JSON-RPC request or notification, never a response.
    if (Array.isArray(body)) return rejectWith(400, undefined, ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported");
    if (!isObject(body)) return rejectWith(400, undefined, ErrorCode.InvalidRequest, "Invalid Request: the body must be a JSON-RPC request or notification");
    const rawId = body["id"];
    const id = isRequestId(rawId) ? rawId : undefined;
    const method = body["method"];
    if (body["jsonrpc"] !== "2.0") return rejectWith(400, id, ErrorCode.InvalidRequest, 'Invalid Request: jsonrpc must be "2.0"');
    if (typeof method !== "string") {
      const text = "result" in body || "error" in body ? "a client MUST NOT send JSON-RPC responses" : "the body has no method";
      return rejectWith(400, undefined, ErrorCode.InvalidRequest, `Invalid Request: ${text}`);
    }
    const params = body["params"];
    if (params !== undefined && !isObject(params)) return rejectWith(400, id, ErrorCode.InvalidRequest, "Invalid Request: params must be an object");
    const message = body as unknown as JsonRpcMessage;
    if (!("id" in body)) return serveNotification(request, principal, method, message);
    if (id === undefined) return rejectWith(400, undefined, ErrorCode.InvalidRequest, "Invalid Request: the id must be a string or an integer");
    return serveRequest(request, principal, slot, id, method, params, message);
  };

  const handler: HttpHandler = async (request, info) => {
    try {
      return await handle(request, info);
    } catch (error) {
      guarded(options.onError, error);
      return rejectWith(500, undefined, ErrorCode.InternalError, "Internal error");
    }
  };
  // The router of every era reads the binding (the `_meta` key that names a version).
  return Object.assign(handler, { httpBinding: binding });
}
