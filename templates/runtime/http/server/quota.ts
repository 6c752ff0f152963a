// Requests in flight, in all and per principal (tools, Security Considerations: servers MUST
// rate limit invocations): a request counts from the moment it is authenticated, before its body
// is read, until its response ends. One more is refused with 429 Too Many Requests (RFC 6585 §4:
// the spec defines no code of its own) naming the option that bounds it.

import { numberOption } from "../../core/options.js";
import { ErrorCode } from "../../core/protocol.js";
import type { Refusal } from "./replies.js";

/** A bound on requests in flight: a whole number ≥ 1 or Infinity, read once when the handler is made. */
export function inFlightLimit(name: string, value: unknown, fallback: number): number {
  return numberOption(name, value, fallback, { min: 1, infinity: true });
}

/**
 * One request's place in the in-flight counts; released once, by whoever ends the request. It
 * holds its quota and owner rather than a closure: one object per request, not two.
 */
export class Slot {
  #quota: InFlightQuota | undefined;
  readonly #owner: string | undefined;
  constructor(quota: InFlightQuota, owner: string | undefined) {
    this.#quota = quota;
    this.#owner = owner;
  }
  release(): void {
    const quota = this.#quota;
    this.#quota = undefined;
    quota?.release(this.#owner);
  }
}

/**
 * Requests in flight, in all and by principal id (undefined: the anonymous quota); a principal
 * leaves the map with its last request. O(1) per request.
 */
export class InFlightQuota {
  readonly #max: number;
  readonly #perPrincipal: number;
  readonly #byPrincipal = new Map<string | undefined, number>();
  #total = 0;

  constructor(max: number, perPrincipal: number) {
    this.#max = max;
    this.#perPrincipal = perPrincipal;
  }

  /** A slot for a request of `owner`, or the 429 that refuses it (which bound, and the option that sets it). */
  acquire(owner: string | undefined): Slot | Refusal {
    const held = this.#byPrincipal.get(owner) ?? 0;
    if (held >= this.#perPrincipal) return tooMany(`${this.#perPrincipal} requests of this principal are in flight (maxInFlightPerPrincipal)`);
    if (this.#total >= this.#max) return tooMany(`${this.#max} requests are in flight (maxInFlight)`);
    this.#byPrincipal.set(owner, held + 1);
    this.#total++;
    return new Slot(this, owner);
  }

  /** A slot of `owner` ends (Slot.release, once per slot). */
  release(owner: string | undefined): void {
    this.#total--;
    const left = (this.#byPrincipal.get(owner) ?? 1) - 1;
    if (left > 0) this.#byPrincipal.set(owner, left);
    else this.#byPrincipal.delete(owner);
  }
}

/** The 429 of a bound on requests in flight. */
export function tooMany(what: string, id?: string | number): Refusal {
  return { status: 429, message: `Too Many Requests: ${what}`, code: ErrorCode.InternalError, id, headers: { "retry-after": "1" } };
}
