// A SessionRegistry in Redis (http/session-registry.ts): the record of every session of the
// session server, so that a session opened on one instance continues on another. One key per
// session, expiring at the record's `expiresAt` (the handler saves it again while it is used).
//
// Deletion is final: remove() replaces the record with a tombstone (the same key, expiring with
// the idle time) and publishes the id, in one script; save() is a script that writes nothing over
// a tombstone. So a refresh that read the record just before a DELETE cannot write it back, and
// every instance subscribed (watchRemovals) ends its copy when the DELETE is answered. Session
// ids come from the handler, which looks up only ids of the spec's alphabet (isSessionId) and
// writes only ids of sessions it holds: a peer names no other key, and every tombstone takes the
// place of a record and expires.

import { numberOption } from "../../core/options.js";
import { isSessionId, type SessionRecord, type SessionRegistry } from "../../http/sessions/session-registry.js";
import type { RedisConnection } from "./connection.js";

export interface RedisSessionRegistryOptions {
  /** Largest record, in characters of its JSON (default 65 536): a client's capabilities past it are not kept (the session is not shared). */
  readonly maxRecordBytes?: number | undefined;
  /** Failures no caller sees: a removal notice that could not be heard (subscribing failed), or one that is not a session id. */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** What a removed session's key holds until it expires (no record is this string: records are JSON objects). */
const TOMBSTONE = "removed";

/** ARGV: prefix, id, record JSON, PXAT or "" (never expires). A tombstone stays; returns 1 when written. */
const SAVE = `
local key = ARGV[1] .. 'session:' .. ARGV[2]
if redis.call('GET', key) == '${TOMBSTONE}' then return 0 end
if ARGV[4] == '' then redis.call('SET', key, ARGV[3]) else redis.call('SET', key, ARGV[3], 'PXAT', ARGV[4]) end
return 1
`;

/** ARGV: prefix, id, PXAT of the tombstone. The tombstone, then the notice to every instance. */
const REMOVE = `
redis.call('SET', ARGV[1] .. 'session:' .. ARGV[2], '${TOMBSTONE}', 'PXAT', ARGV[3])
redis.call('PUBLISH', ARGV[1] .. 'session-removed', ARGV[2])
return 1
`;

/** The session server's `sessionRegistry` for every instance. */
export class RedisSessionRegistry implements SessionRegistry {
  readonly #redis: RedisConnection;
  readonly #max: number;
  readonly #onError: (error: Error) => void;

  constructor(redis: RedisConnection, options: RedisSessionRegistryOptions = {}) {
    this.#redis = redis;
    this.#max = numberOption("maxRecordBytes", options.maxRecordBytes, 65_536, { min: 256 });
    this.#onError = (error) => {
      try {
        options.onError?.(error);
      } catch {
        // User code; its failure stops here.
      }
    };
  }

  async save(record: SessionRecord): Promise<void> {
    const json = JSON.stringify(record);
    if (json.length > this.#max) throw new RangeError(`session ${record.sessionId}: a record of ${json.length} characters is past maxRecordBytes (${this.#max})`);
    checkId(record.sessionId);
    await this.#redis.script(SAVE, [record.sessionId, json, record.expiresAt === null ? "" : pxat(record.expiresAt)]);
  }

  async load(sessionId: string): Promise<SessionRecord | undefined> {
    if (!isSessionId(sessionId)) return undefined;
    const json = await this.#redis.command<string | null>(["GET", this.#redis.key("session", sessionId)]);
    if (typeof json !== "string" || json === TOMBSTONE || json.length > this.#max) return undefined;
    try {
      // The handler checks the record's shape (checkSessionRecord) before it uses it.
      return JSON.parse(json) as SessionRecord;
    } catch {
      return undefined;
    }
  }

  async remove(sessionId: string, until: number): Promise<void> {
    checkId(sessionId);
    await this.#redis.script(REMOVE, [sessionId, pxat(until)]);
  }

  watchRemovals(listener: (sessionId: string) => void): () => void {
    const heard = (text: string): void => {
      if (isSessionId(text)) listener(text);
      else this.#onError(new Error("session registry: dropped a removal notice that is not a session id"));
    };
    const pending = this.#redis.subscribe(this.#redis.key("session-removed"), heard);
    pending.catch((error: unknown) => this.#onError(error instanceof Error ? error : new Error(String(error))));
    return () => void pending.then((stop) => stop()).catch(() => undefined);
  }
}

function checkId(sessionId: string): void {
  if (!isSessionId(sessionId)) throw new RangeError(`a session id of visible ASCII (at most 256 characters) was expected, got ${JSON.stringify(sessionId.slice(0, 64))}`);
}

const pxat = (at: number): string => String(Math.max(1, Math.floor(at)));
