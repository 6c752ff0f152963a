/**
 * ctx.input.responses and ctx.input.required as a handler calls them (templates/runtime/features/mrtr.ts
 * InputContext): a programming error is a TypeError (-32603 to the client) even when the retry
 * carries no answer, and an answer is looked up among the retry's own keys only. Exact JSON-RPC
 * over the in-memory transport.
 */
import { expect, it, onTestFinished } from "vitest";
import type * as R from "../../../generated/2026-07-28/index.js";
import { askString, RawClient, scenarioServer } from "./support.js";

async function open(handler: NonNullable<NonNullable<R.McpServerOptions["handlers"]>["tools/call"]>): Promise<RawClient> {
  const server = scenarioServer({ handlers: { "tools/call": handler } });
  const c = await RawClient.connect(server);
  onTestFinished(async () => {
    await c.close();
    await server.close();
  });
  return c;
}

it("responses() of a method that is not an input request is a TypeError, answered or not", async () => {
  const c = await open((_params, ctx) => {
    ctx.input.responses({ x: { method: "tools/call" } } as unknown as R.InputRequests);
    return { resultType: "complete", content: [] };
  });
  const error = { code: -32603, message: 'input request "x": unknown method "tools/call"' };
  expect((await c.call("tools/call", { name: "t", inputResponses: {} })).error).toEqual(error);
  expect((await c.call("tools/call", { name: "t", inputResponses: { x: { action: "accept" } } })).error).toEqual(error);
});

it("responses() and required() of something that is not an object of requests are TypeErrors", async () => {
  const c = await open((params, ctx) => {
    if (params.name === "responses") ctx.input.responses(null as unknown as R.InputRequests);
    return ctx.input.required(null as unknown as R.InputRequests);
  });
  expect((await c.call("tools/call", { name: "responses", inputResponses: {} })).error).toEqual({
    code: -32603,
    message: "ctx.input.responses(requests): requests must be an object of input requests",
  });
  expect((await c.call("tools/call", { name: "required" })).error).toEqual({
    code: -32603,
    message: "ctx.input.required(requests): requests must be an object of input requests",
  });
});

it("a key named like an Object.prototype member is answered only by the retry's own property", async () => {
  const ask = { toString: askString("Name?", "name") };
  const c = await open((_params, ctx) => {
    const got = ctx.input.responses(ask);
    if (got === undefined) return ctx.input.required(ask);
    return { resultType: "complete", content: [{ type: "text", text: String(got["toString"]!.content?.["name"]) }] };
  });
  expect((await c.call("tools/call", { name: "t", inputResponses: {} })).result).toEqual({ resultType: "input_required", inputRequests: ask });
  expect((await c.call("tools/call", { name: "t", inputResponses: { toString: { action: "accept", content: { name: "Ada" } } } })).result).toEqual({
    resultType: "complete",
    content: [{ type: "text", text: "Ada" }],
  });
});
