// Single-use requestState (multi round-trip requests, 2026-07-28 `basic/patterns/mrtr`): the
// ReplayGuard a server's `requestState.singleUse` option takes, and its in-memory default. The
// spec lets a state verify more than once within its TTL; a guard refuses every use after the
// first. mrtr-state.ts claims a state's key once the state has passed every other check; the
// Redis add-on (addons/redis/replay-guard.ts) shares one guard among instances.

import { numberOption } from "../core/options.js";

/**
 * What makes a requestState single use: `claim` records a state's key until the state expires
 * and says whether this is the first time. It must be atomic over everything that shares it
 * (a shared store: one atomic set-if-absent with that expiry). A throw or a rejection refuses the
 * request (-32603): a guard that cannot answer never lets a state through.
 */
export interface ReplayGuard {
  /** true: `key` was not claimed before and now is, until `expiresAt` (ms since the epoch); false: a replay. */
  claim(key: string, expiresAt: number): boolean | Promise<boolean>;
}

export interface MemoryReplayGuardOptions {
  /** States remembered at most (default 100 000); past it, with none expired, a claim fails (the request is refused). */
  readonly maxEntries?: number | undefined;
  /** The clock, in ms since the epoch (default Date.now). */
  readonly now?: (() => number) | undefined;
}

const DEFAULT_REPLAY_ENTRIES = 100_000;

/**
 * The in-memory ReplayGuard: the keys claimed, each until its expiry, in a min-heap by expiry so
 * that expired keys are dropped from the top on each claim (no scan). Bounded: when
 * `maxEntries` live keys are held, a claim throws instead of forgetting one (forgetting would
 * let that state be replayed).
 */
export class MemoryReplayGuard implements ReplayGuard {
  readonly #keys = new Set<string>();
  /** [expiresAt, key], a binary min-heap on expiresAt. */
  readonly #heap: Array<readonly [number, string]> = [];
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryReplayGuardOptions = {}) {
    this.#maxEntries = numberOption("maxEntries", options.maxEntries, DEFAULT_REPLAY_ENTRIES, { min: 1 });
    this.#now = options.now ?? Date.now;
  }

  /** Keys remembered now (expired ones included until the next claim drops them). */
  get size(): number {
    return this.#keys.size;
  }

  claim(key: string, expiresAt: number): boolean {
    const now = this.#now();
    while (this.#heap.length > 0 && this.#heap[0]![0] <= now) this.#keys.delete(this.#pop()[1]);
    if (this.#keys.has(key)) return false;
    if (expiresAt <= now) return false;
    if (this.#keys.size >= this.#maxEntries) throw new Error(`the replay guard holds ${this.#maxEntries} unexpired states (maxEntries); try again later`);
    this.#keys.add(key);
    this.#push([expiresAt, key]);
    return true;
  }

  #push(entry: readonly [number, string]): void {
    const heap = this.#heap;
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]![0] <= entry[0]) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): readonly [number, string] {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]![0] < heap[left]![0] ? right : left;
      if (heap[child]![0] >= last[0]) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
