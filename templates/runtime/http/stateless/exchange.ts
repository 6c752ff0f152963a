// The transport of one POSTed request's connection (2026-07-28 basic/transports/streamable-http,
// abbreviated "HTTP"): every POST is its own connection of the server (request ids are unique per
// client only, and there is no session). The response is JSON when the handler answers before it
// sends anything else; the first related notification (progress, a log message, a subscription's
// acknowledgment) turns it into an SSE stream that carries the rest and ends with the response
// (HTTP, Sending Messages 6; Receiving Messages). The client closing the stream is the request's
// cancel (basic/patterns/cancellation): the endpoint hears `onrequeststreamclose`, and nothing more
// is written for it.

import type { Connection } from "../../core/endpoint.js";
import { isObject } from "../../core/json.js";
import { ErrorCode, type JsonRpcMessage, type Principal, type RequestId, type Transport, type TransportSendOptions } from "../../core/protocol.js";
import type { HttpCall } from "../server/call.js";
import { errorText, JSON_HEADERS } from "../server/replies.js";
import { retryHint } from "../server/drain.js";
import { sseEvent, SseStream, type SseLimits, type StreamGone } from "../server/sse-stream.js";
import type { Slot } from "../server/quota.js";
import type { HttpServable } from "./binding.js";

const RESOLVED: Promise<void> = Promise.resolve();
const CANCELLED = "notifications/cancelled";

/** What every exchange of one handler shares: the HTTP status of an error code, the stream bounds. */
export interface ExchangeSettings {
  readonly statusOf: (code: number) => number;
  readonly limits: SseLimits;
  /** The exchanges in flight (what the handler's close() waits for). */
  readonly live: Set<PostExchange>;
  /** Whether the handler drains: a stream it ends then carries a `retry` hint. */
  readonly draining: () => boolean;
  /** The listen method (a stream a drain ends at once); null: none. */
  readonly listen: string | null;
}

/** The `retry` (ms) of the hint a stream ended by a drain carries: the client reconnects soon, to another instance. */
const DRAIN_RETRY_MS = 500;

/**
 * The transport of one request's connection. The stream has backpressure: a related
 * notification's send resolves once the stream has room (sse-stream.ts), and a write that finds
 * `maxStreamBufferBytes` unread ends the stream as an overflow: the request's cancel, with that
 * reason.
 */
export class PostExchange implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onrequeststreamclose?: ((requestId: RequestId, reason?: string) => void) | undefined;
  readonly principal: Principal | undefined;
  /** The request (`ctx.http`): its headers and URL. */
  readonly http: HttpCall;

  readonly #id: RequestId;
  readonly #settings: ExchangeSettings;
  readonly #slot: Slot | undefined;
  #state: "pending" | "streaming" | "done" = "pending";
  #stream: SseStream | undefined;
  #connection: Connection | undefined;
  #method: string | undefined;

  constructor(call: HttpCall, principal: Principal | undefined, id: RequestId, settings: ExchangeSettings, slot: Slot | undefined) {
    this.http = call;
    this.principal = principal;
    this.#id = id;
    this.#settings = settings;
    this.#slot = slot;
  }

  /** Serves the request on a new connection of the server; its response follows on the call. */
  serve(server: HttpServable, message: JsonRpcMessage): void {
    const call = this.http;
    // A client already gone has nothing to cancel: the request is never handled.
    if (call.gone) {
      call.respond(499, {});
      return this.#finish();
    }
    call.onclose = () => this.#clientGone(undefined);
    this.#method = "method" in message ? message.method : undefined;
    this.#settings.live.add(this);
    this.#connection = server.openConnection(this);
    this.onmessage?.(message);
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
        const status = "error" in message ? this.#settings.statusOf(message.error.code) : 200;
        this.http.respond(status, JSON_HEADERS, text);
      } else {
        this.#stream?.write(sseEvent(text));
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
    const stream = (this.#stream ??= this.#openStream());
    stream.write(sseEvent(text));
    // The server ended the request (ctx.end of a subscriptions/listen): no response follows.
    if (message.method === CANCELLED && isObject(message.params) && message.params["requestId"] === this.#id) this.#finish();
    return stream.room();
  }

  /**
   * The connection closed (the server's close()): an unanswered request gets 503, a stream ends.
   * A listen a drain ends before its acknowledgment gets Retry-After too: opening it again
   * elsewhere repeats nothing.
   */
  close(): Promise<void> {
    if (this.#state === "pending") {
      const headers = this.listening && this.#settings.draining() ? { ...JSON_HEADERS, "retry-after": "1" } : JSON_HEADERS;
      this.http.respond(503, headers, errorText(this.#id, ErrorCode.InternalError, "the server closed the connection before answering"));
    }
    if (this.#state !== "done") this.#finish();
    return RESOLVED;
  }

  /** A listen stream (subscriptions/listen): a drain ends it at once rather than wait for it. */
  get listening(): boolean {
    return this.#method !== undefined && this.#method === this.#settings.listen;
  }

  /**
   * The handler drains: the stream ends here with a `retry` hint (the client opens it again, on
   * another instance) and the request ends as if its client had closed it (its handler aborts).
   * An unanswered request gets 503 (close()).
   */
  drop(): void {
    if (this.#state === "pending") return void this.close();
    if (this.#state !== "streaming") return;
    this.#finish();
    try {
      this.onrequeststreamclose?.(this.#id, "the server is shutting down");
    } catch {
      // The endpoint's own failure: the stream has ended anyway.
    }
  }

  #openStream(): SseStream {
    this.#state = "streaming";
    return new SseStream(this.http, undefined, this.#settings.limits, (gone) => this.#clientGone(gone));
  }

  /**
   * The client went away (the connection closed, the reader cancelled), or its stream overflowed:
   * the request's cancel, with why.
   */
  #clientGone(gone: StreamGone | undefined): void {
    if (this.#state === "done") return;
    const wasPending = this.#state === "pending";
    this.#finish();
    try {
      if (gone?.overflow === true) {
        this.onrequeststreamclose?.(this.#id, `response stream overflow: the client left ${gone.unread} bytes unread (maxStreamBufferBytes ${this.#settings.limits.maxBuffered})`);
      } else this.onrequeststreamclose?.(this.#id);
    } finally {
      // Nobody reads it; the web face still needs a response to settle its promise.
      if (wasPending && !this.http.answered) this.http.respond(499, {});
    }
  }

  /** The end of the exchange: the stream closes, the slot is free, and the connection closes (on a later microtask). */
  #finish(): void {
    if (this.#state === "done") return;
    this.#state = "done";
    this.#settings.live.delete(this);
    this.#slot?.release();
    if (this.#settings.draining()) this.#stream?.write(retryHint(DRAIN_RETRY_MS));
    this.#stream?.close();
    const connection = this.#connection;
    if (connection !== undefined) queueMicrotask(() => void connection.close().catch(() => undefined));
  }
}
