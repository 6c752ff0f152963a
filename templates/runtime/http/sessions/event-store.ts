// Resumability of the session server's SSE streams (2025-03-26, 2025-06-18, 2025-11-25
// basic/transports, "Resumability and Redelivery"): every event the server writes on a stream
// gets an id from an EventStore, and a client whose stream broke asks, with GET and
// `Last-Event-ID`, for the events of that stream after the last one it received.
//
// The store holds the server's own messages (their JSON text), never a peer's bytes, but they may
// echo what a peer sent, so the in-memory default is bounded in events and in bytes, per session
// and over all sessions (event-budget.ts): the oldest events go first, and a stream cannot be
// resumed from an evicted id (resume.ts answers 400).

import { numberOption } from "../../core/options.js";
import { EventStoreBudget, type EventOwner, type HeldEvent } from "./event-budget.js";

/** One stored event: its id and its data (a message's JSON; "" for a priming event). */
export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

/** The events of one stream after a given id, and which stream that is. */
export interface EventReplay {
  readonly streamId: string;
  readonly events: readonly StoredEvent[];
}

/**
 * Where the session server keeps the events of its SSE streams so that a broken stream can be
 * resumed. Stream ids are the server's (`<session id>/<n>`); event ids are the store's and must be
 * unique over every stream it holds ("globally unique across all streams within that session",
 * Resumability and Redelivery), non-empty, without line breaks or NUL (they go into `id:` lines).
 * Either function may be asynchronous (a shared store in a database), and each is called with
 * the stream's messages in order, one at a time.
 */
export interface EventStore {
  /** Stores one event of `streamId` (`data` "": a priming event, never replayed) and returns its id. */
  storeEvent(streamId: string, data: string): string | Promise<string>;
  /**
   * The events of the stream `lastEventId` belongs to that were stored after it, priming events
   * left out; undefined when the id is unknown (never issued, or evicted).
   */
  replayEventsAfter(lastEventId: string): EventReplay | undefined | Promise<EventReplay | undefined>;
}

export interface InMemoryEventStoreOptions {
  /** Events kept at most (default 1000); the oldest go first. */
  readonly maxEvents?: number | undefined;
  /** Bytes of event data kept at most, counted as UTF-16 code units ×2 (default 4 MiB); the oldest go first. */
  readonly maxBytes?: number | undefined;
  /**
   * A budget shared with other stores (the session server gives every session's store its
   * `maxEventStoreBytes`): past it the oldest events of all those stores go first.
   */
  readonly budget?: EventStoreBudget | undefined;
}

const DEFAULT_MAX_EVENTS = 1000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The default EventStore: one per session, in memory, bounded by `maxEvents` and `maxBytes`, and
 * by the budget it shares with the other sessions' stores. Event ids are a counter, so an id
 * names its place in the store; replay walks the events after it (O(events kept)).
 */
export class InMemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #budget: EventStoreBudget | undefined;
  /** In insertion order, which is the order of the events on every stream. */
  readonly #events = new Map<string, HeldEvent>();
  #bytes = 0;
  #counter = 0;
  /** What the shared budget calls when it evicts one of these events. */
  readonly #owner: EventOwner = {
    evicted: (event) => this.#forget(event),
  };

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.#maxEvents = numberOption("maxEvents", options.maxEvents, DEFAULT_MAX_EVENTS, { min: 1, infinity: true });
    this.#maxBytes = numberOption("maxBytes", options.maxBytes, DEFAULT_MAX_BYTES, { min: 1, infinity: true });
    const budget = options.budget;
    if (budget !== undefined && !(budget instanceof EventStoreBudget)) throw new TypeError("budget must be an EventStoreBudget");
    this.#budget = budget;
  }

  /** Events kept now. */
  get size(): number {
    return this.#events.size;
  }

  /** Bytes of event data kept now (UTF-16 code units ×2). */
  get bytes(): number {
    return this.#bytes;
  }

  storeEvent(streamId: string, data: string): string {
    const id = String(++this.#counter);
    const event: HeldEvent = { id, streamId, data, bytes: data.length * 2, owner: this.#owner, older: undefined, newer: undefined };
    this.#events.set(id, event);
    this.#bytes += event.bytes;
    // The shared budget first: it may evict this store's oldest events as well as others'.
    this.#budget?.hold(event);
    while (this.#events.size > this.#maxEvents || this.#bytes > this.#maxBytes) {
      const oldest = this.#events.values().next();
      if (oldest.done === true) break;
      this.#drop(oldest.value);
    }
    return id;
  }

  replayEventsAfter(lastEventId: string): EventReplay | undefined {
    const last = this.#events.get(lastEventId);
    if (last === undefined) return undefined;
    const events: StoredEvent[] = [];
    let after = false;
    for (const [id, event] of this.#events) {
      if (after && event.streamId === last.streamId && event.data !== "") events.push({ id, data: event.data });
      if (id === lastEventId) after = true;
    }
    return { streamId: last.streamId, events };
  }

  /** Drops every event (the session ended): what they held goes back to the budget. */
  clear(): void {
    for (const event of this.#events.values()) this.#budget?.release(event);
    this.#events.clear();
    this.#bytes = 0;
  }

  /** An event this store's own bounds evict: out of the budget too. */
  #drop(event: HeldEvent): void {
    this.#budget?.release(event);
    this.#forget(event);
  }

  #forget(event: HeldEvent): void {
    if (this.#events.delete(event.id)) this.#bytes -= event.bytes;
  }
}
