// The Streamable HTTP client transport of the session revisions (2025-03-26, 2025-06-18,
// 2025-11-25): every message is one POST; a request's response comes as JSON or on an SSE stream
// that may carry the server's requests and notifications first; the server names a session
// (`Mcp-Session-Id`) in its initialize response, and the client sends it, with the negotiated
// `MCP-Protocol-Version` (2025-06-18 and later), on every later request. A stream that breaks
// before its response is resumed with GET + `Last-Event-ID`.
// Spec: basic/transports.mdx of 2025-11-25, "Streamable HTTP" ("Sending Messages to the Server",
// "Listening for Messages from the Server", "Resumability and Redelivery", "Session Management",
// "Protocol Version Header").
//
// Cancellation differs from 2026-07-28: "Disconnection SHOULD NOT be interpreted as the client
// cancelling its request" (Sending Messages to the Server); the cancel is the runtime's
// notifications/cancelled. So this transport has no closeRequestStream; once that notification
// went out, the request's stream (its POST or a resumption) is dropped: a server may keep it open
// waiting for a response it never sends (the SDK 1.x server does), and nothing of a cancelled
// request may stay open on our side for long. It is kept only while a request the server sent on
// it is still open here, so that the server's cancel of that request arrives, for cancelGraceMs
// at most (nested-requests.ts).
//
// Everything the server sends is untrusted: bodies, SSE lines and events are bounded, a response
// only settles the request whose stream (or resumed stream) carried it, and a `retry:` value is
// capped.

import {
  describeValue,
  type JsonRpcMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from "../core/protocol.js";
import { DEFAULT_MAX_MESSAGE_DEPTH, maxJsonDepthOption, parseJsonWithin } from "../core/json-depth.js";
import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import {
  errorAnswer,
  handOver,
  HttpStatusError,
  maxBytesOf,
  mediaType,
  readBounded,
  report,
  RequestStreamBrokenError,
  TOO_LARGE,
  unreadable,
  type FetchLike,
} from "./fetch.js";
import { clientFetch } from "./auth.js";
import { NestedRequests } from "./nested-requests.js";
import { SessionExpiredError, StreamResumptionError } from "./session-client-errors.js";
import { DEFAULT_CANCEL_GRACE_MS, DEFAULT_RECONNECT, type SessionHttpClientTransportOptions } from "./session-client-options.js";
import { readSse, SseParser } from "./sse.js";

export { SessionExpiredError, StreamResumptionError } from "./session-client-errors.js";
export type { SessionHttpClientTransportOptions, SessionReconnectOptions } from "./session-client-options.js";

/** The cancellation notification (basic/utilities/cancellation of the session revisions). */
const CANCELLED = "notifications/cancelled";
/** Bound of the DELETE that ends the session on close(). */
const DELETE_TIMEOUT_MS = 5000;
const decoder = new TextDecoder();

/** A request sent and not yet answered: send()'s promise. */
interface Pending {
  readonly method: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** One logical SSE stream: a POST's response and its resumptions, or the GET stream. */
interface Stream {
  /** The request whose response this stream carries; undefined for the GET stream. */
  readonly owner: RequestId | undefined;
  readonly method: string;
  /** The last event id of the events received whole (`id:`, as of the event's end), for `Last-Event-ID`. */
  lastEventId: string | undefined;
  /** The server's last `retry:` in ms. */
  retryMs: number | undefined;
  /**
   * Set when a message arrived since the last (re)connect: only that resets the attempts (an
   * event id alone, as in a priming event, does not, so a server that only primes and hangs up
   * cannot keep the client reconnecting).
   */
  progressed: boolean;
}

/** Why an SSE read ended. */
type StreamEnd = "ended" | "answered" | "broken" | "hostile";

/**
 * A Transport over Streamable HTTP with sessions (2025-03-26 … 2025-11-25). `send` POSTs each
 * message; for a request its promise settles once the response was delivered to onmessage and
 * rejects when it cannot be (HttpStatusError, RequestStreamBrokenError, StreamResumptionError,
 * SessionExpiredError).
 */
export class SessionHttpClientTransport implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  /** The session the server assigned in its initialize response (Session Management 1). */
  sessionId?: string | undefined;
  /** The protocol version the initialize result named: the `MCP-Protocol-Version` of every later request. */
  protocolVersion: string | undefined;
  readonly #url: string | URL;
  readonly #fetch: FetchLike;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #max: number;
  readonly #maxDepth: number;
  readonly #reconnect: { readonly maxAttempts: number; readonly defaultRetryMs: number; readonly maxRetryMs: number };
  readonly #listen: boolean;
  readonly #cancelGraceMs: number;
  /** The server's requests that came on each call's stream and are still open here. */
  readonly #nested = new NestedRequests();
  readonly #pending = new Map<RequestId, Pending>();
  /** Every fetch and wait in progress: close() aborts them all. */
  readonly #controllers = new Set<AbortController>();
  /** Those of each request's stream (its POST, its resumptions and their waits): its cancel drops them. */
  readonly #streamsOf = new Map<RequestId, Set<AbortController>>();
  /** The id of the initialize request in flight: its result names the protocol version. */
  #initializeId: RequestId | undefined;
  #listening = false;
  #closed = false;

  constructor(options: SessionHttpClientTransportOptions) {
    const reconnect = {
      maxAttempts: numberOption("reconnect.maxAttempts", options.reconnect?.maxAttempts, DEFAULT_RECONNECT.maxAttempts, { min: 0 }),
      defaultRetryMs: numberOption("reconnect.defaultRetryMs", options.reconnect?.defaultRetryMs, DEFAULT_RECONNECT.defaultRetryMs, { min: 0 }),
      maxRetryMs: numberOption("reconnect.maxRetryMs", options.reconnect?.maxRetryMs, DEFAULT_RECONNECT.maxRetryMs, { min: 0 }),
    };
    this.#url = options.url;
    this.#fetch = clientFetch(options);
    this.#headers = { ...options.headers };
    this.#max = maxBytesOf(options.maxMessageBytes);
    this.#maxDepth = maxJsonDepthOption(options.maxJsonDepth, DEFAULT_MAX_MESSAGE_DEPTH);
    this.#reconnect = reconnect;
    this.#listen = options.listen ?? true;
    this.#cancelGraceMs = numberOption("cancelGraceMs", options.cancelGraceMs, DEFAULT_CANCEL_GRACE_MS, { min: 0, max: 600_000 });
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Aborts every open fetch and wait, then ends the session with DELETE ("Clients that no longer
   * need a particular session SHOULD send an HTTP DELETE … with the Mcp-Session-Id header",
   * Session Management 5; a 405 means the server does not allow it). The sends of pending
   * requests settle without an error: the endpoint rejects those requests with
   * ConnectionClosedError.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#controllers) controller.abort("transport closed");
    this.#controllers.clear();
    this.#nested.clear();
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.resolve();
    const sessionId = this.sessionId;
    if (sessionId !== undefined) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort("DELETE timed out"), DELETE_TIMEOUT_MS);
      try {
        const response = await this.#fetch(this.#url, { method: "DELETE", headers: this.#mcpHeaders({}), signal: controller.signal });
        await response.body?.cancel().catch(() => {});
        if (!response.ok && response.status !== 405 && response.status !== 404) this.#error(new HttpStatusError("DELETE (session end)", response.status));
      } catch (error) {
        this.#error(error);
      } finally {
        clearTimeout(timer);
      }
    }
    try {
      this.onclose?.();
    } catch (error) {
      this.#error(error);
    }
  }

  send(message: JsonRpcMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("transport closed"));
    let body: string;
    try {
      body = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(error);
    }
    if ("method" in message && "id" in message) return this.#request(message.id, message.method, body);
    // Our answer to a request of the server: it is over here.
    if (!("method" in message)) this.#nested.over(message.id as RequestId);
    const cancelled = "method" in message && message.method === CANCELLED && isObject(message.params) ? message.params["requestId"] : undefined;
    if (typeof cancelled === "string" || typeof cancelled === "number") {
      // Cancellation: the notification first (it is the cancel), then the request's stream is dropped.
      return this.#post(CANCELLED, body).finally(() => this.#drop(cancelled));
    }
    return this.#post("method" in message ? message.method : `response (id ${String(message.id)})`, body).then(() => {
      // Listening for Messages from the Server: the GET stream, once the session is ready.
      if ("method" in message && message.method === "notifications/initialized" && this.#listen && !this.#listening) {
        this.#listening = true;
        void this.#openGetStream();
      }
    });
  }

  /** The session and version headers (on everything after initialize) over the caller's. */
  #mcpHeaders(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...this.#headers, ...extra };
    if (this.sessionId !== undefined) headers["mcp-session-id"] = this.sessionId;
    // Protocol Version Header: "the client MUST include the MCP-Protocol-Version: <protocol-version>
    // HTTP header on all subsequent requests to the MCP server" (2025-06-18 and later).
    if (this.protocolVersion !== undefined) headers["mcp-protocol-version"] = this.protocolVersion;
    return headers;
  }

  #postHeaders(): Record<string, string> {
    return this.#mcpHeaders({ "content-type": "application/json", accept: "application/json, text/event-stream" });
  }

  /** A tracked AbortController: close() aborts it, and so does the cancel of request `owner`; `done` forgets it. */
  #controller(owner?: RequestId): { controller: AbortController; done: () => void } {
    const controller = new AbortController();
    this.#controllers.add(controller);
    if (owner === undefined) return { controller, done: () => this.#controllers.delete(controller) };
    const ofOwner = this.#streamsOf.get(owner) ?? new Set<AbortController>();
    this.#streamsOf.set(owner, ofOwner);
    ofOwner.add(controller);
    const done = (): void => {
      this.#controllers.delete(controller);
      ofOwner.delete(controller);
      if (ofOwner.size === 0 && this.#streamsOf.get(owner) === ofOwner) this.#streamsOf.delete(owner);
    };
    return { controller, done };
  }

  /**
   * The caller cancelled request `id` and its notifications/cancelled went out: its send settles
   * (the endpoint has already rejected the request) and its fetches and waits are aborted, which
   * closes the stream and its connection; while a request the server sent on that stream is still
   * open here, only once it is over or cancelGraceMs passed (nested-requests.ts). A response on
   * its way is not waited for.
   */
  #drop(id: RequestId): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    if (id === this.#initializeId) this.#initializeId = undefined;
    pending.resolve();
    if (!this.#nested.drain(id, this.#cancelGraceMs, () => this.#abortStreams(id))) this.#abortStreams(id);
  }

  /** Aborts the fetches and waits of request `id`'s stream. */
  #abortStreams(id: RequestId): void {
    const controllers = this.#streamsOf.get(id);
    this.#streamsOf.delete(id);
    for (const controller of controllers ?? []) controller.abort("request cancelled");
  }

  /** A notification or a response: 202 Accepted with no body (Sending Messages to the Server 4). */
  async #post(what: string, body: string): Promise<void> {
    const { controller, done } = this.#controller();
    try {
      const response = await this.#fetch(this.#url, { method: "POST", headers: this.#postHeaders(), body, signal: controller.signal });
      await response.body?.cancel().catch(() => {});
      this.#checkSession(response);
      if (!response.ok) throw new HttpStatusError(what, response.status);
    } finally {
      done();
    }
  }

  /** A 404 while holding a session id: the session is over (Session Management 4). */
  #checkSession(response: Response): void {
    if (response.status !== 404 || this.sessionId === undefined) return;
    const error = new SessionExpiredError(this.sessionId);
    this.#rejectAll(error);
    this.#error(error);
    throw error;
  }

  #rejectAll(error: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(error);
  }

  /** A request: its promise settles with its response (or the reason there is none). */
  #request(id: RequestId, method: string, body: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.get(id)?.reject(new Error(`request id ${String(id)} reused`));
      const entry: Pending = { method, resolve, reject };
      this.#pending.set(id, entry);
      if (method === "initialize") this.#initializeId = id;
      this.#postRequest(id, method, body).catch((error: unknown) => this.#settleError(id, error, entry));
    });
  }

  /** Rejects request `id` if it is still pending (and, given `entry`, is still that send). */
  #settleError(id: RequestId, error: unknown, entry?: Pending): void {
    const pending = this.#pending.get(id);
    if (pending === undefined || (entry !== undefined && pending !== entry)) return;
    this.#pending.delete(id);
    pending.reject(error instanceof Error ? error : new Error(String(error)));
  }

  async #postRequest(id: RequestId, method: string, body: string): Promise<void> {
    const { controller, done } = this.#controller(id);
    try {
      const response = await this.#fetch(this.#url, { method: "POST", headers: this.#postHeaders(), body, signal: controller.signal });
      this.#checkSession(response);
      // Session Management 1: the session id comes on the HTTP response with the InitializeResult.
      if (method === "initialize" && response.ok) {
        const assigned = response.headers.get("mcp-session-id");
        if (assigned !== null) this.sessionId = assigned;
      }
      const type = mediaType(response);
      if (!response.ok) {
        // A JSON-RPC error in the body answers the request (its id, or none, is this request's).
        const message = type === "application/json" && response.body !== null ? await this.#readJson(response.body, method, id).catch(() => undefined) : undefined;
        if (message === undefined) await response.body?.cancel().catch(() => {});
        const answer = errorAnswer(message, id);
        if (answer !== undefined) {
          this.#deliver({ owner: id, method, lastEventId: undefined, retryMs: undefined, progressed: false }, answer);
          return;
        }
        throw new HttpStatusError(method, response.status);
      }
      if (response.body === null || response.status === 202) {
        await response.body?.cancel().catch(() => {});
        throw new RequestStreamBrokenError(method, id, `HTTP ${response.status} without a response`);
      }
      if (type === "application/json") {
        const stream: Stream = { owner: id, method, lastEventId: undefined, retryMs: undefined, progressed: false };
        this.#deliver(stream, await this.#readJson(response.body, method, id));
        if (this.#pending.has(id)) throw new RequestStreamBrokenError(method, id, "the JSON body is not the response to this request");
        return;
      }
      if (type !== "text/event-stream") {
        await response.body.cancel().catch(() => {});
        throw new RequestStreamBrokenError(method, id, `unexpected content type ${describeValue(type)}`);
      }
      const stream: Stream = { owner: id, method, lastEventId: undefined, retryMs: undefined, progressed: false };
      const end = await this.#readEvents(stream, response.body, controller.signal);
      done();
      await this.#afterStream(stream, end);
    } finally {
      done();
      this.#nested.end(id);
    }
  }

  /**
   * A request's stream ended. Answered: done. Without an answer: resumed when the server gave
   * it an event id ("the client MAY … attempt to resume" with GET and Last-Event-ID,
   * Resumability and Redelivery), else the request is lost.
   */
  async #afterStream(stream: Stream, end: StreamEnd): Promise<void> {
    const id = stream.owner!;
    if (end === "answered" || !this.#pending.has(id) || this.#closed) return;
    if (end === "hostile") return; // already rejected: a stream that broke the bounds is not resumed
    if (stream.lastEventId === undefined) throw new RequestStreamBrokenError(stream.method, id, "the stream ended without a response and without an event id to resume from");
    const problem = await this.#resume(stream);
    if (problem !== undefined && this.#pending.has(id)) throw new StreamResumptionError(stream.method, id, this.#reconnect.maxAttempts, problem);
  }

  /**
   * Reconnects a stream with GET + `Last-Event-ID` after the server's `retry:` (else the default),
   * until its request is answered (or, for the GET stream, for as long as the server keeps it).
   * An attempt that brings a message resets the count. Returns why it gave up, or undefined.
   */
  async #resume(stream: Stream): Promise<string | undefined> {
    let attempts = 0;
    let problem = "the stream ended";
    while (!this.#closed && (stream.owner === undefined || this.#pending.has(stream.owner))) {
      if (attempts >= this.#reconnect.maxAttempts) return problem;
      attempts++;
      await this.#wait(Math.min(stream.retryMs ?? this.#reconnect.defaultRetryMs, this.#reconnect.maxRetryMs), stream.owner);
      if (this.#closed || (stream.owner !== undefined && !this.#pending.has(stream.owner))) return undefined;
      const { controller, done } = this.#controller(stream.owner);
      try {
        const headers = this.#mcpHeaders({ accept: "text/event-stream" });
        if (stream.lastEventId !== undefined) headers["last-event-id"] = stream.lastEventId;
        const response = await this.#fetch(this.#url, { method: "GET", headers, signal: controller.signal });
        this.#checkSession(response);
        if (!response.ok || mediaType(response) !== "text/event-stream" || response.body === null) {
          await response.body?.cancel().catch(() => {});
          problem = `the reconnect answered HTTP ${response.status} ${describeValue(mediaType(response))}`;
          continue;
        }
        stream.progressed = false;
        const end = await this.#readEvents(stream, response.body, controller.signal);
        if (end === "answered" || end === "hostile") return undefined;
        if (stream.progressed) attempts = 0;
        problem = "the resumed stream ended";
      } catch (error) {
        if (error instanceof SessionExpiredError || this.#closed) return undefined;
        problem = error instanceof Error ? error.message : describeValue(error);
      } finally {
        done();
      }
    }
    return undefined;
  }

  /** A wait that close() (or the cancel of request `owner`) cuts short. */
  #wait(ms: number, owner?: RequestId): Promise<void> {
    const { controller, done } = this.#controller(owner);
    return new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        done();
        resolve();
      };
      const timer = setTimeout(finish, ms);
      controller.signal.addEventListener("abort", finish, { once: true });
    });
  }

  /**
   * The GET stream (Listening for Messages from the Server): the server's requests and
   * notifications outside any request. 405: the server offers none. Resumed like a request's
   * stream when it breaks after an event id.
   */
  async #openGetStream(): Promise<void> {
    const stream: Stream = { owner: undefined, method: "GET stream", lastEventId: undefined, retryMs: undefined, progressed: false };
    const { controller, done } = this.#controller();
    try {
      const response = await this.#fetch(this.#url, { method: "GET", headers: this.#mcpHeaders({ accept: "text/event-stream" }), signal: controller.signal });
      if (response.status === 405) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      this.#checkSession(response);
      if (!response.ok || mediaType(response) !== "text/event-stream" || response.body === null) {
        await response.body?.cancel().catch(() => {});
        this.#error(new HttpStatusError("GET stream", response.status));
        return;
      }
      const end = await this.#readEvents(stream, response.body, controller.signal);
      done();
      if (end === "hostile" || this.#closed || stream.lastEventId === undefined) return;
      const problem = await this.#resume(stream);
      if (problem !== undefined) this.#error(new Error(`the GET stream could not be resumed: ${problem}`));
    } catch (error) {
      if (!this.#closed && !(error instanceof SessionExpiredError)) this.#error(error);
    } finally {
      done();
    }
  }

  /** A whole JSON body, at most maxMessageBytes, parsed. */
  async #readJson(body: ReadableStream<Uint8Array>, method: string, id: RequestId): Promise<unknown> {
    const bytes = await readBounded(body, this.#max);
    if (bytes === TOO_LARGE) throw new RequestStreamBrokenError(method, id, `the body exceeds ${this.#max} bytes`);
    try {
      return parseJsonWithin(decoder.decode(bytes), this.#maxDepth);
    } catch (error) {
      throw new RequestStreamBrokenError(method, id, `the server sent a body that ${unreadable(error)}`);
    }
  }

  /**
   * Reads an SSE stream with the runtime's one SSE parser (sse.ts): each event of type message
   * carries one message; an event with empty data, such as a priming event, is none. The stream's
   * last event id and `retry:` are kept for a resumption; the id is the one in force at the end
   * of the last event received whole (WHATWG: the last event ID is set when an event is
   * dispatched), and an empty `id:` clears it. A line or an event's data beyond maxMessageBytes
   * closes the stream and rejects its request ("hostile"). A request's stream is closed once its
   * response came.
   */
  async #readEvents(stream: Stream, body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<StreamEnd> {
    const reader = body.getReader();
    // An aborted fetch errors its body; a `fetch` wrapper's body may not, so the read is ended here too.
    const stop = (): void => void reader.cancel().catch(() => {});
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    const parser = new SseParser(this.#max, stream.lastEventId);
    const remember = (): void => {
      stream.lastEventId = parser.lastEventId === "" ? undefined : parser.lastEventId;
      if (parser.retryMs !== undefined) stream.retryMs = parser.retryMs;
    };
    try {
      const end = await readSse(reader, parser, (event) => {
        remember();
        if (event.type !== "message") return false;
        stream.progressed = true;
        let message: unknown;
        try {
          message = parseJsonWithin(event.data, this.#maxDepth);
        } catch (error) {
          this.#error(new Error(`${stream.method}: the server sent an SSE event that ${unreadable(error)}; dropped`));
          return false;
        }
        this.#deliver(stream, message);
        // "After the JSON-RPC response has been sent, the server SHOULD close the SSE stream":
        // nothing more is read from it (nor from a cancelled call's, unless it is kept).
        return stream.owner !== undefined && !this.#pending.has(stream.owner) && !this.#nested.draining(stream.owner);
      });
      remember();
      switch (end.kind) {
        case "stopped":
          return "answered";
        case "ended":
          return "ended";
        case "broken":
          return this.#closed ? "ended" : "broken";
        case "too-large":
          if (stream.owner === undefined) this.#error(new Error(`${stream.method}: ${end.problem}; closed`));
          else if (this.#pending.has(stream.owner)) this.#settleError(stream.owner, new RequestStreamBrokenError(stream.method, stream.owner, end.problem));
          return "hostile";
      }
    } finally {
      signal.removeEventListener("abort", stop);
    }
  }

  /**
   * Hands a message to the endpoint. Requests and notifications pass from any stream. A
   * response passes only on the stream of the request it answers (a POST's stream or its
   * resumption: "The server MUST NOT send a JSON-RPC response on the stream unless resuming a
   * stream associated with a previous client request", Listening for Messages from the Server),
   * and only once; the initialize result's protocolVersion is read on the way.
   */
  #deliver(stream: Stream, message: unknown): void {
    if (this.#closed) return;
    if (!isObject(message) || message["jsonrpc"] !== "2.0") {
      this.#error(new Error(`${stream.method}: the server sent a message that is not JSON-RPC 2.0; dropped`));
      return;
    }
    const isResponse = typeof message["method"] !== "string";
    if (isResponse) {
      const id = message["id"] as RequestId;
      const pending = stream.owner === id ? this.#pending.get(id) : undefined;
      if (pending === undefined && stream.owner === id && this.#nested.draining(id)) {
        // The response to a call we cancelled, on its kept stream: the endpoint takes it as late
        // (and cancels the task it may have become); nothing more is read.
        this.#nested.end(id);
        handOver(this.onmessage, message, this.onerror);
        return;
      }
      if (pending === undefined) {
        this.#error(new Error(`${stream.method}: the server sent a response for id ${describeValue(message["id"])} that this stream does not carry; dropped`));
        return;
      }
      this.#pending.delete(id);
      if (id === this.#initializeId) {
        this.#initializeId = undefined;
        const result = message["result"];
        if (isObject(result) && typeof result["protocolVersion"] === "string") this.protocolVersion = result["protocolVersion"];
      }
      handOver(this.onmessage, message, this.onerror);
      pending.resolve();
      return;
    }
    // A request of the server on a call's stream is nested in that call; its cancel ends it here.
    const id = message["id"];
    if (stream.owner !== undefined && (typeof id === "string" || typeof id === "number")) this.#nested.arrived(stream.owner, id);
    handOver(this.onmessage, message, this.onerror);
    if (message["method"] === CANCELLED && isObject(message["params"])) this.#nested.over(message["params"]["requestId"] as RequestId);
  }

  #error(error: unknown): void {
    report(this.onerror, error);
  }
}

/** A client transport for the Streamable HTTP endpoint at `options.url`, with sessions (2025-03-26 … 2025-11-25). */
export function createSessionHttpClientTransport(options: SessionHttpClientTransportOptions): SessionHttpClientTransport {
  return new SessionHttpClientTransport(options);
}
