// Type-level tests of the generated 2025-11-25 client and server API, compiled by `npm test`
// (tsc -p tsconfig.json): each `@ts-expect-error` line must be an error, or tsc fails on the
// unused directive; every other line must compile.
import type * as T from "../../../generated/2025-11-25/index.js";
import { McpClient, McpServer } from "../../../generated/2025-11-25/index.js";

declare const client: McpClient;
declare const server: McpServer;
declare const signal: AbortSignal;
declare const initParams: T.InitializeRequestParams;
declare const task: T.TaskMetadata;

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assertType = <V extends true>(): V | undefined => undefined;

export async function sendPath() {
  // initialize takes no signal: the client MUST NOT cancel it.
  await client.initialize(initParams, { timeoutMs: 1000 });
  // @ts-expect-error initialize takes no signal
  await client.initialize(initParams, { signal });
  // @ts-expect-error not through the generic request either
  await client.request("initialize", initParams, { signal });
  // @ts-expect-error nor a cancel reason
  await client.initialize(initParams, { cancelReason: "no" });

  // Ordinary requests take a signal and the cancellation options.
  const result = await client.callTool({ name: "x" }, { signal, timeoutMs: 10, cancelReason: "r", onProgress: (p) => p.progress, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 100 });
  assertType<Equal<typeof result, T.CallToolResult>>();
  const viaGeneric = await client.request("tools/call", { name: "x" }, { signal });
  assertType<Equal<typeof viaGeneric, T.CallToolResult>>();

  // Task-augmented: answered with CreateTaskResult, and no signal (cancel with tasks/cancel).
  const created = await client.callTool({ name: "x", task });
  assertType<Equal<typeof created, T.CreateTaskResult>>();
  // @ts-expect-error a task-augmented request takes no signal
  await client.callTool({ name: "x", task }, { signal });
  // @ts-expect-error not through the generic request either
  await client.request("tools/call", { name: "x", task }, { signal });
  const cancelledTask = await client.cancelTask({ taskId: created.task.taskId });
  assertType<Equal<typeof cancelledTask, T.CancelTaskResult>>();

  // Params: optional where the schema allows, required where it requires; meta-only methods take options only.
  await client.listTools();
  await client.listTools({ cursor: "c" }, { signal });
  await client.ping({ signal });
  // @ts-expect-error tools/call requires params
  await client.callTool();
  // @ts-expect-error a misspelt param
  await client.callTool({ nmae: "x" });

  // Direction: each side has only the requests it may send.
  // @ts-expect-error the server does not send tools/call
  await server.callTool({ name: "x" });
  // @ts-expect-error the client does not send sampling/createMessage
  await client.createMessage({ messages: [], maxTokens: 1 });
  const sampled = await server.createMessage({ messages: [], maxTokens: 1 }, { signal });
  assertType<Equal<typeof sampled, T.CreateMessageResult>>();
  // @ts-expect-error the server's generic request has no tools/call
  await server.request("tools/call", { name: "x" });
}

export function handlers() {
  new McpServer({
    handlers: {
      "tools/call": async (params, ctx) => {
        assertType<Equal<typeof params, T.CallToolRequestParams>>();
        assertType<Equal<typeof ctx.signal, AbortSignal>>();
        // The handler context's request is typed for the server's direction.
        const sample = await ctx.request("sampling/createMessage", { messages: [], maxTokens: 1 });
        assertType<Equal<typeof sample, T.CreateMessageResult>>();
        // @ts-expect-error a server handler cannot send a client request
        await ctx.request("tools/list");
        await ctx.sendProgress(1, 2, "half");
        return { content: [] };
      },
      // Optional params arrive as possibly undefined.
      "tools/list": (params) => ({ tools: [], ...(params?.cursor ? {} : {}) }),
      // @ts-expect-error the result must be a ListPromptsResult
      "prompts/list": () => ({ tools: [] }),
    },
    notificationHandlers: {
      "notifications/initialized": () => {},
      "notifications/roots/list_changed": (params) => void params?._meta,
    },
  });
  new McpServer({
    handlers: {
      // @ts-expect-error not a request the client sends
      "sampling/createMessage": () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }),
    },
  });
  new McpClient({
    handlers: {
      "roots/list": (_params, ctx) => (void ctx.requestId, { roots: [] }),
    },
  });
}

export async function notifyIsNoWayAroundTheSendPath() {
  // Ordinary notifications go through notify.
  await client.notify("notifications/initialized");
  await server.notify("notifications/tools/list_changed");
  // @ts-expect-error notifications/cancelled is sent by the send path only (a signal), never by notify
  await client.notify("notifications/cancelled", { requestId: 1 });
  // @ts-expect-error the server's notify has no notifications/cancelled either
  await server.notify("notifications/cancelled", { requestId: 1 });
  new McpServer({
    handlers: {
      "tools/call": async (_params, ctx) => {
        await ctx.notify("notifications/message", { level: "info", data: "x" });
        // @ts-expect-error nor has a handler's ctx.notify
        await ctx.notify("notifications/cancelled", { requestId: ctx.requestId });
        return { content: [] };
      },
    },
  });
}

export function defaultLifecycle() {
  // serverInfo is the schema's Implementation; capabilities the schema's ServerCapabilities.
  new McpServer({ serverInfo: { name: "s", version: "1" }, capabilities: { tools: { listChanged: true } }, instructions: "hi", protocolVersions: ["2025-11-25"] });
  // @ts-expect-error serverInfo needs a version
  new McpServer({ serverInfo: { name: "s" } });
  // @ts-expect-error not a capability of this revision
  new McpServer({ capabilities: { toolz: {} } });
}
