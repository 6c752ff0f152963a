// One side of a connection: wires a transport to the send path (outgoing.ts) and the receive
// path (incoming.ts), and dispatches incoming requests and notifications through handler
// tables keyed by method. Untyped at this level; client.ts and server.ts give it types. What it
// takes and gives (the handler context, its options, a connection) is endpoint-contract.ts.

import { defaultTimeoutOf, endpointTables, UNBOUNDED_REQUESTS, type AnyNotificationHandler, type AnyRequestHandler, type Connection, type EndpointOptions, type EndpointTables, type HandlerContext, type InputContextApi, type InputRequiredHook, type SendPath } from "./endpoint-contract.js";
import { BatchIntake } from "./batch.js";
import { EarlyCancels } from "./early-cancels.js";
import { earlyCancelEvent, IncomingRequests, parseCancelParams, type InFlight } from "./incoming.js";
import { errorResponse, responseProblem, thrownMessage, withRequestMeta, withResultMeta } from "./messages.js";
import { RequestContext } from "./request-context.js";
import { isObject, isRequestId as isId, isThenable } from "./json.js";
import { cancelRule, OutgoingRequests, type MethodPolicy } from "./outgoing.js";
import { checkValue, invalidParamsMessage, InvalidNotificationError, type Issue } from "./validation.js";
import {
  type CancellationEvent,
  CancellationForbiddenError,
  type CancellationRules,
  defaultLogger,
  describeCancellation,
  describeValue,
  ErrorCode,
  type JsonObject,
  type JsonRpcMessage,
  McpError,
  type OutgoingMessage,
  type RequestId,
  type RequestOptions,
  type Transport,
} from "./protocol.js";

export { REQUEST_TIMEOUT_MS, SERVER_REQUEST_TIMEOUT_MS } from "./endpoint-contract.js";
export type { AnyNotificationHandler, AnyRequestHandler, Connection, EndpointOptions, EndpointTables, HandlerContext, InputContextApi, InputRequestLike, InputRequiredHook, RequiredOptions, SendHook, SendPath } from "./endpoint-contract.js";

const CANCELLED = "notifications/cancelled";
/** A notification that must carry params and has none. */
const PARAMS_MISSING: Issue = { pointer: "", expected: "params (required)", got: "nothing" };

export class Endpoint {
  readonly #side: "client" | "server";
  readonly #options: EndpointOptions;
  readonly #policy: ReadonlyMap<string, MethodPolicy>;
  readonly #rules: CancellationRules;
  readonly #mayCancel: boolean;
  readonly #peerMayCancel: boolean;
  /** The send path's table, made on first use (#outgoing): most connections of a server never send a request. */
  #outgoingMade: OutgoingRequests | undefined;
  readonly #incoming = new IncomingRequests();
  readonly #handlers: ReadonlyMap<string, AnyRequestHandler>;
  readonly #notificationHandlers: ReadonlyMap<string, AnyNotificationHandler>;
  readonly #tables: EndpointTables;
  #transport: Transport | undefined;
  /** The endpoint this one is a connection of (openConnection), and the connections open on this one. */
  #parent: Endpoint | undefined;
  #connections: Set<Endpoint> | undefined;
  #sendPathMade: SendPath | undefined;
  /** Batches received and not yet answered (core/batch.ts), made on the first batch. */
  #batches: BatchIntake | undefined;

  /**
   * `tables`: the prepared tables of the endpoint this one is a connection of (openConnection);
   * without them they are built from the options.
   */
  constructor(
    side: "client" | "server",
    policy: ReadonlyMap<string, MethodPolicy>,
    rules: CancellationRules,
    options: EndpointOptions = {},
    tables?: EndpointTables,
  ) {
    this.#side = side;
    this.#options = options;
    this.#policy = policy;
    this.#rules = rules;
    this.#mayCancel = rules.cancellers.includes(side);
    this.#peerMayCancel = rules.cancellers.includes(side === "client" ? "server" : "client");
    this.#tables = tables ??= endpointTables(policy, rules, options);
    this.#handlers = tables.handlers;
    this.#notificationHandlers = tables.notificationHandlers;
  }

  /**
   * The send path's table. Made when first needed, not with the endpoint: a server's HTTP POST
   * gets a connection of its own (openConnection) that usually only answers, and the table's maps,
   * sets and hooks were most of what such a connection cost to make.
   */
  get #outgoing(): OutgoingRequests {
    return (this.#outgoingMade ??= this.#makeOutgoing());
  }

  #makeOutgoing(): OutgoingRequests {
    const rules = this.#rules;
    const options = this.#options;
    const tables = this.#tables;
    return new OutgoingRequests(
      {
        send: (message, related) => this.#send(message, related),
        report: (event) => this.#report(event),
        closeStream: (id) => rules.cancelByClosingStream && this.#closeRequestStream(id),
        lateResult: (id, result) => this.#lateResult(id, result),
      },
      (method) => this.#policy.get(method),
      {
        mayCancel: this.#mayCancel,
        defaultTimeoutMs: this.#defaultTimeoutMs,
        defaultMaxTotalTimeoutMs: options.defaultMaxTotalTimeoutMs ?? rules.defaultMaxTotalTimeoutMs ?? undefined,
        longLived: tables.longLived,
        endableByPeer: tables.endableByPeer,
        results: options.validate?.results,
      },
    );
  }

  /**
   * A new connection of this endpoint over `transport`, started at once: it shares this
   * endpoint's handler tables and options (nothing is rebuilt per connection) and has its own
   * in-flight requests, so many connections may serve at the same time. A transport whose start
   * fails closes the connection; the failure goes to onError.
   */
  openConnection(transport: Transport): Connection {
    const connection = new Endpoint(this.#side, this.#policy, this.#rules, this.#options, this.#tables);
    connection.#parent = this;
    (this.#connections ??= new Set()).add(connection);
    connection.#attach(transport).catch((error: unknown) => {
      connection.#toOnError(error);
      void connection.close().catch(connection.#toOnError);
    });
    return connection;
  }

  /** How many connections are open on this endpoint (openConnection; connect()'s transport aside). */
  get openConnections(): number {
    return this.#connections?.size ?? 0;
  }

  /**
   * Sends a notification outside any request on connect()'s transport (if any) and on every
   * connection open on this endpoint (openConnection): a change every peer of a server hears of,
   * such as a list_changed. Guarded per connection: one that fails (closing, say) costs the others
   * nothing, and its failure is dropped. A closed connection has left the set already (#closed).
   * Returns how many connections it was sent on; `only` picks them by their transport.
   */
  broadcast(method: string, params?: object, only?: (transport: Transport) => boolean): number {
    let sent = 0;
    for (const endpoint of this.#transport === undefined ? this.#connections ?? [] : [this, ...(this.#connections ?? [])]) {
      if (endpoint.#transport === undefined || (only !== undefined && !only(endpoint.#transport))) continue;
      try {
        endpoint.notify(method, params).catch(() => {});
        sent++;
      } catch {
        // notify rejects rather than throws; a throw is dropped all the same.
      }
    }
    return sent;
  }

  /** Closes a request's own stream where the transport has one; a throwing transport counts as none. */
  #closeRequestStream(id: RequestId): boolean {
    try {
      return this.#transport?.closeRequestStream?.(id) === true;
    } catch (error) {
      this.#toOnError(error);
      return false;
    }
  }

  /** Requests sent and awaiting a response, and requests received and being handled, on this endpoint and its open connections. */
  get inFlight(): { readonly sent: number; readonly received: number } {
    let sent = this.#outgoingMade?.size ?? 0;
    let received = this.#incoming.size;
    for (const connection of this.#connections ?? []) {
      sent += connection.#outgoingMade?.size ?? 0;
      received += connection.#incoming.size;
    }
    return { sent, received };
  }

  async connect(transport: Transport): Promise<void> {
    if (this.#transport !== undefined) throw new Error(`this ${this.#side} is already connected`);
    await this.#attach(transport);
  }

  /** Wires a transport to this endpoint and starts it (the start's promise, never a throw). */
  #attach(transport: Transport): Promise<void> {
    this.#transport = transport;
    transport.onmessage = (message) => void this.receive(message);
    transport.onclose = () => this.#closed();
    transport.onerror = (error) => this.#toOnError(error);
    // The peer closed the stream of a request it sent: that is its cancel (2026-07-28, Transports).
    if (this.#rules.cancelByClosingStream) {
      transport.onrequeststreamclose = (requestId, reason) => this.#onCancel({ requestId, reason: reason ?? "request stream closed" });
    }
    try {
      // A transport that may deliver a cancel before its request (early-cancels.ts).
      const early = transport.earlyCancels;
      if (early !== undefined) this.#incoming.rememberEarlyCancels(new EarlyCancels(isObject(early) ? early : {}));
      return Promise.resolve(transport.start());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Closes this endpoint's transport and every connection open on it (openConnection). */
  async close(): Promise<void> {
    const connections = this.#connections === undefined ? [] : [...this.#connections].map((c) => c.close());
    const transport = this.#transport;
    if (transport === undefined) {
      await Promise.all(connections);
      return;
    }
    try {
      await transport.close();
    } finally {
      this.#closed();
      await Promise.all(connections);
    }
  }

  /** Sends a request; params are the method's params object (typed by the facade). */
  request(method: string, params: object | undefined, options?: RequestOptions, related?: RequestId): Promise<unknown> {
    if (this.#transport === undefined) return Promise.reject(new Error(`${method}: not connected`));
    const taken = this.#options.answerInput?.request(this.#sendPath, method, params as JsonObject | undefined, options, related);
    const sent = taken ?? this.#outgoing.start(method, withRequestMeta(this.#options.requestMeta, params as JsonObject | undefined), options, related);
    const check = this.#options.checkResult;
    return check === undefined || !check.wants(method, params as JsonObject | undefined) ? sent : sent.then((result) => check.check(method, params as JsonObject | undefined, result));
  }

  /** The timeout of a request that sets none (defaultTimeoutOf). */
  get #defaultTimeoutMs(): number | undefined {
    return defaultTimeoutOf(this.#options.defaultTimeoutMs, this.#rules.defaultTimeoutMs);
  }

  /** What the send-path hook uses of this endpoint (made once). */
  get #sendPath(): SendPath {
    return (this.#sendPathMade ??= {
      send: (method, params, options, related) => this.#outgoing.start(method, withRequestMeta(this.#options.requestMeta, params), options, related),
      handler: (method) => this.#handlers.get(method),
      defaultTimeoutMs: this.#defaultTimeoutMs,
      notify: (method, params) => this.notify(method, params),
      request: (method, params, options) => this.request(method, params, options),
    });
  }

  /**
   * Sends a notification. notifications/cancelled is not a way around the send path: it is sent
   * only where aborting the named request's signal would send it (see #cancelByNotify).
   */
  notify(method: string, params?: object, related?: RequestId): Promise<void> {
    if (method === CANCELLED) return this.#cancelByNotify(params);
    const message: JsonRpcMessage =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params: params as JsonObject };
    return this.#send(message, related);
  }

  /**
   * notify("notifications/cancelled", { requestId, reason? }) from this side's code, typed or not.
   * Allowed exactly where the cancellation rules allow it (Cancellation, Behavior Requirements):
   * - a request this side sent and is still waiting on, when its signal would be accepted: it is
   *   cancelled as by its signal (never initialize, never a task-augmented request, never where
   *   RULES.cancellers leaves this side out);
   * - a request the peer sent that RULES.endableByReceiver lets this side end (2026-07-28: the
   *   server ends subscriptions/listen): the same bookkeeping as ctx.end().
   * Anything else rejects with CancellationForbiddenError and nothing is sent.
   */
  #cancelByNotify(params: object | undefined): Promise<void> {
    const parsed = parseCancelParams(params);
    if (parsed === null) {
      return Promise.reject(new TypeError(`${CANCELLED} takes { requestId: string | integer, reason?: string }`));
    }
    const { requestId, reason } = parsed;
    try {
      if (this.#outgoing.cancelByNotify(requestId, reason)) return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
    const received = this.#incoming.get(requestId);
    if (received === undefined) return Promise.reject(new CancellationForbiddenError(`request ${describeValue(requestId)}`, "not-in-flight"));
    if (!this.#rules.endableByReceiver.includes(received.method)) {
      return Promise.reject(new CancellationForbiddenError(received.method, "not-permitted"));
    }
    return this.#endReceived(requestId, received, reason);
  }

  /** Ends a request the peer sent (ctx.end, or its notify equivalent): one notification, no response. */
  #endReceived(id: RequestId, entry: InFlight, reason: string | undefined): Promise<void> {
    const why = reason ?? `${entry.method} ended by the ${this.#side}`;
    if (!this.#incoming.end(id, entry, why)) return Promise.resolve();
    this.#batches?.settle();
    this.#report({ type: "sent", requestId: id, method: entry.method, reason: why, cause: "end" });
    return this.#send({ jsonrpc: "2.0", method: CANCELLED, params: { requestId: id, reason: why } }, id);
  }

  #send(message: OutgoingMessage, related: RequestId | undefined): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new Error("not connected"));
    // A null-id error response is valid JSON-RPC 2.0 but outside the SDK's message type, which
    // Transport.send keeps for compatibility; transports serialise whatever they are given.
    const wire = message as JsonRpcMessage;
    if (related !== undefined && this.#batches?.claim(message, related) === true) return Promise.resolve(); // goes out with its batch
    try {
      // A transport that throws instead of rejecting (or returns no promise) is tolerated.
      return Promise.resolve(related === undefined ? transport.send(wire) : transport.send(wire, { relatedRequestId: related }));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Sends without letting a failure escape (responses, errors): failures go to onError. */
  #sendQuietly(message: OutgoingMessage, related: RequestId | undefined): void {
    this.#send(message, related).catch(this.#toOnError);
  }

  /**
   * Sends a handler's response. When it cannot be sent as it is (a result that cannot be
   * serialised: a BigInt, a cycle, nesting too deep for JSON), the peer still gets an answer:
   * -32603 with a fixed message, so its request never hangs. The first failure goes to onError.
   */
  #respond(id: RequestId, response: OutgoingMessage): void {
    this.#send(response, id).catch((error: unknown) => {
      this.#toOnError(error);
      if (this.#transport === undefined) return;
      this.#sendQuietly(errorResponse(id, ErrorCode.InternalError, "Internal error: the response could not be sent"), id);
    });
  }

  /** Hands a failure to onError; one function for the endpoint, not a closure per message. */
  readonly #toOnError = (error: unknown): void => {
    try {
      this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing onError must not break the connection.
    }
  };

  /** Every event goes to onCancellation and, as one line, to the logger: both guarded. */
  #report(event: CancellationEvent): void {
    try {
      this.#options.onCancellation?.(event);
    } catch {
      // A throwing observer must not break the connection.
    }
    const logger = this.#options.logger === undefined ? defaultLogger : this.#options.logger;
    if (logger === null) return;
    try {
      logger(describeCancellation(this.#side, event));
    } catch {
      // Nor a throwing logger.
    }
  }

  /**
   * A result to a request this side cancelled. Tasks extension: if the server had turned it into
   * a task meanwhile, nobody holds the handle, so the task is cancelled with tasks/cancel (the
   * only way to cancel a task) rather than left running until it expires.
   */
  #lateResult(id: RequestId, result: JsonObject): void {
    const tasks = this.#options.tasks;
    const taskId = result["taskId"];
    if (tasks === undefined || result["resultType"] !== "task" || typeof taskId !== "string") return;
    this.#report({ type: "late-task", requestId: id, taskId, method: tasks.cancelRequest });
    this.request(tasks.cancelRequest, { taskId }).catch(this.#toOnError);
  }

  /**
   * Answers input requests (a task's `input_required`, Tasks extension) through this side's
   * handlers, exactly as the input requests of an InputRequiredResult are answered (the send-path
   * hook, EndpointOptions.answerInput).
   */
  answerInputRequests(method: string, inputRequests: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject> {
    const answer = this.#options.answerInput;
    if (answer === undefined) return Promise.reject(new Error(`${method}: could not answer the input requests: this side answers no input requests`));
    return answer.answerInputRequests(this.#sendPath, method, inputRequests, signal);
  }

  /**
   * Connection.receive (and the transport's onmessage): classifies one incoming message (JSON-RPC
   * 2.0) and routes it; for a cancel, says what became of it. Whatever the peer sent, nothing
   * escapes: a failure is handed to onError.
   */
  receive(message: JsonRpcMessage): CancellationEvent | undefined {
    try {
      if (Array.isArray(message)) return void (this.#batches ??= this.#batchIntake()).receive(message);
      const event = this.#route(message);
      this.#batches?.settle(); // a cancel may have ended a batch's last unanswered request
      return event;
    } catch (error) {
      this.#toOnError(error);
      return undefined;
    }
  }

  #route(message: unknown): CancellationEvent | undefined {
    if (!isObject(message) || message["jsonrpc"] !== "2.0") {
      const id = isObject(message) && isId(message["id"]) ? message["id"] : undefined;
      if (id !== undefined) this.#sendQuietly(errorResponse(id, ErrorCode.InvalidRequest, "Invalid Request"), undefined);
      return;
    }
    const { id, method, params } = message;
    if (typeof method === "string") {
      if (params !== undefined && !isObject(params)) {
        if (isId(id)) this.#sendQuietly(errorResponse(id, ErrorCode.InvalidRequest, "Invalid Request: params must be an object"), undefined);
        else if (method === CANCELLED) return this.#onCancel(params);
        return undefined;
      }
      if (!("id" in message)) return this.#onNotification(method, params);
      if (!isId(id)) this.#sendQuietly(errorResponse(null, ErrorCode.InvalidRequest, "Invalid Request: bad id"), undefined);
      else return this.#onRequest(id, method, params);
      return undefined;
    }
    if (isId(id) && ("result" in message || "error" in message)) {
      const problem = responseProblem(message);
      if (problem !== null) {
        // Reported and rejected, never resolved as a made-up success.
        const error = this.#outgoing.handleInvalidResponse(id, problem);
        if (error !== undefined) this.#toOnError(error);
        return undefined;
      }
      const error = message["error"];
      if (isObject(error)) this.#outgoing.handleResponse(id, undefined, { code: error["code"] as number, message: error["message"] as string, data: error["data"] });
      else this.#outgoing.handleResponse(id, message["result"] as JsonObject, undefined);
      return undefined;
    }
    if (isId(id)) this.#sendQuietly(errorResponse(id, ErrorCode.InvalidRequest, "Invalid Request"), undefined);
    return undefined;
  }

  #onNotification(method: string, params: JsonObject | undefined): CancellationEvent | undefined {
    let event: CancellationEvent | undefined;
    if (method === CANCELLED) event = this.#onCancel(params);
    else {
      // Cancellation keeps its own rule (a malformed cancel is ignored, above); any other
      // notification that breaks its schema reaches no one and is reported.
      const checked = this.#tables.notificationChecks?.get(method);
      if (checked !== undefined) {
        const issue = params === undefined ? (checked.required ? PARAMS_MISSING : undefined) : checkValue(checked.check, params);
        if (issue !== undefined) {
          this.#toOnError(new InvalidNotificationError(method, issue));
          return undefined;
        }
      }
      if (method === "notifications/progress") this.#outgoing.handleProgress(params);
    }
    const handler = this.#notificationHandlers.get(method);
    if (handler === undefined) return event;
    try {
      Promise.resolve(handler(params)).catch(this.#toOnError);
    } catch (error) {
      this.#toOnError(error);
    }
    return event;
  }

  /**
   * notifications/cancelled from the peer. Where the revision lets the receiver of a request
   * end it (2026-07-28: the server ends subscriptions/listen), a cancel naming such a pending
   * request of ours ends it. Otherwise it must name a request the peer sent us, and the peer
   * must be allowed to cancel at all (2026-07-28: "only the client cancels requests").
   */
  #onCancel(params: unknown): CancellationEvent {
    // Parsed once, here; the in-flight table takes the parsed params.
    const parsed = parseCancelParams(params);
    let event: CancellationEvent;
    if (parsed === null) event = this.#incoming.cancel(null, params);
    else {
      // No send path yet: no request of ours for the peer to end.
      const ended = this.#outgoingMade?.endByPeer(parsed.requestId, parsed.reason);
      if (ended !== undefined) event = ended;
      else if (!this.#peerMayCancel) event = { type: "ignored", cause: "not-permitted", requestId: parsed.requestId, reason: parsed.reason };
      else event = this.#incoming.cancel(parsed, params);
    }
    this.#report(event);
    return event;
  }

  /** A request from the peer: refused or begun, unless its cancel came first (Transport.earlyCancels; incoming.ts earlyCancelEvent). */
  #onRequest(id: RequestId, method: string, params: JsonObject | undefined): CancellationEvent | undefined {
    if (this.#incoming.has(id)) {
      // A duplicate id of an in-flight request: refuse it, leave the original alone.
      this.#sendQuietly(errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: id ${String(id)} is already in flight`), id);
      return undefined;
    }
    const early = this.#incoming.takeEarlyCancel(id);
    const event = early === undefined ? undefined : earlyCancelEvent(id, method, early.reason, cancelRule(this.#policy.get(method), params, this.#peerMayCancel));
    if (event !== undefined) this.#report(event);
    if (event?.type !== "received") this.#begin(id, method, params);
    return event;
  }

  /** Checks a request and starts its handler, or answers why not. */
  #begin(id: RequestId, method: string, params: JsonObject | undefined): void {
    const max = this.#tables.maxRequestsInFlight;
    if (this.#incoming.size >= max && !UNBOUNDED_REQUESTS.has(method)) return this.#sendQuietly(errorResponse(id, ErrorCode.InternalError, `${max} requests are in flight on this connection (maxRequestsInFlight)`), id);
    const handler = this.#handlers.get(method);
    if (handler === undefined) {
      return this.#sendQuietly(errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`), id);
    }
    const policy = this.#policy.get(method);
    if (params === undefined && policy?.paramsRequired === true) {
      // The handler is typed to receive params; JSON-RPC 2.0 §5.1: -32602 Invalid params.
      return this.#sendQuietly(errorResponse(id, ErrorCode.InvalidParams, `Invalid params: ${method} requires params`), id);
    }
    // Params that break their schema never reach a handler (the generated validators).
    const checked = params === undefined ? undefined : this.#tables.requestChecks?.get(method);
    if (checked !== undefined) {
      const issue = checkValue(checked.check, params);
      if (issue !== undefined) {
        return this.#sendQuietly(errorResponse(id, ErrorCode.InvalidParams, invalidParamsMessage(method, issue), { pointer: issue.pointer, expected: issue.expected }), id);
      }
    }
    const entry = this.#incoming.begin(id, method, cancelRule(policy, params, this.#peerMayCancel));
    void this.#run(id, method, params, entry, handler);
  }

  /** Runs a request's handler and sends its result or error, unless the request ended meanwhile. */
  async #run(id: RequestId, method: string, params: JsonObject | undefined, entry: InFlight, handler: AnyRequestHandler): Promise<void> {
    // The handler starts on a later microtask; a cancel that arrives first means it never runs.
    await Promise.resolve();
    if (entry.aborted) return; // cancelled or closed: no response
    let response: OutgoingMessage;
    let becameTask = false;
    try {
      const hook = this.#options.inputRequired;
      const input = hook !== undefined && hook.has(method) ? hook : undefined;
      const ctx = this.#context(id, method, params, entry, input);
      if (input !== undefined) {
        // A retry's inputResponses and requestState are checked before its handler runs (mrtr-server.ts).
        const ready = input.before(ctx as HandlerContext & { readonly input: InputContextApi }, params);
        if (ready !== undefined) {
          await ready;
          if (entry.aborted) return; // cancelled meanwhile: the handler never runs, no response
        }
      }
      // A handler that answers at once is not awaited: its response goes out on this microtask.
      const answer = handler(params, ctx);
      const result = isThenable(answer) ? await answer : answer;
      hook?.after(method, result, ctx);
      response = { jsonrpc: "2.0", id, result: withResultMeta(this.#options.resultMeta, isObject(result) ? result : {}) };
      becameTask = this.#options.tasks !== undefined && isObject(result) && result["resultType"] === "task";
    } catch (error) {
      // Cancelled, ended or closed meanwhile: the entry left the in-flight table when it was
      // aborted (incoming.ts), so finish() below would refuse to answer; the error response is not
      // even built. A handler rejecting after its abort is the common end of a cancelled request.
      if (entry.aborted) return;
      response =
        error instanceof McpError
          ? errorResponse(id, error.code, error.message, error.data)
          : errorResponse(id, ErrorCode.InternalError, thrownMessage(error));
    }
    if (this.#incoming.finish(id, entry, becameTask)) this.#respond(id, response); // else cancelled or closed: no response
  }

  /** The ctx of a handler, made as it starts (not when the request arrives: less held per request). */
  #context(id: RequestId, method: string, params: JsonObject | undefined, entry: InFlight, input: InputRequiredHook | undefined): HandlerContext {
    const meta = isObject(params?.["_meta"]) ? params["_meta"] : undefined;
    const progressToken = meta?.["progressToken"];
    // Methods, not arrow properties: they use `endpoint`, never `this`, so they work as well when
    // a handler destructures ctx; and unlike named arrows they cost nothing extra to create where
    // the code runs through a transpiler that keeps function names (esbuild keepNames: tsx).
    const endpoint = this;
    return new RequestContext(entry, id, method, meta, this.#transport, {
      sendProgress(progress, total, message) {
        if ((typeof progressToken !== "string" && typeof progressToken !== "number") || entry.aborted || !endpoint.#incoming.has(id)) {
          return Promise.resolve();
        }
        const p: JsonObject = { progressToken, progress };
        if (total !== undefined) p["total"] = total;
        if (message !== undefined) p["message"] = message;
        return endpoint.notify("notifications/progress", p, id);
      },
      notify(m, p) {
        return endpoint.notify(m, p, id);
      },
      request(m, p, options) {
        // A request started by this handler is cancelled with it, unless it may not be cancelled.
        const inherit = options?.signal === undefined && cancelRule(endpoint.#policy.get(m), p as JsonObject | undefined, endpoint.#mayCancel) === "cancellable";
        return endpoint.request(m, p, inherit ? { ...options, signal: entry.signal } : options, id);
      },
      end(reason) {
        if (!endpoint.#rules.endableByReceiver.includes(method)) return Promise.reject(new CancellationForbiddenError(method, "not-permitted"));
        return endpoint.#endReceived(id, entry, reason);
      },
    }, input, params, this.#options.logging);
  }

  #closed(): void {
    if (this.#transport === undefined) return;
    this.#transport = undefined;
    const parent = this.#parent;
    if (parent !== undefined) parent.#connections?.delete(this);
    this.#incoming.abortAll("Connection closed");
    this.#outgoingMade?.closeAll();
    this.#batches?.drop();
  }

  /** Receives the batches of a revision that has them (EndpointOptions.batches, ERA.batches); refuses them elsewhere (-32600). */
  #batchIntake(): BatchIntake {
    const host = { allowed: this.#options.batches === true, report: this.#toOnError, pending: (id: RequestId) => this.#incoming.has(id) };
    return new BatchIntake({ ...host, route: (message) => void this.#route(message), send: (message) => this.#sendQuietly(message as OutgoingMessage, undefined) });
  }
}
