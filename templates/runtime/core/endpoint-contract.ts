// What an endpoint takes and gives: the handler context, the handler tables, the hooks the
// features fill (multi round-trip requests, the send path), its options, and a connection as the
// transports see it, and the tables built from the options. Endpoint.ts is the behaviour.

import { ownHandlers } from "./messages.js";
import { numberOption } from "./options.js";
import { timerDelay, type MethodPolicy } from "./outgoing.js";
import type { ParamsCheck, WireChecks } from "./validation.js";
import type { LogFunction, LogHook } from "./logging.js";
import type {
  CancellationEvent,
  CancellationRules,
  HttpRequestContext,
  JsonObject,
  JsonRpcMessage,
  Logger,
  Principal,
  RequestId,
  RequestOptions,
} from "./protocol.js";

/** What a request handler receives besides its params. */
export interface HandlerContext {
  /** Aborts when the peer cancels this request or the connection closes. */
  readonly signal: AbortSignal;
  readonly requestId: RequestId;
  readonly method: string;
  readonly _meta: JsonObject | undefined;
  /** Who sent the request, as the transport established it (HTTP: the handler's `authenticate`); undefined: unknown. */
  readonly principal: Principal | undefined;
  /** The HTTP request that carried it (HTTP server transports); undefined on other transports. */
  readonly http: HttpRequestContext | undefined;
  /** Sends notifications/progress for this request; a no-op when the peer gave no progressToken. */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a notification related to this request. */
  notify(method: string, params?: object): Promise<void>;
  /**
   * Sends a log message (notifications/message) related to this request, if `level` is at or
   * above the level the client asked for: 2025 revisions, the level its logging/setLevel set for
   * the connection (until then every level); 2026-07-28, the request's own `_meta` logLevel
   * (none: nothing is sent). Nothing is sent by a server that does not declare the `logging`
   * capability, nor by a client. `data` is any JSON value; `logger` names the source.
   */
  readonly log: LogFunction;
  /** Sends a request to the peer; its signal defaults to this handler's signal. */
  request(method: string, params?: object, options?: RequestOptions): Promise<unknown>;
  /**
   * Ends this request from the receiving side: sends notifications/cancelled for its id, aborts
   * `signal` and sends no response. Only for RULES.endableByReceiver (2026-07-28: a server ends
   * a subscriptions/listen stream); anything else rejects with CancellationForbiddenError and
   * sends nothing.
   */
  end(reason?: string): Promise<void>;
}

export type AnyRequestHandler = (params: JsonObject | undefined, ctx: HandlerContext) => unknown;
export type AnyNotificationHandler = (params: JsonObject | undefined) => unknown;

/**
 * The hooks the endpoint calls, declared here so that core imports nothing outside core; the
 * features that fill them (features/mrtr-server.ts, features/mrtr-client.ts) import these types.
 */

/** Options of one `ctx.input.required(...)`. */
export interface RequiredOptions {
  /** The handler's state for the retry (JSON), sealed into `requestState`; none: no requestState. */
  readonly state?: unknown;
  /** This state's lifetime in ms (default: the server's ttlMs). */
  readonly ttlMs?: number | undefined;
}

/** An input request as a handler writes it. */
export interface InputRequestLike {
  readonly method: string;
  readonly params?: unknown;
}

/** The untyped `ctx.input` (typed.ts gives it the catalog's types). */
export interface InputContextApi {
  supports(method: string, params?: unknown): boolean;
  state(): unknown;
  responses(requests: { readonly [key: string]: InputRequestLike }): { [key: string]: unknown } | undefined;
  required(requests: { readonly [key: string]: InputRequestLike }, options?: RequiredOptions): Promise<JsonObject>;
}

/** What the endpoint calls around handlers (EndpointOptions.inputRequired; the receiving side of MRTR). */
export interface InputRequiredHook {
  /** Whether a method's handler takes part (gets ctx.input; may answer input_required). */
  has(method: string): boolean;
  /** The ctx.input of one request; the endpoint makes it on its first read. */
  context(ctx: HandlerContext, params: JsonObject | undefined): InputContextApi;
  /**
   * Before the handler of a method that takes part: a retry's fields are checked (McpError
   * -32602) and its requestState verified. Undefined, at once, when the params carry neither.
   */
  before(ctx: HandlerContext & { readonly input: InputContextApi }, params: JsonObject | undefined): Promise<void> | undefined;
  /** After every handler: an input_required result is allowed only where the revision allows it. */
  after(method: string, result: unknown, ctx: HandlerContext): void;
}

/** What a hook on the send path (SendHook) may use of the endpoint. */
export interface SendPath {
  /** Sends one request as the endpoint does without a hook (`_meta` filled from requestMeta). */
  send(method: string, params: JsonObject | undefined, options: RequestOptions | undefined, related: RequestId | undefined): Promise<unknown>;
  /** This side's request handler of `method`, if any. */
  handler(method: string): AnyRequestHandler | undefined;
  /** The timeout of a request that gives none (ms): the endpoint's defaultTimeoutMs, else RULES'. */
  readonly defaultTimeoutMs: number | undefined;
  notify(method: string, params?: object): Promise<void>;
  request(method: string, params: object | undefined, options?: RequestOptions): Promise<unknown>;
}

/** A hook on the send path (EndpointOptions.answerInput; the sending side of MRTR). */
export interface SendHook {
  /** The outcome of a request the hook takes over (it sends each round through `path.send`); undefined: not the hook's. */
  request(path: SendPath, method: string, params: JsonObject | undefined, options: RequestOptions | undefined, related: RequestId | undefined): Promise<unknown> | undefined;
  /** Answers input requests outside any request (a task's input_required, Tasks extension). */
  answerInputRequests(path: SendPath, method: string, inputRequests: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject>;
}

export interface EndpointOptions {
  readonly handlers?: Readonly<Record<string, AnyRequestHandler | undefined>> | undefined;
  readonly notificationHandlers?: Readonly<Record<string, AnyNotificationHandler | undefined>> | undefined;
  /** Cancellation log lines; default: one line on stderr; null: silent. */
  readonly logger?: Logger | null | undefined;
  /** Every cancellation event, sent, received or ignored. */
  readonly onCancellation?: ((event: CancellationEvent) => void) | undefined;
  /** The rules of ctx.log (the server's, features/logging.ts); undefined: ctx.log sends nothing. */
  readonly logging?: LogHook | undefined;
  /** Timeout of every request that gives none (ms; 0 or Infinity: none); default: RULES.defaultTimeoutMs, else 60 s (REQUEST_TIMEOUT_MS). */
  readonly defaultTimeoutMs?: number | undefined;
  /** Hard cap over every request that gives none (ms; 0 or Infinity: none); default: RULES.defaultMaxTotalTimeoutMs. */
  readonly defaultMaxTotalTimeoutMs?: number | undefined;
  /** Entries merged into every request's `_meta` (under the caller's own); RULES.requestMeta. */
  readonly requestMeta?: JsonObject | undefined;
  /**
   * Entries merged into every result's `_meta` (under the handler's own). 2026-07-28, Overview,
   * per-response protocol fields: servers SHOULD identify themselves in every result's `_meta`.
   */
  readonly resultMeta?: JsonObject | undefined;
  /** Transport errors and messages that could not be handled. */
  readonly onError?: ((error: Error) => void) | undefined;
  /** Multi round-trip requests, receiving side (features/mrtr-server.ts createInputRequired): ctx.input, a retry's checks before its handler, result checks after. */
  readonly inputRequired?: InputRequiredHook | undefined;
  /**
   * Multi round-trip requests, sending side (features/mrtr-client.ts createAnswerInput; 2026-07-28,
   * basic/patterns/mrtr, Client Requirements): a hook on the send path that takes over the
   * requests a server may answer with InputRequiredResult; absent: results are returned as they are.
   */
  readonly answerInput?: SendHook | undefined;
  /**
   * Tasks extension (io.modelcontextprotocol/tasks): a result with `resultType: "task"` is a task
   * handle, and `cancelRequest` (tasks/cancel) is how a task is cancelled. Received: a later
   * notifications/cancelled for a request answered with a handle is ignored as "became-task".
   * Sent: a handle that arrives after this side cancelled the request is cancelled at once.
   */
  readonly tasks?: { readonly cancelRequest: string } | undefined;
  /**
   * Sees the result of each request this side sends (its own, not those of the hooks above) that
   * `wants` names, before the caller does: `check` returns it, or throws to reject the request
   * with that error (the client's check of tools' structured results, features/tool-output.ts).
   * The others do not pass through it: no extra step on their path, their outcome as timely.
   */
  readonly checkResult?: {
    wants(method: string, params: JsonObject | undefined): boolean;
    check(method: string, params: JsonObject | undefined, result: unknown): unknown;
  } | undefined;
  /**
   * The generated validators the endpoint applies to what the peer sends (core/validation.ts,
   * the facades' `validate` option): the params of its requests (a request that breaks its schema
   * is answered -32602 before any handler runs) and of its notifications (dropped and reported to
   * onError; notifications/cancelled keeps its own rule: a malformed cancel is ignored), and the
   * results of this side's requests (InvalidResultError). Absent: nothing is checked.
   */
  readonly validate?: WireChecks | undefined;
  /**
   * JSON-RPC batches (a JSON array of messages) are received: each message handled as if alone,
   * the responses sent back as one array (core/batch.ts). Generated: the revision's ERA.batches
   * (2025-03-26); elsewhere a batch gets one -32600 error with id null.
   */
  readonly batches?: boolean | undefined;
  /**
   * Requests of the peer handled at once on one connection (default DEFAULT_MAX_REQUESTS_IN_FLIGHT,
   * 1024; at least 1; Infinity: no bound). One more is answered -32603 naming this option, and
   * nothing of it runs, so a peer cannot grow this side without bound by sending requests whose
   * handlers wait (stdio, in memory, MCPx: the HTTP handlers bound theirs before, per session and
   * per principal). A request that answers is not held; a cancelled one leaves at once. Ping is
   * always answered (UNBOUNDED_REQUESTS).
   */
  readonly maxRequestsInFlight?: number | undefined;
}

/** Default `maxRequestsInFlight`: above a 2025-03-26 batch's most (1000 requests), so one whole batch always fits an idle connection. */
export const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 1024;

/**
 * Requests maxRequestsInFlight does not refuse: ping, which the endpoint answers itself at once
 * (nothing is held), and which "The receiver MUST respond promptly with an empty response"
 * (Utilities, Ping): a peer's liveness check still gets its answer on a full connection.
 */
export const UNBOUNDED_REQUESTS: ReadonlySet<string> = new Set(["ping"]);


/**
 * What every connection of one endpoint shares, prepared once (Endpoint.openConnection): the
 * handler tables and the rules derived from the options, so that a connection costs only its
 * own bookkeeping (one per HTTP request in the Streamable HTTP server).
 */
export interface EndpointTables {
  readonly handlers: ReadonlyMap<string, AnyRequestHandler>;
  readonly notificationHandlers: ReadonlyMap<string, AnyNotificationHandler>;
  /** The checks of the params of the peer's requests and notifications (validate); undefined: none. */
  readonly requestChecks: ReadonlyMap<string, ParamsCheck> | undefined;
  readonly notificationChecks: ReadonlyMap<string, ParamsCheck> | undefined;
  readonly longLived: ReadonlySet<string>;
  readonly endableByPeer: ReadonlySet<string>;
  /** maxRequestsInFlight, checked. */
  readonly maxRequestsInFlight: number;
}

/** The tables of an endpoint made from its options (not a connection of another). */
export function endpointTables(policy: ReadonlyMap<string, MethodPolicy>, rules: CancellationRules, options: EndpointOptions): EndpointTables {
  // Timeouts the platform cannot arm are a usage error here, not a surprise at the first request.
  timerDelay("defaultTimeoutMs", options.defaultTimeoutMs);
  timerDelay("defaultMaxTotalTimeoutMs", options.defaultMaxTotalTimeoutMs);
  return {
    // Ping: "The receiver MUST respond promptly with an empty response" (Utilities, Ping), in
    // the revisions that have it (2026-07-28 removed it: there it is an unknown method).
    handlers: ownHandlers<AnyRequestHandler>(policy.has("ping") ? { ping: () => ({}), ...options.handlers } : options.handlers),
    notificationHandlers: ownHandlers(options.notificationHandlers),
    requestChecks: options.validate?.requests,
    notificationChecks: options.validate?.notifications,
    longLived: new Set(rules.longLived),
    endableByPeer: new Set(rules.endableByReceiver),
    maxRequestsInFlight: numberOption("maxRequestsInFlight", options.maxRequestsInFlight, DEFAULT_MAX_REQUESTS_IN_FLIGHT, { min: 1, infinity: true }),
  };
}

/** A connection of an endpoint (Endpoint.openConnection): its own in-flight requests, closed on its own. */
export interface Connection {
  /** Closes this connection's transport: its handlers abort, its pending requests reject. */
  close(): Promise<void>;
  /**
   * Hands over one message the peer sent, as the transport's onmessage does, and says what
   * became of a notifications/cancelled: "received" (the request it names was cancelled: its
   * handler aborted, no response will come) or "ignored" with why; for a request whose cancel
   * came before it (Transport.earlyCancels), "received" (`early`) when it was cancelled as it
   * arrived (no handler runs, no response will come); undefined for any other message. A
   * transport that keeps a stream per request (the session server) ends the stream of a
   * cancelled request by this answer, without looking at the method itself.
   */
  receive(message: JsonRpcMessage): CancellationEvent | undefined;
  /** Requests in flight on this connection (sent and awaiting a response, received and being handled). */
  readonly inFlight: { readonly sent: number; readonly received: number };
}


/**
 * The timeout (ms) of a request, of either side, where neither the endpoint's `defaultTimeoutMs`
 * nor RULES sets one: the SDKs' 60 s (basic/lifecycle, Timeouts: implementations SHOULD establish
 * timeouts for all sent requests). A peer that never answers would otherwise hold the request (and,
 * on a server, its handler and session) for ever. `defaultTimeoutMs: 0` turns it off.
 */
export const REQUEST_TIMEOUT_MS: number = 60_000;

/** The same default under the name it had when only a server's requests had it. */
export const SERVER_REQUEST_TIMEOUT_MS: number = REQUEST_TIMEOUT_MS;

/**
 * The timeout of a request that sets none: the option, else RULES', else REQUEST_TIMEOUT_MS, on
 * either side. Long-lived requests (RULES.longLived) have none whatever this says (outgoing.ts).
 */
export function defaultTimeoutOf(option: number | undefined, rules: number | null | undefined): number {
  return option ?? rules ?? REQUEST_TIMEOUT_MS;
}
