// One session of the session server (or, stateless, one POST): the transport of one connection of
// the server. It routes what the server sends: a response and the messages related to its request
// onto that request's stream (HTTP, Sending Messages to the Server 6), everything else onto the
// GET stream (Listening for Messages from the Server), never one message on two streams (Multiple
// Connections). Every event on a stream gets an id from the event store, so a client resumes a
// broken stream with GET and Last-Event-ID (Resumability and Redelivery; resume.ts).
//
// Spec pages: basic/transports.mdx of 2025-03-26, 2025-06-18 and 2025-11-25, "Streamable HTTP"
// (abbreviated "HTTP"), and basic/utilities/cancellation.mdx.

import type { Connection } from "../../core/endpoint.js";
import { ErrorCode, type EarlyCancelBounds, type HttpRequestContext, type JsonObject, type JsonRpcMessage, type Principal, type RequestId, type Transport, type TransportSendOptions } from "../../core/protocol.js";
import { report as guarded } from "../fetch.js";
import type { HeaderView, HttpCall } from "../server/call.js";
import { errorText, JSON_HEADERS } from "../server/replies.js";
import type { SessionTable } from "../server/session-table.js";
import { retryHint } from "../server/drain.js";
import { sseEventWithId, SseStream, type SseLimits } from "../server/sse-stream.js";
import type { EventStoreBudget } from "./event-budget.js";
import { InMemoryEventStore, type EventStore } from "./event-store.js";
import type { SessionServable, SessionVersionRules, VersionTable } from "./versions.js";

export const SESSION_HEADER: string = "mcp-session-id";
const RESOLVED: Promise<void> = Promise.resolve();

/** What every session of one handler shares: the options as read, and the table of sessions. */
export interface SessionShared {
  readonly server: SessionServable;
  readonly versions: VersionTable;
  readonly table: SessionTable<Session>;
  readonly store: EventStore | null | undefined;
  readonly maxStoredEvents: number;
  /** The bound of the default stores' events over all sessions (maxEventStoreBytes). */
  readonly eventBudget: EventStoreBudget;
  readonly retryMs: number;
  readonly limits: SseLimits;
  readonly sseAlways: boolean;
  readonly onError: ((error: Error) => void) | undefined;
  /** The cancels a session remembers for requests not yet arrived (maxEarlyCancels, earlyCancelWindowMs). */
  readonly earlyCancels: EarlyCancelBounds;
  /** Runs after a successful initialize, before its response is written (the session registry records it). */
  opened?: ((session: Session) => Promise<void>) | undefined;
  /** Sessions are recorded in a SessionRegistry: they outlive this instance's close (another instance continues them). */
  readonly outlives: boolean;
}

/** An id a store gave that can go into an `id:` line (no line break, no NUL, not empty). */
export const VALID_EVENT_ID: RegExp = /^[^\r\n\0]+$/;

/**
 * The answer to one POSTed request: pending (no byte sent: JSON is still possible), an SSE
 * stream, detached (the stream broke or the server closed it; its events are only stored, for a
 * resumption), or done (answered, cancelled, or the session ended).
 */
export class RequestStream {
  state: "pending" | "sse" | "detached" | "done" = "pending";
  sse: SseStream | undefined;
  /** The writes of this stream, in order (an event store may be asynchronous). */
  chain: Promise<void> = RESOLVED;
  readonly requestId: RequestId;
  readonly streamId: string;
  /** The POST the answer goes to (undefined: a member of a batch, which `collect` answers). */
  readonly call: HttpCall | undefined;
  readonly isInitialize: boolean;
  /** A member of a batch (2025-03-26): its response's text goes to the batch's array (undefined: none will come). */
  readonly collect: ((text: string | undefined) => void) | undefined;

  constructor(requestId: RequestId, streamId: string, call: HttpCall | undefined, isInitialize: boolean, collect: ((text: string | undefined) => void) | undefined) {
    this.requestId = requestId;
    this.streamId = streamId;
    this.call = call;
    this.isInitialize = isInitialize;
    this.collect = collect;
  }
}

/** A copy of a request's headers (a session outlives the request that opened it), with the session id. */
class HeaderSnapshot implements HeaderView {
  readonly #values = new Map<string, string>();
  constructor(headers: HeaderView, extra: Readonly<Record<string, string>>) {
    headers.forEach((value, name) => this.#values.set(name.toLowerCase(), value));
    for (const [name, value] of Object.entries(extra)) this.#values.set(name, value);
  }
  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }
  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of [...this.#values].sort(([a], [b]) => (a < b ? -1 : 1))) callback(value, name);
  }
}

/** What handlers see of the request that opened a session (`ctx.http`): its headers with the session id, and its URL. */
export function sessionHttpContext(call: HttpCall, sessionId: string | undefined): HttpRequestContext {
  if (sessionId === undefined) return call;
  return { headers: new HeaderSnapshot(call.headers, { [SESSION_HEADER]: sessionId }), url: call.url };
}

export class Session implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly sessionId: string;
  /** Whether the session lives beyond its POST (false: the stateless mode, one POST). */
  readonly kept: boolean;
  readonly principal: Principal | undefined;
  readonly http: HttpRequestContext;
  /** The protocol version negotiated (the initialize result's), and its rules. */
  version: string | undefined;
  rules: SessionVersionRules;
  readonly connection: Connection;
  /** Put before each request stream's number: a session continued here from a registry numbers its streams apart from the instance that opened it. */
  streamTag: string = "";
  /** The client's capabilities (its initialize), for the session registry. */
  clientCapabilities: JsonObject = {};
  /**
   * Two POSTs of a session travel on two connections, so a client's cancel may arrive before the
   * request it names: the connection remembers it (core/early-cancels.ts). Stateless: none, a
   * cancel only reaches a request of its own POST.
   */
  readonly earlyCancels: EarlyCancelBounds | undefined;

  readonly requests: Map<RequestId, RequestStream> = new Map();
  /** The request streams by stream id (a resumption names one by an event of it). */
  readonly byStream: Map<string, RequestStream> = new Map();
  readonly shared: SessionShared;
  /** Where this session's events are kept (null: nowhere, no resumption). */
  readonly store: EventStore | null;
  /** The header every response of the session carries. */
  readonly headers: Readonly<Record<string, string>>;
  readonly getStreamId: string;
  getSse: SseStream | undefined;
  getChain: Promise<void> = RESOLVED;
  #streams = 0;
  #ended = false;

  constructor(shared: SessionShared, id: string | undefined, principal: Principal | undefined, call: HttpCall) {
    this.shared = shared;
    this.kept = id !== undefined;
    this.sessionId = id ?? "";
    this.principal = principal;
    this.http = sessionHttpContext(call, id);
    this.rules = shared.versions.oldest;
    this.headers = id === undefined ? {} : { [SESSION_HEADER]: id };
    // Stateless: nothing to resume from (there is no GET to resume with).
    this.store = id === undefined ? null : shared.store === undefined ? new InMemoryEventStore({ maxEvents: shared.maxStoredEvents, budget: shared.eventBudget }) : shared.store;
    this.getStreamId = `${this.sessionId}/0`;
    this.earlyCancels = id === undefined ? undefined : shared.earlyCancels;
    this.connection = shared.server.openConnection(this);
  }

  get ended(): boolean {
    return this.#ended;
  }

  /**
   * In use: a request in flight or the GET stream open (the table's idle expiry waits), unless
   * the server waits on its client (a request of its own unanswered): a session is idle when
   * nothing arrives from its client, so one whose client never answers an elicitation or a
   * sampling request ends at sessionIdleMs, its handlers aborted, instead of staying pinned.
   */
  busy(): boolean {
    return (this.requests.size > 0 || this.getSse?.open === true) && this.connection.inFlight.sent === 0;
  }

  start(): Promise<void> {
    return RESOLVED;
  }

  // -- what the client sent

  /**
   * Hands a notification or a response to the connection. A notifications/cancelled the endpoint
   * took (it names a cancellable request in flight: its handler aborted, and no response will
   * come) ends that request's stream: HTTP closes it after the response, and none will come.
   */
  deliver(message: JsonRpcMessage): void {
    this.touch();
    const event = this.connection.receive(message);
    if (event?.type === "received") this.#cancelled(event.requestId);
  }

  /**
   * A request: its stream, then the message. The caller checked its id is not in flight here. A
   * request whose cancel came first is cancelled as it arrives ("received"): its stream ends as
   * for any cancel.
   */
  begin(id: RequestId, message: JsonRpcMessage, call: HttpCall | undefined, isInitialize: boolean, collect?: (text: string | undefined) => void): void {
    const stream = new RequestStream(id, `${this.sessionId}/${this.streamTag}${++this.#streams}`, call, isInitialize, collect);
    this.requests.set(id, stream);
    this.byStream.set(stream.streamId, stream);
    this.touch();
    if (isInitialize) this.#expect(message);
    if (this.shared.sseAlways && collect === undefined) this.queue(stream, () => this.openSse(stream));
    if (this.connection.receive(message)?.type === "received") this.#cancelled(id);
  }

  #cancelled(id: RequestId): void {
    const stream = this.requests.get(id);
    if (stream === undefined) return;
    this.queue(stream, () => {
      if (stream.state === "done") return; // the session ended meanwhile
      if (stream.collect !== undefined) stream.collect(undefined);
      else if (stream.state === "pending" && stream.call !== undefined) {
        // No response will come: the answer is an SSE stream that ends empty.
        new SseStream(stream.call, this.headers, this.shared.limits, () => undefined).close();
      }
      this.finish(stream);
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
      this.queue(stream, () => this.#write(stream, text, true));
      return RESOLVED;
    }
    // A request to the client: it has sessionIdleMs from now to answer (busy() then waits on it).
    if ("id" in message) this.touch();
    const related = options?.relatedRequestId;
    const stream = related === undefined ? undefined : this.requests.get(related);
    if (stream !== undefined && stream.state !== "done") this.queue(stream, () => this.#write(stream, text, false));
    else this.writeGet(text);
    return RESOLVED;
  }

  /**
   * The endpoint closed the connection, or the session ends: every stream closes. A request still
   * unanswered gets 404 when the session is over; when only this instance closes and the session
   * lives on in a registry (another instance continues it), 503 with Retry-After instead, and a
   * stream still open ends with a `retry` hint: a 404 would tell the client to start over
   * (Session Management).
   */
  close(): Promise<void> {
    if (this.#ended) return RESOLVED;
    this.#ended = true;
    if (this.kept) this.shared.table.remove(this);
    const handedOff = this.kept && this.shared.outlives && this.shared.table.closed;
    for (const stream of this.requests.values()) {
      if (stream.collect !== undefined) stream.collect(undefined);
      else if (stream.state === "pending" && stream.call !== undefined && !stream.call.answered) {
        if (handedOff) {
          const headers = { ...JSON_HEADERS, ...this.headers, "retry-after": "1" };
          stream.call.respond(503, headers, errorText(stream.requestId, ErrorCode.InternalError, "Service Unavailable: this instance closed before the request was answered; the session goes on"));
        } else {
          stream.call.respond(404, { ...JSON_HEADERS, ...this.headers }, errorText(stream.requestId, ErrorCode.InvalidRequest, "Session not found: the session ended before the request was answered"));
        }
      }
      if (handedOff) stream.sse?.write(retryHint(this.shared.retryMs));
      stream.sse?.close();
      stream.state = "done";
    }
    this.requests.clear();
    this.byStream.clear();
    if (handedOff) this.getSse?.write(retryHint(this.shared.retryMs));
    this.getSse?.close();
    this.getSse = undefined;
    // The session's own store: its events go with it (a resumption of an ended session is 404).
    if (this.shared.store === undefined && this.store instanceof InMemoryEventStore) this.store.clear();
    return RESOLVED;
  }

  /** Ends the session (DELETE, idle expiry, the handler's close): its handlers abort. */
  async end(): Promise<void> {
    await this.connection.close().catch((error: unknown) => guarded(this.shared.onError, error));
    await this.close();
  }

  /**
   * The server drains: the GET stream ends with a `retry` hint (the client reconnects, to another
   * instance, and resumes with Last-Event-ID from the shared event store); the session goes on.
   */
  endGetStream(): void {
    const out = this.getSse;
    if (out === undefined) return;
    this.getChain = this.getChain
      .then(() => {
        out.write(retryHint(this.shared.retryMs));
        out.close();
        if (this.getSse === out) this.getSse = undefined;
      })
      .catch((error: unknown) => guarded(this.shared.onError, error));
  }

  /** Sends a notification outside any request (the handler's notify). */
  notify(method: string, params: JsonObject | undefined): void {
    if (this.#ended) return;
    this.writeGet(JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }));
  }

  /** Closes a request's stream without ending the request, so the client resumes it (closeStream). */
  closeStream(id: RequestId): boolean {
    const stream = this.requests.get(id);
    if (stream === undefined || stream.collect !== undefined || stream.state === "done" || stream.state === "detached" || this.store === null || !this.rules.priming) return false;
    this.queue(stream, async () => {
      if (stream.state === "pending") await this.openSse(stream);
      if (stream.state !== "sse") return;
      stream.sse?.close();
      stream.sse = undefined;
      stream.state = "detached";
    });
    return true;
  }

  // -- writing

  /** An SSE stream on `call` with the session's header; `onGone` when its client goes away or overflows it. */
  sse(call: HttpCall, onGone: () => void): SseStream {
    return new SseStream(call, this.headers, this.shared.limits, onGone);
  }

  /** Runs `step` after the stream's earlier writes; a failure goes to onError, later steps still run. */
  queue(stream: RequestStream, step: () => void | Promise<void>): void {
    stream.chain = stream.chain.then(step).catch((error: unknown) => guarded(this.shared.onError, error));
  }

  /** One message on a request's stream: JSON when it is the response and nothing came before, else an SSE event. */
  async #write(stream: RequestStream, text: string, final: boolean): Promise<void> {
    if (stream.state === "done") return;
    if (stream.collect !== undefined) {
      if (!final) return this.writeGet(text);
      stream.collect(text);
      return this.finish(stream);
    }
    if (stream.state === "pending") {
      if (final) {
        stream.call?.respond(200, { ...JSON_HEADERS, ...this.headers }, text);
        this.finish(stream);
        return;
      }
      await this.openSse(stream);
    }
    const id = await this.storeEvent(stream.streamId, text);
    if (stream.state === "sse") stream.sse?.write(sseEventWithId(id, text, this.shared.retryMs));
    if (final) this.finish(stream);
  }

  /** The answer becomes an SSE stream, opened with a priming event where the revision has them. */
  async openSse(stream: RequestStream): Promise<void> {
    if (stream.state !== "pending" || stream.call === undefined) return;
    const out = this.sse(stream.call, () => this.#detach(stream, out));
    stream.sse = out;
    stream.state = "sse";
    if (this.rules.priming) {
      const id = await this.storeEvent(stream.streamId, "");
      if (id !== undefined) out.write(sseEventWithId(id, "", this.shared.retryMs));
    }
  }

  /**
   * The client went away from a request's stream, or its buffer overflowed: "disconnection
   * SHOULD NOT be interpreted as the client cancelling its request" (Sending Messages to the
   * Server). The request runs on; its events are stored for a resumption.
   */
  #detach(stream: RequestStream, out: SseStream): void {
    if (stream.sse !== out || stream.state !== "sse") return;
    stream.sse = undefined;
    stream.state = "detached";
  }

  finish(stream: RequestStream): void {
    stream.state = "done";
    stream.sse?.close();
    stream.sse = undefined;
    if (this.requests.get(stream.requestId) === stream) this.requests.delete(stream.requestId);
    this.byStream.delete(stream.streamId);
    this.touch();
    // Stateless: the POST's connection ends with its answer.
    if (!this.kept && this.requests.size === 0) void this.end();
  }

  writeGet(text: string): void {
    if (!this.kept) return; // stateless: there is no GET stream
    this.getChain = this.getChain
      .then(async () => {
        const id = await this.storeEvent(this.getStreamId, text);
        this.getSse?.write(sseEventWithId(id, text, this.shared.retryMs));
      })
      .catch((error: unknown) => guarded(this.shared.onError, error));
  }

  /** An event's id from the store, or undefined (no store, or one that failed or gave an unusable id). */
  async storeEvent(streamId: string, data: string): Promise<string | undefined> {
    const store = this.store;
    if (store === null) return undefined;
    try {
      const id: unknown = await store.storeEvent(streamId, data);
      if (typeof id === "string" && VALID_EVENT_ID.test(id)) return id;
      guarded(this.shared.onError, new TypeError(`eventStore.storeEvent must return a non-empty string without line breaks, got ${typeof id === "string" ? JSON.stringify(id) : typeof id}`));
    } catch (error) {
      guarded(this.shared.onError, error);
    }
    return undefined;
  }

  /** The session was used: its idle expiry starts again (the table's). */
  touch(): void {
    if (this.kept && !this.#ended) this.shared.table.touch(this);
  }

  // -- the lifecycle

  /** initialize's own params name the version the client asks for: its rules until the result says. */
  #expect(message: JsonRpcMessage): void {
    const params = "params" in message ? message.params : undefined;
    const asked = params?.["protocolVersion"];
    const rules = typeof asked === "string" ? this.shared.versions.get(asked) : undefined;
    if (rules !== undefined) this.rules = rules;
  }

  /** The initialize response: the negotiated version sets the session's rules; an error ends the session. */
  #initialized(message: JsonRpcMessage, stream: RequestStream): void {
    const result = "result" in message ? message.result : undefined;
    const version = result?.["protocolVersion"];
    if (typeof version === "string") {
      this.version = version;
      this.rules = this.shared.versions.of(version);
      const opened = this.shared.opened;
      if (opened !== undefined && this.kept) this.queue(stream, () => opened(this));
      return;
    }
    // Session Management: the id is assigned "at initialization time"; a failed initialize opens none.
    // After the error response's write, which send() queues right after this returns.
    if (this.kept) queueMicrotask(() => void stream.chain.then(() => this.end()));
  }
}
