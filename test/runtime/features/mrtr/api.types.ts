// Type-level tests of ctx.input (multi round-trip requests), compiled by `npm test` (tsc -p
// tsconfig.json): each `@ts-expect-error` line must be an error, or tsc fails on the unused
// directive.
import type * as T from "../../../generated/2026-07-28/index.js";
import { McpServer, type InputRequestMap, type InputRequestMethod, type InputRequiredMethod } from "../../../generated/2026-07-28/index.js";
import { McpServer as McpServer2025 } from "../../../generated/2025-11-25/index.js";
import type { McpClient as McpClient2026 } from "../../../generated/2026-07-28/index.js";
import type { ClientRequestMap, InputContext, RequestHandlers, ServerNotificationMap, ServerRequestMap } from "../../../generated/2026-07-28/index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assertType = <V extends true>(): V | undefined => undefined;

assertType<Equal<InputRequiredMethod, "prompts/get" | "resources/read" | "tools/call">>();
assertType<Equal<InputRequestMethod, "elicitation/create" | "roots/list" | "sampling/createMessage">>();
assertType<Equal<InputRequestMap["elicitation/create"]["result"], T.ElicitResult>>();
assertType<Equal<InputRequestMap["sampling/createMessage"]["params"], T.CreateMessageRequestParams>>();

const form = { message: "Name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };

export const typedAnswers = new McpServer({
  handlers: {
    "tools/call": async (_params, ctx) => {
      const ask = {
        who: { method: "elicitation/create", params: form },
        llm: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } },
        where: { method: "roots/list" },
      } satisfies T.InputRequests;
      const got = ctx.input.responses(ask);
      if (got === undefined) return ctx.input.required(ask, { state: { step: 1 } });
      // Each answer is typed by the method asked under its key.
      assertType<Equal<typeof got.who, T.ElicitResult>>();
      assertType<Equal<typeof got.llm, T.CreateMessageResult>>();
      assertType<Equal<typeof got.where, T.ListRootsResult>>();
      const action: "accept" | "cancel" | "decline" = got.who.action;
      // @ts-expect-error an elicitation answer is not a roots/list result
      const wrong: T.ListRootsResult = got.who;
      // @ts-expect-error nor has it a model
      void got.who.model;
      // @ts-expect-error a key not asked for has no answer
      void got.other;
      const step: number | undefined = ctx.input.state<{ step: number }>()?.step;
      void [action, wrong, step];
      return { resultType: "complete", content: [] };
    },
  },
});

export const checkedRequests = new McpServer({
  handlers: {
    "tools/call": async (_params, ctx) => {
      // Object literals passed straight in are checked against InputRequestMap.
      ctx.input.responses({ a: { method: "elicitation/create", params: form } });
      // @ts-expect-error tools/call is not something a server may ask the client for
      await ctx.input.required({ a: { method: "tools/call", params: { name: "x" } } });
      // @ts-expect-error an unknown method
      ctx.input.responses({ a: { method: "elicitation/createx", params: form } });
      // @ts-expect-error elicitation params need a message
      await ctx.input.required({ a: { method: "elicitation/create", params: { requestedSchema: form.requestedSchema } } });
      // @ts-expect-error sampling params need maxTokens
      await ctx.input.required({ a: { method: "sampling/createMessage", params: { messages: [] } } });
      // @ts-expect-error elicitation requires params
      await ctx.input.required({ a: { method: "elicitation/create" } });
      // roots/list may leave them out.
      await ctx.input.required({ a: { method: "roots/list" } });
      ctx.input.supports("sampling/createMessage", { messages: [], maxTokens: 1, tools: [] });
      // @ts-expect-error supports() takes an input method
      ctx.input.supports("tools/list");
      // @ts-expect-error the state option is the only way to set requestState
      await ctx.input.required({}, { requestState: "x" });
      return ctx.input.required({ a: { method: "roots/list" } });
    },
  },
  requestState: { key: "k".repeat(32), ttlMs: 60_000, principal: (ctx) => String(ctx._meta?.["user"] ?? "") },
});

export const onlyWhereAllowed = new McpServer({
  handlers: {
    "prompts/get": async (_params, ctx) => ctx.input.required({ c: { method: "elicitation/create", params: form } }),
    "resources/read": async (_params, ctx) => ctx.input.required({ c: { method: "roots/list" } }),
    // @ts-expect-error tools/list may not answer InputRequiredResult
    "tools/list": async () => ({ resultType: "input_required" as const, requestState: "x" }),
    "prompts/list": async (_params, ctx) => {
      // @ts-expect-error no ctx.input where InputRequiredResult may not be answered
      void ctx.input;
      return { resultType: "complete", prompts: [], cacheScope: "public", ttlMs: 0 };
    },
  },
});

export const noInputBefore2026 = new McpServer2025({
  handlers: {
    "tools/call": async (_params, ctx) => {
      // @ts-expect-error 2025-11-25 has no multi round-trip requests: no ctx.input
      void ctx.input;
      return { content: [] };
    },
  },
  // @ts-expect-error nor a requestState option
  requestState: { key: "k".repeat(32) },
});

// The revision's index exports the handler types with ctx.input filled in.
export const separately: RequestHandlers<ClientRequestMap, ServerRequestMap, ServerNotificationMap> = {
  "resources/read": async (_params, ctx) => {
    const input: InputContext = ctx.input;
    return input.required({ r: { method: "roots/list" } });
  },
};

// Per-call MRTR options (RequestOptions.maxInputRounds / returnInputRequired) on the typed methods.
export async function perCallInputOptions(client: McpClient2026): Promise<void> {
  await client.callTool({ name: "t", arguments: {} }, { maxInputRounds: 3, returnInputRequired: false });
  await client.getPrompt({ name: "p" }, { returnInputRequired: true });
  await client.readResource({ uri: "file:///x" }, { maxInputRounds: 0 });
  // @ts-expect-error the bound is a number
  await client.callTool({ name: "t", arguments: {} }, { maxInputRounds: "3" });
  // @ts-expect-error returnInputRequired is a boolean
  await client.callTool({ name: "t", arguments: {} }, { returnInputRequired: "yes" });
}
