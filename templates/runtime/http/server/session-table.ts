// The one table of sessions of the HTTP servers that keep them: the session handler's (Streamable
// HTTP of 2025-03-26 … 2025-11-25, Session Management) and HTTP+SSE's (2024-11-05). Bounded in
// number, in all and per principal; a session belongs to the principal that opened it (another
// one naming its id finds nothing, as for an unknown id); a session unused for `idleMs` ends
// unless it is busy. Sessions without a principal (no `authenticate`) are each their own: the
// runtime cannot tell their clients apart (addresses are shared behind proxies and NATs), so only
// maxSessions bounds them.

import type { Principal } from "../../core/protocol.js";
import type { Refusal } from "./replies.js";
import { unref } from "./sse-stream.js";

/** What the table needs of a session. */
export interface TableSession {
  readonly sessionId: string;
  readonly principal: Principal | undefined;
  readonly ended: boolean;
  /**
   * Whether it works for its client (a request in flight, a stream open), and does not wait on it
   * (no request of the server's unanswered): an idle expiry then waits another period.
   */
  busy(): boolean;
  /** Ends it (the idle expiry, the table's closeAll). */
  end(): void | Promise<void>;
}

export interface SessionTableLimits {
  /** Sessions open at most (Infinity: no bound). */
  readonly maxSessions: number;
  /** Sessions open at most of one principal (`principal.id`; Infinity: no bound). */
  readonly maxSessionsPerPrincipal: number;
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
  /** Sessions open by principal id; an id leaves with its last session. */
  readonly #byPrincipal = new Map<string, number>();
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

  /** Why one more session of `principal` cannot open (503 naming the bound, or the table closed), or undefined. */
  full(principal: Principal | undefined): Refusal | undefined {
    if (this.#closed) return { status: 503, message: "Service Unavailable: the server is closing" };
    const { maxSessions, maxSessionsPerPrincipal } = this.#limits;
    if (this.#sessions.size >= maxSessions) return unavailable(`${maxSessions} sessions are open (maxSessions)`);
    if (principal !== undefined && (this.#byPrincipal.get(principal.id) ?? 0) >= maxSessionsPerPrincipal) {
      return unavailable(`${maxSessionsPerPrincipal} sessions of this principal are open (maxSessionsPerPrincipal)`);
    }
    return undefined;
  }

  add(session: S): void {
    // One held under the same id (a session continued from a registry, raced) no longer counts.
    const replaced = this.#sessions.get(session.sessionId)?.principal?.id;
    if (replaced !== undefined) this.#count(replaced, -1);
    this.#sessions.set(session.sessionId, session);
    const owner = session.principal?.id;
    if (owner !== undefined) this.#count(owner, 1);
    this.touch(session);
  }

  /** The session ended: it leaves the table (if it is the one held under its id). */
  remove(session: S): void {
    if (this.#sessions.get(session.sessionId) === session) {
      this.#sessions.delete(session.sessionId);
      const owner = session.principal?.id;
      if (owner !== undefined) this.#count(owner, -1);
    }
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

  /** One session more or fewer of a principal; an id leaves the map with its last session. */
  #count(owner: string, change: 1 | -1): void {
    const held = (this.#byPrincipal.get(owner) ?? 0) + change;
    if (held > 0) this.#byPrincipal.set(owner, held);
    else this.#byPrincipal.delete(owner);
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

/** A 503 with Retry-After naming the bound (the session servers' refusal of one more session). */
function unavailable(what: string): Refusal {
  return { status: 503, message: `Service Unavailable: ${what}`, headers: { "retry-after": "1" } };
}
