// One HTTP+SSE session (2024-11-05 basic/transports, "HTTP with SSE"): the transport of one
// connection of the server. Its stream is the GET that opened it; `send` writes each server
// message there as an SSE `message` event. The stream's unread bytes are bounded (sse-stream.ts):
// a client that stops reading ends its session instead of growing the server.

import type { Connection } from "../../core/endpoint.js";
import type { EarlyCancelBounds, JsonRpcMessage, Principal, RequestId, Transport } from "../../core/protocol.js";
import type { HttpCall } from "../server/call.js";
import type { SessionTable } from "../server/session-table.js";
import { sseEvent, SseStream, type SseLimits } from "../server/sse-stream.js";

const RESOLVED: Promise<void> = Promise.resolve();

export class LegacySession implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly sessionId: string;
  readonly principal: Principal | undefined;
  /** The GET that opened the session (`ctx.http`). */
  readonly http: HttpCall;
  /** Request ids received and not yet answered or cancelled (maxInFlightPerSession). */
  readonly inFlight: Set<RequestId> = new Set();
  connection: Connection | undefined;
  /**
   * Each POST to /messages is its own HTTP request, so a client's cancel may arrive before the
   * request it names: the connection remembers it (core/early-cancels.ts).
   */
  readonly earlyCancels: EarlyCancelBounds;
  readonly #stream: SseStream;
  readonly #table: SessionTable<LegacySession>;
  #ended = false;

  constructor(id: string, call: HttpCall, principal: Principal | undefined, endpoint: string, limits: SseLimits, table: SessionTable<LegacySession>, earlyCancels: EarlyCancelBounds) {
    this.sessionId = id;
    this.earlyCancels = earlyCancels;
    this.principal = principal;
    this.http = call;
    this.#table = table;
    // The client closing the stream (or not reading it) is the end of its session.
    this.#stream = new SseStream(call, undefined, limits, () => this.end());
    // The endpoint event: the URI (relative to the SSE URL) of this session's POSTs ("When a
    // client connects, the server MUST send an endpoint event").
    this.#stream.write(`event: endpoint\n${sseEvent(endpoint)}`);
  }

  get ended(): boolean {
    return this.#ended;
  }

  /**
   * A request in flight keeps the session from idling out, unless the server waits on its client
   * (a request of its own unanswered): a client that never answers ends at sessionIdleMs instead
   * of pinning its session (session-table.ts).
   */
  busy(): boolean {
    return this.inFlight.size > 0 && (this.connection?.inFlight.sent ?? 0) === 0;
  }

  start(): Promise<void> {
    return RESOLVED;
  }

  /**
   * A message the client POSTed; a cancel the endpoint took, or a request cancelled as it arrived
   * because its cancel came first, ends its request's count here (no response will come).
   */
  deliver(message: JsonRpcMessage): void {
    const event = this.connection?.receive(message);
    if (event?.type === "received") this.inFlight.delete(event.requestId);
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#ended) return RESOLVED;
    // A response (or the server's own notifications/cancelled for it) ends a request in flight.
    if (!("method" in message)) this.inFlight.delete(message.id as RequestId);
    // A request to the client: it has sessionIdleMs from now to answer (busy() then waits on it).
    else if ("id" in message) this.#table.touch(this);
    const text = JSON.stringify(message); // throws for what JSON cannot carry: the endpoint answers -32603 instead
    this.#stream.write(sseEvent(text));
    return RESOLVED;
  }

  /** The server closed the connection: the session ends with it. */
  close(): Promise<void> {
    this.end();
    return RESOLVED;
  }

  /** Ends the session once: the stream closes, the session leaves the table, the connection closes (handlers abort). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.inFlight.clear();
    this.#stream.close();
    this.#table.remove(this);
    const connection = this.connection;
    if (connection !== undefined) queueMicrotask(() => void connection.close().catch(() => undefined));
  }
}
