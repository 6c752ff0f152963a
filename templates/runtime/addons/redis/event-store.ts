// An EventStore on Redis Streams (http/event-store.ts), shared by every instance of a session
// server: a stream broken on one instance resumes on another, from the events stored there.
// One Redis stream per SSE stream, bounded in events (XADD MAXLEN) and expiring (its TTL is set
// again at every event, so a stream lives `ttlMs` after its last one). An event id is the
// entry's id and the stream's, `<entry>@<stream id>`, so any instance finds the stream from it.

import { numberOption } from "../../core/options.js";
import type { EventReplay, EventStore, StoredEvent } from "../../http/sessions/event-store.js";
import type { RedisConnection } from "./connection.js";

export interface RedisEventStoreOptions {
  /** Events kept per stream at most (default 1000); the oldest go first. */
  readonly maxEventsPerStream?: number | undefined;
  /** How long a stream is kept after its last event, in ms (default 3 600 000: one hour). */
  readonly ttlMs?: number | undefined;
  /** Largest event data stored, in characters (default 4 MiB); a larger one is stored empty (it cannot be replayed). */
  readonly maxEventBytes?: number | undefined;
}

const ENTRY = /^\d{1,20}-\d{1,20}$/;

/** The session server's `eventStore` for every instance: `createSessionHttpHandler(server, { eventStore: new RedisEventStore(redis) })`. */
export class RedisEventStore implements EventStore {
  readonly #redis: RedisConnection;
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #maxBytes: number;

  constructor(redis: RedisConnection, options: RedisEventStoreOptions = {}) {
    this.#redis = redis;
    this.#max = numberOption("maxEventsPerStream", options.maxEventsPerStream, 1000, { min: 1 });
    this.#ttlMs = numberOption("ttlMs", options.ttlMs, 3_600_000, { min: 1 });
    this.#maxBytes = numberOption("maxEventBytes", options.maxEventBytes, 4 * 1024 * 1024, { min: 1 });
  }

  async storeEvent(streamId: string, data: string): Promise<string> {
    const key = this.#redis.key("events", streamId);
    const entry = await this.#redis.command<string>(["XADD", key, "MAXLEN", String(this.#max), "*", "d", data.length > this.#maxBytes ? "" : data]);
    await this.#redis.command(["PEXPIRE", key, String(this.#ttlMs)]);
    return `${entry}@${streamId}`;
  }

  async replayEventsAfter(lastEventId: string): Promise<EventReplay | undefined> {
    const at = lastEventId.indexOf("@");
    const entry = lastEventId.slice(0, at);
    const streamId = lastEventId.slice(at + 1);
    if (at < 0 || !ENTRY.test(entry) || streamId === "") return undefined;
    const key = this.#redis.key("events", streamId);
    // The id must still be held (not evicted, not expired): otherwise what follows it is not all there is.
    const self = await this.#redis.command<unknown[]>(["XRANGE", key, entry, entry]);
    if (!Array.isArray(self) || self.length === 0) return undefined;
    const after = await this.#redis.command<unknown[]>(["XRANGE", key, `(${entry}`, "+", "COUNT", String(this.#max)]);
    const events: StoredEvent[] = [];
    for (const item of Array.isArray(after) ? after : []) {
      const [id, fields] = Array.isArray(item) ? item : [];
      const data = Array.isArray(fields) ? fields[1] : undefined;
      if (typeof id === "string" && typeof data === "string" && data !== "") events.push({ id: `${id}@${streamId}`, data });
    }
    return { streamId, events };
  }
}
