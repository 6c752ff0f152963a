// Type-level tests of the 2026-07-28 rules, compiled by `npm test` (tsc -p tsconfig.json): each
// `@ts-expect-error` line must be an error, or tsc fails on the unused directive.
import type * as T from "../../../generated/2026-07-28/index.js";
import { McpClient, McpServer, type ClientRequestMap, type ReceiverEndableMethod } from "../../../generated/2026-07-28/index.js";

declare const client: McpClient;
declare const signal: AbortSignal;
declare const filter: T.SubscriptionFilter;

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assertType = <V extends true>(): V | undefined => undefined;
assertType<Equal<ReceiverEndableMethod, "subscriptions/listen">>();

export async function clientFillsMeta() {
  // The client fills `_meta` (RequestMetaObject) from its options: callers may leave it out,
  await client.callTool({ name: "x" }, { signal });
  await client.request("tools/call", { name: "x" }, { signal });
  await client.subscriptionsListen({ notifications: filter });
  // or override some of its keys,
  await client.callTool({ name: "x", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } });
  // and params that hold only `_meta` become options only.
  await client.discover({ timeoutMs: 5 });
  // @ts-expect-error the other required params stay required
  await client.callTool({});
  // @ts-expect-error there is no initialize in a stateless revision
  await client.initialize({});

  new McpClient({ clientInfo: { name: "me", version: "1" }, capabilities: { roots: {} }, protocolVersion: "2026-07-28", defaultTimeoutMs: 1, defaultMaxTotalTimeoutMs: 2 });
  // @ts-expect-error clientInfo is the schema's Implementation: a version is required
  new McpClient({ clientInfo: { name: "me" } });
}

export function serverEndsOnlySubscriptions() {
  new McpServer({
    handlers: {
      "subscriptions/listen": async (_params, ctx) => {
        // The server may end the client's subscriptions/listen request, and only that one.
        await ctx.end("shutting down");
        return { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "s1" } };
      },
      "tools/call": async (_params, ctx) => {
        // @ts-expect-error a server cancels nothing but subscriptions/listen (2026-07-28)
        await ctx.end("no");
        return { resultType: "complete", content: [] };
      },
    },
  });
}

export async function serverNotifyHasNoCancel(server: McpServer) {
  // @ts-expect-error a server ends a subscription with ctx.end(), never through notify
  await server.notify("notifications/cancelled", { requestId: 1 });
}

// The catalog's results are what each request's `…ResultResponse` allows (CallToolResultResponse:
// `result` is `CallToolResult | InputRequiredResult`).
assertType<Equal<ClientRequestMap["tools/call"]["result"], T.CallToolResult | T.InputRequiredResult>>();
assertType<Equal<ClientRequestMap["resources/read"]["result"], T.ReadResourceResult | T.InputRequiredResult>>();
assertType<Equal<ClientRequestMap["prompts/get"]["result"], T.GetPromptResult | T.InputRequiredResult>>();
assertType<Equal<ClientRequestMap["tools/list"]["result"], T.ListToolsResult>>();
assertType<Equal<ClientRequestMap["server/discover"]["result"], T.DiscoverResult>>();
assertType<Equal<ClientRequestMap["completion/complete"]["result"], T.CompleteResult>>();

// The client answers input requests itself by default (issue 30): it retries until the complete
// result (or rejects with InputRequiredError), so the calls resolve to the complete result type,
// through the typed method and through request(). Manual input handling: test/type-tests.
export async function clientHandlesInputRequired() {
  const called = await client.callTool({ name: "x" });
  const requested = await client.request("tools/call", { name: "x" });
  const read = await client.readResource({ uri: "file:///a" });
  const prompt = await client.getPrompt({ name: "p" });
  assertType<Equal<typeof called, T.CallToolResult>>();
  assertType<Equal<typeof requested, T.CallToolResult>>();
  assertType<Equal<typeof read, T.ReadResourceResult>>();
  assertType<Equal<typeof prompt, T.GetPromptResult>>();
  const listed = await client.listTools();
  return called.content.length + listed.tools.length;
}

export function serverMayAskForInput() {
  new McpServer({
    handlers: {
      // A tools/call handler may answer InputRequiredResult instead of CallToolResult,
      "tools/call": async (params) =>
        params.name === "needs-input" ? { resultType: "input_required", requestState: "state" } : { resultType: "complete", content: [] },
      "resources/read": () => ({ resultType: "input_required", requestState: "state" }),
      // but a tools/list handler may not (ListToolsResultResponse allows ListToolsResult only).
      // @ts-expect-error tools/list answers ListToolsResult only
      "tools/list": () => ({ resultType: "input_required", requestState: "state" }),
    },
  });
}
