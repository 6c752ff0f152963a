// The graceful drain of an HTTP server, for a rolling restart behind a load balancer (docs/redis.md,
// "Deploying behind a load balancer"): `close({ drainMs })` refuses every new request, lets the
// requests in flight finish for up to drainMs, then ends what is left. A refused request was not
// served at all, so any client (or balancer) may send it again: 503 Service Unavailable with
// Retry-After (RFC 9110 §15.6.4), and `Connection: close`, so that a balancer's kept-alive
// connection is not used for the next one. The listener itself is the application's to close
// (node:http's server.close()): new connections are then refused, which a balancer retries on
// another instance whatever the method, since nothing of the request was sent.

import { isObject } from "../../core/json.js";
import { numberOption } from "../../core/options.js";
import { describeValue } from "../../core/protocol.js";
import type { CallState, Stage } from "./pipeline.js";
import type { Refusal } from "./replies.js";

/** The options of a handler's close(). */
export interface CloseOptions {
  /**
   * How long (ms) the requests in flight may take to finish (an integer from 0 to 2 147 483 647;
   * default 0: what is in flight ends at once). New requests are refused from the start.
   */
  readonly drainMs?: number | undefined;
}

/** The longest drainMs: what one timer can wait. */
const MAX_DRAIN_MS = 2_147_483_647;
/** How often a drain looks whether what was in flight has finished. */
const POLL_MS = 10;

/** The answer to a request that arrives while the server drains: served nowhere yet, so it may be sent again. */
export const DRAINING: Refusal = Object.freeze({
  status: 503,
  message: "Service Unavailable: this server is shutting down; send the request again (another instance serves it)",
  headers: Object.freeze({ "retry-after": "1", connection: "close" }),
});

/** close()'s options read: drainMs validated (RangeError naming it), 0 when absent. */
export function drainMsOf(options: unknown): number {
  if (options === undefined) return 0;
  if (!isObject(options)) throw new TypeError(`close: options must be an object ({ drainMs }), got ${describeValue(options)}`);
  return numberOption("drainMs", options["drainMs"], 0, { min: 0, max: MAX_DRAIN_MS });
}

/**
 * The SSE field that ends a stream the server closes while it drains: the client reconnects after
 * `retryMs` (WHATWG HTML, Server-sent events: the `retry` field sets the reconnection time), and
 * the balancer sends it to another instance.
 */
export function retryHint(retryMs: number): string {
  return `retry: ${retryMs}\n\n`;
}

/** Whether a server drains, and its refusal of new requests meanwhile. */
export class Drain {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  /** The drain starts (false: it had already). */
  start(): boolean {
    if (this.#draining) return false;
    this.#draining = true;
    return true;
  }

  /** The admission stage that refuses every request while the server drains (503, Retry-After, Connection: close). */
  stage<S extends CallState>(): Stage<S> {
    return { name: "drain", run: () => (this.#draining ? DRAINING : undefined) };
  }

  /** Resolves once `idle()` holds (true) or `drainMs` has passed (false, unless it holds then). */
  settle(idle: () => boolean, drainMs: number): Promise<boolean> {
    if (idle()) return Promise.resolve(true);
    const deadline = Date.now() + drainMs;
    return new Promise((resolve) => {
      const look = (): void => {
        if (idle()) return resolve(true);
        if (Date.now() >= deadline) return resolve(false);
        setTimeout(look, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
      };
      look();
    });
  }
}
