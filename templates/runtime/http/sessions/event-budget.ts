// One memory budget for the events the session server keeps for resumption, over all of its
// sessions (issue 41: a session may keep 4 MiB, so 1,024 sessions could keep 4 GiB). Each
// session's default InMemoryEventStore holds its events in the budget's one list, oldest first,
// whatever the session: past the budget the oldest events of all sessions go first, so a busy
// session evicts the stale events of idle ones before its own recent ones.
//
// The list is doubly linked, so an event leaves it in constant time however it goes (evicted
// here, by its store's own bounds, or with its session); nothing stale stays behind.

import { numberOption } from "../../core/options.js";

/** The store an event belongs to, told when the budget evicts one of its events. */
export interface EventOwner {
  evicted(event: HeldEvent): void;
}

/** One event held in a budget: its store's record, linked from the oldest to the newest of all. */
export interface HeldEvent {
  readonly id: string;
  readonly streamId: string;
  readonly data: string;
  /** What it counts for: UTF-16 code units × 2, the most its data can take in memory. */
  readonly bytes: number;
  readonly owner: EventOwner;
  older: HeldEvent | undefined;
  newer: HeldEvent | undefined;
}

export interface EventStoreBudgetOptions {
  /** Bytes of event data held at most over every store of the budget, counted as UTF-16 code units × 2 (default 128 MiB). */
  readonly maxBytes?: number | undefined;
}

/** The default budget of a session server's event stores: 128 MiB. */
export const DEFAULT_EVENT_STORE_BYTES: number = 128 * 1024 * 1024;

/**
 * Bytes of event data held by a set of InMemoryEventStores together (`budget` of each), at most
 * `maxBytes`: holding one more evicts the oldest events of all of them until the total fits (the
 * new event too, when it alone is larger than the budget).
 */
export class EventStoreBudget {
  readonly maxBytes: number;
  #bytes = 0;
  #count = 0;
  #oldest: HeldEvent | undefined;
  #newest: HeldEvent | undefined;

  constructor(options: EventStoreBudgetOptions = {}, optionName: string = "maxBytes") {
    this.maxBytes = numberOption(optionName, options.maxBytes, DEFAULT_EVENT_STORE_BYTES, { min: 1, infinity: true });
  }

  /** Bytes held now, over every store. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Events held now, over every store. */
  get size(): number {
    return this.#count;
  }

  /** Takes in a new event (the newest of all), then evicts the oldest ones past the budget. */
  hold(event: HeldEvent): void {
    event.older = this.#newest;
    event.newer = undefined;
    if (this.#newest === undefined) this.#oldest = event;
    else this.#newest.newer = event;
    this.#newest = event;
    this.#bytes += event.bytes;
    this.#count++;
    while (this.#bytes > this.maxBytes && this.#oldest !== undefined) {
      const oldest = this.#oldest;
      this.release(oldest);
      oldest.owner.evicted(oldest);
    }
  }

  /** Lets go of an event its store dropped (its own bounds, or its session ended). */
  release(event: HeldEvent): void {
    if (event.older === undefined) {
      if (this.#oldest !== event) return; // not held (already released)
      this.#oldest = event.newer;
    } else event.older.newer = event.newer;
    if (event.newer === undefined) this.#newest = event.older;
    else event.newer.older = event.older;
    event.older = event.newer = undefined;
    this.#bytes -= event.bytes;
    this.#count--;
  }
}
