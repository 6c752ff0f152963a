// Type-level tests of issue 42, item 5: with the Tasks extension generated (--extension tasks),
// callTool resolves to a ClientTask only for a client whose `capabilities` declare the extension.
// Compiled by `npm test` (tsc -p tsconfig.json): each `@ts-expect-error` line must be an error, or
// tsc fails on the unused directive.
import type * as T from "../../../generated-tasks/2026-07-28/index.js";
import { ClientTask, McpClient, TASKS_EXTENSION } from "../../../generated-tasks/2026-07-28/index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assertType = <V extends true>(): V | undefined => undefined;
declare const someCapabilities: T.ClientCapabilitiesOption;

export async function withoutTasks(): Promise<string> {
  // No capabilities, or capabilities without the extension: the plain result.
  const plain = new McpClient({ clientInfo: { name: "me", version: "1" } });
  const called = await plain.callTool({ name: "x" });
  assertType<Equal<typeof called, T.CallToolResult>>();
  const other = new McpClient({ capabilities: { extensions: { "x.example/other": {} } } });
  const otherCalled = await other.callTool({ name: "x" });
  assertType<Equal<typeof otherCalled, T.CallToolResult>>();
  // @ts-expect-error no ClientTask: a client that did not declare Tasks never gets one
  const task: ClientTask<T.CallToolResult> = called;
  void task;
  // The content is there without narrowing.
  return String(called.content.length);
}

export async function withTasks(): Promise<string> {
  const client = new McpClient({ capabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  const called = await client.callTool({ name: "x" });
  assertType<Equal<typeof called, T.CallToolResult | ClientTask<T.CallToolResult>>>();
  // @ts-expect-error it may be a task: tell them apart before reading the content
  void called.content;
  if (called instanceof ClientTask) return called.taskId;
  return String(called.content.length);
}

export async function notKnownUntilRunTime(): Promise<void> {
  // Capabilities of the wide type may name the extension: the union, as declared.
  const client = new McpClient({ capabilities: someCapabilities });
  const called = await client.callTool({ name: "x" });
  assertType<Equal<typeof called, T.CallToolResult | ClientTask<T.CallToolResult>>>();
  // Annotated without type arguments: no capabilities, the plain result.
  const annotated: McpClient = new McpClient();
  const plain = await annotated.callTool({ name: "x" });
  assertType<Equal<typeof plain, T.CallToolResult>>();
}
