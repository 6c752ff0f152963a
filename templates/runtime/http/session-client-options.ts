// The options of the 2025-era session client (http-session-client.ts) and their defaults.

import type { HttpClientAuthOptions } from "./auth.js";
import type { HttpClientBaseOptions } from "./fetch.js";

/** How a broken SSE stream is resumed (Resumability and Redelivery). */
export interface SessionReconnectOptions {
  /** GET attempts in a row without a new event before the stream is given up (default 3). */
  readonly maxAttempts?: number | undefined;
  /** Wait before a reconnect when the server sent no `retry:` (default 1000 ms). */
  readonly defaultRetryMs?: number | undefined;
  /** Longest wait honoured from a server's `retry:` (default 30 000 ms): a huge value cannot stall a request forever. */
  readonly maxRetryMs?: number | undefined;
}

/**
 * `url` (one URL for POST, GET and DELETE), `fetch`, `headers` and `maxMessageBytes` as for every
 * HTTP client transport (fetch.ts); a stream closed for going over maxMessageBytes is not resumed.
 */
export interface SessionHttpClientTransportOptions extends HttpClientBaseOptions, HttpClientAuthOptions {
  /** Resumption of broken SSE streams. */
  readonly reconnect?: SessionReconnectOptions | undefined;
  /**
   * Open the GET stream for the server's own requests and notifications once
   * notifications/initialized went out (default true; a 405 means the server offers none).
   */
  readonly listen?: boolean | undefined;
  /**
   * How long (ms) a cancelled call's stream is kept while a request the server sent on it (an
   * elicitation, a sampling request) is still being handled here, so that the server's cancel of
   * it arrives (default 2000; 0: dropped at once). A call with none is dropped at once.
   */
  readonly cancelGraceMs?: number | undefined;
}

/** The defaults of SessionReconnectOptions. */
export const DEFAULT_RECONNECT: { readonly maxAttempts: 3; readonly defaultRetryMs: 1000; readonly maxRetryMs: 30_000 } = { maxAttempts: 3, defaultRetryMs: 1000, maxRetryMs: 30_000 };
/**
 * A server that cancels the requests of a cancelled call does so as it handles our cancel, a trip
 * away; 2 s leaves room for a loaded server and bounds what one that never does holds open.
 */
export const DEFAULT_CANCEL_GRACE_MS: number = 2000;
