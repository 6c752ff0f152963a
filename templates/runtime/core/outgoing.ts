// The send path: requests this side issued and is waiting on. Only this table is consulted for
// responses and progress, and only its entries are ever cancelled by this side, so a
// cancellation can only reference a request "previously issued in the same direction"
// (Cancellation, Behavior Requirements 1).

import {
  CancellationForbiddenError,
  cancelledInListener,
  ConnectionClosedError,
  InvalidResponseError,
  McpError,
  RequestCancelledError,
  RequestEndedByPeerError,
  RequestTimeoutError,
  type CancellationEvent,
  type JsonObject,
  type JsonRpcMessage,
  type Progress,
  type RequestId,
  type RequestOptions,
} from "./protocol.js";
import { copyOwn, isObject } from "./json.js";
import { numberOption, type NumberRule } from "./options.js";
import { checkValue, InvalidResultError, type Check } from "./validation.js";

/** What the runtime knows of a method from the catalog. */
export interface MethodPolicy {
  /** May be cancelled with notifications/cancelled. */
  readonly cancellable: boolean;
  /** Params may carry `task`; then it is cancelled with tasks/cancel only. */
  readonly taskAugmentable: boolean;
  /** The schema requires params: a request without them is refused as Invalid params. */
  readonly paramsRequired: boolean;
}

export type CancelRule = "cancellable" | "uncancellable" | "task-augmented" | "not-permitted";

/**
 * Whether this request may be cancelled with notifications/cancelled, and if not, why.
 * `senderMayCancel` is false where the revision lets only the other side cancel
 * (2026-07-28: "only the client cancels requests").
 */
export function cancelRule(policy: MethodPolicy | undefined, params: JsonObject | undefined, senderMayCancel = true): CancelRule {
  if (!senderMayCancel) return "not-permitted";
  // Cancellation, Behavior Requirements 3 (2025-11-25): for task-augmented requests the
  // tasks/cancel request MUST be used instead of notifications/cancelled.
  if (policy?.taskAugmentable && params !== undefined && params["task"] !== undefined) return "task-augmented";
  // Behavior Requirements 2: "The initialize request MUST NOT be cancelled by clients."
  return policy === undefined || policy.cancellable ? "cancellable" : "uncancellable";
}

/**
 * A set of the most recent ids, bounded so long-lived connections do not grow it forever. Its Set
 * is made by the first add: a connection per HTTP request has three of these and mostly adds to
 * one at most.
 */
export class RecentIds {
  #ids: Set<RequestId> | undefined;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  add(id: RequestId): void {
    const ids = (this.#ids ??= new Set());
    ids.delete(id);
    ids.add(id);
    if (ids.size > this.limit) ids.delete(ids.values().next().value as RequestId);
  }
  delete(id: RequestId): boolean {
    return this.#ids?.delete(id) ?? false;
  }
  has(id: RequestId): boolean {
    return this.#ids?.has(id) ?? false;
  }
}

export interface OutgoingHooks {
  /** Sends a message; `related` is the incoming request it belongs to, if any. */
  send(message: JsonRpcMessage, related: RequestId | undefined): Promise<void>;
  report(event: CancellationEvent): void;
  /**
   * Cancels by closing the request's own stream, where the revision says so and the transport
   * can (RULES.cancelByClosingStream, Transport.closeRequestStream); false: send the notification.
   */
  closeStream(id: RequestId): boolean;
  /** A result that arrived after this side cancelled the request (already reported as late). */
  lateResult?(id: RequestId, result: JsonObject): void;
}

/** The send path's share of the revision rules and the endpoint's options. */
export interface OutgoingConfig {
  /** This side may cancel the requests it sends (RULES.cancellers). */
  readonly mayCancel: boolean;
  readonly defaultTimeoutMs: number | undefined;
  readonly defaultMaxTotalTimeoutMs: number | undefined;
  /** Methods exempt from the two defaults above (RULES.longLived). */
  readonly longLived: ReadonlySet<string>;
  /** Methods the peer may end with notifications/cancelled (RULES.endableByReceiver). */
  readonly endableByPeer: ReadonlySet<string>;
  /** The checks of the results, by method (the generated validators); undefined: none. */
  readonly results?: ReadonlyMap<string, Check> | undefined;
}

/**
 * A request waiting for its response. Plain data: the table's methods act on it, so a request
 * costs no closures; its signal is watched by the table's one listener per signal.
 */
interface Pending {
  readonly id: RequestId;
  readonly method: string;
  readonly rule: CancelRule;
  readonly related: RequestId | undefined;
  /** The caller's options; its cancelReason is read when the signal aborts. */
  readonly options: RequestOptions | undefined;
  /** The signal and progress options as they were when the request started. */
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly resetTimeoutOnProgress: boolean;
  /** The per-request timeout in effect, restarted on progress where the caller asked. */
  readonly timeoutMs: number | undefined;
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: Error) => void;
  /** Its own timers: only with resetTimeoutOnProgress, where the timeout moves and the cap does not. */
  timer: ReturnType<typeof setTimeout> | undefined;
  hardTimer: ReturnType<typeof setTimeout> | undefined;
  /** Otherwise the shared deadline it waits on, and its neighbours in that deadline's list. */
  deadline: Deadline | undefined;
  prev: Pending | undefined;
  next: Pending | undefined;
}

/**
 * One timer for every request that starts in the same millisecond with the same delay: they all
 * time out together, at that millisecond plus the delay (Node's own timers armed in one turn of the
 * event loop share their start time in the same way). The requests form a doubly linked list
 * through their Pending records, so joining and leaving allocate nothing; the timer is cleared when
 * the last one leaves. A timer per request cost 15–30 % of a burst's CPU (the Timeout objects
 * outlive the young generation while their requests are in flight).
 */
class Deadline {
  readonly delay: number;
  /** Date.now() when it was made: a request of another millisecond makes its own. */
  readonly madeAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  first: Pending | undefined;
  last: Pending | undefined;
  constructor(delay: number, madeAt: number) {
    this.delay = delay;
    this.madeAt = madeAt;
  }
}

const GENERIC_CANCEL_REASON = "Request cancelled by the caller";
/** Shared by every watched signal's listener: one options object, not one per request. */
const ONCE = { once: true } as const;
/** The cancel notification is best effort: a send that fails leaves nothing to undo. */
const ignore = (): void => {};

/** The longest delay setTimeout can arm: 2^31 − 1 ms (about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/** A timeout: whole milliseconds ≥ 1, or 0 or Infinity for none. */
const TIMEOUT_RULE: NumberRule = { min: 1, zeroIsOff: true, infinity: true };

/**
 * A timeout option as the delay to arm. `undefined` means "not set"; `0` and `Infinity` mean no
 * timeout at all; a finite value above MAX_TIMER_MS is clamped to it (setTimeout would otherwise
 * fire after 1 ms). A negative value, a fraction, NaN or a non-number is a usage error
 * (RangeError, core/options.ts): the platform cannot arm it and guessing would either cancel at
 * once or never.
 */
export function timerDelay(name: string, value: number | undefined): number | undefined {
  const ms = numberOption(name, value, undefined, TIMEOUT_RULE);
  if (ms === undefined || ms === 0 || ms === Number.POSITIVE_INFINITY) return undefined;
  return Math.min(ms, MAX_TIMER_MS);
}

export class OutgoingRequests {
  #nextId = 1;
  readonly #pending = new Map<RequestId, Pending>();
  /** Requests this side cancelled, to recognise (and ignore) a response that arrives later. */
  readonly #cancelled = new RecentIds(1024);
  /**
   * The requests waiting on each caller signal. A signal gets one abort listener however many
   * requests share it (no MaxListenersExceededWarning), removed when its last request settles.
   * A signal with one request (the usual case: a controller per call) maps to that request
   * itself; a set is made only when a second request shares the signal.
   */
  readonly #bySignal = new Map<AbortSignal, Pending | Set<Pending>>();
  /** The deadline made last: requests of the same millisecond and delay join it (#join). */
  #latest: Deadline | undefined;

  readonly #hooks: OutgoingHooks;
  readonly #policyOf: (method: string) => MethodPolicy | undefined;
  readonly #config: OutgoingConfig;

  constructor(hooks: OutgoingHooks, policyOf: (method: string) => MethodPolicy | undefined, config: OutgoingConfig) {
    this.#hooks = hooks;
    this.#policyOf = policyOf;
    this.#config = config;
  }

  /** Requests still waiting for a response. */
  get size(): number {
    return this.#pending.size;
  }

  /** Sends a request and resolves with its result; see RequestOptions for cancellation. */
  start(method: string, params: JsonObject | undefined, options: RequestOptions | undefined, related?: RequestId): Promise<JsonObject> {
    const rule = cancelRule(this.#policyOf(method), params, this.#config.mayCancel);
    const signal = options?.signal;
    if (signal !== undefined && rule !== "cancellable") {
      return Promise.reject(new CancellationForbiddenError(method, rule));
    }
    // Already aborted: nothing goes on the wire.
    if (signal?.aborted) return Promise.reject(new RequestCancelledError(method, undefined, signal.reason));

    // Senders SHOULD time out every request and SHOULD keep a maximum (2026-07-28); a
    // long-lived request (a subscription) only times out when the caller says so.
    const longLived = this.#config.longLived.has(method);
    let timeoutMs: number | undefined;
    let maxTotalMs: number | undefined;
    try {
      timeoutMs = timerDelay("timeoutMs", options?.timeoutMs ?? (longLived ? undefined : this.#config.defaultTimeoutMs));
      maxTotalMs = timerDelay("maxTotalTimeoutMs", options?.maxTotalTimeoutMs ?? (longLived ? undefined : this.#config.defaultMaxTotalTimeoutMs));
    } catch (error) {
      return Promise.reject(error);
    }

    const id = this.#nextId++;
    const onProgress = options?.onProgress;
    let outParams = params;
    if (onProgress !== undefined) {
      // Copies by copyOwn (core/json.ts): a spread and a new property would give each a hidden class of its own.
      const own = params?.["_meta"];
      const meta = isObject(own) ? copyOwn(own) : {};
      meta["progressToken"] = id;
      const copy = params === undefined ? {} : copyOwn(params);
      copy["_meta"] = meta;
      outParams = copy;
    }

    return new Promise<JsonObject>((resolve, reject) => {
      const entry: Pending = {
        id,
        method,
        rule,
        related,
        options,
        signal,
        onProgress,
        resetTimeoutOnProgress: options?.resetTimeoutOnProgress === true,
        timeoutMs,
        resolve,
        reject,
        timer: undefined,
        hardTimer: undefined,
        deadline: undefined,
        prev: undefined,
        next: undefined,
      };
      this.#pending.set(id, entry);
      // Without resetTimeoutOnProgress neither deadline moves, so the earlier one is the only one
      // that can fire: one deadline instead of two (2026-07-28 sets both by default on every
      // request), shared with the requests of the same millisecond and delay. A tie goes to the
      // timeout (the same delay, so the same RequestTimeoutError either way).
      // With it, the timeout restarts on progress while the cap stays: two timers of its own.
      if (!entry.resetTimeoutOnProgress) {
        const delay = timeoutMs === undefined ? maxTotalMs : maxTotalMs === undefined || timeoutMs <= maxTotalMs ? timeoutMs : maxTotalMs;
        if (delay !== undefined) this.#join(entry, delay);
      } else {
        if (timeoutMs !== undefined) entry.timer = setTimeout(() => this.#timeout(entry, timeoutMs), timeoutMs);
        if (maxTotalMs !== undefined) entry.hardTimer = setTimeout(() => this.#timeout(entry, maxTotalMs), maxTotalMs);
      }
      if (signal !== undefined) this.#watch(entry, signal);

      const message: JsonRpcMessage = outParams === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: outParams };
      this.#hooks.send(message, related).catch((error: unknown) => {
        if (!this.#isCurrent(entry)) return;
        this.#settle(entry);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** The request waits on the deadline of this millisecond and delay, made (and its timer armed) if there is none yet. */
  #join(entry: Pending, delay: number): void {
    const now = Date.now();
    let deadline = this.#latest;
    if (deadline === undefined || deadline.delay !== delay || deadline.madeAt !== now || deadline.timer === undefined) {
      const made = new Deadline(delay, now);
      made.timer = setTimeout(() => this.#expire(made), delay);
      this.#latest = deadline = made;
    }
    entry.deadline = deadline;
    entry.prev = deadline.last;
    if (deadline.last === undefined) deadline.first = entry;
    else deadline.last.next = entry;
    deadline.last = entry;
  }

  /** The request no longer waits on its deadline; the last one to leave clears the timer. */
  #leave(entry: Pending): void {
    const deadline = entry.deadline;
    if (deadline === undefined) return;
    const { prev, next } = entry;
    if (prev === undefined) deadline.first = next;
    else prev.next = next;
    if (next === undefined) deadline.last = prev;
    else next.prev = prev;
    entry.deadline = entry.prev = entry.next = undefined;
    if (deadline.first !== undefined) return;
    if (deadline.timer !== undefined) clearTimeout(deadline.timer);
    deadline.timer = undefined;
    if (this.#latest === deadline) this.#latest = undefined;
  }

  /**
   * A deadline's timer fired: every request still waiting on it times out, in the order they
   * started. One at a time from the head of the list, which stays consistent whatever the
   * timeouts' observers settle meanwhile (onCancellation may abort or close anything).
   */
  #expire(deadline: Deadline): void {
    deadline.timer = undefined;
    if (this.#latest === deadline) this.#latest = undefined;
    for (let entry = deadline.first; entry !== undefined; entry = deadline.first) {
      this.#leave(entry);
      this.#timeout(entry, deadline.delay);
    }
  }

  /** Adds the request to its signal's set; the first request on a signal adds the one listener. */
  #watch(entry: Pending, signal: AbortSignal): void {
    const waiting = this.#bySignal.get(signal);
    if (waiting === undefined) {
      this.#bySignal.set(signal, entry);
      signal.addEventListener("abort", this.#onSignalAbort, ONCE);
    } else if (waiting instanceof Set) {
      waiting.add(entry);
    } else {
      this.#bySignal.set(signal, new Set([waiting, entry]));
    }
  }

  /** The one abort listener of every watched signal: cancels each request still waiting on it. */
  readonly #onSignalAbort = (event: Event): void => {
    const signal = event.target as AbortSignal;
    const waiting = this.#bySignal.get(signal);
    this.#bySignal.delete(signal);
    if (waiting instanceof Set) for (const entry of [...waiting]) this.#abort(entry, signal);
    else if (waiting !== undefined) this.#abort(waiting, signal);
  };

  #isCurrent(entry: Pending): boolean {
    return this.#pending.get(entry.id) === entry;
  }

  /** Removes the entry, its timers and its abort listener: nothing of the request is left. */
  #settle(entry: Pending): void {
    this.#pending.delete(entry.id);
    this.#leave(entry);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    if (entry.hardTimer !== undefined) clearTimeout(entry.hardTimer);
    const signal = entry.signal;
    if (signal === undefined) return;
    const waiting = this.#bySignal.get(signal);
    const last = waiting === entry || (waiting instanceof Set && waiting.delete(entry) && waiting.size === 0);
    if (last) {
      this.#bySignal.delete(signal);
      signal.removeEventListener("abort", this.#onSignalAbort);
    }
  }

  #sendCancel(entry: Pending, reason: string, cause: "abort" | "timeout" | "notify"): void {
    const { id, method } = entry;
    this.#cancelled.add(id);
    if (this.#hooks.closeStream(id)) {
      // Closing the request's stream is the cancel: no notification (2026-07-28, Transports).
      this.#hooks.report({ type: "sent", requestId: id, method, reason, cause, via: "stream-close" });
      return;
    }
    this.#hooks
      .send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } }, entry.related)
      .catch(ignore);
    this.#hooks.report({ type: "sent", requestId: id, method, reason, cause });
  }

  /**
   * The caller's signal aborted. The cancel goes out before the promise rejects, so a caller that
   * closes the connection as soon as its call rejects does not lose it; the rejection is in a
   * `finally`, so nothing the transport or an observer does can leave the promise pending.
   */
  #abort(entry: Pending, signal: AbortSignal): void {
    if (!this.#isCurrent(entry)) return;
    this.#settle(entry);
    try {
      // Only a string abort reason is sent to the peer: never an object dump of the caller's error.
      const given = entry.options?.cancelReason;
      const reason = typeof given === "string" ? given : typeof signal.reason === "string" ? signal.reason : GENERIC_CANCEL_REASON;
      this.#sendCancel(entry, reason, "abort");
    } finally {
      entry.reject(cancelledInListener(entry.method, entry.id, signal.reason));
    }
  }

  /** The timeout or the hard cap (ms) elapsed: as #abort, with RequestTimeoutError. */
  #timeout(entry: Pending, ms: number): void {
    if (!this.#isCurrent(entry)) return;
    this.#settle(entry);
    try {
      if (entry.rule === "cancellable") this.#sendCancel(entry, `Request timed out after ${ms} ms`, "timeout");
      else this.#hooks.report({ type: "timeout-local", requestId: entry.id, method: entry.method });
    } finally {
      entry.reject(new RequestTimeoutError(entry.method, ms));
    }
  }

  /**
   * notify("notifications/cancelled", { requestId, reason }) naming a request this side sent: the
   * same rules and bookkeeping as aborting its signal (the request rejects with
   * RequestCancelledError, a later response is ignored). Throws CancellationForbiddenError where a
   * signal would be refused; returns false when no such request is pending.
   */
  cancelByNotify(id: RequestId, reason: string | undefined): boolean {
    const entry = this.#pending.get(id);
    if (entry === undefined) return false;
    if (entry.rule !== "cancellable") throw new CancellationForbiddenError(entry.method, entry.rule);
    this.#settle(entry);
    try {
      this.#sendCancel(entry, reason ?? GENERIC_CANCEL_REASON, "notify");
    } finally {
      entry.reject(new RequestCancelledError(entry.method, id, reason));
    }
    return true;
  }

  /** Progress arrived and the caller asked for resetTimeoutOnProgress: the timeout starts over. */
  #restartTimeout(entry: Pending): void {
    const { timeoutMs } = entry;
    if (entry.timer === undefined || timeoutMs === undefined) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.#timeout(entry, timeoutMs), timeoutMs);
  }

  /** A response from the peer: settles the request, or is dropped (unknown id, or we cancelled). */
  handleResponse(id: RequestId, result: JsonObject | undefined, error: { code: number; message: string; data?: unknown } | undefined): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) {
      // Cancellation, Behavior Requirements 6: the sender SHOULD ignore a response that arrives
      // after it cancelled.
      if (this.#cancelled.delete(id)) {
        this.#hooks.report({ type: "late-response", requestId: id });
        if (result !== undefined && error === undefined) this.#hooks.lateResult?.(id, result);
      }
      return;
    }
    this.#settle(entry);
    if (error !== undefined) return entry.reject(new McpError(error.code, error.message, error.data));
    const value = result ?? {};
    // A result that breaks its schema rejects the request: the caller never holds a value its types do not describe.
    const check = this.#config.results?.get(entry.method);
    const issue = check === undefined ? undefined : checkValue(check, value);
    if (issue !== undefined) entry.reject(new InvalidResultError(entry.method, id, issue));
    else entry.resolve(value);
  }

  /**
   * A response with this id that is not a valid response (see InvalidResponseError): the pending
   * request rejects with that error. Returns the error, or undefined when no request has the id.
   */
  handleInvalidResponse(id: RequestId, problem: string): InvalidResponseError | undefined {
    const entry = this.#pending.get(id);
    if (entry === undefined) {
      if (this.#cancelled.delete(id)) this.#hooks.report({ type: "late-response", requestId: id });
      return undefined;
    }
    this.#settle(entry);
    const error = new InvalidResponseError(entry.method, id, problem);
    entry.reject(error);
    return error;
  }

  /**
   * notifications/cancelled from the peer naming a request this side sent: where the revision
   * lets the receiver end that method (2026-07-28: the server ends subscriptions/listen), the
   * request settles with RequestEndedByPeerError and nothing else is aborted. Returns the event,
   * or undefined when the id is not such a pending request.
   */
  endByPeer(id: RequestId, reason: string | undefined): CancellationEvent | undefined {
    const entry = this.#pending.get(id);
    if (entry === undefined || !this.#config.endableByPeer.has(entry.method)) return undefined;
    this.#settle(entry);
    entry.reject(new RequestEndedByPeerError(entry.method, id, reason));
    return { type: "ended", requestId: id, method: entry.method, reason };
  }

  /** notifications/progress: delivered to the request's onProgress while it is pending, else dropped. */
  handleProgress(params: JsonObject | undefined): void {
    const token = params?.["progressToken"];
    if (typeof token !== "number" && typeof token !== "string") return;
    const entry = this.#pending.get(token);
    const onProgress = entry?.onProgress;
    if (entry === undefined || onProgress === undefined || typeof params?.["progress"] !== "number") return;
    if (entry.resetTimeoutOnProgress) this.#restartTimeout(entry);
    const progress: Progress = { progress: params["progress"] };
    if (typeof params["total"] === "number") progress.total = params["total"];
    if (typeof params["message"] === "string") progress.message = params["message"];
    try {
      onProgress(progress);
    } catch {
      // A throwing progress callback must not break the connection.
    }
  }

  /** The transport closed: every pending request rejects with ConnectionClosedError. */
  closeAll(): void {
    for (const entry of [...this.#pending.values()]) {
      this.#settle(entry);
      entry.reject(new ConnectionClosedError(entry.method));
    }
  }
}
