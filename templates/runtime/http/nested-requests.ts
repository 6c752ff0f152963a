// The server's requests that came on the stream of one of our calls (a tool's
// `elicitation/create` or `sampling/createMessage`: nested in that call) and are still open: not
// yet answered by this side, nor cancelled by the server. When a call is cancelled, the server
// cancels the requests its handler made with the handler's signal, and sends those cancels about
// the call, so on the call's stream (basic/transports, Streamable HTTP, Sending Messages to the
// Server: the messages before the response "SHOULD relate to the originating client request").
// The session client (http-session-client.ts) therefore keeps reading a cancelled call's stream
// while any of its nested requests is open, for a grace period at most, so those cancels arrive
// and this side's handlers stop; a call with none open has its stream dropped at once.

import type { RequestId } from "../core/protocol.js";

/** A cancelled call whose stream is kept: the timer that ends the wait, and what ends it. */
interface Drain {
  readonly timer: ReturnType<typeof setTimeout>;
  readonly stop: () => void;
}

export class NestedRequests {
  /** The call each open request came with (the server's request id → our call's id). */
  readonly #callOf = new Map<RequestId, RequestId>();
  /** The open requests of each call. */
  readonly #open = new Map<RequestId, Set<RequestId>>();
  readonly #drains = new Map<RequestId, Drain>();

  /** The server sent request `id` on the stream of our call `call`. */
  arrived(call: RequestId, id: RequestId): void {
    this.#callOf.set(id, call);
    const open = this.#open.get(call) ?? new Set<RequestId>();
    this.#open.set(call, open);
    open.add(id);
  }

  /** Request `id` of the server is over: this side answered it, or the server cancelled it. A call kept only for it is let go. */
  over(id: RequestId): void {
    const call = this.#callOf.get(id);
    if (call === undefined) return;
    this.#callOf.delete(id);
    const open = this.#open.get(call);
    open?.delete(id);
    if (open !== undefined && open.size > 0) return;
    this.#open.delete(call);
    this.#drains.get(call)?.stop();
  }

  /**
   * Call `call` was cancelled. True when it has open requests: its stream is to be kept until
   * they are over or `graceMs` pass, then `stop` runs (once). False: none open (or no grace),
   * nothing to wait for.
   */
  drain(call: RequestId, graceMs: number, stop: () => void): boolean {
    if (graceMs === 0 || !this.#open.has(call) || this.#drains.has(call)) return false;
    let stopped = false;
    const once = (): void => {
      if (stopped) return;
      stopped = true;
      this.end(call);
      stop();
    };
    this.#drains.set(call, { timer: setTimeout(once, graceMs), stop: once });
    return true;
  }

  /** Whether call `call` was cancelled and its stream is kept. */
  draining(call: RequestId): boolean {
    return this.#drains.has(call);
  }

  /** The call's stream ended (answered, dropped, broken): nothing of it is kept. */
  end(call: RequestId): void {
    const drain = this.#drains.get(call);
    if (drain !== undefined) {
      clearTimeout(drain.timer);
      this.#drains.delete(call);
    }
    for (const id of this.#open.get(call) ?? []) this.#callOf.delete(id);
    this.#open.delete(call);
  }

  /** The transport closed: no timer is left. */
  clear(): void {
    for (const drain of this.#drains.values()) clearTimeout(drain.timer);
    this.#drains.clear();
    this.#open.clear();
    this.#callOf.clear();
  }
}
