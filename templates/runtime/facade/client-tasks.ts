// The generated McpClient's share of the Tasks extension (io.modelcontextprotocol/tasks, SEP-2663):
// what a ClientTask needs of the client, and a call's result that is a task handle becoming a
// ClientTask. Imported only by the client of a revision with the extension merged.

import { isObject } from "../core/json.js";
import type { Endpoint } from "../core/endpoint.js";
import type { JsonObject, RequestOptions } from "../core/protocol.js";
import { ClientTask, isTaskHandle, type TaskRequester } from "../features/client-task.js";
import { TASKS_EXTENSION } from "../features/task-protocol.js";

/**
 * Whether client capabilities `C` (the `capabilities` option, as its literal types it) declare
 * the Tasks extension: true when `extensions` names it, false when they cannot (no `extensions`,
 * or one whose keys are all known), `boolean` when it is not known until run time (a
 * `ClientCapabilities` value, whose `extensions` is a map).
 */
export type TasksDeclared<C> = C extends { readonly extensions: { readonly [K in typeof TASKS_EXTENSION]: unknown } }
  ? true
  : C extends { readonly extensions?: infer E }
    ? string extends keyof NonNullable<E>
      ? boolean
      : false
    : false;

/**
 * What a call that a server may answer with a task handle resolves to besides its result:
 * `ClientTask<R>` where the client declared the extension (or may have: `boolean`), nothing
 * where it did not (a server MUST NOT answer such a client with a task, SEP-2663).
 */
export type TaskIfDeclared<Declared extends boolean, R extends JsonObject> = [Declared] extends [false] ? never : ClientTask<R>;

/** Whether `capabilities` (the client's option) declare the Tasks extension: an own key of `extensions`. */
export function declaresTasks(capabilities: object | undefined): boolean {
  const extensions = isObject(capabilities) ? capabilities["extensions"] : undefined;
  return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/**
 * A server answered with a task handle a request of a client that did not declare the Tasks
 * extension (SEP-2663: a server MUST NOT). The call rejects with it: such a client's result types
 * have no ClientTask, and it never gets a task handle.
 */
export class UndeclaredTaskError extends Error {
  override name = "UndeclaredTaskError";
  /** The task the server started (the server may still run it). */
  readonly taskId: string;
  constructor(taskId: string) {
    super(`the server answered with a task (${taskId}), but this client did not declare the ${TASKS_EXTENSION} extension in its capabilities`);
    this.taskId = taskId;
  }
}

/** The TaskRequester of a generated client, with whether its capabilities declare the extension. */
export interface ClientTaskRequester extends TaskRequester {
  readonly declared: boolean;
}

/**
 * The request of the Tasks extension that carries a task's inputResponses (SEP-2663): named in an
 * InputRequiredError when a task's input requests cannot be answered.
 */
const TASK_INPUT_REQUEST = "tasks/update";

/** What a ClientTask needs of the client (TaskRequester): its endpoint's requests and input answering. */
export function taskRequester(
  endpoint: Pick<Endpoint, "request" | "answerInputRequests">,
  options: { readonly onError?: ((error: Error) => void) | undefined; readonly capabilities?: object | undefined },
): ClientTaskRequester {
  return {
    declared: declaresTasks(options.capabilities),
    request: (method, params, requestOptions) => endpoint.request(method, params, requestOptions),
    answerInput: (inputRequests, signal) => endpoint.answerInputRequests(TASK_INPUT_REQUEST, inputRequests, signal),
    onError: (error) => options.onError?.(error instanceof Error ? error : new Error(String(error))),
  };
}

/**
 * A result that is a task handle (Tasks extension, `resultType: "task"`) becomes a ClientTask.
 * From here the request is over: notifications/cancelled no longer applies, and aborting the
 * call's signal sends the cancel request instead (unless `afterTask: "detach"`). A client that
 * did not declare the extension gets UndeclaredTaskError instead.
 */
export function asTask(requester: ClientTaskRequester, result: unknown, options: RequestOptions | undefined): unknown {
  if (!isTaskHandle(result)) return result;
  if (!requester.declared) throw new UndeclaredTaskError(result.taskId);
  const task = new ClientTask(requester, result);
  if (options?.afterTask !== "detach") task.bindSignal(options?.signal);
  return task;
}
