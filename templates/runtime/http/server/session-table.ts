// The one table of sessions of the HTTP servers that keep them: the session handler's (Streamable
// HTTP of 2025-03-26 … 2025-11-25, Session Management) and HTTP+SSE's (2024-11-05). Bounded in
// number; a session belongs to the principal that opened it (another one naming its id finds
// nothing, as for an unknown id); a session unused for `idleMs` ends unless it is busy.

import type { Principal } from "../../core/protocol.js";
import type { Refusal } from "./replies.js";
import { unref } from "./sse-stream.js";

/** What the table needs of a session. */
export interface TableSession {
  readonly sessionId: string;
  readonly principal: Principal | undefined;
  readonly ended: boolean;
  /** Whether it is in use (a request in flight, a stream open): an idle expiry then waits another period. */
  busy(): boolean;
  /** Ends it (the idle expiry, the table's closeAll). */
  end(): void | Promise<void>;
}

export interface SessionTableLimits {
  /** Sessions open at most (Infinity: no bound). */
  readonly maxSessions: number;
  /** A session neither used nor busy for this long (ms) ends (Infinity: never). */
  readonly idleMs: number;
}

/** A session's idle expiry: when it was last used, and the timer that looks at it then. */
interface Expiry {
  used: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class SessionTable<S extends TableSession> {
  readonly #sessions = new Map<string, S>();
  readonly #expiries = new Map<S, Expiry>();
  readonly #limits: SessionTableLimits;
  #closed = false;

  constructor(limits: SessionTableLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The session of this id held here, whoever it belongs to. */
  get(id: string): S | undefined {
    return this.#sessions.get(id);
  }

  /** The session `id` names for `principal`; undefined when it is unknown, ended, or another principal's (it is none of theirs). */
  find(id: string | null, principal: Principal | undefined): S | undefined {
    const session = id === null ? undefined : this.#sessions.get(id);
    return session === undefined || session.ended || session.principal?.id !== principal?.id ? undefined : session;
  }

  /** Why one more session cannot open (503 naming the bound, or the table closed), or undefined. */
  full(): Refusal | undefined {
    if (this.#closed) return { status: 503, message: "Service Unavailable: the server is closing" };
    if (this.#sessions.size < this.#limits.maxSessions) return undefined;
    return { status: 503, message: `Service Unavailable: ${this.#limits.maxSessions} sessions are open (maxSessions)`, headers: { "retry-after": "1" } };
  }

  add(session: S): void {
    this.#sessions.set(session.sessionId, session);
    this.touch(session);
  }

  /** The session ended: it leaves the table (if it is the one held under its id). */
  remove(session: S): void {
    if (this.#sessions.get(session.sessionId) === session) this.#sessions.delete(session.sessionId);
    const expiry = this.#expiries.get(session);
    if (expiry?.timer !== undefined) clearTimeout(expiry.timer);
    this.#expiries.delete(session);
  }

  /** The session was used: its idle time starts again (one timer per session, moved only when it fires). */
  touch(session: S): void {
    if (!Number.isFinite(this.#limits.idleMs) || session.ended) return;
    const expiry = this.#expiries.get(session);
    if (expiry !== undefined) {
      expiry.used = Date.now();
      return;
    }
    const fresh: Expiry = { used: Date.now(), timer: undefined };
    this.#expiries.set(session, fresh);
    this.#arm(session, fresh, this.#limits.idleMs);
  }

  values(): IterableIterator<S> {
    return this.#sessions.values();
  }

  /** Ends every session and refuses new ones from then on. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#sessions.values()].map((session) => session.end()));
  }

  #arm(session: S, expiry: Expiry, delay: number): void {
    const timer = setTimeout(() => {
      if (session.ended || this.#expiries.get(session) !== expiry) return;
      const left = expiry.used + this.#limits.idleMs - Date.now();
      if (left > 0) return this.#arm(session, expiry, left);
      if (session.busy()) return this.#arm(session, expiry, this.#limits.idleMs);
      this.#expiries.delete(session);
      void session.end();
    }, delay);
    unref(timer);
    expiry.timer = timer;
  }
}
