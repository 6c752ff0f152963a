/**
 * A platform without Web Crypto (no globalThis.crypto): a server that seals or verifies a
 * requestState answers -32603 naming what is missing, while requests that carry and need no
 * state are served as ever (templates/runtime/features/mrtr.ts reads globalThis.crypto when it needs it).
 */
import { expect, it, onTestFinished, vi } from "vitest";
import { askString, KEY, RawClient, scenarioServer } from "./support.js";

it("without globalThis.crypto: sealing and verifying a state fail with -32603 naming Web Crypto; plain rounds still work", async () => {
  const server = scenarioServer({
    requestState: { key: KEY },
    handlers: {
      "tools/call": (params, ctx) => {
        const ask = { confirm: askString("Please confirm", "ok") };
        if (ctx.input.responses(ask) !== undefined) return { resultType: "complete", content: [] };
        return params.name === "stateful" ? ctx.input.required(ask, { state: 1 }) : ctx.input.required(ask);
      },
    },
  });
  const c = await RawClient.connect(server);
  vi.stubGlobal("crypto", undefined);
  onTestFinished(async () => {
    vi.unstubAllGlobals();
    await c.close();
    await server.close();
  });
  const noCrypto = { code: -32603, message: "requestState needs the Web Crypto API (globalThis.crypto.subtle)" };
  expect((await c.call("tools/call", { name: "stateful" })).error).toEqual(noCrypto);
  expect((await c.call("tools/call", { name: "stateful", requestState: `v1.e30.${"A".repeat(43)}` })).error).toEqual(noCrypto);
  expect((await c.call("tools/call", { name: "plain" })).result).toMatchObject({ resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create" } } });
  expect((await c.call("tools/call", { name: "plain", inputResponses: { confirm: { action: "accept", content: { ok: "y" } } } })).result).toEqual({ resultType: "complete", content: [] });
});
