// The receive path: requests the peer issued that this side is handling. Each gets an abort
// signal; a valid notifications/cancelled aborts it and the response is suppressed.
// This table is separate from the send path's, so a cancel can only reach a request the peer
// itself issued (Cancellation, Behavior Requirements 1).

import type { EarlyCancels } from "./early-cancels.js";
import { RecentIds, type CancelRule } from "./outgoing.js";
import type { CancellationEvent, JsonObject, RequestId } from "./protocol.js";

/**
 * A request being handled. Its AbortController is made when the handler first reads `signal`:
 * most handlers never do, and making the AbortSignal (an EventTarget) costs more than the rest
 * of the request's bookkeeping together. A signal first read after an abort is already aborted,
 * with the same reason.
 */
export class InFlight {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  readonly method: string;
  /** Why a cancel for it must be ignored, if it must. */
  readonly cancelRule: CancelRule;

  constructor(method: string, cancelRule: CancelRule) {
    this.method = method;
    this.cancelRule = cancelRule;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** The params of a well-formed notifications/cancelled. */
export interface CancelParams {
  readonly requestId: RequestId;
  readonly reason: string | undefined;
}

/** A well-formed notifications/cancelled params object, or null. */
export function parseCancelParams(params: unknown): CancelParams | null {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return null;
  const { requestId, reason } = params as JsonObject;
  const validId = typeof requestId === "string" || (typeof requestId === "number" && Number.isInteger(requestId));
  if (!validId) return null;
  if (reason !== undefined && typeof reason !== "string") return null;
  return { requestId, reason };
}

/**
 * What became of a request whose cancel came before it (early-cancels.ts), by its cancel rule:
 * cancelled as it arrives, or, when it may not be cancelled, the cancel is ignored.
 */
export function earlyCancelEvent(requestId: RequestId, method: string, reason: string | undefined, rule: CancelRule): CancellationEvent {
  if (rule === "cancellable") return { type: "received", requestId, method, reason, early: true };
  return { type: "ignored", cause: rule, requestId, reason, method, early: true };
}

export class IncomingRequests {
  readonly #inFlight = new Map<RequestId, InFlight>();
  /** Recently finished ids, to report a late cancel as "finished" rather than "unknown". */
  readonly #finished = new RecentIds(1024);
  /** Recently finished ids that were answered with a task handle (Tasks extension). */
  readonly #becameTask = new RecentIds(1024);
  /** Cancels for ids not yet seen, where the transport may reorder (Transport.earlyCancels); undefined: ignored. */
  #early: EarlyCancels | undefined;

  /** From now on, a cancel for an unknown id is remembered in `early` (the transport reorders messages). */
  rememberEarlyCancels(early: EarlyCancels): void {
    this.#early = early;
  }

  /**
   * A request has just arrived with `id`: the cancel that came before it, taken, if one was
   * remembered (and has not expired). The id then counts as finished: a second cancel for it is
   * ignored as such, not remembered again.
   */
  takeEarlyCancel(id: RequestId): { readonly reason: string | undefined } | undefined {
    const early = this.#early?.take(id);
    if (early !== undefined) this.#finished.add(id);
    return early;
  }

  get size(): number {
    return this.#inFlight.size;
  }

  has(id: RequestId): boolean {
    return this.#inFlight.has(id);
  }

  /** The request with this id being handled, if any. */
  get(id: RequestId): InFlight | undefined {
    return this.#inFlight.get(id);
  }

  begin(id: RequestId, method: string, cancelRule: InFlight["cancelRule"]): InFlight {
    const entry = new InFlight(method, cancelRule);
    this.#inFlight.set(id, entry);
    this.#finished.delete(id);
    this.#becameTask.delete(id);
    return entry;
  }

  /**
   * The handler settled: true when its response should be sent, false when the request was
   * cancelled or the connection closed meanwhile (then nothing is sent).
   */
  finish(id: RequestId, entry: InFlight, becameTask = false): boolean {
    if (this.#inFlight.get(id) !== entry) return false;
    this.#inFlight.delete(id);
    this.#finished.add(id);
    if (becameTask) this.#becameTask.add(id);
    return true;
  }

  /**
   * Handles notifications/cancelled from the peer, its params already parsed (parseCancelParams;
   * null: malformed, `raw` then says what it named). Cancellation, Behavior Requirements 4-5 and
   * Error Handling: stop the work and send no response; ignore unknown or finished requests,
   * requests that may not be cancelled, and malformed notifications.
   */
  cancel(parsed: CancelParams | null, params: unknown): CancellationEvent {
    if (parsed === null) {
      const p = params !== null && typeof params === "object" ? (params as JsonObject) : {};
      return { type: "ignored", cause: "malformed", requestId: p["requestId"], reason: p["reason"] };
    }
    const { requestId, reason } = parsed;
    const entry = this.#inFlight.get(requestId);
    if (entry === undefined) {
      const cause = this.#becameTask.has(requestId) ? "became-task" : this.#finished.has(requestId) ? "finished" : "unknown-request";
      // It may have overtaken its request (early-cancels.ts): remembered, where the transport reorders.
      if (cause === "unknown-request" && this.#early?.remember(requestId, reason) === true) return { type: "ignored", cause, requestId, reason, early: true };
      return { type: "ignored", cause, requestId, reason };
    }
    if (entry.cancelRule !== "cancellable") {
      return { type: "ignored", cause: entry.cancelRule, requestId, reason, method: entry.method };
    }
    this.#inFlight.delete(requestId);
    this.#finished.add(requestId);
    entry.abort(reason ?? "Cancelled by the peer");
    return { type: "received", requestId, method: entry.method, reason };
  }

  /**
   * The handler ends its own request (RULES.endableByReceiver, ctx.end()): its signal aborts
   * and no response follows. False when it already finished or was cancelled.
   */
  end(id: RequestId, entry: InFlight, reason: string): boolean {
    if (this.#inFlight.get(id) !== entry) return false;
    this.#inFlight.delete(id);
    this.#finished.add(id);
    entry.abort(reason);
    return true;
  }

  /** The transport closed: every handler's signal aborts; no response will be sent. */
  abortAll(reason: string): void {
    const entries = [...this.#inFlight.values()];
    this.#inFlight.clear();
    for (const entry of entries) entry.abort(reason);
  }
}
