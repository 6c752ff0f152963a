// The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on the server side: the
// handlers of tasks/get, tasks/update and tasks/cancel, and `TaskManager.start()`, which turns a
// handler's work into a task and answers the request with its handle (CreateTaskResult,
// `resultType: "task"`). The tasks themselves live in a TaskStore (task-store.ts; in memory by
// default, memory-task-store.ts).
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
// for an unknown task. Without `{ principal }`, start() called while a handler runs (before its
// first await: core/request-scope.ts) gives the task to that handler's principal; a task started
// without one after an await, in a request that has a principal, would be nobody's (no request of
// the anonymous principal comes when `authenticate` is on), so answering with its handle fails
// the request and cancels the task (`answered`). A task the store drops, expired or evicted, has
// its work's signal aborted with a reason that says so ("task expired", "task evicted").

import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import { describeValue, ErrorCode, McpError, type JsonObject, type Principal } from "../core/protocol.js";
import { runningPrincipal } from "../core/request-scope.js";
import { at, checkValue, issueText, type Check } from "../core/validation.js";
import { InMemoryTaskStore } from "./memory-task-store.js";
import { TASKS_EXTENSION, TERMINAL_STATUSES, type TaskHandle } from "./task-protocol.js";
import type { MaybePromise, StoredTask, TaskStore } from "./task-store.js";

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
   * quotas. Default: the principal of the handler running when start() is called (before the
   * handler's first await), else the anonymous principal (every request without one shares it).
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
  /** Those of them that belong to the anonymous principal (answered() checks a handle against its request). */
  readonly #anonymous = new Set<string>();

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
    // Read before anything is awaited: the running handler's principal is known only now.
    const principal = options.principal ?? runningPrincipal();
    const now = new Date(this.#now()).toISOString();
    const task: StoredTask = {
      taskId: this.#newTaskId(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: options.ttlMs === undefined ? this.#ttlMs : options.ttlMs === null ? null : milliseconds("ttlMs", options.ttlMs),
      pollIntervalMs: options.pollIntervalMs === undefined ? this.#pollIntervalMs : milliseconds("pollIntervalMs", options.pollIntervalMs),
      ...(options.statusMessage === undefined ? {} : { statusMessage: options.statusMessage }),
      ...(principal === undefined ? {} : { owner: principal.id }),
    };
    await this.store.create(task);
    const controller = new AbortController();
    this.#running.set(task.taskId, controller);
    if (principal === undefined) this.#anonymous.add(task.taskId);
    const unwatch = this.store.watch(
      task.taskId,
      (changed) => {
        if (changed.status === "cancelled" && !controller.signal.aborted) controller.abort("task cancelled");
      },
      // Expired or evicted: the work stops and this process lets go of it now, not when it settles.
      (reason) => {
        unwatch();
        this.#forget(task.taskId);
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
    const finish = (change: (current: StoredTask) => StoredTask): Promise<void> => {
      // The work has ended: a cancel from now on has nothing to stop (and the final change is
      // conditional on the task not being terminal), so the watch ends before that change is
      // written, and this process is not told of its own change (a shared store publishes it).
      unwatch();
      return Promise.resolve(this.#change(task.taskId, change)).then(
        () => undefined,
        (error: unknown) => this.#onError(error),
      );
    };
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
        this.#forget(task.taskId);
      });
    return { resultType: "task", ...wireTask(task) };
  }

  #forget(taskId: string): void {
    this.#running.delete(taskId);
    this.#anonymous.delete(taskId);
  }

  /**
   * A handler's answer, checked against its request's principal (the server calls it for every
   * answer when given this manager): the handle of a task of this manager that is the anonymous
   * principal's, answered to a request that has a principal, is a task nobody could reach (its
   * creator's tasks/get would answer "Unknown task"). That is start() without `{ principal }`
   * after the handler's first await: the task is cancelled (its work's signal aborts) and the
   * request fails with -32603 saying so. Only while the task's work runs in this process (a
   * handler that waits for its task's work to end before answering is not caught).
   */
  answered(result: unknown, principal: Principal | undefined): void {
    if (principal === undefined || !isObject(result) || result["resultType"] !== "task") return;
    const taskId = result["taskId"];
    if (typeof taskId !== "string" || !this.#anonymous.has(taskId)) return;
    const reason = "task started without its request's principal";
    this.#running.get(taskId)?.abort(reason);
    void Promise.resolve(this.store.update(taskId, (current) => (TERMINAL_STATUSES.has(current.status) ? undefined : { ...withoutInput(current), status: "cancelled", lastUpdatedAt: this.#iso() }))).catch(this.#onError);
    throw new McpError(
      ErrorCode.InternalError,
      `${reason}: tasks.start() ran after the handler's first await without { principal: ctx.principal }, so nobody could read the task; it was cancelled`,
    );
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
