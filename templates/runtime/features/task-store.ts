// The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663): where a server's tasks live. The
// TaskStore contract (the in-memory default is memory-task-store.ts, a shared one the Redis
// add-on's addons/redis/task-store.ts), the task as a store keeps it, and the rules every store
// keeps: its bounds, who gets a place, what a change may not touch, when a task expires.
//
// A task belongs to the principal whose request started it (StoredTask.owner). The store bounds
// tasks per principal (unfinished, and finished ones kept) as well as in all, and expires them at
// their TTL; a task the store drops, expired or evicted, is reported to its watchers, so that the
// instance running its work stops it.

import { numberOption } from "../core/options.js";
import { describeValue, McpError, type JsonObject } from "../core/protocol.js";
import { TERMINAL_STATUSES, type TaskStatus } from "./task-protocol.js";

/**
 * A task as the store keeps it: plain JSON data, so a shared store can serialise it. The wire
 * fields of the extension's Task, plus what the runtime needs between requests.
 */
export interface StoredTask {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long after creation the task is kept (ms); null: no limit. */
  readonly ttlMs: number | null;
  /** The polling interval the server suggests (ms). */
  readonly pollIntervalMs?: number;
  /** `input_required`: what the work waits for (InputRequests). */
  readonly inputRequests?: JsonObject;
  /** The client's answers (tasks/update), until the work takes them. */
  readonly inputResponses?: JsonObject;
  /** `completed`: the request's result (for tools/call, a CallToolResult; a tool error too). */
  readonly result?: JsonObject;
  /** `failed`: the JSON-RPC error that ended the work. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /**
   * The id of the principal that created the task (`ctx.principal.id`); absent: the anonymous
   * principal. Only requests of the same principal see the task (tasks/get, tasks/update and
   * tasks/cancel of anyone else's task answer as for an unknown one), and it counts against that
   * principal's quotas. Never sent on the wire.
   */
  readonly owner?: string;
}

/** A value, or a promise of it: what a store's operations return (the in-memory one answers at once). */
export type MaybePromise<T> = T | Promise<T>;

/** Why the store dropped a task before anyone asked it to: its `ttlMs` ran out, or a bound made room. */
export type TaskRemovalReason = "expired" | "evicted";

/**
 * Where tasks live. The in-memory default serves one process; servers behind a load balancer
 * need a shared one (README, "Tasks"), because tasks/get, tasks/update and tasks/cancel may
 * reach any instance, while the work runs on the instance that started it. The store alone
 * decides, atomically, whether a task fits (its bounds and the quotas of the task's `owner`) and
 * when it expires; the manager only asks and listens.
 */
export interface TaskStore {
  /**
   * Stores a new task (its id is fresh), or throws an McpError when it does not fit: its owner is
   * over a quota, or the store is full.
   */
  create(task: StoredTask): MaybePromise<void>;
  /** The task, or undefined when it is unknown or expired. */
  get(taskId: string): MaybePromise<StoredTask | undefined>;
  /**
   * Replaces the task with `change(current)` as one atomic step (a shared store: compare-and-set),
   * or leaves it when `change` returns undefined; resolves to the task as stored afterwards, or
   * undefined when there is no such task.
   */
  update(taskId: string, change: (current: StoredTask) => StoredTask | undefined): MaybePromise<StoredTask | undefined>;
  /**
   * Calls `listener` with the task after each change, made on any instance, and `removed` once
   * when the store drops the task by itself (expired, or evicted to make room); returns the
   * function that stops both. The instance running a task learns of tasks/cancel, tasks/update and
   * of the task's end this way. After `removed` the store keeps nothing of the watcher.
   */
  watch(taskId: string, listener: (task: StoredTask) => void, removed?: (reason: TaskRemovalReason) => void): () => void;
}

// ---------------------------------------------------------------------------------------------
// The rules every TaskStore keeps (the in-memory one, the Redis add-on's): its bounds, who
// gets a place, what a change may not touch, when a task expires. Pure, so that a shared store
// applies the very same code to what it reads (addons/redis/task-store.ts).

/**
 * A task store's bounds as its options give them: the three of InMemoryTaskStoreOptions
 * (memory-task-store.ts, where each is described), which a shared store's options take as well.
 */
export type TaskStoreBounds = {
  readonly maxTasks?: number;
  readonly maxActiveTasksPerPrincipal?: number;
  readonly maxFinishedTasksPerPrincipal?: number;
};

/** A task store's bounds, read and checked (TaskStoreBounds). */
export interface TaskStoreLimits {
  readonly maxTasks: number;
  readonly maxActive: number;
  readonly maxFinished: number;
}

/** The bounds of a task store from its options: whole numbers ≥ 1, defaults 10,000 / 1,000 / 1,000. */
export function taskStoreLimits(options: TaskStoreBounds): TaskStoreLimits {
  return {
    maxTasks: numberOption("maxTasks", options.maxTasks, 10_000, { min: 1 }),
    maxActive: numberOption("maxActiveTasksPerPrincipal", options.maxActiveTasksPerPrincipal, 1_000, { min: 1 }),
    maxFinished: numberOption("maxFinishedTasksPerPrincipal", options.maxFinishedTasksPerPrincipal, 1_000, { min: 1 }),
  };
}

/** What a store holds when a task is created: of the task's owner (unfinished, finished) and in all. */
export interface TaskHoldings {
  readonly active: number;
  readonly finished: number;
  readonly total: number;
}

/** Whether a new task gets a place: refused (with the error to throw), or admitted, after evicting its owner's oldest finished task or not. */
export interface TaskAdmission {
  readonly refusal?: McpError;
  readonly evictOldestFinished: boolean;
}

/**
 * Whether `task` fits, given what the store holds: an unfinished task past its owner's quota of
 * unfinished ones is refused; in a full store, room is made only at the creator's own expense (its
 * oldest finished task), and without one the creator is refused: a task is never dropped for
 * another principal's load.
 */
export function admitTask(task: StoredTask, held: TaskHoldings, limits: TaskStoreLimits): TaskAdmission {
  if (!TERMINAL_STATUSES.has(task.status) && held.active >= limits.maxActive) {
    return {
      refusal: new McpError(-32603, `task quota exceeded: ${describeOwner(task.owner)} already has ${limits.maxActive} unfinished tasks (maxActiveTasksPerPrincipal)`, {
        quota: "maxActiveTasksPerPrincipal",
        limit: limits.maxActive,
      }),
      evictOldestFinished: false,
    };
  }
  if (held.total < limits.maxTasks) return { evictOldestFinished: false };
  if (held.finished > 0 && held.total - 1 < limits.maxTasks) return { evictOldestFinished: true };
  return { refusal: new McpError(-32603, `the task store is full (${limits.maxTasks} tasks in progress)`), evictOldestFinished: false };
}

/** How many of an owner's oldest finished tasks go when it holds `finished` of them (maxFinishedTasksPerPrincipal). */
export function finishedOverflow(finished: number, limits: TaskStoreLimits): number {
  return Math.max(0, finished - limits.maxFinished);
}

/** When a task expires (ms since the epoch; Infinity: never): `ttlMs` after its creation, parsed once. */
export function expiryOf(task: StoredTask, now: () => number): number {
  if (task.ttlMs === null) return Infinity;
  const created = Date.parse(task.createdAt);
  // An unparsable creation time would never expire: count it from now instead.
  return (Number.isFinite(created) ? created : now()) + task.ttlMs;
}

/**
 * The task a change stores: `next`, but with the owner and the clock of `current`, which are
 * fixed at creation (a change cannot move a task to another quota or expiry).
 */
export function keepFixed(current: StoredTask, next: StoredTask): StoredTask {
  return next.owner === current.owner && next.ttlMs === current.ttlMs && next.createdAt === current.createdAt ? next : { ...withoutFixed(next), ...fixed(current) };
}

/** The fields of a stored task a change may not touch. */
function fixed(task: StoredTask): Pick<StoredTask, "owner" | "ttlMs" | "createdAt"> {
  return task.owner === undefined ? { ttlMs: task.ttlMs, createdAt: task.createdAt } : { owner: task.owner, ttlMs: task.ttlMs, createdAt: task.createdAt };
}

function withoutFixed(task: StoredTask): Omit<StoredTask, "owner" | "ttlMs" | "createdAt"> {
  const { owner: _owner, ttlMs: _ttlMs, createdAt: _createdAt, ...rest } = task;
  return rest;
}

function describeOwner(owner: string | undefined): string {
  return owner === undefined ? "the anonymous principal" : `principal ${describeValue(owner)}`;
}

