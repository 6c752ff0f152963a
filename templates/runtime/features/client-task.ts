// The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on the client side: a call that
// came back as a task (`resultType: "task"`) becomes a ClientTask, which polls tasks/get until the
// task ends, answers its input requests with tasks/update, and cancels it with tasks/cancel
// (never notifications/cancelled: the request is over). facade/client-tasks.ts wires it into the
// generated McpClient.

import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import { McpError, type JsonObject, type RequestOptions } from "../core/protocol.js";
import { TERMINAL_STATUSES, type TaskStatus } from "./task-protocol.js";

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
