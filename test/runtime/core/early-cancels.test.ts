/**
 * Cancels that overtake their request (issue 41, finding 4; core/early-cancels.ts). The table's
 * bounds with a clock of the test's own (count and time), and the rule at the endpoint: a
 * transport that may reorder (Transport.earlyCancels) gets a request whose cancel came first
 * cancelled as it arrives (no handler, no response); one that keeps order (in memory here, stdio)
 * still ignores a cancel for an unknown id, as the spec says (Cancellation, Error Handling).
 */
import { describe, expect, it } from "vitest";
import * as R from "../../generated/2025-11-25/index.js";
import { EarlyCancels, earlyCancelBounds, earlyCancelOptions, EARLY_CANCEL_DEFAULTS, MAX_EARLY_ID_LENGTH } from "../../../templates/runtime/core/early-cancels.js";
import { cancelled, INITIALIZE_PARAMS, settle, TapTransport } from "../../helpers/harness.js";

/** A clock the test moves. */
function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe("EarlyCancels", () => {
  it("takes a remembered cancel once, with its reason", () => {
    const early = new EarlyCancels({ maxIds: 4, windowMs: 100 });
    expect(early.remember(7, "stop")).toBe(true);
    expect(early.take(7)?.reason).toBe("stop");
    expect(early.take(7)).toBeUndefined();
    expect(early.take(8)).toBeUndefined();
  });

  it("keeps at most maxIds: the oldest goes first", () => {
    const early = new EarlyCancels({ maxIds: 3, windowMs: 100 });
    for (const id of [1, 2, 3, 4]) early.remember(id, undefined);
    expect(early.size).toBe(3);
    expect(early.take(1)).toBeUndefined();
    expect([early.take(2), early.take(3), early.take(4)].every((e) => e !== undefined)).toBe(true);
  });

  it("forgets a cancel older than windowMs: not taken, and dropped when the next one comes", () => {
    const time = clock();
    const early = new EarlyCancels({ maxIds: 64, windowMs: 100 }, time.now);
    early.remember("a", undefined);
    time.advance(100);
    expect(early.take("a")).toBeDefined(); // at the window's edge: still taken
    early.remember("b", undefined);
    time.advance(101);
    expect(early.take("b")).toBeUndefined();
    early.remember("c", undefined);
    time.advance(60);
    early.remember("d", undefined);
    time.advance(60);
    early.remember("e", undefined); // c is 120 ms old now: dropped
    expect(early.size).toBe(2);
    expect(early.take("c")).toBeUndefined();
    expect(early.take("d")).toBeDefined();
  });

  it(`does not remember a string id longer than ${MAX_EARLY_ID_LENGTH} characters, and keeps a reason's first ${MAX_EARLY_ID_LENGTH}`, () => {
    const early = new EarlyCancels({ maxIds: 4, windowMs: 100 });
    expect(early.remember("x".repeat(MAX_EARLY_ID_LENGTH + 1), "long")).toBe(false);
    expect(early.size).toBe(0);
    expect(early.remember("y".repeat(MAX_EARLY_ID_LENGTH), "r".repeat(100_000))).toBe(true);
    expect(early.take("y".repeat(MAX_EARLY_ID_LENGTH))?.reason).toBe("r".repeat(MAX_EARLY_ID_LENGTH));
  });

  it("checks its bounds by name; the defaults are 64 ids and 10 s", () => {
    expect(EARLY_CANCEL_DEFAULTS).toEqual({ maxIds: 64, windowMs: 10_000 });
    expect(earlyCancelBounds({})).toEqual(EARLY_CANCEL_DEFAULTS);
    expect(earlyCancelOptions({})).toEqual(EARLY_CANCEL_DEFAULTS);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new EarlyCancels({ maxIds: bad })).toThrow(new RegExp(`^earlyCancels\\.maxIds must be`));
      expect(() => new EarlyCancels({ windowMs: bad })).toThrow(/^earlyCancels\.windowMs must be/);
      expect(() => earlyCancelOptions({ maxEarlyCancels: bad })).toThrow(RangeError);
      expect(() => earlyCancelOptions({ earlyCancelWindowMs: bad })).toThrow(/^earlyCancelWindowMs must be/);
    }
    expect(() => earlyCancelOptions({ maxEarlyCancels: 100_001 })).toThrow(/^maxEarlyCancels must be an integer from 1 to 100000/);
  });
});

/** A 2025-11-25 server on an in-memory pair; `earlyCancels` set on its transport when given; what its handler saw. */
async function server(earlyCancels?: R.EarlyCancelBounds) {
  const [a, b] = R.createInMemoryTransportPair();
  const wire = new TapTransport(b);
  if (earlyCancels !== undefined) Object.assign(wire, { earlyCancels });
  const events: R.CancellationEvent[] = [];
  const ran: Array<string | number> = [];
  const s = new R.McpServer({
    logger: null,
    onCancellation: (e) => events.push(e),
    handlers: { "tools/call": (_params, ctx) => (ran.push(ctx.requestId), { content: [] }) },
  });
  await s.connect(wire);
  const received: unknown[] = [];
  a.onmessage = (m) => received.push(m);
  await a.start();
  const send = async (m: unknown) => {
    await a.send(m as R.JsonRpcMessage);
    await settle();
  };
  return { server: s, wire, events, ran, send, received };
}

const call = (id: string | number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t" } });

describe("a cancel before its request, at the endpoint", () => {
  it("on a transport that keeps order (no earlyCancels): ignored as unknown; the request runs and is answered", async () => {
    const s = await server();
    await s.send(cancelled(7, "too early"));
    await s.send(call(7));
    expect(s.ran).toEqual([7]);
    expect(s.received).toEqual([{ jsonrpc: "2.0", id: 7, result: { content: [] } }]);
    expect(s.events).toEqual([{ type: "ignored", cause: "unknown-request", requestId: 7, reason: "too early" }]);
  });

  it("on a transport that may reorder: the request is cancelled as it arrives: its handler never runs, no response, one received event", async () => {
    const s = await server({ maxIds: 4, windowMs: 10_000 });
    await s.send(cancelled(7, "too early"));
    await s.send(call(7));
    await s.send(cancelled(7, "again")); // the id is over now: ignored as finished, not remembered again
    await s.send(call(8));
    expect(s.ran).toEqual([8]);
    expect(s.received).toEqual([{ jsonrpc: "2.0", id: 8, result: { content: [] } }]);
    expect(s.server.inFlight.received).toBe(0);
    expect(s.events).toEqual([
      { type: "ignored", cause: "unknown-request", requestId: 7, reason: "too early", early: true },
      { type: "received", requestId: 7, method: "tools/call", reason: "too early", early: true },
      { type: "ignored", cause: "finished", requestId: 7, reason: "again" },
    ]);
    expect(R.describeCancellation("server", s.events[1]!)).toBe("[mcp server] peer cancelled tools/call (id 7) before it arrived: too early");
  });

  it("a request that may not be cancelled (initialize) runs whatever cancel came before it", async () => {
    const s = await server({ maxIds: 4, windowMs: 10_000 });
    await s.send(cancelled(1, "no"));
    await s.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS });
    expect(s.received).toEqual([{ jsonrpc: "2.0", id: 1, result: expect.objectContaining({ protocolVersion: "2025-11-25" }) }]);
    expect(s.events.at(-1)).toEqual({ type: "ignored", cause: "uncancellable", requestId: 1, reason: "no", method: "initialize", early: true });
  });

  it("bounds that are no bounds close the connection at once, naming the field", async () => {
    const [, b] = R.createInMemoryTransportPair();
    Object.assign(b, { earlyCancels: { maxIds: 0, windowMs: 100 } });
    await expect(new R.McpServer({ logger: null }).connect(b)).rejects.toThrow(/^earlyCancels\.maxIds must be/);
  });
});
