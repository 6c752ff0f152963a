// A TaskStore in Redis (features/task-store.ts), shared by every instance of a server: tasks/get,
// tasks/update and tasks/cancel may reach any instance, while the work runs on the one that
// started the task and learns of changes through `watch` (pub/sub: every change is published by
// the script that makes it; no keyspace notifications needed).
//
// Layout, under the connection's prefix P:
//   P task:<id>                the task, JSON, expiring at createdAt + ttlMs (PXAT)
//   P tasks:all                every held task → its expiry (ms; +inf: none): the total, and the expiry queue
//   P tasks:owner              task → its owner's key
//   P tasks:active:<owner>     the owner's unfinished tasks
//   P tasks:finished:<owner>   the owner's finished tasks, in the order they finished
//   P tasks:events             the channel of changes and evictions
//
// The rules are features/task-store.ts's, run on what the scripts read: admitTask decides whether
// a task gets a place (its owner's quota; room made only at the creator's own expense), keepFixed
// what a change may touch, expiryOf when a task expires. Each write is one Lua script that first
// checks that what the rule was given still holds (compare-and-set), so instances never race; a
// lost race is retried with what the script saw, a bounded number of times.

import { isObject } from "../../core/json.js";
import { numberOption } from "../../core/options.js";
import { McpError } from "../../core/protocol.js";
import type { InMemoryTaskStoreOptions } from "../../features/memory-task-store.js";
import { TERMINAL_STATUSES } from "../../features/task-protocol.js";
import {
  admitTask,
  expiryOf,
  keepFixed,
  taskStoreLimits,
  type StoredTask,
  type TaskRemovalReason,
  type TaskStore,
  type TaskStoreLimits,
} from "../../features/task-store.js";
import type { RedisConnection } from "./connection.js";

export interface RedisTaskStoreOptions extends Pick<InMemoryTaskStoreOptions, "maxTasks" | "maxActiveTasksPerPrincipal" | "maxFinishedTasksPerPrincipal" | "now"> {
  /** Largest task kept, in bytes of its JSON (default 1 MiB); a change past it fails (-32603). */
  readonly maxTaskBytes?: number | undefined;
  /** Failures no caller sees: a watcher's refresh, a message on the channel that is not a task's. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** Compare-and-set rounds before a write gives up (another instance kept changing the same thing). */
const MAX_ROUNDS = 32;
const STATUSES: ReadonlySet<string> = new Set(["working", "input_required", "completed", "failed", "cancelled"]);
const encoder = new TextEncoder();
/** Longest timer (setTimeout's limit). */
const MAX_TIMER_MS = 2_147_483_647;
/**
 * Owners whose counts, and tasks whose JSON, the store remembers from its last round trip (the
 * oldest go first): a create assumes what its owner's last create saw, and a change of a task this
 * instance wrote or watches starts from the JSON it knows, so that each is one round trip when
 * nothing else changed them (the scripts compare first: a stale guess costs one more round).
 */
const MAX_REMEMBERED = 1024;

// Shared by the scripts: drop one task and everything kept for it.
const DROP = `
local function drop(P, id)
  local o = redis.call('HGET', P .. 'tasks:owner', id)
  redis.call('ZREM', P .. 'tasks:all', id)
  redis.call('HDEL', P .. 'tasks:owner', id)
  redis.call('DEL', P .. 'task:' .. id)
  if o then
    redis.call('ZREM', P .. 'tasks:active:' .. o, id)
    redis.call('ZREM', P .. 'tasks:finished:' .. o, id)
  end
end
local function sweep(P, now)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'tasks:all', '-inf', now, 'LIMIT', 0, 256)) do drop(P, id) end
end
-- The oldest finished task of an owner (fin: its finished set) goes, and the channel is told.
-- Only finished tasks: one is in no active set, so it costs fewer calls than drop.
local function evictOldest(P, fin)
  local oldest = redis.call('ZPOPMIN', fin)[1]
  if not oldest then return end
  redis.call('ZREM', P .. 'tasks:all', oldest)
  redis.call('HDEL', P .. 'tasks:owner', oldest)
  redis.call('DEL', P .. 'task:' .. oldest)
  redis.call('PUBLISH', P .. 'tasks:events', cjson.encode({ oldest, false, 'evicted' }))
end
local function trim(P, o, max)
  local fin = P .. 'tasks:finished:' .. o
  for _ = 1, redis.call('ZCARD', fin) - max do evictOldest(P, fin) end
end
`;

/**
 * ARGV: P, id, json, owner key, expiry (ms or +inf), PXAT ('' for none), finished (0/1), now,
 * the owner's active, its finished and the total as the caller's decision assumed them, evict
 * the owner's oldest finished task (0/1), maxFinished, maxActive, maxTasks. The decision
 * (admitTask) depends only on which side of the bounds these counts are, so the script checks
 * that, not the counts themselves (other creates move the total all the time): when it differs
 * it returns {0, active, finished, total} and the caller decides again; {1}: stored; {2}: the id
 * is taken.
 */
const CREATE = `${DROP}
local P, id, json, o = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
sweep(P, ARGV[8])
local act, fin = P .. 'tasks:active:' .. o, P .. 'tasks:finished:' .. o
local a, f, t = redis.call('ZCARD', act), redis.call('ZCARD', fin), redis.call('ZCARD', P .. 'tasks:all')
local maxActive, maxTasks = tonumber(ARGV[14]), tonumber(ARGV[15])
local function side(active, finished, total)
  return (ARGV[7] == '0' and active >= maxActive and 'q' or '-') .. (total >= maxTasks and 'f' or '-') .. ((finished > 0 and total - 1 < maxTasks) and 'e' or '-')
end
if side(a, f, t) ~= side(tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])) then return { 0, a, f, t } end
-- NX: an id that is taken is refused before anything changes.
local stored
if ARGV[6] == '' then stored = redis.call('SET', P .. 'task:' .. id, json, 'NX') else stored = redis.call('SET', P .. 'task:' .. id, json, 'NX', 'PXAT', ARGV[6]) end
if not stored then return { 2 } end
if ARGV[12] == '1' then evictOldest(P, fin) end
redis.call('ZADD', P .. 'tasks:all', ARGV[5], id)
redis.call('HSET', P .. 'tasks:owner', id, o)
if ARGV[7] == '1' then
  redis.call('ZADD', fin, redis.call('INCR', P .. 'tasks:seq'), id)
  trim(P, o, tonumber(ARGV[13]))
else
  redis.call('ZADD', act, ARGV[8], id)
end
return { 1 }
`;

/**
 * ARGV: P, id, the JSON seen, the JSON to store, was finished (0/1), is finished (0/1),
 * maxFinished, now, the owner's key (read from the JSON seen, which the script compares first, so
 * it is the stored task's). Returns {0} when the task is gone, {1, current} when it changed since
 * it was seen, {2} when stored (and published).
 */
const UPDATE = `${DROP}
local P, id = ARGV[1], ARGV[2]
local key = P .. 'task:' .. id
local current = redis.call('GET', key)
if not current then return { 0 } end
if current ~= ARGV[3] then return { 1, current } end
redis.call('SET', key, ARGV[4], 'KEEPTTL')
local o = ARGV[9]
if ARGV[5] == '0' and ARGV[6] == '1' then
  redis.call('ZREM', P .. 'tasks:active:' .. o, id)
  redis.call('ZADD', P .. 'tasks:finished:' .. o, redis.call('INCR', P .. 'tasks:seq'), id)
elseif ARGV[5] == '1' and ARGV[6] == '0' then
  redis.call('ZREM', P .. 'tasks:finished:' .. o, id)
  redis.call('ZADD', P .. 'tasks:active:' .. o, ARGV[8], id)
end
redis.call('PUBLISH', P .. 'tasks:events', cjson.encode({ id, ARGV[4] }))
if ARGV[6] == '1' then trim(P, o, tonumber(ARGV[7])) end
return { 2 }
`;

/** A task's JSON as this instance last wrote or heard of it, and the task it reads as (so that it is not parsed again). */
interface Known {
  readonly json: string;
  readonly task: StoredTask;
}

interface Watcher {
  readonly listener: (task: StoredTask) => void;
  readonly removed: ((reason: TaskRemovalReason) => void) | undefined;
}

/** The key of an owner: the anonymous principal and every principal id apart. */
const ownerKey = (owner: string | undefined): string => (owner === undefined ? "-" : `=${owner}`);

/** A stored task read back, checked (the Redis may be shared with other software): undefined when it is not one. */
function parseTask(json: unknown, taskId: string): StoredTask | undefined {
  if (typeof json !== "string") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value["taskId"] !== taskId || typeof value["status"] !== "string" || !STATUSES.has(value["status"])) return undefined;
  if (typeof value["createdAt"] !== "string" || typeof value["lastUpdatedAt"] !== "string") return undefined;
  if (value["ttlMs"] !== null && typeof value["ttlMs"] !== "number") return undefined;
  if (value["owner"] !== undefined && typeof value["owner"] !== "string") return undefined;
  return value as unknown as StoredTask;
}

/**
 * The TaskStore of the Redis add-on: bounded in all and per principal as InMemoryTaskStore is
 * (the same rules, features/task-store.ts), tasks expiring in Redis at their `ttlMs`. A command
 * that Redis cannot answer rejects with RedisUnavailableError, which the tasks/* handlers answer as
 * -32603; stored tasks stay in Redis through an outage.
 */
export class RedisTaskStore implements TaskStore {
  readonly #redis: RedisConnection;
  readonly #limits: TaskStoreLimits;
  readonly #maxBytes: number;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #watchers = new Map<string, Set<Watcher>>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Owner key → [active, finished, total] as its last create saw them. */
  readonly #counts = new Map<string, readonly [number, number, number]>();
  /** Task id → the JSON this instance last wrote or heard of (a guess; the scripts compare), and that JSON read. */
  readonly #known = new Map<string, Known>();
  #subscribed: Promise<() => Promise<void>> | undefined;

  constructor(redis: RedisConnection, options: RedisTaskStoreOptions = {}) {
    this.#redis = redis;
    this.#limits = taskStoreLimits(options);
    this.#maxBytes = numberOption("maxTaskBytes", options.maxTaskBytes, 1024 * 1024, { min: 1024 });
    this.#now = options.now ?? Date.now;
    const onError = options.onError;
    this.#onError = (error) => {
      try {
        onError?.(error);
      } catch {
        // User code; its failure stops here.
      }
    };
  }

  async create(task: StoredTask): Promise<void> {
    const json = this.#serialise(task);
    const finished = TERMINAL_STATUSES.has(task.status);
    const expiresAt = expiryOf(task, this.#now);
    const owner = ownerKey(task.owner);
    // First assume what this owner's last create saw (else: under every bound); a guess only
    // decides where the script checks, never a refusal (one round trip when it still holds).
    let seen: readonly [number, number, number] = this.#counts.get(owner) ?? [0, 0, 0];
    const guess = admitTask(task, { active: seen[0], finished: seen[1], total: seen[2] }, this.#limits);
    if (guess.refusal !== undefined) seen = [0, 0, 0];
    let evict = guess.refusal === undefined && guess.evictOldestFinished;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const reply = await this.#redis.script<unknown[]>(CREATE, [
        task.taskId,
        json,
        owner,
        expiresAt === Infinity ? "+inf" : String(expiresAt),
        expiresAt === Infinity ? "" : String(Math.max(expiresAt, this.#now() + 1)),
        finished ? "1" : "0",
        String(this.#now()),
        String(seen[0]),
        String(seen[1]),
        String(seen[2]),
        evict ? "1" : "0",
        String(this.#limits.maxFinished),
        String(this.#limits.maxActive),
        String(this.#limits.maxTasks),
      ]);
      const outcome = Number(reply[0]);
      if (outcome === 1) {
        // What the owner holds now, as far as this instance knows (the next create's guess): an
        // eviction made room, so the total stays and one finished task of the owner left.
        const evicted = evict ? 1 : 0;
        remember(this.#counts, owner, [seen[0] + (finished ? 0 : 1), seen[1] - evicted + (finished ? 1 : 0), seen[2] + 1 - evicted]);
        remember(this.#known, task.taskId, { json, task });
        return;
      }
      if (outcome === 2) throw new McpError(-32603, `task id ${task.taskId} is taken`);
      seen = [Number(reply[1]), Number(reply[2]), Number(reply[3])];
      const admission = admitTask(task, { active: seen[0], finished: seen[1], total: seen[2] }, this.#limits);
      if (admission.refusal !== undefined) throw admission.refusal;
      evict = admission.evictOldestFinished;
    }
    throw new McpError(-32603, `the task store is busy: ${MAX_ROUNDS} attempts to store task ${task.taskId} raced with other instances`);
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    return parseTask(await this.#redis.command<string | null>(["GET", this.#redis.key("task", taskId)]), taskId);
  }

  async update(taskId: string, change: (current: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
    const known = this.#known.get(taskId);
    let json = known?.json ?? (await this.#redis.command<string | null>(["GET", this.#redis.key("task", taskId)]));
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const current = round === 0 && known !== undefined ? known.task : parseTask(json, taskId);
      if (current === undefined || typeof json !== "string") return undefined;
      const proposed = change(current);
      if (proposed === undefined) return current;
      const next = keepFixed(current, proposed);
      const nextJson = this.#serialise(next);
      const reply = await this.#redis.script<unknown[]>(UPDATE, [
        taskId,
        json,
        nextJson,
        TERMINAL_STATUSES.has(current.status) ? "1" : "0",
        TERMINAL_STATUSES.has(next.status) ? "1" : "0",
        String(this.#limits.maxFinished),
        String(this.#now()),
        ownerKey(current.owner),
      ]);
      const outcome = Number(reply[0]);
      if (outcome === 0) {
        this.#known.delete(taskId);
        return undefined;
      }
      if (outcome === 2) {
        remember(this.#known, taskId, { json: nextJson, task: next });
        this.#finished(current, next);
        return next;
      }
      json = typeof reply[1] === "string" ? reply[1] : null;
    }
    throw new McpError(-32603, `the task store is busy: ${MAX_ROUNDS} attempts to change task ${taskId} raced with other instances`);
  }

  watch(taskId: string, listener: (task: StoredTask) => void, removed?: (reason: TaskRemovalReason) => void): () => void {
    let set = this.#watchers.get(taskId);
    if (set === undefined) {
      this.#watchers.set(taskId, (set = new Set()));
      this.#armExpiry(taskId);
    }
    const watcher: Watcher = { listener, removed };
    set.add(watcher);
    this.#subscribe();
    return () => {
      set.delete(watcher);
      if (set.size === 0 && this.#watchers.get(taskId) === set) this.#forget(taskId, false);
    };
  }

  /** Stops listening to the channel (the connection stays open; close it yourself). */
  async close(): Promise<void> {
    for (const taskId of [...this.#watchers.keys()]) this.#forget(taskId, false);
    const unsubscribe = await this.#subscribed?.catch(() => undefined);
    this.#subscribed = undefined;
    await unsubscribe?.();
  }

  /** A task of this instance's change finished (or came back): its owner's counts as the next create will guess them. */
  #finished(current: StoredTask, next: StoredTask): void {
    const was = TERMINAL_STATUSES.has(current.status);
    if (was === TERMINAL_STATUSES.has(next.status)) return;
    const owner = ownerKey(current.owner);
    const counts = this.#counts.get(owner);
    if (counts === undefined) return;
    const moved = was ? -1 : 1;
    remember(this.#counts, owner, [Math.max(0, counts[0] - moved), Math.max(0, counts[1] + moved), counts[2]]);
  }

  #serialise(task: StoredTask): string {
    const json = JSON.stringify(task);
    if (json.length > this.#maxBytes / 3 && encoder.encode(json).length > this.#maxBytes) {
      throw new McpError(-32603, `task ${task.taskId} is larger than ${this.#maxBytes} bytes (maxTaskBytes)`);
    }
    return json;
  }

  #subscribe(): void {
    if (this.#subscribed !== undefined) return;
    const subscribed = this.#redis.subscribe(this.#redis.key("tasks", "events"), (message) => this.#message(message), () => this.#resync());
    this.#subscribed = subscribed;
    subscribed.catch((error: unknown) => {
      // Not subscribed (Redis down at the first watch): the next watch tries again.
      if (this.#subscribed === subscribed) this.#subscribed = undefined;
      this.#onError(error);
    });
  }

  /**
   * Back on the channel after a drop: changes published meanwhile were missed, so every watched
   * task is read again and its watchers told how it is now (or that it is gone).
   */
  #resync(): void {
    for (const taskId of [...this.#watchers.keys()]) {
      void this.get(taskId).then(
        (task) => {
          const set = this.#watchers.get(taskId);
          if (set === undefined) return;
          if (task === undefined) return this.#removed(taskId, "expired");
          for (const watcher of [...set]) guarded(watcher.listener, task);
        },
        (error: unknown) => this.#onError(error),
      );
    }
  }

  /** A message on the channel: [id, task JSON] after a change, [id, false, reason] after an eviction. */
  #message(message: string): void {
    // Most messages are of tasks nobody here watches: the id (first, a plain string) tells, unparsed.
    const close = message.startsWith('["') ? message.indexOf('"', 2) : -1;
    if (close > 2 && !message.slice(2, close).includes("\\") && !this.#watchers.has(message.slice(2, close))) return;
    let value: unknown;
    try {
      value = JSON.parse(message);
    } catch {
      return this.#onError(new Error("tasks channel: a message that is not JSON"));
    }
    if (!Array.isArray(value) || typeof value[0] !== "string") return this.#onError(new Error("tasks channel: a message that is not a task's"));
    const taskId = value[0];
    const set = this.#watchers.get(taskId);
    if (set === undefined) return;
    if (value[1] === false) return this.#removed(taskId, value[2] === "expired" ? "expired" : "evicted");
    // This instance's own change comes back as the JSON it wrote: the task it read is known.
    const known = this.#known.get(taskId);
    const task = known !== undefined && known.json === value[1] ? known.task : parseTask(value[1], taskId);
    if (task === undefined) return this.#onError(new Error(`tasks channel: task ${taskId} is not a task`));
    remember(this.#known, taskId, { json: value[1] as string, task });
    for (const watcher of [...set]) guarded(watcher.listener, task);
  }

  #removed(taskId: string, reason: TaskRemovalReason): void {
    const set = this.#watchers.get(taskId);
    this.#forget(taskId, true);
    for (const watcher of set ?? []) if (watcher.removed !== undefined) guarded(watcher.removed, reason);
  }

  /** Stops watching a task; `gone`: it left the store, so what this instance knew of it goes too (else it stays, bounded, for this instance's next change of it). */
  #forget(taskId: string, gone: boolean): void {
    this.#watchers.delete(taskId);
    if (gone) this.#known.delete(taskId);
    const timer = this.#timers.get(taskId);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(taskId);
  }

  /**
   * Redis drops a task at its expiry without telling anyone (no keyspace notifications): the
   * instance watching it keeps a timer for that moment and then tells its watchers, as the
   * in-memory store does.
   */
  #armExpiry(taskId: string): void {
    // Its creation time and ttl never change: the JSON this instance knows tells them without a read.
    const known = this.#known.get(taskId);
    void (known === undefined ? this.get(taskId) : Promise.resolve(known.task)).then(
      (task) => {
        if (!this.#watchers.has(taskId)) return;
        if (task === undefined) return this.#removed(taskId, "expired");
        const at = expiryOf(task, this.#now);
        if (at === Infinity) return;
        const timer = setTimeout(() => {
          this.#timers.delete(taskId);
          void this.get(taskId).then(
            (still) => {
              if (still === undefined) this.#removed(taskId, "expired");
              else if (this.#watchers.has(taskId)) this.#armExpiry(taskId);
            },
            (error: unknown) => this.#onError(error),
          );
        }, Math.min(MAX_TIMER_MS, Math.max(0, at - this.#now())));
        (timer as { unref?: () => void }).unref?.();
        this.#timers.set(taskId, timer);
      },
      (error: unknown) => this.#onError(error),
    );
  }
}

/** Sets `key` as the newest entry of a bounded map (the oldest goes past MAX_REMEMBERED). */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_REMEMBERED) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

function guarded<A>(callback: (arg: A) => void, arg: A): void {
  try {
    callback(arg);
  } catch {
    // A watcher's failure is its own; the store and the other watchers go on.
  }
}
