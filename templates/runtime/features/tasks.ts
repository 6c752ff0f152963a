// The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on the server side: a task store
// (an interface, with an in-memory default), the handlers of tasks/get, tasks/update and
// tasks/cancel, and `TaskManager.start()`, which turns a handler's work into a task and answers
// the request with its handle (CreateTaskResult, `resultType: "task"`).
//
// Cancellation of a task is its own: a task is cancelled with tasks/cancel, never with
// notifications/cancelled (SEP-2663; in 2025-11-25, where tasks were in the core, Cancellation,
// Behavior Requirements 3). tasks/cancel is acknowledged at once with an empty result, the task
// is `cancelled` from then on, and the work's own signal aborts (cooperative: the work should
// stop; whatever it returns later is dropped, since a terminal task never changes again).
//
// Everything a peer sends is checked here before it is used: ids must be strings of bounded
// length, inputResponses an object; an unknown or expired task is -32602, as the extension says.
//
// A task belongs to the principal whose request started it (`start(work, { principal })`, from
// `ctx.principal`): tasks/get, tasks/update and tasks/cancel from anyone else answer exactly as
// for an unknown task. The store bounds tasks per principal (unfinished, and finished ones kept)
// as well as in all, and expires them at their TTL; a task the store drops, expired or evicted,
// has its work's signal aborted with a reason that says so ("task expired", "task evicted").

import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import { describeValue, ErrorCode, McpError, type JsonObject, type Principal, type RequestOptions } from "../core/protocol.js";
import { at, checkValue, issueText, type Check } from "../core/validation.js";

/** The extension's identifier: the key under `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

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

type MaybePromise<T> = T | Promise<T>;

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

// ---------------------------------------------------------------------------------------------
// The rules every TaskStore keeps (the in-memory one here, the Redis add-on's): its bounds, who
// gets a place, what a change may not touch, when a task expires. Pure, so that a shared store
// applies the very same code to what it reads (addons/redis/task-store.ts).

/** A task store's bounds, read and checked (InMemoryTaskStoreOptions' three; a shared store's options extend them). */
export interface TaskStoreLimits {
  readonly maxTasks: number;
  readonly maxActive: number;
  readonly maxFinished: number;
}

/** The bounds of a task store from its options: whole numbers ≥ 1, defaults 10,000 / 1,000 / 1,000. */
export function taskStoreLimits(options: Pick<InMemoryTaskStoreOptions, "maxTasks" | "maxActiveTasksPerPrincipal" | "maxFinishedTasksPerPrincipal">): TaskStoreLimits {
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

/** What a task's work gets: its id, its signal, and the way to ask the client for input. */
export interface TaskWork {
  readonly taskId: string;
  /**
   * Aborts when the client cancels the task (tasks/cancel; reason "task cancelled"), or when the
   * store drops it: "task expired" at its `ttlMs`, "task evicted" to make room.
   */
  readonly signal: AbortSignal;
  /**
   * Moves the task to `input_required` with these input requests (InputRequests: key → an
   * elicitation, sampling or roots request) and resolves with the client's answers
   * (InputResponses) once tasks/update brings them; rejects (-32800, the signal's reason) when
   * the task is cancelled, expires or is evicted.
   */
  input(inputRequests: JsonObject, statusMessage?: string): Promise<JsonObject>;
  /** Sets the task's statusMessage. */
  status(statusMessage: string): Promise<void>;
}

export interface TaskOptions {
  /** How long the task is kept after creation (ms); null: no limit. Default: the manager's. */
  readonly ttlMs?: number | null;
  /** The polling interval suggested to the client (ms). Default: the manager's. */
  readonly pollIntervalMs?: number;
  readonly statusMessage?: string;
  /**
   * Who the task belongs to: the request's `ctx.principal`. Only requests of the same principal
   * reach it (tasks/get, tasks/update, tasks/cancel), and it counts against that principal's
   * quotas; undefined: the anonymous principal (every request without one shares it).
   */
  readonly principal?: Principal | undefined;
}

export interface TaskManagerOptions {
  readonly store?: TaskStore;
  /** Default 3,600,000 (one hour). */
  readonly ttlMs?: number | null;
  /** Default 1,000. */
  readonly pollIntervalMs?: number;
  /** A new task id (default: crypto.randomUUID()). */
  readonly newTaskId?: () => string;
  /** Clock (ms since the epoch), for tests. */
  readonly now?: () => number;
  /** A work function's or the store's failure that cannot reach a client. */
  readonly onError?: (error: unknown) => void;
}

/**
 * A task handle as a handler returns it (CreateTaskResult: `resultType: "task"` and the Task
 * fields, flat). A type alias, so it is assignable to the schema's CreateTaskResult.
 */
export type TaskHandle = {
  resultType: "task";
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
};

/** Longest task id accepted from a peer. */
const MAX_TASK_ID = 256;

/** The fields of a task the wire shows in every status (Task). */
function wireTask(task: StoredTask): Omit<TaskHandle, "resultType"> {
  const out: Omit<TaskHandle, "resultType"> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
  };
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage;
  if (task.pollIntervalMs !== undefined) out.pollIntervalMs = task.pollIntervalMs;
  return out;
}

/**
 * tasks/get's answer (DetailedTask): the Task fields plus, by status, `inputRequests`
 * (input_required), `result` (completed) or `error` (failed); nothing else.
 */
export function detailedTask(task: StoredTask): JsonObject {
  const out: JsonObject = { ...wireTask(task) };
  if (task.status === "input_required" && task.inputRequests !== undefined) out["inputRequests"] = task.inputRequests;
  if (task.status === "completed" && task.result !== undefined) out["result"] = task.result;
  if (task.status === "failed" && task.error !== undefined) out["error"] = task.error;
  return out;
}

/** The JSON-RPC error a failed work function leaves on its task. */
function errorOf(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof McpError) return error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data };
  return { code: -32603, message: "Internal error" };
}

function taskIdOf(params: JsonObject | undefined): string {
  const taskId = params?.["taskId"];
  if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > MAX_TASK_ID) {
    throw new McpError(-32602, `expected params.taskId to be a task id (a string of 1 to ${MAX_TASK_ID} characters), got ${describeValue(taskId)}`);
  }
  return taskId;
}

function unknownTask(taskId: string): McpError {
  return new McpError(-32602, `Unknown task: ${describeValue(taskId)}`);
}

/** What the tasks/* handlers read of their request's context (HandlerContext). */
interface TaskRequestContext {
  readonly _meta?: JsonObject | undefined;
  /** The sender; a task is reachable only by its owner (StoredTask.owner). */
  readonly principal?: Principal | undefined;
}

type TaskHandler = (params: JsonObject | undefined, ctx?: TaskRequestContext) => Promise<JsonObject>;

/**
 * The first answer to an asked key that breaks the result of the method asked, as the -32602 it
 * is answered with; undefined when every asked key's answer holds (keys not asked are ignored).
 */
function brokenAnswer(asked: JsonObject, given: JsonObject, answers: { readonly [method: string]: Check }): McpError | undefined {
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(asked, key)) continue;
    const request = asked[key];
    const method = isObject(request) && typeof request["method"] === "string" ? request["method"] : undefined;
    const check = method !== undefined && Object.hasOwn(answers, method) ? answers[method] : undefined;
    const issue = check === undefined ? undefined : checkValue(check, given[key]);
    if (issue === undefined) continue;
    const where = at("inputResponses", at(key, issue));
    return new McpError(ErrorCode.InvalidParams, `Invalid params: ${issueText(where)} (the answer to ${method})`, { pointer: where.pointer, expected: issue.expected });
  }
  return undefined;
}

/**
 * Tasks on the server: `start()` for handlers, `handlersFor()` for the three tasks/* requests
 * (the generated McpServer registers them when its `tasks` option is this manager), and
 * `declared()` to tell whether a request's client negotiated the extension.
 */
export class TaskManager {
  readonly store: TaskStore;
  readonly #ttlMs: number | null;
  readonly #pollIntervalMs: number;
  readonly #newTaskId: () => string;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  /** The works running in this process: task id → their abort controller. */
  readonly #running = new Map<string, AbortController>();

  constructor(options: TaskManagerOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.store = options.store ?? new InMemoryTaskStore({ now: this.#now });
    this.#ttlMs = options.ttlMs === undefined ? 3_600_000 : options.ttlMs === null ? null : milliseconds("ttlMs", options.ttlMs);
    this.#pollIntervalMs = milliseconds("pollIntervalMs", options.pollIntervalMs ?? 1_000);
    this.#newTaskId = options.newTaskId ?? (() => globalThis.crypto.randomUUID());
    const onError = options.onError;
    this.#onError = (error) => {
      try {
        onError?.(error);
      } catch {
        // The error callback is user code; its own failure stops here.
      }
    };
  }

  /** Works running in this process. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * Whether the client declared the extension on this request (2026-07-28: the request's
   * `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`). A server MUST NOT answer
   * with a task a client that did not.
   */
  declared(meta: JsonObject | undefined): boolean {
    const capabilities = meta?.["io.modelcontextprotocol/clientCapabilities"];
    const extensions = isObject(capabilities) ? capabilities["extensions"] : undefined;
    return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION);
  }

  /**
   * Starts `work` as a task and resolves to its handle (CreateTaskResult) for the handler to
   * return. The work runs after the handle is stored; its result completes the task, an
   * McpError fails it with that error, anything else with -32603.
   */
  async start(work: (task: TaskWork) => MaybePromise<JsonObject>, options: TaskOptions = {}): Promise<TaskHandle> {
    const now = new Date(this.#now()).toISOString();
    const task: StoredTask = {
      taskId: this.#newTaskId(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: options.ttlMs === undefined ? this.#ttlMs : options.ttlMs === null ? null : milliseconds("ttlMs", options.ttlMs),
      pollIntervalMs: options.pollIntervalMs === undefined ? this.#pollIntervalMs : milliseconds("pollIntervalMs", options.pollIntervalMs),
      ...(options.statusMessage === undefined ? {} : { statusMessage: options.statusMessage }),
      ...(options.principal === undefined ? {} : { owner: options.principal.id }),
    };
    await this.store.create(task);
    const controller = new AbortController();
    this.#running.set(task.taskId, controller);
    const unwatch = this.store.watch(
      task.taskId,
      (changed) => {
        if (changed.status === "cancelled" && !controller.signal.aborted) controller.abort("task cancelled");
      },
      // Expired or evicted: the work stops and this process lets go of it now, not when it settles.
      (reason) => {
        unwatch();
        this.#running.delete(task.taskId);
        if (!controller.signal.aborted) controller.abort(`task ${reason}`);
      },
    );
    const handle: TaskWork = {
      taskId: task.taskId,
      signal: controller.signal,
      input: (inputRequests, statusMessage) => this.#input(task.taskId, controller.signal, inputRequests, statusMessage),
      status: async (statusMessage) => {
        await this.#change(task.taskId, (current) => ({ ...current, statusMessage }));
      },
    };
    const finish = (change: (current: StoredTask) => StoredTask): Promise<void> =>
      Promise.resolve(this.#change(task.taskId, change)).then(
        () => undefined,
        (error: unknown) => this.#onError(error),
      );
    // The work starts after the handle is answered: a synchronous work cannot finish first.
    void Promise.resolve()
      .then(() => work(handle))
      .then(
        (result) => finish((current) => ({ ...withoutInput(current), status: "completed", result: isObject(result) ? result : {} })),
        (error: unknown) => {
          if (!(error instanceof McpError) && !controller.signal.aborted) this.#onError(error);
          return finish((current) => ({ ...withoutInput(current), status: "failed", error: errorOf(error) }));
        },
      )
      .finally(() => {
        unwatch();
        this.#running.delete(task.taskId);
      });
    return { resultType: "task", ...wireTask(task) };
  }

  /**
   * The handlers of tasks/get, tasks/update and tasks/cancel (the generated server registers
   * them when given this manager). A request from a client that did not declare the extension
   * in its `_meta` is refused with `missingCapabilityCode` (the revision's
   * MissingRequiredClientCapabilityError, -32021 in 2026-07-28) and `data.requiredCapabilities`
   * naming the extension (SEP-2575, Missing Required Capabilities).
   */
  handlersFor(
    missingCapabilityCode: number,
    answers: { readonly [method: string]: Check } = {},
  ): { readonly "tasks/get": TaskHandler; readonly "tasks/update": TaskHandler; readonly "tasks/cancel": TaskHandler } {
    const gate = (handler: (params: JsonObject | undefined, owner: string | undefined) => Promise<JsonObject>): TaskHandler => (params, ctx) => {
      if (!this.declared(ctx?._meta)) {
        return Promise.reject(
          new McpError(missingCapabilityCode, `Missing required client capability: the ${TASKS_EXTENSION} extension`, {
            requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
          }),
        );
      }
      return handler(params, ctx?.principal?.id);
    };
    return {
      "tasks/get": gate((params, owner) => this.#get(params, owner)),
      "tasks/update": gate((params, owner) => this.#update(params, owner, answers)),
      "tasks/cancel": gate((params, owner) => this.#cancel(params, owner)),
    };
  }

  // Another principal's task answers exactly as an unknown one: its existence is not revealed.
  async #get(params: JsonObject | undefined, owner: string | undefined): Promise<JsonObject> {
    const taskId = taskIdOf(params);
    const task = await this.store.get(taskId);
    if (task === undefined || task.owner !== owner) throw unknownTask(taskId);
    return { resultType: "complete", ...detailedTask(task) };
  }

  /**
   * tasks/update: the client's answers to the task's pending input requests. Answers may come a
   * few at a time (SEP-2663, partial fulfillment): each answered key leaves `inputRequests`, and
   * the task stays `input_required` until none is pending; then it is `working` again and the
   * work gets every answer at once. Keys the task did not ask for are dropped (a peer cannot grow
   * the task with them); answers for a task that asks for nothing are acknowledged and dropped
   * (it may have been answered, cancelled or finished meanwhile). An answer to a key it asked for
   * is checked against the result of the method asked (`answers`, the generated validators):
   * one that breaks it is -32602 naming the pointer, and nothing of the update is kept.
   */
  async #update(params: JsonObject | undefined, owner: string | undefined, answers: { readonly [method: string]: Check }): Promise<JsonObject> {
    const taskId = taskIdOf(params);
    const inputResponses = params?.["inputResponses"];
    if (!isObject(inputResponses)) throw new McpError(-32602, `expected params.inputResponses to be an object, got ${describeValue(inputResponses)}`);
    let foreign = false;
    let broken: McpError | undefined;
    const task = await this.store.update(taskId, (current) => {
      if (current.owner !== owner) {
        foreign = true;
        return undefined;
      }
      const asked = current.inputRequests;
      if (current.status !== "input_required" || asked === undefined) return undefined;
      broken = brokenAnswer(asked, inputResponses, answers);
      if (broken !== undefined) return undefined;
      const answered: JsonObject = { ...current.inputResponses };
      for (const key of Object.keys(inputResponses)) if (Object.hasOwn(asked, key)) answered[key] = inputResponses[key];
      const pending = Object.fromEntries(Object.entries(asked).filter(([key]) => !Object.hasOwn(answered, key)));
      const lastUpdatedAt = this.#iso();
      if (Object.keys(pending).length > 0) return { ...current, inputRequests: pending, inputResponses: answered, lastUpdatedAt };
      return { ...withoutInput(current), status: "working", inputResponses: answered, lastUpdatedAt };
    });
    if (broken !== undefined) throw broken;
    if (task === undefined || foreign) throw unknownTask(taskId);
    return { resultType: "complete" };
  }

  async #cancel(params: JsonObject | undefined, owner: string | undefined): Promise<JsonObject> {
    const taskId = taskIdOf(params);
    let foreign = false;
    const task = await this.store.update(taskId, (current) => {
      if (current.owner !== owner) foreign = true;
      return foreign || TERMINAL_STATUSES.has(current.status) ? undefined : { ...withoutInput(current), status: "cancelled", lastUpdatedAt: this.#iso() };
    });
    if (task === undefined || foreign) throw unknownTask(taskId);
    // Acknowledged at once (an empty result); the work's signal has aborted through the watcher.
    return { resultType: "complete" };
  }

  #iso(): string {
    return new Date(this.#now()).toISOString();
  }

  /** Applies `change` unless the task is terminal, stamping lastUpdatedAt. */
  #change(taskId: string, change: (current: StoredTask) => StoredTask): MaybePromise<StoredTask | undefined> {
    return this.store.update(taskId, (current) => (TERMINAL_STATUSES.has(current.status) ? undefined : { ...change(current), lastUpdatedAt: this.#iso() }));
  }

  #input(taskId: string, signal: AbortSignal, inputRequests: JsonObject, statusMessage: string | undefined): Promise<JsonObject> {
    return new Promise<JsonObject>((resolve, reject) => {
      if (signal.aborted) return reject(stopped(signal));
      let settled = false;
      const done = (): void => {
        settled = true;
        unwatch();
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = (): void => {
        if (settled) return;
        done();
        reject(stopped(signal));
      };
      const take = (task: StoredTask): void => {
        if (settled || task.status !== "working" || task.inputResponses === undefined) return;
        done();
        const answers = task.inputResponses;
        void Promise.resolve(this.store.update(taskId, (current) => (current.inputResponses === answers ? withoutInput(current) : undefined))).catch(this.#onError);
        resolve(answers);
      };
      // A store that drops the task tells the work's watcher first, which aborts `signal`; this is the fallback.
      const unwatch = this.store.watch(taskId, take, (reason) => {
        if (settled) return;
        done();
        reject(new McpError(-32800, `task ${reason}`));
      });
      signal.addEventListener("abort", onAbort, { once: true });
      Promise.resolve(
        this.#change(taskId, (current) => ({
          ...withoutInput(current),
          status: "input_required",
          inputRequests,
          ...(statusMessage === undefined ? {} : { statusMessage }),
        })),
      ).then(
        (task) => {
          if (task === undefined || TERMINAL_STATUSES.has(task.status)) onAbort();
        },
        (error: unknown) => {
          if (settled) return;
          done();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }
}

/**
 * A duration option as the wire wants it: whole milliseconds ≥ 0 (SEP-2663: `ttlMs` and
 * `pollIntervalMs` are integer milliseconds; servers MUST NOT emit fractional values).
 */
function milliseconds(name: string, value: number): number {
  return numberOption(name, value, 0, { min: 0 });
}

/** The error a wait for input rejects with when the task's work was stopped: the signal's reason. */
function stopped(signal: AbortSignal): McpError {
  return new McpError(-32800, typeof signal.reason === "string" ? signal.reason : "task cancelled");
}

function withoutInput(task: StoredTask): StoredTask {
  const { inputRequests: _requests, inputResponses: _responses, ...rest } = task;
  return rest;
}

// ---------------------------------------------------------------------------------------------
// The client side: a call that came back as a task (`resultType: "task"`) becomes a ClientTask.

/** What a ClientTask needs of the client: requests, and answering input requests as MRTR does. */
export interface TaskRequester {
  request(method: string, params: object | undefined, options?: RequestOptions): Promise<unknown>;
  /**
   * Answers a task's input requests through the client's handlers of their methods (the same
   * handlers that answer an InputRequiredResult); undefined: the client answers none.
   */
  answerInput?: ((inputRequests: JsonObject, signal: AbortSignal | undefined) => Promise<JsonObject>) | undefined;
  /** Where a failure that reaches no caller goes (a tasks/cancel sent on abort that failed). */
  onError?: ((error: unknown) => void) | undefined;
}

/** A task handle as a server sends it: `resultType: "task"` and a task id. */
export function isTaskHandle(value: unknown): value is JsonObject & { resultType: "task"; taskId: string } {
  return isObject(value) && value["resultType"] === "task" && typeof value["taskId"] === "string";
}

/** The task ended `failed`: the server's error for it. */
export class TaskFailedError extends McpError {
  override name = "TaskFailedError";
  readonly taskId: string;
  constructor(taskId: string, error: unknown) {
    const e = isObject(error) ? error : {};
    const code = typeof e["code"] === "number" ? e["code"] : -32603;
    const message = typeof e["message"] === "string" ? e["message"] : "task failed";
    super(code, `task ${taskId} failed: ${message}`, e["data"]);
    this.taskId = taskId;
  }
}

/** The task ended `cancelled` (by tasks/cancel, from this client or elsewhere). */
export class TaskCancelledError extends Error {
  override name = "TaskCancelledError";
  readonly taskId: string;
  constructor(taskId: string) {
    super(`task ${taskId} was cancelled`);
    this.taskId = taskId;
  }
}

export interface TaskResultOptions {
  /** Aborting stops waiting (rejects with the signal's reason); it does not cancel the task. */
  readonly signal?: AbortSignal | undefined;
  /** Polling interval (ms) when the server suggests none (default 1,000); at least 10. */
  readonly pollIntervalMs?: number | undefined;
  /** Called with each tasks/get answer (guarded). */
  readonly onStatus?: ((task: JsonObject) => void) | undefined;
  /** Most input rounds answered for this task (default 10). */
  readonly maxInputRounds?: number | undefined;
}

const MIN_POLL_MS = 10;
/** Longest wait between two polls, whatever the server suggests. */
const MAX_POLL_MS = 60_000;

/**
 * A call that became a task. Its fields are the task's as last seen (the handle, then each
 * tasks/get answer); `result()` polls tasks/get at the server's suggested interval until the
 * task ends, answering `input_required` through the client's handlers with tasks/update, and
 * resolves to the request's own result.
 */
export class ClientTask<R extends JsonObject = JsonObject> {
  readonly resultType = "task" as const;
  readonly taskId: string;
  #latest: JsonObject;
  readonly #requester: TaskRequester;
  #detach: (() => void) | undefined;

  constructor(requester: TaskRequester, handle: JsonObject & { taskId: string }) {
    this.#requester = requester;
    this.taskId = handle.taskId;
    this.#latest = handle;
  }

  get status(): string {
    return typeof this.#latest["status"] === "string" ? this.#latest["status"] : "working";
  }
  get statusMessage(): string | undefined {
    const value = this.#latest["statusMessage"];
    return typeof value === "string" ? value : undefined;
  }
  get pollIntervalMs(): number | undefined {
    const value = this.#latest["pollIntervalMs"];
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
  }
  /** The last tasks/get answer (or the handle). */
  get latest(): JsonObject {
    return this.#latest;
  }

  /**
   * Binds the call's signal: from now on aborting it sends tasks/cancel (never
   * notifications/cancelled: the request is over). Released when the task is seen to end.
   */
  bindSignal(signal: AbortSignal | undefined): void {
    if (signal === undefined) return;
    const onAbort = (): void => {
      this.#release();
      this.cancel().catch((error: unknown) => guard(this.#requester.onError, error));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    this.#detach = () => signal.removeEventListener("abort", onAbort);
  }

  #release(): void {
    this.#detach?.();
    this.#detach = undefined;
  }

  #see(task: JsonObject): void {
    this.#latest = task;
    if (TERMINAL_STATUSES.has(this.status as TaskStatus)) this.#release();
  }

  /** tasks/get: the task now (DetailedTask). */
  async get(options?: RequestOptions): Promise<JsonObject> {
    const task = await this.#requester.request("tasks/get", { taskId: this.taskId }, options);
    if (!isObject(task) || typeof task["status"] !== "string") throw new McpError(-32603, `tasks/get answered no task for ${this.taskId}`);
    this.#see(task);
    return task;
  }

  /** tasks/update: answers the task's input requests. */
  async update(inputResponses: JsonObject, options?: RequestOptions): Promise<void> {
    await this.#requester.request("tasks/update", { taskId: this.taskId, inputResponses }, options);
  }

  /** tasks/cancel: acknowledged at once; the task is `cancelled` at its next tasks/get. */
  async cancel(options?: RequestOptions): Promise<void> {
    this.#release();
    await this.#requester.request("tasks/cancel", { taskId: this.taskId }, options);
  }

  /** Waits for the task to end: its result, or TaskFailedError / TaskCancelledError. */
  async result(options: TaskResultOptions = {}): Promise<R> {
    const { signal } = options;
    const fallback = Math.max(MIN_POLL_MS, numberOption("pollIntervalMs", options.pollIntervalMs, 1_000, { min: 1 }));
    const maxRounds = numberOption("maxInputRounds", options.maxInputRounds, 10, { min: 0 });
    let rounds = 0;
    for (;;) {
      signal?.throwIfAborted();
      const task = await this.get(signal === undefined ? undefined : { signal });
      guard(options.onStatus, task);
      switch (task["status"]) {
        case "completed":
          return (isObject(task["result"]) ? task["result"] : {}) as R;
        case "failed":
          throw new TaskFailedError(this.taskId, task["error"]);
        case "cancelled":
          throw new TaskCancelledError(this.taskId);
        case "input_required": {
          const inputRequests = task["inputRequests"];
          const answer = this.#requester.answerInput;
          if (isObject(inputRequests) && answer !== undefined) {
            if (++rounds > maxRounds) throw new McpError(-32603, `task ${this.taskId} asked for input more than ${maxRounds} times`);
            await this.update(await answer(inputRequests, signal), signal === undefined ? undefined : { signal });
            continue;
          }
          break;
        }
      }
      const suggested = this.pollIntervalMs;
      await sleep(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested ?? fallback)), signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function guard<A>(callback: ((arg: A) => void) | undefined, arg: A): void {
  try {
    callback?.(arg);
  } catch {
    // User callbacks cannot break the task's loop.
  }
}
