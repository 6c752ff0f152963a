/**
 * The requestState a server issues and accepts (templates/runtime/features/mrtr.ts, over the in-memory
 * transport with the raw client): a round's own lifetime (RequiredOptions.ttlMs), the size
 * bound (RequestStateOptions.maxLength) on what is issued and on what is accepted, and the
 * default lifetime.
 */
import { expect, it, onTestFinished } from "vitest";
import type * as R from "../generated/2026-07-28/index.js";
import { KEY, RawClient, scenarioServer } from "./support.js";

const resultOf = (r: { result?: unknown }) => r.result as { requestState?: string; [k: string]: unknown };
const refused = (id: number, reason: string, message: string) => ({ jsonrpc: "2.0", id, error: { code: -32602, message, data: { reason } } });
const done = (id: number, text: string) => ({ jsonrpc: "2.0", id, result: { resultType: "complete", content: [{ type: "text", text }] } });

/**
 * A server whose tools/call seals `state` (with `ttlMs` when given) on the first round and, on a
 * retry, answers with the state it verified; the client, both closed when the test ends.
 */
async function open(requestState: R.McpServerOptions["requestState"], seal: { state: unknown; ttlMs?: number }) {
  const runs = { count: 0 };
  const server = scenarioServer({
    requestState,
    handlers: {
      "tools/call": (_params, ctx) => {
        runs.count++;
        const verified = ctx.input.state();
        if (verified === undefined) return ctx.input.required({}, seal.ttlMs === undefined ? { state: seal.state } : { state: seal.state, ttlMs: seal.ttlMs });
        return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(verified) }] };
      },
    },
  });
  const c = await RawClient.connect(server);
  onTestFinished(async () => {
    await c.close();
    await server.close();
  });
  const first = async () => resultOf(await c.call("tools/call", { name: "t" })).requestState;
  const retry = (requestState: unknown) => c.call("tools/call", { name: "t", requestState });
  return { c, runs, first, retry };
}

it("a round's own ttlMs decides its expiry, not the server's", async () => {
  let now = 5_000_000;
  const { first, retry } = await open({ key: KEY, ttlMs: 600_000, now: () => now }, { state: "short", ttlMs: 50 });
  const issued = await first();
  now += 49;
  expect(await retry(issued)).toEqual(done(2, '"short"'));
  now += 1;
  expect(await retry(issued)).toEqual(refused(3, "expired", "Invalid requestState: it has expired"));
});

it("without ttlMs a state lives ten minutes on the server's clock", async () => {
  let now = 7_000_000;
  const { first, retry } = await open({ key: KEY, now: () => now }, { state: { n: 1 } });
  const issued = await first();
  now += 599_999;
  expect(await retry(issued)).toEqual(done(2, '{"n":1}'));
  now += 1;
  expect(await retry(issued)).toEqual(refused(3, "expired", "Invalid requestState: it has expired"));
});

it("maxLength bounds the state issued and the state accepted, its own length included", async () => {
  const clock = () => 1_000_000;
  const seal = { state: "x".repeat(200) };
  // The length of this state under this key and clock (the same for every server below).
  const measured = await open({ key: KEY, now: clock }, seal);
  const issued = (await measured.first())!;
  const length = issued.length;
  expect(length).toBeGreaterThan(200);

  // A server whose bound is exactly that length issues it and accepts it back.
  const exact = await open({ key: KEY, now: clock, maxLength: length }, seal);
  expect(await exact.first()).toBe(issued);
  expect(await exact.retry(issued)).toEqual(done(2, JSON.stringify(seal.state)));

  // One character less: the handler's state is too big to issue (-32603, nothing sent) ...
  const under = await open({ key: KEY, now: clock, maxLength: length - 1 }, seal);
  expect((await under.c.call("tools/call", { name: "t" })).error).toEqual({
    code: -32603,
    message: `requestState would be ${length} characters, over requestState.maxLength (${length - 1})`,
  });
  // ... and the same state, genuine under the same key, is refused unread when it comes back.
  under.runs.count = 0;
  expect(await under.retry(issued)).toEqual(refused(2, "invalid", "Invalid requestState: it failed integrity verification"));
  expect(under.runs.count).toBe(0);
});

it("maxLength: 64 is the least accepted; 63 and a fraction are refused when the server is made", () => {
  expect(() => scenarioServer({ requestState: { key: KEY, maxLength: 64 } })).not.toThrow();
  expect(() => scenarioServer({ requestState: { key: KEY, maxLength: 63 } })).toThrow(new RangeError("requestState.maxLength must be an integer ≥ 64, got 63"));
  expect(() => scenarioServer({ requestState: { key: KEY, maxLength: 100.5 } })).toThrow(new RangeError("requestState.maxLength must be an integer ≥ 64, got 100.5"));
});
