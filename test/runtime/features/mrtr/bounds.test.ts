/**
 * The nesting bound of what a requestState is bound to (templates/runtime/features/mrtr.ts canonicalJson,
 * MAX_DEPTH 64): a request's params nested up to the bound can be given a state, one level more
 * is refused with -32602 instead of being digested. Exact JSON-RPC over the in-memory transport.
 */
import { expect, it, onTestFinished } from "vitest";
import { KEY, RawClient, scenarioServer } from "./support.js";

/** `levels` arrays around 1. */
const nest = (levels: number): unknown => (levels === 0 ? 1 : [nest(levels - 1)]);

it("params nested 64 levels deep get a state; 65 levels are refused with -32602", async () => {
  const server = scenarioServer({ requestState: { key: KEY }, handlers: { "tools/call": (_params, ctx) => ctx.input.required({}, { state: 1 }) } });
  const c = await RawClient.connect(server);
  onTestFinished(async () => {
    await c.close();
    await server.close();
  });
  // The params object is level 0, `arguments` level 1, its `v` level 2: 62 arrays put the 1 at level 64.
  expect((await c.call("tools/call", { name: "t", arguments: { v: nest(62) } })).result).toEqual({ resultType: "input_required", requestState: expect.any(String) });
  expect((await c.call("tools/call", { name: "t", arguments: { v: nest(63) } })).error).toEqual({ code: -32602, message: "Invalid params: nested too deeply" });
});
