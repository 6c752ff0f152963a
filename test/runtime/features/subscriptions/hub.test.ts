/**
 * Subscriptions hub edges the wire tests of listen.test.ts leave open (issue 17): its option
 * bounds (0, Infinity, the exact limit), a listen whose request was cancelled before the hub's
 * handler ran, what the handler does with capabilities and bad filters when called directly, the
 * `_meta` of published params, and a handler context whose notify or end fails (a wrapped or
 * custom ctx, as a handler that delegates to hub.handler() may pass).
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import type { HandlerContext } from "../../../generated/2026-07-28/index.js";
import { ack, connect, note, settle, SUB_ID, TOOLS_AND_RESOURCES } from "./support.js";

const TOOLS_CHANGED = "notifications/tools/list_changed";
const PROMPTS_CHANGED = "notifications/prompts/list_changed";
const UPDATED = "notifications/resources/updated";
const ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
const LIMITS = ["maxStreams", "maxStreamsPerPrincipal", "maxResourceSubscriptions", "maxUriLength", "maxPending"] as const;

/** The listen result the hub settles a stream's handler with. */
const result = (id: string | number) => ({ resultType: "complete", _meta: { [SUB_ID]: id } });

/**
 * A handler context driven by the test: notify records and resolves (unless replaced), end()
 * records and aborts the signal (unless replaced).
 */
function fakeCtx(requestId: string | number, overrides: Partial<HandlerContext> = {}) {
  const controller = new AbortController();
  const notified: Array<[string, unknown]> = [];
  const ended: Array<string | undefined> = [];
  const ctx: HandlerContext = {
    signal: controller.signal,
    requestId,
    method: "subscriptions/listen",
    _meta: undefined,
    principal: undefined,
    http: undefined,
    sendProgress: async () => {},
    log: async () => {},
    notify: async (method, params) => void notified.push([method, params]),
    request: async () => undefined,
    end: async (reason) => {
      ended.push(reason);
      controller.abort(reason);
    },
    ...overrides,
  };
  return { ctx, controller, notified, ended };
}

const PENDING = Symbol("pending");

/** What a promise has settled to (its value or its rejection) once queued work has run; PENDING if it has not. */
async function outcome(promise: unknown): Promise<unknown> {
  let state: unknown = PENDING;
  Promise.resolve(promise).then(
    (value) => (state = value),
    (error: unknown) => (state = error),
  );
  await settle();
  return state;
}

/** A deferred promise the test settles. */
function pending() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe("Subscriptions hub: option bounds", () => {
  it.each(LIMITS)("%s: a fraction, NaN or a negative is a RangeError naming it; 0 and Infinity are accepted", (name) => {
    expect(() => new R.Subscriptions({ [name]: 1.5 })).toThrow(new RangeError(`${name} must be an integer ≥ 0 or Infinity (no bound), got 1.5`));
    expect(() => new R.Subscriptions({ [name]: Number.NaN })).toThrow(new RangeError(`${name} must be an integer ≥ 0 or Infinity (no bound), got NaN`));
    expect(() => new R.Subscriptions({ [name]: -1 })).toThrow(new RangeError(`${name} must be an integer ≥ 0 or Infinity (no bound), got -1`));
    expect(() => new R.Subscriptions({ [name]: Number.NEGATIVE_INFINITY })).toThrow(RangeError);
    expect(() => new R.Subscriptions({ [name]: 0 })).not.toThrow();
    expect(() => new R.Subscriptions({ [name]: Number.POSITIVE_INFINITY })).not.toThrow();
  });

  it("maxStreams 0 refuses every listen with -32603 and holds nothing", async () => {
    const hub = new R.Subscriptions({ maxStreams: 0 });
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true });
    await settle();
    expect(c.received).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Too many open subscriptions (at most 0)" } }]);
    expect(hub.size).toBe(0);
    await c.close();
  });

  it("a filter list of exactly maxResourceSubscriptions URIs, each of exactly maxUriLength characters, is accepted", async () => {
    const hub = new R.Subscriptions({ maxResourceSubscriptions: 2, maxUriLength: 10 });
    const c = await connect(hub);
    await c.listen(1, { resourceSubscriptions: ["file:///ab", "file:///cd"] });
    await settle();
    expect(c.received).toEqual([ack(1, { resourceSubscriptions: ["file:///ab", "file:///cd"] })]);
    expect(hub.size).toBe(1);
    await c.close();
  });

  it("Infinity lifts a bound: maxPending Infinity never overflows a slow stream", async () => {
    const hub = new R.Subscriptions({ maxPending: Number.POSITIVE_INFINITY, matchesUri: (subscribed, updated) => updated.startsWith(subscribed) });
    const c = await connect(hub);
    await c.listen(1, { resourceSubscriptions: ["file:///dir/"] });
    await settle();
    c.wire.pause();
    for (let i = 0; i < 50; i++) expect(hub.publish(UPDATED, { uri: `file:///dir/${i}` })).toBe(1);
    expect(hub.queued).toBe(49);
    expect(hub.size).toBe(1);
    c.wire.resume();
    await settle(60);
    expect(c.received).toHaveLength(51);
    expect(c.received.at(-1)).toEqual(note(1, UPDATED, { uri: "file:///dir/49" }));
    await c.close();
  });
});

describe("Subscriptions hub: the listen handler", () => {
  it("a listen cancelled before a wrapping handler hands it to the hub opens no stream and sends nothing", async () => {
    const hub = new R.Subscriptions();
    const listen = hub.handler({ tools: { listChanged: true } });
    const gate = pending();
    let delegated: Promise<unknown> | undefined;
    const c = await connect(hub, {
      handlers: {
        ...TOOLS_AND_RESOURCES,
        "subscriptions/listen": async (params, ctx) => {
          await gate.promise; // e.g. an authorisation check
          delegated = Promise.resolve(listen(params, ctx));
          return delegated as never;
        },
      },
    });
    await c.listen(5, { toolsListChanged: true });
    await settle();
    await c.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "never mind" } });
    await settle();
    gate.resolve();
    await settle();
    expect(delegated).toBeDefined();
    expect(await outcome(delegated)).toEqual(result(5));
    expect(hub.size).toBe(0);
    expect(hub.publish(TOOLS_CHANGED)).toBe(0);
    await settle();
    expect(c.received).toEqual([]);
    await c.close();
  });

  it("called directly, a bad filter, no params or a full hub is a rejected promise, never a synchronous throw", async () => {
    const hub = new R.Subscriptions({ maxStreams: 0 });
    const listen = hub.listenHandler();
    let bad: unknown;
    let none: unknown;
    let full: unknown;
    expect(() => (bad = listen({ notifications: "all" }, fakeCtx(1).ctx))).not.toThrow();
    expect(() => (none = listen(undefined, fakeCtx(2).ctx))).not.toThrow();
    expect(() => (full = listen({ notifications: {} }, fakeCtx(3).ctx))).not.toThrow();
    const [badOutcome, noneOutcome, fullOutcome] = await Promise.all([outcome(bad), outcome(none), outcome(full)]);
    expect(badOutcome).toMatchObject({ code: -32602, message: 'Invalid params: notifications must be an object, got "all"' });
    // No params at all is the same Invalid params, not a TypeError from reading them.
    expect(noneOutcome).toBeInstanceOf(R.McpError);
    expect(noneOutcome).toMatchObject({ code: -32602, message: "Invalid params: notifications must be an object, got undefined" });
    expect(fullOutcome).toMatchObject({ code: -32603 });
  });

  it("without capabilities it honours every kind of the hub; with them, only a flag set to true on an object", async () => {
    const hub = new R.Subscriptions();
    const filter = { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["file:///a"] } };
    const all = fakeCtx(1);
    void hub.listenHandler()(filter, all.ctx);
    const some = fakeCtx(2);
    void hub.listenHandler({ tools: { listChanged: "yes" }, prompts: true, resources: { listChanged: true, subscribe: true } })(filter, some.ctx);
    await settle();
    expect(all.notified).toEqual([[ACKNOWLEDGED, { _meta: { [SUB_ID]: 1 }, notifications: filter.notifications }]]);
    expect(some.notified).toEqual([[ACKNOWLEDGED, { _meta: { [SUB_ID]: 2 }, notifications: { resourcesListChanged: true, resourceSubscriptions: ["file:///a"] } }]]);
    expect(hub.publish(PROMPTS_CHANGED)).toBe(1);
    hub.close();
  });

  it("declare() leaves a capability that is not an object alone", () => {
    const hub = new R.Subscriptions();
    const declared = hub.declare({ tools: true, resources: {} } as unknown as R.ServerCapabilities);
    expect(declared).toEqual({ tools: true, resources: { listChanged: true, subscribe: true } });
  });
});

describe("Subscriptions hub: publish", () => {
  it("params must be an object: an array is a TypeError; a method no stream carries is a TypeError naming it", () => {
    const hub = new R.Subscriptions();
    const untyped = hub as unknown as { publish(method: string, params?: unknown): number };
    expect(() => untyped.publish("notifications/message", {})).toThrow(new TypeError('"notifications/message" is not delivered on subscriptions/listen streams'));
    expect(() => untyped.publish(TOOLS_CHANGED, [])).toThrow(new TypeError("notifications/tools/list_changed: params must be an object, got an array"));
    expect(() => untyped.publish(TOOLS_CHANGED, null)).toThrow(TypeError);
  });

  it("a `_meta` that is not an object is replaced: the stream's `_meta` holds the subscription id only", async () => {
    const hub = new R.Subscriptions();
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true });
    await settle();
    const untyped = hub as unknown as { publish(method: string, params?: object): number };
    expect(untyped.publish(TOOLS_CHANGED, { _meta: "not an object", extra: 1 })).toBe(1);
    await settle();
    expect(c.received.at(-1)).toEqual(note(1, TOOLS_CHANGED, { extra: 1 }));
    await c.close();
  });

  it("a failure of a matcher that throws a non-Error reaches onError as an Error", () => {
    const errors: unknown[] = [];
    const hub = new R.Subscriptions({
      matchesUri: () => {
        throw "matcher says no";
      },
      onError: (e) => errors.push(e),
    });
    void hub.listenHandler()({ notifications: { resourceSubscriptions: ["file:///a"] } }, fakeCtx(1).ctx);
    expect(hub.publish(UPDATED, { uri: "file:///a" })).toBe(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(Error);
    expect((errors[0] as Error).message).toBe("matcher says no");
    hub.close();
  });
});

describe("Subscriptions hub: onEnd and onError", () => {
  it("a throwing onEnd is reported to onError", async () => {
    const errors: string[] = [];
    const hub = new R.Subscriptions({
      onEnd: () => {
        throw new Error("onEnd bug");
      },
      onError: (e) => errors.push(e.message),
    });
    void hub.listenHandler()({ notifications: { toolsListChanged: true } }, fakeCtx(1).ctx);
    expect(hub.close()).toBe(1);
    expect(errors).toEqual(["onEnd bug"]);
  });

  it("a hub with onError and no onEnd reports nothing when streams end normally", async () => {
    const errors: Error[] = [];
    const hub = new R.Subscriptions({ onError: (e) => errors.push(e) });
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true });
    await c.listen(2, { toolsListChanged: true });
    await settle();
    await c.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await settle();
    expect(hub.close()).toBe(1);
    await settle();
    expect(errors).toEqual([]);
    expect(hub.size).toBe(0);
    await c.close();
  });
});

describe("Subscriptions hub: coalescing at the bound", () => {
  it("a stream whose queue is full is not ended by the same change again: it coalesces", async () => {
    const ends: R.SubscriptionEndEvent[] = [];
    const hub = new R.Subscriptions({ maxPending: 1, onEnd: (e) => ends.push(e) });
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    await settle();
    c.wire.pause();
    expect(hub.publish(UPDATED, { uri: "file:///a" })).toBe(1); // with the transport
    expect(hub.publish(TOOLS_CHANGED)).toBe(1); // waiting: the queue is full
    expect(hub.publish(TOOLS_CHANGED)).toBe(1); // the same change: coalesced, not an overflow
    expect(hub.publish(UPDATED, { uri: "file:///a", rev: 2 } as never)).toBe(1); // another key: overflow
    expect(ends.map((e) => e.cause)).toEqual(["overflow"]);
    c.wire.resume();
    await settle();
    await c.close();
  });

  it("the newer params of a coalesced change win", async () => {
    const hub = new R.Subscriptions({ maxPending: 1 });
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    await settle();
    c.wire.pause();
    hub.publish(TOOLS_CHANGED);
    hub.publish(UPDATED, { uri: "file:///a", title: "old" } as never);
    hub.publish(UPDATED, { uri: "file:///a", title: "new" } as never);
    expect(hub.size).toBe(1);
    c.wire.resume();
    await settle();
    expect(c.received.slice(1)).toEqual([note(1, TOOLS_CHANGED), note(1, UPDATED, { uri: "file:///a", title: "new" })]);
    await c.close();
  });
});

describe("Subscriptions hub: a stream ended during publish()", () => {
  it("an onEnd that closes the hub while publish() runs: the streams it ended get nothing of that publish", async () => {
    const ends: Array<[string | number, string]> = [];
    const hub: R.Subscriptions = new R.Subscriptions({
      maxPending: 1,
      onEnd: (e) => {
        ends.push([e.subscriptionId, e.cause]);
        if (e.cause === "overflow") hub.close();
      },
    });
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a", "file:///b"] });
    await c.listen(2, { toolsListChanged: true });
    await settle();
    c.wire.pause();
    expect(hub.publish(UPDATED, { uri: "file:///a" })).toBe(1); // stream 1: with the transport
    expect(hub.publish(UPDATED, { uri: "file:///b" })).toBe(1); // stream 1: waiting (maxPending reached)
    // Stream 1 overflows first; its onEnd closes the hub, which ends stream 2 before its turn.
    expect(hub.publish(TOOLS_CHANGED)).toBe(1);
    expect(ends).toEqual([
      [1, "overflow"],
      [2, "closed"],
    ]);
    c.wire.resume();
    await settle();
    expect(c.received.filter((m) => "method" in m && m.method === TOOLS_CHANGED)).toEqual([]);
    // Stream 2 got its listen result (the graceful end) and stream 1 its cancel.
    expect(c.received.filter((m) => "result" in m).map((m) => ("id" in m ? m.id : undefined))).toEqual([2]);
    expect(c.received.filter((m) => "method" in m && m.method === "notifications/cancelled")).toHaveLength(1);
    await c.close();
  });
});

describe("Subscriptions hub: a context whose notify or end fails", () => {
  it("an end() that cannot abort the request still ends the stream: its handler settles with the result", async () => {
    const ends: R.SubscriptionEndEvent[] = [];
    const hub = new R.Subscriptions({ maxPending: 0, onEnd: (e) => ends.push(e) });
    const held = pending();
    const f = fakeCtx(1, {
      notify: () => held.promise,
      end: async (reason) => void f.ended.push(reason), // ends nothing
    });
    const settled = hub.listenHandler()({ notifications: { toolsListChanged: true } }, f.ctx) as Promise<unknown>;
    expect(hub.publish(TOOLS_CHANGED)).toBe(1); // the acknowledgment is still with the transport: overflow
    expect(await outcome(settled)).toEqual(result(1));
    const reason = "subscriptions/listen ended: more than 0 notifications waiting for this stream";
    expect(f.ended).toEqual([reason]);
    expect(ends).toEqual([{ subscriptionId: 1, cause: "overflow", reason }]);
    expect(hub.size).toBe(0);
    held.resolve();
    await settle();
    expect(f.notified).toEqual([]);
  });

  it("an end() that rejects or throws is reported to onError; the stream ends all the same", async () => {
    for (const end of [() => Promise.reject(new Error("end refused")), () => { throw new Error("end refused"); }]) {
      const errors: string[] = [];
      const hub = new R.Subscriptions({ maxPending: 0, onError: (e) => errors.push(e.message) });
      const held = pending();
      const f = fakeCtx(1, { notify: () => held.promise, end: end as HandlerContext["end"] });
      const settled = hub.listenHandler()({ notifications: { toolsListChanged: true } }, f.ctx) as Promise<unknown>;
      hub.publish(TOOLS_CHANGED);
      expect(await outcome(settled)).toEqual(result(1));
      expect(errors).toEqual(["end refused"]);
      expect(hub.size).toBe(0);
    }
  });

  it("a notify that throws synchronously ends the stream as send-failed, with the default reason", async () => {
    const ends: R.SubscriptionEndEvent[] = [];
    const errors: string[] = [];
    const hub = new R.Subscriptions({ onEnd: (e) => ends.push(e), onError: (e) => errors.push(e.message) });
    const f = fakeCtx(1, {
      notify: () => {
        throw new Error("notify broke");
      },
    });
    void hub.listenHandler()({ notifications: { toolsListChanged: true } }, f.ctx);
    await settle();
    expect(errors).toEqual(["notify broke"]);
    const reason = "subscriptions/listen ended by the server (send-failed)";
    expect(f.ended).toEqual([reason]);
    // The fake end() aborts the signal with its reason, as the endpoint's does.
    expect(ends).toEqual([{ subscriptionId: 1, cause: "send-failed", reason }]);
    expect(hub.size).toBe(0);
  });

  it("a send that fails after the stream was cancelled is not reported and does not end it again", async () => {
    const ends: R.SubscriptionEndEvent[] = [];
    const errors: string[] = [];
    const hub = new R.Subscriptions({ onEnd: (e) => ends.push(e), onError: (e) => errors.push(e.message) });
    const held = pending();
    const f = fakeCtx(1, { notify: () => held.promise });
    const settled = hub.listenHandler()({ notifications: { toolsListChanged: true } }, f.ctx) as Promise<unknown>;
    f.controller.abort("client left");
    expect(await outcome(settled)).toEqual(result(1));
    held.reject(new Error("connection gone"));
    await settle();
    expect(errors).toEqual([]);
    expect(f.ended).toEqual([]);
    expect(ends).toEqual([{ subscriptionId: 1, cause: "cancelled", reason: "client left" }]);
  });
});
