/**
 * -32021 MissingRequiredClientCapabilityError when one round asks for several inputs that need
 * sub-capabilities of the same capability (templates/runtime/features/mrtr.ts `check`: the missing ones
 * are merged into one data.requiredCapabilities), and the sampling sub-capabilities decided by
 * a param's value (includeContext) or presence (tools). Exact JSON-RPC over the in-memory
 * transport.
 */
import { expect, it, onTestFinished } from "vitest";
import type * as R from "../../../generated/2026-07-28/index.js";
import { meta, RawClient, scenarioServer } from "./support.js";

/** Asks, from tools/call, for `requests` on a request declaring `capabilities`; the response. */
async function ask(requests: Record<string, unknown>, capabilities: object) {
  const server = scenarioServer({ handlers: { "tools/call": (_params, ctx) => ctx.input.required(requests as R.InputRequests) } });
  const c = await RawClient.connect(server);
  onTestFinished(async () => {
    await c.close();
    await server.close();
  });
  return c.call("tools/call", { name: "t", _meta: meta(capabilities) }, { raw: true });
}

const sample = (extra: Record<string, unknown>) => ({
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5, ...extra },
});
const TOOL = { name: "x", inputSchema: { type: "object" } };

it("two inputs lacking different sub-capabilities of one capability: both in one requiredCapabilities", async () => {
  expect(await ask({ a: sample({ tools: [TOOL] }), b: sample({ includeContext: "thisServer" }) }, { sampling: {} })).toEqual({
    jsonrpc: "2.0",
    id: 1,
    error: {
      code: -32021,
      message: "Missing required client capability: sampling.tools, sampling.context (to ask for a (sampling/createMessage), b (sampling/createMessage))",
      data: { requiredCapabilities: { sampling: { tools: {}, context: {} } } },
    },
  });
});

it("the same missing capability asked twice, once with a sub-capability: listed once, the sub-capability kept", async () => {
  const form = { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } };
  const url = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/x", elicitationId: "e1" } };
  expect((await ask({ f: form, u: url, g: form }, { sampling: {} })).error).toEqual({
    code: -32021,
    message: "Missing required client capability: elicitation.url (to ask for f (elicitation/create), u (elicitation/create), g (elicitation/create))",
    data: { requiredCapabilities: { elicitation: { url: {} } } },
  });
});

it("includeContext needs sampling.context only for thisServer and allServers", async () => {
  expect((await ask({ a: sample({ includeContext: "none" }) }, { sampling: {} })).result).toMatchObject({ resultType: "input_required" });
  expect((await ask({ a: sample({ includeContext: "allServers" }) }, { sampling: { context: {} } })).result).toMatchObject({ resultType: "input_required" });
  expect((await ask({ a: sample({ includeContext: "allServers" }) }, { sampling: { tools: {} } })).error?.data).toEqual({ requiredCapabilities: { sampling: { context: {} } } });
});
