// Type-level tests of 2026-07-28 generated with the Tasks extension (--extension tasks), compiled
// by `npm test` (tsc -p tsconfig.json): each `@ts-expect-error` line must be an error, or tsc
// fails on the unused directive.
import type * as T from "../../../generated-tasks/2026-07-28/index.js";
import { McpClient, McpServer, type ClientRequestMap, type ServerNotificationMap } from "../../../generated-tasks/2026-07-28/index.js";

declare const client: McpClient;

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assertType = <V extends true>(): V | undefined => undefined;

// The extension's requests are the client's, with the results its schema pairs them with;
// tools/call may now also answer a task handle (CreateTaskResult, resultType "task").
assertType<Equal<ClientRequestMap["tasks/get"]["result"], T.GetTaskResult>>();
assertType<Equal<ClientRequestMap["tasks/update"]["result"], T.UpdateTaskResult>>();
assertType<Equal<ClientRequestMap["tasks/cancel"]["result"], T.CancelTaskResult>>();
assertType<Equal<ClientRequestMap["tools/call"]["result"], T.CallToolResult | T.InputRequiredResult | T.CreateTaskResult>>();
assertType<Equal<ServerNotificationMap["notifications/tasks"]["params"], T.TaskStatusNotification["params"]>>();

export async function clientCallsTasks() {
  const task = await client.getTask({ taskId: "t1" });
  assertType<Equal<typeof task, T.GetTaskResult>>();
  await client.updateTask({ taskId: "t1", inputResponses: {} });
  await client.cancelTask({ taskId: "t1" });
  // @ts-expect-error tasks/get names its task
  await client.getTask({});
  // @ts-expect-error tasks/update carries the answers to the task's input requests
  await client.updateTask({ taskId: "t1" });
  const called = await client.callTool({ name: "slow" });
  // @ts-expect-error a task handle's fields are not a CallToolResult's: check which result came back first
  const id: string = called.taskId;
  return id;
}

export function serverAnswersTasks() {
  new McpServer({
    handlers: {
      "tools/call": () => ({ resultType: "task", taskId: "t1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: null }),
      "tasks/cancel": () => ({ resultType: "complete" }),
      // @ts-expect-error tasks/update answers resultType "complete"
      "tasks/update": () => ({}),
      // @ts-expect-error a task handle names its task
      "tasks/get": () => ({ status: "working", createdAt: "x", lastUpdatedAt: "x", ttlMs: null }),
    },
  });
}

export function clientDoesNotHandleTasksRequests() {
  new McpClient({
    clientInfo: { name: "me", version: "1" },
    handlers: {
      // @ts-expect-error tasks/get is sent by the client, never received by it
      "tasks/get": () => ({}),
    },
  });
}
