// Cancels that overtake their request. Where two messages of one peer may arrive in either order
// (Streamable HTTP sessions of the 2025 revisions, where each message is its own POST and two
// POSTs travel on two connections; HTTP+SSE's POST /messages), a notifications/cancelled may
// reach this side before the request it names. Cancellation, Error Handling, says an unknown id's
// cancel "SHOULD be ignored"; Timing Considerations says both parties "MUST handle these race
// conditions gracefully". On a transport that keeps order (stdio, in memory) an unknown id is
// one that never came or already went, and its cancel is ignored. On one that reorders it may be
// one on its way: the cancel is remembered here, bounded in count and in time, and the request
// that then arrives with that id is cancelled at once (endpoint.ts: its handler never runs and
// no response is sent). A request id "MUST NOT have been previously used by the requestor within
// the same session" (basic/index, Requests), so remembering an id costs a well-behaved peer nothing.
//
// Enabled by the transport (Transport.earlyCancels): the session transports of the HTTP servers
// set it, every other transport leaves it unset.

import { numberOption, type NumberRule } from "./options.js";
import type { EarlyCancelBounds, RequestId } from "./protocol.js";

export type { EarlyCancelBounds } from "./protocol.js";

/**
 * The defaults of the HTTP session servers. 64 ids: the 2025 server's own bound on the requests
 * of a session in flight (maxInFlightPerSession), so a client within its quota never has more
 * cancels racing their requests than are kept. 10 s: an overtake is the difference between two
 * POSTs' trips, milliseconds on a healthy network; 10 s still covers a connection stalled by
 * TCP retransmissions (1 + 2 + 4 s), and the count bounds the memory whatever the window.
 */
export const EARLY_CANCEL_DEFAULTS: EarlyCancelBounds = { maxIds: 64, windowMs: 10_000 };

/** At least one id; at most 100 000, far past any sane quota of requests in flight. */
const MAX_IDS: NumberRule = { min: 1, max: 100_000 };
/**
 * A string id longer than this is not remembered (its cancel is ignored as before): real ids are
 * numbers or short strings, and the bound keeps what a session holds to maxIds small entries
 * whatever the peer sends.
 */
export const MAX_EARLY_ID_LENGTH: number = 256;
/** At least 1 ms; at most an hour: a cancel is a matter of one trip, never of hours. */
const WINDOW_MS: NumberRule = { min: 1, max: 3_600_000 };

/** Bounds as a transport gives them, checked (a RangeError naming the field); a field left out takes its default. */
export function earlyCancelBounds(value: Partial<EarlyCancelBounds>): EarlyCancelBounds {
  return {
    maxIds: numberOption("earlyCancels.maxIds", value.maxIds, EARLY_CANCEL_DEFAULTS.maxIds, MAX_IDS),
    windowMs: numberOption("earlyCancels.windowMs", value.windowMs, EARLY_CANCEL_DEFAULTS.windowMs, WINDOW_MS),
  };
}

/**
 * The bounds of an HTTP server's sessions from its options `maxEarlyCancels` and
 * `earlyCancelWindowMs`, each checked under its own name (a RangeError).
 */
export function earlyCancelOptions(options: { readonly maxEarlyCancels?: number | undefined; readonly earlyCancelWindowMs?: number | undefined }): EarlyCancelBounds {
  return {
    maxIds: numberOption("maxEarlyCancels", options.maxEarlyCancels, EARLY_CANCEL_DEFAULTS.maxIds, MAX_IDS),
    windowMs: numberOption("earlyCancelWindowMs", options.earlyCancelWindowMs, EARLY_CANCEL_DEFAULTS.windowMs, WINDOW_MS),
  };
}

/** A remembered cancel: when it came, and its reason. */
interface Early {
  readonly at: number;
  readonly reason: string | undefined;
}

/**
 * The cancels of one connection for ids it did not know, oldest first. No timer: expired ones are
 * dropped as new ones come and never taken; the count bounds what is kept in between.
 */
export class EarlyCancels {
  readonly #bounds: EarlyCancelBounds;
  readonly #now: () => number;
  /** Insertion order is arrival order (an id remembered again moves to the end). Made by the first cancel. */
  #ids: Map<RequestId, Early> | undefined;

  constructor(bounds: Partial<EarlyCancelBounds>, now: () => number = Date.now) {
    this.#bounds = earlyCancelBounds(bounds);
    this.#now = now;
  }

  /** How many are kept now (expired ones included until the next remember drops them). */
  get size(): number {
    return this.#ids?.size ?? 0;
  }

  /**
   * Remembers a cancel for `id`, which no request in flight has; false when it is not (a string id
   * longer than MAX_EARLY_ID_LENGTH). Its reason is kept up to the same length.
   */
  remember(id: RequestId, reason: string | undefined): boolean {
    if (typeof id === "string" && id.length > MAX_EARLY_ID_LENGTH) return false;
    const ids = (this.#ids ??= new Map());
    const now = this.#now();
    ids.delete(id);
    ids.set(id, { at: now, reason: reason === undefined || reason.length <= MAX_EARLY_ID_LENGTH ? reason : reason.slice(0, MAX_EARLY_ID_LENGTH) });
    for (const [oldest, early] of ids) {
      if (ids.size <= this.#bounds.maxIds && now - early.at <= this.#bounds.windowMs) break;
      ids.delete(oldest);
    }
    return true;
  }

  /** The cancel remembered for `id`, taken (it cancels one request only), or undefined: none, or expired. */
  take(id: RequestId): { readonly reason: string | undefined } | undefined {
    const early = this.#ids?.get(id);
    if (early === undefined) return undefined;
    this.#ids!.delete(id);
    return this.#now() - early.at <= this.#bounds.windowMs ? early : undefined;
  }
}
