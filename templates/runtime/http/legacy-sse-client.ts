// The HTTP+SSE transport of 2024-11-05 (basic/transports, "HTTP with SSE"), client side: `start()`
// opens the server's SSE stream with GET and waits for its `endpoint` event, the URI every client
// message is then POSTed to; the server's messages arrive on the stream as `message` events.
// Closing the stream ends the session (the revision has no DELETE).
//
// Everything the server sends is untrusted: the stream is read with the runtime's one SSE parser
// (sse.ts) under maxMessageBytes, the wait for `endpoint` is bounded, and the endpoint must be on
// the origin of the SSE URL (a server, or whoever injected the event, cannot send the client's
// messages, and the headers that go with them, elsewhere).

import { DEFAULT_MAX_MESSAGE_DEPTH, maxJsonDepthOption, parseJsonWithin } from "../core/json-depth.js";
import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import { describeValue, type JsonRpcMessage, type Transport, type TransportSendOptions } from "../core/protocol.js";
import { handOver, HttpStatusError, maxBytesOf, mediaType, report, unreadable, type FetchLike, type HttpClientBaseOptions } from "./fetch.js";
import { clientFetch, type HttpClientAuthOptions } from "./auth.js";
import { readSse, SseParser } from "./sse.js";

/** `url` is the SSE endpoint (GET); `fetch`, `headers` and `maxMessageBytes` as for every HTTP client transport. */
export interface LegacySseClientTransportOptions extends HttpClientBaseOptions, HttpClientAuthOptions {
  /** How long start() waits for the `endpoint` event after the stream opened, in ms (default 10 000). */
  readonly endpointTimeoutMs?: number | undefined;
}

/** The SSE stream could not be opened, or gave no usable `endpoint` event. */
export class LegacySseConnectError extends Error {
  override name = "LegacySseConnectError";
  /** The HTTP status of the GET, when the server answered with a non-stream. */
  readonly status: number | undefined;
  constructor(problem: string, status?: number, options?: { readonly cause?: unknown }) {
    super(`HTTP+SSE: ${problem}`, options);
    this.status = status;
  }
}

const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

/**
 * A Transport over HTTP+SSE (2024-11-05). `send` POSTs one message to the endpoint and settles
 * when the server accepted it (2xx); responses come through onmessage from the stream.
 */
export class LegacySseClientTransport implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  /** The URI the `endpoint` event named, resolved against the SSE URL; undefined until start() resolved. */
  endpoint: URL | undefined;
  readonly #url: URL;
  readonly #fetch: FetchLike;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #max: number;
  readonly #maxDepth: number;
  readonly #endpointTimeoutMs: number;
  /** Every fetch in progress (the GET stream and the POSTs): close() aborts them all. */
  readonly #controllers = new Set<AbortController>();
  #started = false;
  #closed = false;

  constructor(options: LegacySseClientTransportOptions) {
    this.#url = new URL(options.url);
    this.#fetch = clientFetch(options);
    this.#headers = { ...options.headers };
    this.#max = maxBytesOf(options.maxMessageBytes);
    this.#maxDepth = maxJsonDepthOption(options.maxJsonDepth, DEFAULT_MAX_MESSAGE_DEPTH);
    this.#endpointTimeoutMs = numberOption("endpointTimeoutMs", options.endpointTimeoutMs, DEFAULT_ENDPOINT_TIMEOUT_MS, { min: 1 });
  }

  /**
   * Opens the stream and resolves once the `endpoint` event came (rejects with
   * LegacySseConnectError when the GET is refused, the stream ends or breaks first, the endpoint
   * is on another origin, or endpointTimeoutMs passes; the stream is then closed).
   */
  async start(): Promise<void> {
    if (this.#started) throw new Error("LegacySseClientTransport already started");
    this.#started = true;
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timer = setTimeout(() => controller.abort("no endpoint event in time"), this.#endpointTimeoutMs);
    let response: Response;
    try {
      response = await this.#fetch(this.#url, { method: "GET", headers: { ...this.#headers, accept: "text/event-stream" }, signal: controller.signal });
    } catch (error) {
      clearTimeout(timer);
      this.#controllers.delete(controller);
      // An authorization refusal (auth.ts: UnauthorizedError, InsufficientScopeError) keeps its status and is the cause.
      const status = error instanceof HttpStatusError ? error.status : undefined;
      throw new LegacySseConnectError(
        controller.signal.aborted ? `no endpoint event within ${this.#endpointTimeoutMs} ms` : `the GET failed: ${error instanceof Error ? error.message : describeValue(error)}`,
        status,
        { cause: error },
      );
    }
    if (!response.ok || mediaType(response) !== "text/event-stream" || response.body === null) {
      clearTimeout(timer);
      this.#controllers.delete(controller);
      await response.body?.cancel().catch(() => {});
      throw new LegacySseConnectError(`the GET answered HTTP ${response.status} ${describeValue(mediaType(response))}, not an event stream`, response.status);
    }
    const reader = response.body.getReader();
    const stop = (): void => void reader.cancel().catch(() => {});
    controller.signal.addEventListener("abort", stop, { once: true });
    let settle!: { resolve: () => void; reject: (error: Error) => void };
    const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    const parser = new SseParser(this.#max);
    const read = readSse(reader, parser, (event) => {
      if (event.type === "endpoint") {
        if (this.endpoint !== undefined) {
          this.#error(new Error("HTTP+SSE: a second endpoint event; ignored"));
          return false;
        }
        let target: URL;
        try {
          target = new URL(event.data.trim(), this.#url);
        } catch {
          settle.reject(new LegacySseConnectError(`the endpoint event ${describeValue(event.data)} is not a URI`));
          return true;
        }
        if (target.origin !== this.#url.origin) {
          settle.reject(new LegacySseConnectError(`the endpoint ${describeValue(target.href)} is not on the origin of ${describeValue(this.#url.origin)}; refused`));
          return true;
        }
        this.endpoint = target;
        clearTimeout(timer);
        settle.resolve();
        return false;
      }
      if (event.type !== "message") return false;
      if (this.endpoint === undefined) {
        this.#error(new Error("HTTP+SSE: a message before the endpoint event; dropped"));
        return false;
      }
      this.#deliver(event.data);
      return false;
    });
    void read.then(
      (end) => {
        const problem = end.kind === "too-large" ? end.problem : end.kind === "broken" ? "the stream broke" : "the stream ended";
        if (end.kind === "too-large") this.#error(new Error(`HTTP+SSE: ${end.problem}; closed`));
        settle.reject(new LegacySseConnectError(controller.signal.aborted && this.endpoint === undefined ? `no endpoint event within ${this.#endpointTimeoutMs} ms` : `${problem} before the endpoint event`));
        this.#streamGone();
      },
      (error: unknown) => {
        settle.reject(error instanceof Error ? error : new Error(String(error)));
        this.#streamGone();
      },
    );
    try {
      await ready;
    } catch (error) {
      clearTimeout(timer);
      controller.abort("start failed");
      this.#closed = true;
      this.#controllers.clear();
      throw error;
    }
  }

  /** POSTs one message to the endpoint; settles when the server accepted it. */
  async send(message: JsonRpcMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#closed) throw new Error("transport closed");
    const endpoint = this.endpoint;
    if (endpoint === undefined) throw new Error("HTTP+SSE: send before start() resolved");
    const body = JSON.stringify(message);
    const what = "method" in message ? message.method : `response (id ${String(message.id)})`;
    const controller = new AbortController();
    this.#controllers.add(controller);
    try {
      const response = await this.#fetch(endpoint, { method: "POST", headers: { ...this.#headers, "content-type": "application/json" }, body, signal: controller.signal });
      // The body ("Accepted", or an error's text) carries nothing for the protocol: not read.
      await response.body?.cancel().catch(() => {});
      if (!response.ok) throw new HttpStatusError(what, response.status);
    } finally {
      this.#controllers.delete(controller);
    }
  }

  /** Aborts the stream and every POST in progress; the server ends the session when its stream closes. */
  async close(): Promise<void> {
    for (const controller of this.#controllers) controller.abort("transport closed");
    this.#controllers.clear();
    const wasOpen = !this.#closed;
    this.#closed = true;
    if (!wasOpen) return;
    try {
      this.onclose?.();
    } catch (error) {
      this.#error(error);
    }
  }

  /**
   * The stream is the session: once it is gone the transport is closed (onclose), unless it never
   * got its endpoint, in which case start() rejects and there was no open transport to close.
   */
  #streamGone(): void {
    if (this.endpoint !== undefined) {
      void this.close();
      return;
    }
    this.#closed = true;
    for (const controller of this.#controllers) controller.abort("start failed");
    this.#controllers.clear();
  }

  #deliver(data: string): void {
    if (this.#closed) return;
    let message: unknown;
    try {
      message = parseJsonWithin(data, this.#maxDepth);
    } catch (error) {
      this.#error(new Error(`HTTP+SSE: the server sent an event that ${unreadable(error)}; dropped`));
      return;
    }
    if (!isObject(message) || message["jsonrpc"] !== "2.0") {
      this.#error(new Error("HTTP+SSE: the server sent a message that is not JSON-RPC 2.0; dropped"));
      return;
    }
    handOver(this.onmessage, message, this.onerror);
  }

  #error(error: unknown): void {
    report(this.onerror, error);
  }
}

/** A client transport for the HTTP+SSE server whose SSE endpoint is `options.url` (2024-11-05). */
export function createLegacySseClientTransport(options: LegacySseClientTransportOptions): LegacySseClientTransport {
  return new LegacySseClientTransport(options);
}
