// Type-level tests of the 2026-07-28 rules, compiled by `npm test` (tsc -p tsconfig.json): each
// `@ts-expect-error` line must be an error, or tsc fails on the unused directive.
import type * as T from "../generated/2026-07-28/index.js";
import { McpClient, McpServer, type ReceiverEndableMethod } from "../generated/2026-07-28/index.js";

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
