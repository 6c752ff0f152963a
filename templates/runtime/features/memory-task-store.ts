// The Tasks extension's default TaskStore (task-store.ts): InMemoryTaskStore, for a server that
// runs as one process. Bounded in all and per principal, by the rules every store keeps
// (task-store.ts admitTask, keepFixed, expiryOf); tasks expire from a queue ordered by expiry
// time, on a timer as well as on every operation, so an expired task's work is stopped even while
// nobody calls.

import { admitTask, expiryOf, keepFixed, taskStoreLimits, type StoredTask, type TaskRemovalReason, type TaskStore, type TaskStoreLimits } from "./task-store.js";
import { TERMINAL_STATUSES } from "./task-protocol.js";

export interface InMemoryTaskStoreOptions {
  /**
   * Most tasks kept at once, of all principals (default 10,000). When full, expired tasks go
   * first, then the oldest finished task of the principal creating one; a task is never dropped
   * for another principal's load: without a finished task of its own, the creator is refused.
   */
  readonly maxTasks?: number;
  /**
   * Most unfinished tasks (`working` or `input_required`) of one principal (default 1,000): past
   * it, that principal's new task is refused with an error naming this quota. Tasks without an
   * owner (no `authenticate` hook) share one anonymous quota.
   */
  readonly maxActiveTasksPerPrincipal?: number;
  /**
   * Most finished tasks (`completed`, `failed`, `cancelled`) kept for one principal (default
   * 1,000): past it, that principal's oldest finished task is evicted (and only that principal's).
   */
  readonly maxFinishedTasksPerPrincipal?: number;
  /** Clock (ms since the epoch), for tests. */
  readonly now?: () => number;
}

/** A task as the in-memory store holds it: the task, its expiry as a number, and whether it is still held. */
interface Entry {
  task: StoredTask;
  /** ms since the epoch; Infinity: never (ttlMs null). Computed once, when the task is created. */
  readonly expiresAt: number;
  /** False once the task left the store (its place in the expiry queue is then garbage). */
  held: boolean;
}

/** What one principal holds in the store: its unfinished tasks, and its finished ones oldest first. */
interface Holdings {
  active: number;
  /** Finished tasks in the order they finished (a Map keeps insertion order): the first is the oldest. */
  readonly finished: Map<string, Entry>;
}

/** Longest a timer may be set for (setTimeout's limit, 2^31 - 1 ms; longer would fire at once). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The default store: one process, bounded in all and per principal (`owner`), expiring tasks
 * `ttlMs` after they were created. Every operation costs in proportion to what it changes, never
 * to the store's size: tasks expire from a queue ordered by expiry time (a binary heap), and
 * quotas are counters per owner. Expiry happens on a timer as well as on every operation, so an
 * expired task's work is stopped even while nobody calls.
 */
export class InMemoryTaskStore implements TaskStore {
  readonly #entries = new Map<string, Entry>();
  readonly #owners = new Map<string | undefined, Holdings>();
  readonly #watchers = new Map<string, Set<Watcher>>();
  /** Entries with an expiry, as a binary min-heap on expiresAt; entries no longer held are skipped (and compacted). */
  #expiry: Entry[] = [];
  #garbage = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  readonly #limits: TaskStoreLimits;
  readonly #now: () => number;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.#limits = taskStoreLimits(options);
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Tasks of one owner (a principal id; undefined: the anonymous one), unfinished and finished. */
  held(owner: string | undefined): { readonly active: number; readonly finished: number } {
    const holdings = this.#owners.get(owner);
    return { active: holdings?.active ?? 0, finished: holdings?.finished.size ?? 0 };
  }

  create(task: StoredTask): void {
    this.#sweep();
    const holdings = this.#owners.get(task.owner);
    const finished = TERMINAL_STATUSES.has(task.status);
    const admission = admitTask(task, { active: holdings?.active ?? 0, finished: holdings?.finished.size ?? 0, total: this.#entries.size }, this.#limits);
    if (admission.refusal !== undefined) throw admission.refusal;
    if (admission.evictOldestFinished) {
      const oldest = holdings?.finished.values().next().value;
      if (oldest !== undefined) this.#remove(oldest, "evicted");
    }
    const entry: Entry = { task, expiresAt: expiryOf(task, this.#now), held: true };
    this.#entries.set(task.taskId, entry);
    const mine = holdings ?? this.#holdingsOf(task.owner);
    if (finished) this.#finish(mine, entry);
    else mine.active++;
    if (entry.expiresAt !== Infinity) {
      heapPush(this.#expiry, entry);
      this.#arm();
    }
  }

  get(taskId: string): StoredTask | undefined {
    this.#sweep();
    return this.#entries.get(taskId)?.task;
  }

  update(taskId: string, change: (current: StoredTask) => StoredTask | undefined): StoredTask | undefined {
    this.#sweep();
    const entry = this.#entries.get(taskId);
    if (entry === undefined) return undefined;
    const current = entry.task;
    const next = change(current);
    if (next === undefined) return current;
    entry.task = keepFixed(current, next);
    const holdings = this.#holdingsOf(current.owner);
    const was = TERMINAL_STATUSES.has(current.status);
    const is = TERMINAL_STATUSES.has(entry.task.status);
    if (!was && is) {
      holdings.active--;
      this.#finish(holdings, entry);
    } else if (was && !is) {
      holdings.finished.delete(taskId);
      holdings.active++;
    }
    const stored = entry.task;
    for (const watcher of [...(this.#watchers.get(taskId) ?? [])]) guarded(watcher.listener, stored);
    return stored;
  }

  watch(taskId: string, listener: (task: StoredTask) => void, removed?: (reason: TaskRemovalReason) => void): () => void {
    let set = this.#watchers.get(taskId);
    if (set === undefined) this.#watchers.set(taskId, (set = new Set()));
    const watcher: Watcher = { listener, removed };
    set.add(watcher);
    return () => {
      set.delete(watcher);
      // Only this set: a stop called again after the last watcher left must not drop a later set.
      if (set.size === 0 && this.#watchers.get(taskId) === set) this.#watchers.delete(taskId);
    };
  }

  #holdingsOf(owner: string | undefined): Holdings {
    let holdings = this.#owners.get(owner);
    if (holdings === undefined) this.#owners.set(owner, (holdings = { active: 0, finished: new Map() }));
    return holdings;
  }

  /** Records a finished task of its owner, evicting that owner's oldest finished ones past its quota. */
  #finish(holdings: Holdings, entry: Entry): void {
    holdings.finished.set(entry.task.taskId, entry);
    while (holdings.finished.size > this.#limits.maxFinished) {
      const oldest = holdings.finished.values().next().value;
      if (oldest === undefined) break;
      this.#remove(oldest, "evicted");
    }
  }

  /**
   * Drops a task and everything kept for it, then tells its watchers why (once each). `queued`:
   * its place in the expiry queue stays there, as garbage, until it is popped or the queue rebuilt.
   */
  #remove(entry: Entry, reason: TaskRemovalReason, queued = true): void {
    if (!entry.held) return;
    entry.held = false;
    const { taskId, owner } = entry.task;
    this.#entries.delete(taskId);
    const holdings = this.#owners.get(owner);
    if (holdings !== undefined) {
      if (holdings.finished.get(taskId) === entry) holdings.finished.delete(taskId);
      else if (!TERMINAL_STATUSES.has(entry.task.status)) holdings.active--;
      if (holdings.active === 0 && holdings.finished.size === 0) this.#owners.delete(owner);
    }
    if (queued && entry.expiresAt !== Infinity) this.#garbage++;
    const watchers = this.#watchers.get(taskId);
    this.#watchers.delete(taskId);
    for (const watcher of watchers ?? []) if (watcher.removed !== undefined) guarded(watcher.removed, reason);
  }

  /** Expires every task whose time has come: the head of the expiry queue, never a scan. */
  #sweep(): void {
    const now = this.#now();
    for (let head = this.#expiry[0]; head !== undefined && (!head.held || head.expiresAt <= now); head = this.#expiry[0]) {
      heapPop(this.#expiry);
      if (head.held) this.#remove(head, "expired", false);
      else this.#garbage--;
    }
    // Entries of tasks removed otherwise wait in the queue until their time; past half of it, rebuild it.
    if (this.#garbage > 64 && this.#garbage * 2 > this.#expiry.length) {
      this.#expiry = heapOf(this.#expiry.filter((entry) => entry.held));
      this.#garbage = 0;
    }
    this.#arm();
  }

  /** Sets the timer for the earliest expiry (unref'd where the platform allows: it never keeps a process alive). */
  #arm(): void {
    const head = this.#expiry[0];
    const at = head === undefined ? Infinity : head.expiresAt;
    if (at === this.#timerAt) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = at;
    if (at === Infinity) return;
    const timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      this.#sweep();
    }, Math.min(MAX_TIMER_MS, Math.max(0, at - this.#now())));
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }
}

interface Watcher {
  readonly listener: (task: StoredTask) => void;
  readonly removed: ((reason: TaskRemovalReason) => void) | undefined;
}

function guarded<A>(callback: (arg: A) => void, arg: A): void {
  try {
    callback(arg);
  } catch {
    // A watcher's failure is its own; the store and the other watchers go on.
  }
}

// A binary min-heap on expiresAt, in an array.
function heapPush(heap: Entry[], entry: Entry): void {
  heap.push(entry);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]!.expiresAt <= entry.expiresAt) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = entry;
}

function heapPop(heap: Entry[]): void {
  const last = heap.pop();
  if (last === undefined || heap.length === 0) return;
  siftDown(heap, 0, last);
}

function siftDown(heap: Entry[], from: number, entry: Entry): void {
  let i = from;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const child = right < heap.length && heap[right]!.expiresAt < heap[left]!.expiresAt ? right : left;
    if (heap[child]!.expiresAt >= entry.expiresAt) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = entry;
}

function heapOf(entries: Entry[]): Entry[] {
  for (let i = (entries.length >> 1) - 1; i >= 0; i--) siftDown(entries, i, entries[i]!);
  return entries;
}

