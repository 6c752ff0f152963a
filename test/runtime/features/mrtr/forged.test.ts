/**
 * A requestState whose MAC is genuine (made with the server's key) over a payload this server
 * would never issue: what another program sharing the key (an older or newer server behind the
 * same load balancer) could send. Such a state is refused as "invalid" (-32602) before the
 * handler runs, never accepted with a missing expiry or binding, never an internal error.
 */
import { createHmac } from "node:crypto";
import { expect, it, onTestFinished } from "vitest";
import { askString, KEY, RawClient, scenarioServer } from "./support.js";

const INVALID = { code: -32602, message: "Invalid requestState: it failed integrity verification", data: { reason: "invalid" } };

/** "v1.<payload>.<mac>" with a MAC made under the test key, as the server makes it. */
function signed(payload: Uint8Array | string): string {
  const body = `v1.${Buffer.from(payload).toString("base64url")}`;
  return `${body}.${createHmac("sha256", KEY).update(body).digest("base64url")}`;
}

it("a genuine MAC over a payload of another shape is invalid, and the handler does not run", async () => {
  const runs: unknown[] = [];
  const server = scenarioServer({
    requestState: { key: KEY },
    handlers: {
      "tools/call": (_params, ctx) => {
        const ask = { confirm: askString("Please confirm", "ok") };
        if (ctx.input.state() === undefined) return ctx.input.required(ask, { state: "first" });
        runs.push(ctx.input.state());
        return { resultType: "complete", content: [] };
      },
    },
  });
  const c = await RawClient.connect(server);
  onTestFinished(async () => {
    await c.close();
    await server.close();
  });
  const retry = (requestState: string) => c.call("tools/call", { name: "t", requestState });

  const issued = (await c.call("tools/call", { name: "t" })).result?.["requestState"] as string;
  // The state is signed, not encrypted: its expiry and binding tag can be read and reused.
  const { e, b } = JSON.parse(Buffer.from(issued.split(".")[1]!, "base64url").toString("utf8")) as { e: number; b: string };
  // The control: re-signing the server's own payload shape is accepted.
  expect((await retry(signed(JSON.stringify({ e, b, s: "again" })))).result).toEqual({ resultType: "complete", content: [] });
  expect(runs).toEqual(["again"]);
  runs.length = 0;

  const forged = [
    signed("not json"),
    signed("null"),
    signed("[1,2]"),
    signed(JSON.stringify({ b, s: "no expiry" })),
    signed(JSON.stringify({ e: String(e), b, s: "expiry not a number" })),
    signed(JSON.stringify({ e, s: "no binding" })),
    signed(JSON.stringify({ e, b: 5, s: "binding not a string" })),
    // Not UTF-8: a byte that no decoding may replace with U+FFFD.
    signed(Buffer.concat([Buffer.from(`{"e":${e},"b":"${b}","s":"`), Buffer.from([0xff]), Buffer.from('"}')])),
  ];
  for (const text of forged) expect((await retry(text)).error, text).toEqual(INVALID);
  expect(runs).toEqual([]);
});

it("a MAC whose last character carries stray low bits (not base64url's one encoding) is invalid, not an internal error", async () => {
  const server = scenarioServer({ requestState: { key: KEY }, handlers: { "tools/call": (_params, ctx) => ctx.input.required({}, { state: 1 }) } });
  const c = await RawClient.connect(server);
  onTestFinished(async () => {
    await c.close();
    await server.close();
  });
  const issued = (await c.call("tools/call", { name: "t" })).result?.["requestState"] as string;
  const [prefix, body, mac] = issued.split(".") as [string, string, string];
  // 43 characters carry 258 bits: the last character's two low bits must be zero ("A" is 0, "B" is 1).
  for (const last of ["B", "D", "_"]) {
    expect((await c.call("tools/call", { name: "t", requestState: `${prefix}.${body}.${mac.slice(0, 42)}${last}` })).error).toEqual(INVALID);
  }
});
