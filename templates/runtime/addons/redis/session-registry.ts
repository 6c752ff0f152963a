// A SessionRegistry in Redis (http/session-registry.ts): the record of every session of the
// session server, so that a session opened on one instance continues on another. One key per
// session, expiring at the record's `expiresAt` (the handler saves it again while it is used).

import { numberOption } from "../../core/options.js";
import type { SessionRecord, SessionRegistry } from "../../http/sessions/session-registry.js";
import type { RedisConnection } from "./connection.js";

export interface RedisSessionRegistryOptions {
  /** Largest record, in characters of its JSON (default 65 536): a client's capabilities past it are not kept (the session is not shared). */
  readonly maxRecordBytes?: number | undefined;
}

/** The session server's `sessionRegistry` for every instance. */
export class RedisSessionRegistry implements SessionRegistry {
  readonly #redis: RedisConnection;
  readonly #max: number;

  constructor(redis: RedisConnection, options: RedisSessionRegistryOptions = {}) {
    this.#redis = redis;
    this.#max = numberOption("maxRecordBytes", options.maxRecordBytes, 65_536, { min: 256 });
  }

  async save(record: SessionRecord): Promise<void> {
    const json = JSON.stringify(record);
    if (json.length > this.#max) throw new RangeError(`session ${record.sessionId}: a record of ${json.length} characters is past maxRecordBytes (${this.#max})`);
    const key = this.#redis.key("session", record.sessionId);
    await this.#redis.command(record.expiresAt === null ? ["SET", key, json] : ["SET", key, json, "PXAT", String(Math.max(1, Math.floor(record.expiresAt)))]);
  }

  async load(sessionId: string): Promise<SessionRecord | undefined> {
    const json = await this.#redis.command<string | null>(["GET", this.#redis.key("session", sessionId)]);
    if (typeof json !== "string" || json.length > this.#max) return undefined;
    try {
      // The handler checks the record's shape (checkSessionRecord) before it uses it.
      return JSON.parse(json) as SessionRecord;
    } catch {
      return undefined;
    }
  }

  async remove(sessionId: string): Promise<void> {
    await this.#redis.command(["DEL", this.#redis.key("session", sessionId)]);
  }
}
