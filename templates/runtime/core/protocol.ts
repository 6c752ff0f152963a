// Wire types, errors, options and events shared by the client and the server runtime.
// No runtime dependencies; it imports only the ground floor (json.ts).

import type { JsonObject } from "./json.js";

export type { JsonObject };

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: JsonObject | undefined;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JsonObject | undefined;
}

export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id?: RequestId | undefined;
  error: { code: number; message: string; data?: unknown };
}

/**
 * An error response whose request id could not be read (parse error, invalid id): JSON-RPC 2.0
 * says its id MUST be null. Only ever sent, so it is not part of what `onmessage` delivers
 * (which keeps the Transport assignable from the SDK's).
 */
export interface JsonRpcNullIdErrorResponse {
  jsonrpc: "2.0";
  id: null;
  error: { code: number; message: string; data?: unknown };
}

/** A message as a transport delivers it. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResultResponse | JsonRpcErrorResponse;

/** A message as the runtime sends it. */
export type OutgoingMessage = JsonRpcMessage | JsonRpcNullIdErrorResponse;

/** JSON-RPC and MCP error codes the runtime uses. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The transport closed while the request was pending (local only, never on the wire). */
  ConnectionClosed: -32000,
  /** The request timed out (local only, never on the wire). */
  RequestTimeout: -32001,
} as const;

/** A JSON-RPC error response, or an error a handler throws to send one. */
export class McpError extends Error {
  override name = "McpError";
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** The caller's signal aborted the request. `reason` is the signal's abort reason, untouched. */
export class RequestCancelledError extends Error {
  override name = "AbortError";
  readonly method: string;
  readonly requestId: RequestId | undefined;
  readonly reason: unknown;
  constructor(method: string, requestId: RequestId | undefined, reason: unknown) {
    super(`${method} was cancelled${typeof reason === "string" ? `: ${reason}` : ""}`);
    this.method = method;
    this.requestId = requestId;
    this.reason = reason;
  }
}

/**
 * A RequestCancelledError made inside an abort listener, without capturing the call stack.
 * There the frames are the platform's event dispatch and this runtime's listener (the caller's
 * own frames are not on the stack: the await that rejects is elsewhere), and V8 spends about
 * 0.6 µs per captured frame: the largest single cost of a cancelled call above the platform's.
 * The error is otherwise the same: name, message, method, requestId, reason, instanceof, and a
 * `stack` that reads "AbortError: <message>". Paths where the caller's frames are on the stack
 * (a signal already aborted at the call, cancelByNotify) keep `new RequestCancelledError`.
 */
export function cancelledInListener(method: string, requestId: RequestId | undefined, reason: unknown): RequestCancelledError {
  const limit = v8Error.stackTraceLimit;
  // Engines without the V8 knob (or a program that removed it) get the usual error.
  if (typeof limit !== "number") return new RequestCancelledError(method, requestId, reason);
  v8Error.stackTraceLimit = 0;
  try {
    return new RequestCancelledError(method, requestId, reason);
  } finally {
    v8Error.stackTraceLimit = limit;
  }
}

/** `Error.stackTraceLimit` is an engine extension (V8, JavaScriptCore), not in the language or its lib types: typed here, not from @types/node. */
const v8Error = Error as unknown as { stackTraceLimit?: unknown };

/** The request's timeout (or its hard cap) elapsed. Distinct from a cancel by the caller. */
export class RequestTimeoutError extends McpError {
  override name = "TimeoutError";
  readonly method: string;
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number) {
    super(ErrorCode.RequestTimeout, `${method} timed out after ${timeoutMs} ms`, { timeoutMs });
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/** Why this side may not cancel a request (with a signal, or with notify("notifications/cancelled")). */
export type CancelRefusal = "uncancellable" | "task-augmented" | "not-permitted" | "not-in-flight";

/**
 * A cancel this side may not send: a signal on a request that must not be cancelled with
 * notifications/cancelled, or a notify("notifications/cancelled", ...) that the signal path
 * would not send either. Nothing goes on the wire.
 */
export class CancellationForbiddenError extends Error {
  override name = "CancellationForbiddenError";
  readonly method: string;
  readonly why: CancelRefusal;
  constructor(method: string, why: CancelRefusal) {
    super(CANCEL_REFUSALS[why](method));
    this.method = method;
    this.why = why;
  }
}

const CANCEL_REFUSALS: { readonly [W in CancelRefusal]: (method: string) => string } = {
  uncancellable: (method) =>
    `${method} must not be cancelled (Cancellation: "The initialize request MUST NOT be cancelled by clients"); pass no signal`,
  "task-augmented": (method) => `${method} is task-augmented: cancel it with tasks/cancel (cancelTask), not a signal`,
  "not-permitted": (method) => `this side may not cancel ${method} under this revision's cancellation rules (see RULES in catalog.ts)`,
  "not-in-flight": (what) =>
    `${what}: notifications/cancelled may only name a request this side issued that is still in flight (Cancellation, Behavior Requirements 1)`,
};

/**
 * The peer answered a request with a response that is not a valid JSON-RPC response for it: an
 * `error` that is not `{ code: integer, message: string }`, a `result` that is not an object, or
 * both. The request rejects with this error (never resolves with a made-up result).
 */
export class InvalidResponseError extends Error {
  override name = "InvalidResponseError";
  readonly method: string;
  readonly requestId: RequestId;
  constructor(method: string, requestId: RequestId, problem: string) {
    super(`invalid response to ${method} (id ${String(requestId)}): ${problem}`);
    this.method = method;
    this.requestId = requestId;
  }
}

/**
 * The peer ended a request this side sent, by sending notifications/cancelled for it: allowed
 * only for the requests in RULES.endableByReceiver (2026-07-28: the server ends a
 * subscriptions/listen stream). Nothing else of this side is aborted.
 */
export class RequestEndedByPeerError extends Error {
  override name = "RequestEndedByPeerError";
  readonly method: string;
  readonly requestId: RequestId;
  readonly reason: string | undefined;
  constructor(method: string, requestId: RequestId, reason: string | undefined) {
    super(`the peer ended ${method} (id ${String(requestId)})${reason === undefined ? "" : `: ${reason}`}`);
    this.method = method;
    this.requestId = requestId;
    this.reason = reason;
  }
}

/** The transport closed while the request was pending. */
export class ConnectionClosedError extends McpError {
  override name = "ConnectionClosedError";
  readonly method: string;
  constructor(method: string) {
    super(ErrorCode.ConnectionClosed, `connection closed while ${method} was pending`);
    this.method = method;
  }
}

/** Options of the transport's `send` (the official SDK's TransportSendOptions, structurally). */
export interface TransportSendOptions {
  /** The incoming request this message belongs to (routes it onto that request's stream). */
  relatedRequestId?: RequestId | undefined;
  /** Streamable HTTP resumption (SDK transports); the runtime does not set these. */
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
}

/**
 * Who is on the other end of a connection, as its transport established it (the HTTP handlers:
 * their `authenticate` option). `id` keys everything the runtime keeps for a peer between
 * requests (tasks, `requestState`, listen streams) and the quotas per principal; the other claims
 * are the application's. Requests without one have their quotas per connection over HTTP
 * (HttpRequestContext.peer; per session on the session servers); elsewhere (stdio, in memory,
 * a web handler that is not told the connection) they share one anonymous principal.
 */
export interface Principal {
  readonly id: string;
  readonly [claim: string]: unknown;
}

/**
 * The HTTP request a connection serves, as handlers see it (`ctx.http`; HTTP transports only).
 * `headers` is the request's `Headers`, described structurally so that core needs no fetch types.
 */
export interface HttpRequestContext {
  readonly headers: {
    get(name: string): string | null;
    has(name: string): boolean;
    forEach(callback: (value: string, name: string) => void): void;
  };
  /** The request's URL, as the server received it. */
  readonly url: string;
  /**
   * The connection the request came on, as its remote address and port (`203.0.113.7:52311`,
   * `[::1]:52311`); undefined where the face does not know it (a web handler called without
   * them). The quotas of anonymous requests (no `authenticate`) key on it: one per connection.
   */
  readonly peer?: string | undefined;
}

/**
 * A message channel, structurally the `@modelcontextprotocol/sdk` Transport, so the SDK's
 * stdio, Streamable HTTP and in-memory transports plug in unchanged.
 */
export interface Transport {
  start(): Promise<void>;
  /**
   * Sends one message. The runtime also passes null-id error responses (OutgoingMessage) here;
   * the parameter type stays the SDK's so that the SDK's transports remain assignable.
   */
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  /**
   * Optional capability of transports that carry each request on its own stream (Streamable
   * HTTP: the POST's SSE response). Closes the stream of a request this side sent; false when
   * there is none. Where RULES.cancelByClosingStream holds, that close is the cancel and no
   * notification is sent (2026-07-28, Transports / Cancellation).
   */
  closeRequestStream?: ((requestId: RequestId) => boolean) | undefined;
  /**
   * Set by the runtime: the peer closed the stream of a request it sent to this side, or the
   * transport ended it (`reason`: why, e.g. the peer stopped reading and the stream overflowed).
   */
  onrequeststreamclose?: ((requestId: RequestId, reason?: string) => void) | undefined;
  /**
   * Set by transports on which a peer's notifications/cancelled may arrive before the request it
   * names (the HTTP session servers: each message is its own POST). A cancel for an id not in
   * flight is then remembered (at most `maxIds`, for `windowMs`), and a request that arrives with
   * a remembered id is cancelled at once: its handler never runs, no response is sent
   * (core/early-cancels.ts). Unset (stdio, in memory, every transport that keeps order): such a
   * cancel is ignored, as the spec says of unknown ids.
   */
  readonly earlyCancels?: EarlyCancelBounds | undefined;
  /** Who the peer is, where the transport knows (HTTP: `authenticate`); handlers see it as `ctx.principal`. */
  readonly principal?: Principal | undefined;
  /** The HTTP request behind the connection (HTTP server transports); handlers see it as `ctx.http`. */
  readonly http?: HttpRequestContext | undefined;
}

/** How many cancels for ids not (yet) known a connection remembers, and for how long (Transport.earlyCancels). */
export interface EarlyCancelBounds {
  /** Ids remembered at most; one more forgets the oldest. */
  readonly maxIds: number;
  /** How long (ms) a cancel is remembered; a request arriving later runs as if no cancel had come. */
  readonly windowMs: number;
}

/**
 * A revision's cancellation, lifecycle and timeout rules, as data (RULES in catalog.ts comes
 * from the generator's per-revision policy table; the runtime reads nothing else).
 */
export interface CancellationRules {
  /** Sides that may cancel requests they sent (2026-07-28: only the client). */
  readonly cancellers: readonly ("client" | "server")[];
  /** Requests the receiver may end by sending notifications/cancelled for them. */
  readonly endableByReceiver: readonly string[];
  /** Long-lived requests: no default timeout or cap. */
  readonly longLived: readonly string[];
  /** Cancel by closing the request's stream where the transport has one (closeRequestStream). */
  readonly cancelByClosingStream: boolean;
  /** Timeout (ms) of requests that set none, unless the endpoint sets its own; null: none. */
  readonly defaultTimeoutMs: number | null;
  /** Hard cap (ms) over a whole request, unless set per endpoint or request; null: none. */
  readonly defaultMaxTotalTimeoutMs: number | null;
  /** The `_meta` keys the client fills on every request (2026-07-28: RequestMetaObject); null: none. */
  readonly requestMeta: { readonly protocolVersion: string; readonly clientCapabilities: string; readonly clientInfo: string } | null;
}

export interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Options of a request the caller may cancel. */
export interface RequestOptions {
  /** Aborting it sends one notifications/cancelled and rejects with RequestCancelledError. */
  signal?: AbortSignal | undefined;
  /** Timeout in ms (default: the endpoint's defaultTimeoutMs); rejects with RequestTimeoutError. */
  timeoutMs?: number | undefined;
  /** Receives progress notifications; asks the peer for them with a unique progressToken. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Restart the timeout on each progress notification (bounded by maxTotalTimeoutMs). */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Hard cap in ms over the whole request, whatever progress arrives. */
  maxTotalTimeoutMs?: number | undefined;
  /** Reason sent to the peer when cancelling (default: the abort reason if it is a string). */
  cancelReason?: string | undefined;
  /**
   * Multi round-trip requests (2026-07-28 and later, basic/patterns/mrtr), for this call only:
   * most retries of a request that answers InputRequiredResult (an integer ≥ 0; default: the
   * client's `maxInputRounds`). Ignored by requests and revisions without InputRequiredResult.
   */
  maxInputRounds?: number | undefined;
  /**
   * Multi round-trip requests, for this call only: true hands an InputRequiredResult back as it
   * is (the caller drives the rounds), false answers it through the handlers and retries
   * (default: the client's `returnInputRequired`). Ignored where maxInputRounds is.
   */
  returnInputRequired?: boolean | undefined;
  /**
   * Tasks extension (io.modelcontextprotocol/tasks): what aborting `signal` does once the call
   * came back as a task. From that moment the request is over and notifications/cancelled no
   * longer applies (SEP-2663: a task is cancelled with tasks/cancel, never with
   * notifications/cancelled). "cancel" (default): the abort sends tasks/cancel; "detach": the
   * abort does nothing to the task.
   */
  afterTask?: "cancel" | "detach" | undefined;
}

/** Options of a request that must not be cancelled: no signal, no cancel reason. */
export type UncancellableRequestOptions = Omit<RequestOptions, "signal" | "cancelReason"> & {
  signal?: never;
  cancelReason?: never;
};

/** Why a received cancellation was ignored. */
export type IgnoredCancelCause =
  | "unknown-request"
  | "finished"
  | "uncancellable"
  | "task-augmented"
  | "malformed"
  /** The peer may not cancel this request under this revision's rules (2026-07-28: a server cancel of anything but subscriptions/listen). */
  | "not-permitted"
  /**
   * The request was answered with a task handle (Tasks extension): it is over, and the task is
   * cancelled with tasks/cancel, never with notifications/cancelled (SEP-2663).
   */
  | "became-task";

/** Every cancellation event on either side, reported to `onCancellation`. */
export type CancellationEvent =
  | {
      type: "sent";
      requestId: RequestId;
      method: string;
      reason: string;
      /**
       * abort: the caller's signal; timeout: the timeout or cap; notify: notify("notifications/cancelled");
       * end: a receiver ended the peer's request (ctx.end).
       */
      cause: "abort" | "timeout" | "notify" | "end";
      /** Set when the cancel was the closing of the request's own stream, not a notification. */
      via?: "stream-close" | undefined;
    }
  | { type: "timeout-local"; requestId: RequestId; method: string }
  /** `early`: the cancel came before the request (Transport.earlyCancels); the request was cancelled as it arrived, its handler never ran. */
  | { type: "received"; requestId: RequestId; method: string; reason: string | undefined; early?: true | undefined }
  /** The peer ended a request this side sent (RULES.endableByReceiver). */
  | { type: "ended"; requestId: RequestId; method: string; reason: string | undefined }
  /**
   * `early`: with cause unknown-request, the cancel is remembered for a request that may still
   * come (Transport.earlyCancels); with another cause, a remembered cancel met its request, which
   * may not be cancelled (`method`), and the request runs.
   */
  | { type: "ignored"; cause: IgnoredCancelCause; requestId: unknown; reason: unknown; method?: string | undefined; early?: true | undefined }
  | { type: "late-response"; requestId: RequestId }
  /**
   * Tasks extension: a response that arrived after this side cancelled its request turned out to
   * be a task handle; the task was cancelled with `method` (tasks/cancel) so it does not run on.
   */
  | { type: "late-task"; requestId: RequestId; taskId: string; method: string };

/** One line per event; the default writes to stderr (console.error), never stdout. */
export type Logger = (line: string) => void;

export const defaultLogger: Logger = (line) => console.error(line);

/** Longest piece of a peer's value (a reason, an id) quoted in a log line. */
const LOG_VALUE_MAX = 200;

/**
 * A short, single-line description of any value, for log lines: strings are quoted and cut to
 * LOG_VALUE_MAX characters, numbers and other primitives are printed, objects and arrays are only
 * named. It never throws and never walks into a value, so a hostile peer's value (an array nested
 * thousands deep, a huge string) or an in-process one (BigInt, circular, a throwing getter) costs
 * a bounded amount of work.
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value.length > LOG_VALUE_MAX ? `${value.slice(0, LOG_VALUE_MAX)}…` : value);
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    case "undefined":
      return "undefined";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default:
      return value === null ? "null" : Array.isArray(value) ? "an array" : "an object";
  }
}

/**
 * A string of the peer's for a log line: cut to LOG_VALUE_MAX characters, with line breaks and
 * other control characters escaped, so one value stays one short line (no forged log lines).
 */
export function logText(text: string): string {
  const cut = text.length > LOG_VALUE_MAX ? `${text.slice(0, LOG_VALUE_MAX)}…` : text;
  return cut.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Text of a cancellation event for the log (Cancellation: both parties SHOULD log the reason). */
export function describeCancellation(side: string, e: CancellationEvent): string {
  const id = e.type === "ignored" ? describeValue(e.requestId) : logText(String(e.requestId));
  const reasonOf = (r: unknown): string => (typeof r === "string" ? logText(r) : "no reason given");
  switch (e.type) {
    case "sent":
      return `[mcp ${side}] ${e.cause === "end" ? "ended" : "cancelled"} ${e.method} (id ${id})${e.cause === "end" ? "" : ` on ${e.cause}`}${e.via === undefined ? "" : ` by closing its stream`}: ${reasonOf(e.reason)}`;
    case "timeout-local":
      return `[mcp ${side}] ${e.method} (id ${id}) timed out; not cancelled on the wire (uncancellable)`;
    case "received":
    case "ended":
      return `[mcp ${side}] peer ${e.type === "ended" ? "ended" : "cancelled"} ${e.method} (id ${id})${e.type === "received" && e.early === true ? " before it arrived" : ""}: ${reasonOf(e.reason)}`;
    case "ignored":
      return `[mcp ${side}] ignored a cancellation (${e.cause}) for id ${id}${e.early === true ? (e.cause === "unknown-request" ? ", remembered in case its request is still on its way" : " that came before its request") : ""}${typeof e.reason === "string" ? `: ${logText(e.reason)}` : ""}`;
    case "late-response":
      return `[mcp ${side}] ignored a response to cancelled request ${id}`;
    case "late-task":
      return `[mcp ${side}] cancelled request ${id} came back as task ${logText(e.taskId)}: sent ${e.method} for it`;
  }
}
