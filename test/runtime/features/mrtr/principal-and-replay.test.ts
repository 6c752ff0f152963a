/**
 * requestState bound to the request's principal by default and, on option, single use (issue 28,
 * item 9): over HTTP with `authenticate` (createHttpHandler on both faces, native node:http and
 * web-standard, test/helpers/faces.ts), a state minted for one principal is refused for another
 * exactly as a forged one is; with `singleUse`, a state replayed is refused (`replayed`), through
 * the in-memory guard or any ReplayGuard; and the in-memory guard is bounded and forgets expired
 * states.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { call, describeFaces, serve, type Served } from "../../http/stateless/support.js";
import { askString, KEY, RawClient } from "./support.js";

const elicit = (content: Record<string, unknown>) => ({ action: "accept", content });
const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, arguments: {}, ...extra });
const resultOf = (r: { result?: unknown }) => (r as { result: { requestState?: string } }).result;

const INVALID = { code: -32602, message: "Invalid requestState: it failed integrity verification", data: { reason: "invalid" } };
const REPLAYED = { code: -32602, message: "Invalid requestState: it was already used", data: { reason: "replayed" } };
const CAPS_META = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

/** Bearer tokens of two principals; anything else is a 401. */
const bearer: R.Authenticate = (request) => {
  const header = request.headers.get("authorization");
  if (header === "Bearer alice-token") return { id: "alice" };
  if (header === "Bearer bob-token") return { id: "bob" };
  return new Response(null, { status: 401 });
};
const as = (who: string) => ({ authorization: `Bearer ${who}-token` });

/** A tools/call that asks for confirmation with a state, and completes on a retry carrying both. */
function confirming(runs: { count: number }): R.McpServerOptions {
  return {
    requestState: { key: KEY },
    handlers: {
      "tools/call": async (params, ctx) => {
        const ask = { confirm: askString("Please confirm", "ok") };
        const got = ctx.input.responses(ask);
        if (got === undefined || ctx.input.state() === undefined) return ctx.input.required(ask, { state: { tool: params.name } });
        runs.count++;
        return { resultType: "complete", content: [{ type: "text", text: `done for ${ctx.principal?.id ?? "nobody"}` }] };
      },
    },
  };
}

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describeFaces("requestState and the principal, over HTTP", (face) => {
  const first = async (who: string): Promise<string> => {
    const answer = await call(served!.url, 1, "tools/call", { name: "t", arguments: {}, _meta: CAPS_META }, as(who));
    const state = (answer.json as { result: { requestState?: unknown } }).result.requestState;
    expect(typeof state).toBe("string");
    return state as string;
  };
  const retry = (who: string, requestState: string) =>
    call(served!.url, 2, "tools/call", { name: "t", arguments: {}, _meta: CAPS_META, inputResponses: { confirm: elicit({ ok: "yes" }) }, requestState }, as(who));

  it("is bound to the authenticated principal by default: bob's retry with alice's state is refused as a forged state, and her own is served", async () => {
    const runs = { count: 0 };
    served = await serve(face, confirming(runs), { authenticate: bearer });
    const state = await first("alice");
    const stolen = await retry("bob", state);
    expect(stolen.status).toBe(200);
    expect(stolen.json).toEqual({ jsonrpc: "2.0", id: 2, error: INVALID });
    expect(runs.count).toBe(0);
    const own = await retry("alice", state);
    expect(own.json).toMatchObject({ id: 2, result: { content: [{ text: "done for alice" }] } });
    expect(runs.count).toBe(1);
  });

  it("the principal is not readable in the state: the payload carries a tag, not the id", async () => {
    served = await serve(face, confirming({ count: 0 }), { authenticate: bearer });
    const state = await first("alice");
    const payload = Buffer.from(state.split(".")[1]!, "base64url").toString("utf8");
    expect(payload).not.toContain("alice");
    expect(JSON.parse(payload)).toHaveProperty("p");
  });

  // What docs/security.md says of a requestState (issue 41): signed, not encrypted, so the client
  // reads the handler's state; an anonymous one (issued without a principal) serves any request
  // without a principal, and no request with one.
  it("the client can read the handler's state in it (signed, not encrypted)", async () => {
    served = await serve(face, confirming({ count: 0 }), { authenticate: bearer });
    const payload = JSON.parse(Buffer.from((await first("alice")).split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
    expect(payload["s"]).toEqual({ tool: "t" });
    expect(Object.keys(payload).sort()).toEqual(["b", "e", "p", "s"]);
  });

  it("an anonymous state (issued to a request without a principal) is refused from a principal's request, and served to any request without one", async () => {
    const runs = { count: 0 };
    // Two servers with one key: one without authenticate (its requests have no principal), one with it.
    served = await serve(face, confirming(runs));
    const anonymous = await first("anyone");
    const open = served;
    const guarded = await serve(face, confirming(runs), { authenticate: bearer });
    try {
      const byAlice = await call(guarded.url, 2, "tools/call", { name: "t", arguments: {}, _meta: CAPS_META, inputResponses: { confirm: elicit({ ok: "yes" }) }, requestState: anonymous }, as("alice"));
      expect(byAlice.json).toEqual({ jsonrpc: "2.0", id: 2, error: INVALID });
      expect(runs.count).toBe(0);
      expect((await retry("someone-else", anonymous)).json).toMatchObject({ id: 2, result: { content: [{ text: "done for nobody" }] } });
      expect(runs.count).toBe(1);
    } finally {
      served = open;
      await guarded.close();
    }
  });

  it("a principal option returning undefined leaves states unbound (the opt-out)", async () => {
    const runs = { count: 0 };
    served = await serve(face, { ...confirming(runs), requestState: { key: KEY, principal: () => undefined } }, { authenticate: bearer });
    const state = await first("alice");
    expect((await retry("bob", state)).json).toMatchObject({ id: 2, result: { content: [{ text: "done for bob" }] } });
    expect(runs.count).toBe(1);
  });
});

describe("single use", () => {
  /** A server whose tools/call asks once with a state, then completes; the first round's state. */
  const setup = async (requestState: R.RequestStateOptions) => {
    const runs = { count: 0 };
    const c = await RawClient.connect(new R.McpServer({ logger: null, serverInfoInResults: false, ...confirming(runs), requestState }));
    const issued = resultOf(await c.call("tools/call", tool("a"))).requestState!;
    const retry = (state: string) => c.call("tools/call", tool("a", { inputResponses: { confirm: elicit({ ok: "yes" }) }, requestState: state }));
    return { c, issued, retry, runs };
  };

  it("singleUse: true accepts a state once; the replay is refused (replayed) and the handler does not run again", async () => {
    const { issued, retry, runs } = await setup({ key: KEY, singleUse: true });
    expect((await retry(issued)).result).toBeDefined();
    expect((await retry(issued)).error).toEqual(REPLAYED);
    expect((await retry(issued)).error).toEqual(REPLAYED);
    expect(runs.count).toBe(1);
  });

  it("two states issued for the same request, in the same millisecond, are each usable once (a nonce tells them apart)", async () => {
    const now = () => 1_000_000;
    const { c, issued, retry } = await setup({ key: KEY, singleUse: true, now });
    const again = resultOf(await c.call("tools/call", tool("a"))).requestState!;
    expect(again).not.toBe(issued);
    expect((await retry(issued)).result).toBeDefined();
    expect((await retry(again)).result).toBeDefined();
    expect((await retry(again)).error).toEqual(REPLAYED);
  });

  it("a state refused for another reason is not used up: a mismatched retry leaves it usable once", async () => {
    const { c, issued, retry } = await setup({ key: KEY, singleUse: true });
    const other = await c.call("tools/call", tool("b", { inputResponses: { confirm: elicit({ ok: "yes" }) }, requestState: issued }));
    expect((other.error?.data as { reason?: string }).reason).toBe("mismatch");
    expect((await retry(issued)).result).toBeDefined();
    expect((await retry(issued)).error).toEqual(REPLAYED);
  });

  it("a ReplayGuard given is asked with the state's MAC and its expiry; false refuses, a throw is -32603", async () => {
    const claims: Array<[string, number]> = [];
    let answer: () => boolean = () => true;
    const guard: R.ReplayGuard = {
      claim: async (key, expiresAt) => {
        claims.push([key, expiresAt]);
        return answer();
      },
    };
    const { issued, retry } = await setup({ key: KEY, singleUse: guard, ttlMs: 5000, now: () => 1_000 });
    expect((await retry(issued)).result).toBeDefined();
    expect(claims).toEqual([[issued.split(".")[2]!, 6_000]]);
    answer = () => false;
    expect((await retry(issued)).error).toEqual(REPLAYED);
    answer = () => {
      throw new Error("shared store down");
    };
    expect((await retry(issued)).error).toEqual({ code: -32603, message: "requestState.singleUse: the replay guard failed: shared store down" });
  });

  it("off by default: the same state verifies twice", async () => {
    const { issued, retry } = await setup({ key: KEY });
    expect((await retry(issued)).result).toBeDefined();
    expect((await retry(issued)).result).toBeDefined();
  });

  it("singleUse must be a boolean or a ReplayGuard", () => {
    expect(() => new R.McpServer({ requestState: { singleUse: "yes" as unknown as boolean } })).toThrow(TypeError);
    expect(() => new R.McpServer({ requestState: { singleUse: {} as R.ReplayGuard } })).toThrow(/requestState\.singleUse must be a boolean or a ReplayGuard/);
  });
});

describe("MemoryReplayGuard", () => {
  it("claims a key once until it expires, then forgets it", () => {
    let now = 0;
    const guard = new R.MemoryReplayGuard({ now: () => now });
    expect(guard.claim("k", 100)).toBe(true);
    expect(guard.claim("k", 100)).toBe(false);
    now = 100;
    // Expired: the state itself is refused as expired before the guard is asked; the key is dropped.
    expect(guard.claim("other", 200)).toBe(true);
    expect(guard.size).toBe(1);
    expect(guard.claim("late", 50)).toBe(false);
  });

  it("is bounded: past maxEntries live keys a claim throws (the request is refused, nothing is forgotten early); expired keys make room", () => {
    let now = 0;
    const guard = new R.MemoryReplayGuard({ maxEntries: 3, now: () => now });
    expect([guard.claim("a", 30), guard.claim("b", 10), guard.claim("c", 20)]).toEqual([true, true, true]);
    expect(() => guard.claim("d", 40)).toThrow("the replay guard holds 3 unexpired states (maxEntries); try again later");
    expect(guard.claim("a", 30)).toBe(false);
    now = 10;
    expect(guard.claim("d", 40)).toBe(true);
    expect(guard.size).toBe(3);
    expect(() => guard.claim("e", 40)).toThrow(Error);
    now = 20;
    expect(guard.claim("e", 40)).toBe(true);
    expect(guard.size).toBe(3);
  });

  it("stays bounded under many claims with mixed expiries: the heap drops them in expiry order", () => {
    let now = 0;
    const guard = new R.MemoryReplayGuard({ maxEntries: 1000, now: () => now });
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      now = i;
      if (guard.claim(`k${i}`, i + 1 + ((i * 7919) % 500))) accepted++;
    }
    expect(accepted).toBe(20_000);
    expect(guard.size).toBeLessThanOrEqual(500);
  });

  it("maxEntries: a whole number of at least 1, else a RangeError naming it", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new R.MemoryReplayGuard({ maxEntries: bad })).toThrow(RangeError);
    }
    expect(() => new R.MemoryReplayGuard({ maxEntries: 0 })).toThrow("maxEntries must be an integer ≥ 1, got 0");
  });
});
