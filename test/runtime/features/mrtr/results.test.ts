/**
 * What a handler's InputRequiredResult may be when the handler builds it itself (checked after
 * the handler, templates/runtime/features/mrtr.ts `after`), and what ctx.input.supports answers: over the
 * in-memory transport with the raw client, exact JSON-RPC responses.
 */
import { expect, it, onTestFinished } from "vitest";
import type * as R from "../../../generated/2026-07-28/index.js";
import { meta, RawClient, scenarioServer } from "./support.js";

/** A server with these handlers and a raw client, both closed when the test ends. */
async function open(handlers: R.McpServerOptions["handlers"]): Promise<RawClient> {
  const server = scenarioServer({ handlers });
  const c = await RawClient.connect(server);
  onTestFinished(async () => {
    await c.close();
    await server.close();
  });
  return c;
}

/** A tools/call handler answering, as it is, the hand-built result named by the call's `name`. */
const handBuilt = (results: Record<string, unknown>): R.McpServerOptions["handlers"] => ({
  "tools/call": (params) => results[params.name] as R.CallToolResult,
});

it("a hand-built result whose inputRequests is not an object is refused (-32603), even with a requestState", async () => {
  const c = await open(handBuilt({ list: { resultType: "input_required", inputRequests: [], requestState: "s" } }));
  expect(await c.call("tools/call", { name: "list" })).toEqual({
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32603, message: "Internal error: inputRequests must be an object" },
  });
});

it("a hand-built result with only a requestState is sent as it is; one whose requestState is not a string is refused", async () => {
  const c = await open(
    handBuilt({
      state: { resultType: "input_required", requestState: "opaque" },
      number: { resultType: "input_required", requestState: 5 },
      empty: { resultType: "input_required", inputRequests: {}, requestState: 5 },
    }),
  );
  expect(await c.call("tools/call", { name: "state" })).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "input_required", requestState: "opaque" } });
  const needs = { code: -32603, message: "Internal error: an InputRequiredResult needs inputRequests or requestState" };
  expect((await c.call("tools/call", { name: "number" })).error).toEqual(needs);
  expect((await c.call("tools/call", { name: "empty" })).error).toEqual(needs);
});

it("ctx.input.supports: false for a method that is not an input request, and per the params of one", async () => {
  const seen: unknown[] = [];
  const url = { mode: "url" as const, message: "Sign in", url: "https://example.com/x", elicitationId: "e1" };
  const c = await open({
    "tools/call": (_params, ctx) => {
      // Typed to the input methods; a method name from data (or plain JS) may be anything.
      const anyMethod = ctx.input.supports as (method: string) => boolean;
      seen.push(
        anyMethod("tools/call"),
        anyMethod("toString"),
        ctx.input.supports("elicitation/create"),
        ctx.input.supports("elicitation/create", url),
        ctx.input.supports("sampling/createMessage", { messages: [], maxTokens: 1, tools: [] }),
        ctx.input.supports("roots/list"),
      );
      return { resultType: "complete", content: [] };
    },
  });
  expect((await c.call("tools/call", { name: "t", _meta: meta({ elicitation: {}, sampling: {} }) }, { raw: true })).result).toEqual({ resultType: "complete", content: [] });
  expect(seen).toEqual([false, false, true, false, false, false]);
});
