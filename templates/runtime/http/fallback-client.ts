// The client of the session revisions that also reaches old servers (2025-03-26 basic/transports,
// "Backwards Compatibility"): it POSTs the InitializeRequest to the server URL as Streamable HTTP
// (http-session-client.ts); "If it fails with an HTTP 4xx status code (e.g., 405 Method Not
// Allowed or 404 Not Found)", it issues a GET to the server URL expecting an SSE stream whose first
// event is `endpoint`, and when that event arrives uses the HTTP+SSE transport (legacy-sse-client.ts)
// for everything after. A GET that opens no such stream means the server is no old one either:
// the Streamable HTTP answer then stands, exactly as without the fallback.
//
// The statuses that trigger it are 400, 404 and 405 by default (what servers of the old transport
// answer a POST they do not know): 401, 403 and 429 say something about the client, not about the
// transport, and never switch it.

import { numberOption } from "../core/options.js";
import { describeValue, type JsonRpcMessage, type Transport, type TransportSendOptions } from "../core/protocol.js";
import { maxBytesOf, readBounded, report, TOO_LARGE, type FetchLike } from "./fetch.js";
import { clientFetch } from "./auth.js";
import { LegacySseClientTransport } from "./legacy-sse-client.js";
import { SessionHttpClientTransport, type SessionHttpClientTransportOptions } from "./http-session-client.js";

export interface FallbackHttpClientTransportOptions extends SessionHttpClientTransportOptions {
  /** The HTTP statuses of the initialize POST that send the client to HTTP+SSE (default [400, 404, 405]). */
  readonly fallbackStatuses?: readonly number[] | undefined;
  /** The SSE endpoint of the old transport (default: `url`, as the Backwards Compatibility section says). */
  readonly sseUrl?: string | URL | undefined;
  /** How long the fallback waits for the `endpoint` event, in ms (default 10 000). */
  readonly endpointTimeoutMs?: number | undefined;
}

/** Which transport a FallbackHttpClientTransport settled on; undefined until the initialize POST was answered. */
export type HttpTransportKind = "streamable-http" | "http+sse";

const DEFAULT_FALLBACK_STATUSES: readonly number[] = [400, 404, 405];

/** Thrown through the session client by the probe's fetch when the client switched to HTTP+SSE. */
class FellBack extends Error {
  override name = "FellBack";
}

/**
 * A Transport that speaks Streamable HTTP with sessions, or HTTP+SSE when the server's answer to
 * the InitializeRequest POST says it is an old server and its URL opens an HTTP+SSE stream.
 * `kind` tells which, once initialize was sent.
 */
export class FallbackHttpClientTransport implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  kind: HttpTransportKind | undefined;
  readonly #session: SessionHttpClientTransport;
  readonly #statuses: ReadonlySet<number>;
  readonly #legacyOptions: { readonly url: string | URL; readonly fetch: FetchLike; readonly headers: Readonly<Record<string, string>>; readonly maxMessageBytes: number; readonly maxJsonDepth: number | undefined; readonly endpointTimeoutMs: number | undefined };
  #inner: Transport;
  #legacy: LegacySseClientTransport | undefined;
  /** Set while the InitializeRequest POST is on its way: its answer decides the transport. */
  #probing = false;

  constructor(options: FallbackHttpClientTransportOptions) {
    const statuses: unknown = options.fallbackStatuses ?? DEFAULT_FALLBACK_STATUSES;
    if (!Array.isArray(statuses)) throw new RangeError(`fallbackStatuses must be an array of 4xx statuses, got ${describeValue(statuses)}`);
    this.#statuses = new Set(statuses.map((s: unknown) => numberOption("fallbackStatuses", s, 0, { min: 400, max: 499 })));
    // Checked here, not when the fallback happens: a bad value fails at construction.
    numberOption("endpointTimeoutMs", options.endpointTimeoutMs, undefined, { min: 1 });
    // The authorization and middleware wrap both transports' fetch: the probe, and the old
    // transport's requests after a fallback.
    const base = clientFetch(options);
    const max = maxBytesOf(options.maxMessageBytes);
    this.#legacyOptions = { url: options.sseUrl ?? options.url, fetch: base, headers: { ...options.headers }, maxMessageBytes: max, maxJsonDepth: options.maxJsonDepth, endpointTimeoutMs: options.endpointTimeoutMs };
    // Constructed now so that a bad option fails here, not at the fallback.
    void new LegacySseClientTransport(this.#legacyOptions);
    const probe: FetchLike = (input, init) => this.#probe(base, max, input, init);
    this.#session = new SessionHttpClientTransport({ ...options, authProvider: undefined, middleware: undefined, fetch: probe });
    this.#inner = this.#session;
    this.#wire(this.#session);
  }

  /** The session id of Streamable HTTP (undefined over HTTP+SSE, whose session is its stream). */
  get sessionId(): string | undefined {
    return this.#inner === this.#session ? this.#session.sessionId : undefined;
  }

  start(): Promise<void> {
    return this.#session.start();
  }

  async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (this.kind !== undefined || !("method" in message) || message.method !== "initialize" || !("id" in message)) {
      return this.#inner.send(message, options);
    }
    this.#probing = true;
    try {
      await this.#session.send(message, options);
      this.kind = "streamable-http";
      return;
    } catch (error) {
      if (!(error instanceof FellBack) || this.#legacy === undefined) throw error;
    } finally {
      this.#probing = false;
    }
    // The old transport from here on; the Streamable HTTP side never got a session to end.
    const legacy = this.#legacy;
    this.#session.onclose = undefined;
    await this.#session.close();
    this.#inner = legacy;
    this.kind = "http+sse";
    return legacy.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** The inner transport's callbacks go to this transport's (read when called: the endpoint sets them later). */
  #wire(inner: Transport): void {
    inner.onmessage = (message) => this.onmessage?.(message);
    inner.onerror = (error) => report(this.onerror, error);
    inner.onclose = () => this.onclose?.();
  }

  /**
   * The session client's fetch: the InitializeRequest POST's answer, when it has a fallback
   * status, is kept (bounded), and the old transport is tried at the SSE URL. It opened: the
   * send fails with FellBack and the client switches. It did not: the kept answer goes to the
   * session client as if nothing happened.
   */
  async #probe(base: FetchLike, max: number, input: string | URL, init: RequestInit): Promise<Response> {
    const response = await base(input, init);
    if (!this.#probing || init.method !== "POST") return response;
    this.#probing = false;
    if (!this.#statuses.has(response.status)) return response;
    const bytes = response.body === null ? new Uint8Array(0) : await readBounded(response.body, max).catch(() => TOO_LARGE);
    const legacy = new LegacySseClientTransport(this.#legacyOptions);
    try {
      await legacy.start();
    } catch (error) {
      report(this.onerror, new Error(`the initialize POST answered HTTP ${response.status} and the HTTP+SSE fallback failed: ${error instanceof Error ? error.message : describeValue(error)}`));
      return new Response(bytes === TOO_LARGE ? null : (bytes as Uint8Array<ArrayBuffer>), { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    this.#legacy = legacy;
    this.#wire(legacy);
    throw new FellBack(`the initialize POST answered HTTP ${response.status}; the server speaks HTTP+SSE`);
  }
}

/**
 * A client transport for a server URL that may be a Streamable HTTP endpoint (2025-03-26 and
 * later) or the SSE endpoint of an HTTP+SSE server (2024-11-05): see FallbackHttpClientTransport.
 */
export function createFallbackHttpClientTransport(options: FallbackHttpClientTransportOptions): FallbackHttpClientTransport {
  return new FallbackHttpClientTransport(options);
}
