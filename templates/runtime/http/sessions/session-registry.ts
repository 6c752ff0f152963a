// Sessions of the session server (2025-03-26, 2025-06-18, 2025-11-25) that outlive the instance
// that opened them. A session is served by one connection of one process; behind a load balancer
// its next request may reach another instance, or the first may stop. With a SessionRegistry
// shared by every instance, the handler records what a session is (its negotiated revision, the
// client's capabilities, its principal) when `initialize` succeeds, and an instance that is sent
// an id it does not hold looks it up there and continues the session on a connection of its own:
// new requests work; requests in flight on the instance that stopped are lost with it (their
// streams break; a client resumes what it can from a shared EventStore).
//
// The default is no registry: a session lives in the process that opened it, and an unknown id
// is 404 (Session Management). Nothing here is a peer's: a record is the server's own.

import { isObject } from "../../core/json.js";
import { numberOption } from "../../core/options.js";
import type { JsonObject } from "../../core/protocol.js";

/** What any instance needs to continue a session. Plain JSON, so a shared registry can keep it. */
export interface SessionRecord {
  readonly sessionId: string;
  /** The protocol version `initialize` negotiated. */
  readonly protocolVersion: string;
  /** The client's capabilities, as its `initialize` declared them. */
  readonly clientCapabilities: JsonObject;
  /** The id of the principal that opened it (`authenticate`); absent: none. Only that principal reaches it. */
  readonly principal?: string;
  /** When the record expires (ms since the epoch); null: never. Saving again extends it. */
  readonly expiresAt: number | null;
}

/**
 * Where sessions are recorded for every instance (SessionHttpHandlerOptions.sessionRegistry).
 * Any function may be asynchronous; a failing or throwing one makes the request it serves fail
 * with 503 (never a 404 that would tell the client its session is gone).
 *
 * Deletion is final (Session Management: once a session is terminated, requests naming it are
 * answered 404): remove() leaves a tombstone until `until`, and save() of a tombstoned id writes
 * nothing, so that a refresh already under way on another instance cannot bring it back.
 */
export interface SessionRegistry {
  /** Records (or refreshes) a session until `record.expiresAt`; nothing when the id was removed (its tombstone lives). */
  save(record: SessionRecord): void | Promise<void>;
  /** The record of a session, or undefined: unknown, expired or removed. */
  load(sessionId: string): SessionRecord | undefined | Promise<SessionRecord | undefined>;
  /**
   * Forgets a session (DELETE ended it) and keeps its tombstone until `until` (ms since the
   * epoch; the handler passes now + sessionIdleMs, an hour when sessions never idle out).
   */
  remove(sessionId: string, until: number): void | Promise<void>;
  /**
   * Optional: calls `listener` with the id of every session any instance removes, so that each
   * instance ends its own copy at once (not at its next refresh); returns the function that stops.
   */
  watchRemovals?(listener: (sessionId: string) => void): () => void;
}

/** How long a tombstone lives when sessions never idle out (sessionIdleMs Infinity): an hour. */
export const TOMBSTONE_MS_WITHOUT_IDLE: number = 60 * 60 * 1000;

/**
 * A session id as the spec allows it (Session Management: "The session ID MUST only contain
 * visible ASCII characters (ranging from 0x21 to 0x7E)"), at most 256 of them. Anything else a
 * peer sends is no session anywhere: it never reaches a registry.
 */
const SESSION_ID = /^[\x21-\x7e]{1,256}$/;
export const isSessionId = (value: string): boolean => SESSION_ID.test(value);

export interface InMemorySessionRegistryOptions {
  /** Records kept at most (default 10 000); past it, the one that expires first goes. */
  readonly maxSessions?: number | undefined;
  /** The clock, in ms since the epoch (default Date.now). */
  readonly now?: (() => number) | undefined;
}

/**
 * A SessionRegistry in this process's memory: the reference behaviour of a shared one, for tests
 * and for several handlers in one process. Bounded; expired records are dropped when read.
 * Tombstones are bounded apart, by the same maxSessions (past it, the one that expires first goes).
 */
export class InMemorySessionRegistry implements SessionRegistry {
  readonly #records = new Map<string, SessionRecord>();
  /** Removed ids → when their tombstone expires. */
  readonly #tombstones = new Map<string, number>();
  readonly #watchers = new Set<(sessionId: string) => void>();
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: InMemorySessionRegistryOptions = {}) {
    this.#max = numberOption("maxSessions", options.maxSessions, 10_000, { min: 1 });
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#records.size;
  }

  /** Tombstones kept now (expired ones leave when met). */
  get tombstones(): number {
    return this.#tombstones.size;
  }

  save(record: SessionRecord): void {
    if (this.#buried(record.sessionId)) return;
    setBounded(this.#records, record.sessionId, record, this.#max, (held) => held.expiresAt ?? Infinity);
  }

  load(sessionId: string): SessionRecord | undefined {
    const record = this.#records.get(sessionId);
    if (record !== undefined && record.expiresAt !== null && record.expiresAt <= this.#now()) {
      this.#records.delete(sessionId);
      return undefined;
    }
    return record;
  }

  remove(sessionId: string, until: number): void {
    this.#records.delete(sessionId);
    setBounded(this.#tombstones, sessionId, until, this.#max, (at) => at);
    for (const watcher of [...this.#watchers]) watcher(sessionId);
  }

  watchRemovals(listener: (sessionId: string) => void): () => void {
    this.#watchers.add(listener);
    return () => void this.#watchers.delete(listener);
  }

  /** Whether a live tombstone stands for this id (an expired one is dropped). */
  #buried(sessionId: string): boolean {
    const until = this.#tombstones.get(sessionId);
    if (until === undefined) return false;
    if (until > this.#now()) return true;
    this.#tombstones.delete(sessionId);
    return false;
  }
}

/** A record read from a registry, checked (a registry may be shared with other software): undefined when it is not one. */
export function checkSessionRecord(value: unknown, sessionId: string): SessionRecord | undefined {
  if (!isObject(value)) return undefined;
  const { protocolVersion, clientCapabilities, principal, expiresAt } = value;
  if (value["sessionId"] !== sessionId || typeof protocolVersion !== "string" || !isObject(clientCapabilities)) return undefined;
  if (principal !== undefined && typeof principal !== "string") return undefined;
  if (expiresAt !== null && (typeof expiresAt !== "number" || !Number.isFinite(expiresAt))) return undefined;
  return value as unknown as SessionRecord;
}

/** The registry failed: the request is answered 503, the session is not declared gone. */
export class SessionRegistryError extends Error {
  override name = "SessionRegistryError";
}

/**
 * The handler's side of a registry: saves a session when it opens and again, at most every
 * quarter of the idle time, while it is used (so its record outlives idle time only when it is
 * idle everywhere); loads unknown ids, and the record of a held session at each of its requests
 * (confirm: a DELETE elsewhere is final here at once); removes on DELETE. Failures of saves go to
 * onError (the session goes on here); of loads, a SessionRegistryError.
 */
export class RegistryLink<Held extends object> {
  readonly #registry: SessionRegistry;
  readonly #idleMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #saved = new WeakMap<Held, number>();
  readonly #now: () => number;

  constructor(registry: SessionRegistry, idleMs: number, onError: (error: unknown) => void, now: () => number = Date.now) {
    this.#registry = registry;
    this.#idleMs = idleMs;
    this.#onError = onError;
    this.#now = now;
  }

  /** The record's expiry from now: the session's idle time (null: sessions never idle out). */
  #expiry(): number | null {
    return Number.isFinite(this.#idleMs) ? this.#now() + this.#idleMs : null;
  }

  /** Records a session (after its initialize succeeded, or when it continues here); resolves when done (never rejects: failures go to onError). */
  save(held: Held, record: Omit<SessionRecord, "expiresAt">): Promise<void> {
    this.#saved.set(held, this.#now());
    return this.#call(() => this.#registry.save({ ...record, expiresAt: this.#expiry() }));
  }

  /**
   * A request of a session held here: its record is read first, so that a DELETE on another
   * instance is 404 here from the next request on (the removal notice, watchRemovals, may come
   * later than the client's next request); false: it is gone (the caller ends this copy). When a
   * quarter of the idle time has passed since it was last saved, it is saved again. A registry
   * that cannot answer leaves the session going on here (true; onError has it).
   */
  async confirm(held: Held, record: () => Omit<SessionRecord, "expiresAt"> | undefined): Promise<boolean> {
    const current = record();
    if (current === undefined) return true;
    let stored: SessionRecord | undefined;
    try {
      stored = await this.load(current.sessionId);
    } catch {
      return true; // load reported it
    }
    if (stored === undefined) return false;
    const last = this.#saved.get(held);
    // Ended here meanwhile: nothing to refresh (and a removal elsewhere left a tombstone save() respects).
    if (last !== undefined && this.#now() - last >= this.#idleMs / 4 && record() !== undefined) void this.save(held, current);
    return true;
  }

  /** The record of a session this instance does not hold; throws SessionRegistryError when the registry cannot answer. */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    // A peer's id that no session could have is not looked up (nor made into a key).
    if (!isSessionId(sessionId)) return undefined;
    let value: unknown;
    try {
      value = await this.#registry.load(sessionId);
    } catch (error) {
      this.#onError(error);
      throw new SessionRegistryError(`the session registry failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return value === undefined ? undefined : checkSessionRecord(value, sessionId);
  }

  /** Removes a session for good (a tombstone for the idle time); resolves when done (never rejects: failures go to onError). */
  remove(sessionId: string): Promise<void> {
    const until = this.#now() + (Number.isFinite(this.#idleMs) ? this.#idleMs : TOMBSTONE_MS_WITHOUT_IDLE);
    return this.#call(() => this.#registry.remove(sessionId, until));
  }

  /** `ended` with each session id any instance removes, where the registry tells (watchRemovals); returns the function that stops. */
  watch(ended: (sessionId: string) => void): () => void {
    if (typeof this.#registry.watchRemovals !== "function") return () => undefined;
    try {
      return this.#registry.watchRemovals((sessionId) => {
        try {
          ended(sessionId);
        } catch (error) {
          this.#onError(error);
        }
      });
    } catch (error) {
      this.#onError(error);
      return () => undefined;
    }
  }

  #call(step: () => void | Promise<void>): Promise<void> {
    try {
      return Promise.resolve(step()).catch(this.#onError);
    } catch (error) {
      this.#onError(error);
      return Promise.resolve();
    }
  }
}

/** The `sessionRegistry` option, read. */
export function sessionRegistryOption(value: unknown): SessionRegistry | undefined {
  if (value === undefined) return undefined;
  if (isObject(value) && typeof value["save"] === "function" && typeof value["load"] === "function" && typeof value["remove"] === "function" && (value["watchRemovals"] === undefined || typeof value["watchRemovals"] === "function")) return value as unknown as SessionRegistry;
  throw new TypeError(`sessionRegistry must be a SessionRegistry (save, load, remove; watchRemovals optional), got ${typeof value}`);
}

/**
 * Sets `key` in a map of at most `max` entries: when full, the entry that expires first (`expiry`;
 * the earliest-set one among equals) makes room.
 */
function setBounded<V>(map: Map<string, V>, key: string, value: V, max: number, expiry: (value: V) => number): void {
  map.delete(key);
  if (map.size >= max) {
    let first: [string, V] | undefined;
    for (const entry of map) if (first === undefined || expiry(entry[1]) < expiry(first[1])) first = entry;
    if (first !== undefined) map.delete(first[0]);
  }
  map.set(key, value);
}
