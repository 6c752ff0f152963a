// The generated McpClient's share of the Tasks extension (io.modelcontextprotocol/tasks, SEP-2663):
// what a ClientTask needs of the client, and a call's result that is a task handle becoming a
// ClientTask. Imported only by the client of a revision with the extension merged.

import type { Endpoint } from "../core/endpoint.js";
import type { RequestOptions } from "../core/protocol.js";
import { ClientTask, isTaskHandle, type TaskRequester } from "../features/client-task.js";

/**
 * The request of the Tasks extension that carries a task's inputResponses (SEP-2663): named in an
 * InputRequiredError when a task's input requests cannot be answered.
 */
const TASK_INPUT_REQUEST = "tasks/update";

/** What a ClientTask needs of the client (TaskRequester): its endpoint's requests and input answering. */
export function taskRequester(endpoint: Pick<Endpoint, "request" | "answerInputRequests">, options: { readonly onError?: ((error: Error) => void) | undefined }): TaskRequester {
  return {
    request: (method, params, requestOptions) => endpoint.request(method, params, requestOptions),
    answerInput: (inputRequests, signal) => endpoint.answerInputRequests(TASK_INPUT_REQUEST, inputRequests, signal),
    onError: (error) => options.onError?.(error instanceof Error ? error : new Error(String(error))),
  };
}

/**
 * A result that is a task handle (Tasks extension, `resultType: "task"`) becomes a ClientTask.
 * From here the request is over: notifications/cancelled no longer applies, and aborting the
 * call's signal sends the cancel request instead (unless `afterTask: "detach"`).
 */
export function asTask(requester: TaskRequester, result: unknown, options: RequestOptions | undefined): unknown {
  if (!isTaskHandle(result)) return result;
  const task = new ClientTask(requester, result);
  if (options?.afterTask !== "detach") task.bindSignal(options?.signal);
  return task;
}
