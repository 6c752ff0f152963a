/**
 * subscriptions/listen on the generated 2026-07-28 server (Subscriptions hub), on the wire:
 * acknowledgment first with the honoured filter, only the kinds asked for, the subscription id
 * on every message, nothing after a cancel or an end, fan-out, bounded delivery to a slow stream,
 * entries freed.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { ack, connect, META, note, settle, SUB_ID, TOOLS_AND_RESOURCES } from "./support.js";

/** Results of 2026-07-28 carry the server's identity (basic/index, `_meta`); the test servers set none, so the default. */
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const DEFAULT_INFO = { name: "mcp-server", version: "0.0.0" };

const TOOLS_CHANGED = "notifications/tools/list_changed";
const PROMPTS_CHANGED = "notifications/prompts/list_changed";
const RESOURCES_CHANGED = "notifications/resources/list_changed";
const UPDATED = "notifications/resources/updated";

describe("subscriptions/listen: acknowledgment and filtering", () => {
  it("acknowledges first with the honoured subset and the subscription id, then sends only the kinds asked for", async () => {
    const hub = new R.Subscriptions();
    const c = await connect(hub);
    await c.listen(7, {
      toolsListChanged: true,
      promptsListChanged: true, // the server has no prompts: not honoured
      resourcesListChanged: false,
      resourceSubscriptions: ["file:///a", "file:///a", "file:///b"],
      somethingNew: true, // unknown fields are ignored
    });
    await settle();
    expect(hub.size).toBe(1);
    expect(c.received).toEqual([ack(7, { toolsListChanged: true, resourceSubscriptions: ["file:///a", "file:///b"] })]);
    // The spec's layout: `_meta` first in params.
    expect(JSON.stringify(c.received[0])).toBe(
      '{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///a","file:///b"]}}}',
    );

    expect(hub.publish(TOOLS_CHANGED)).toBe(1);
    expect(hub.publish(PROMPTS_CHANGED)).toBe(0);
    expect(hub.publish(RESOURCES_CHANGED)).toBe(0);
    expect(hub.publish(UPDATED, { uri: "file:///c" })).toBe(0);
    // `_meta` the application gives is kept beside the subscription id.
    const untyped = hub as unknown as { publish(method: string, params?: object): number };
    expect(untyped.publish(UPDATED, { uri: "file:///b", _meta: { "example.com/rev": 3 } })).toBe(1);
    await settle();
    expect(c.received).toEqual([
      ack(7, { toolsListChanged: true, resourceSubscriptions: ["file:///a", "file:///b"] }),
      note(7, TOOLS_CHANGED),
      { jsonrpc: "2.0", method: UPDATED, params: { _meta: { "example.com/rev": 3, [SUB_ID]: 7 }, uri: "file:///b" } },
    ]);
    // No response: the stream stays open.
    expect(c.received.filter((m) => "id" in m)).toEqual([]);
    expect(c.server.inFlight.received).toBe(1);
  });

  it("an empty filter, or one of only false and empty lists, is acknowledged with nothing and gets nothing", async () => {
    const hub = new R.Subscriptions();
    const c = await connect(hub);
    await c.listen("s", { toolsListChanged: false, resourceSubscriptions: [] });
    await settle();
    expect(hub.publish(TOOLS_CHANGED)).toBe(0);
    expect(hub.publish(UPDATED, { uri: "file:///a" })).toBe(0);
    await settle();
    expect(c.received).toEqual([ack("s", {})]);
  });

  it("declares what the hub delivers under the capabilities the server has (server/discover), and honours exactly that", async () => {
    const hub = new R.Subscriptions();
    const c = await connect(hub);
    await c.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
    await settle();
    expect(c.received[0]).toMatchObject({ id: 1, result: { capabilities: { tools: { listChanged: true }, resources: { listChanged: true, subscribe: true } } } });
    expect((c.received[0] as unknown as { result: { capabilities: object } }).result.capabilities).not.toHaveProperty("prompts");

    // `kinds` narrows the hub; a flag the server sets itself is kept (false: not honoured).
    const narrow = new R.Subscriptions({ kinds: ["toolsListChanged", "resourcesListChanged"] });
    const d = await connect(narrow, {
      capabilities: { tools: {}, resources: { listChanged: false }, prompts: {} },
    });
    await d.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
    await d.listen(2, { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["file:///a"] });
    await settle();
    expect(d.received[0]).toMatchObject({ id: 1, result: { capabilities: { tools: { listChanged: true }, resources: { listChanged: false }, prompts: {} } } });
    expect(d.received[1]).toEqual(ack(2, { toolsListChanged: true }));
  });

  it("declare() adds flags without touching its input", () => {
    const hub = new R.Subscriptions();
    const input = { tools: {}, resources: { subscribe: false } };
    expect(hub.declare(input)).toEqual({ tools: { listChanged: true }, resources: { subscribe: false, listChanged: true } });
    expect(input).toEqual({ tools: {}, resources: { subscribe: false } });
  });

  it("a malformed filter is -32602 Invalid params (the schema's, at the wire; then the hub's bounds); too many streams is -32603; neither holds an entry", async () => {
    const hub = new R.Subscriptions({ maxResourceSubscriptions: 2, maxUriLength: 10, maxStreams: 1 });
    const c = await connect(hub);
    await c.send({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { _meta: META } });
    await c.listen(2, ["toolsListChanged"]);
    await c.listen(3, { toolsListChanged: "yes" });
    await c.listen(4, { resourceSubscriptions: "file:///a" });
    await c.listen(5, { resourceSubscriptions: ["file:///a", 7] });
    await c.listen(6, { resourceSubscriptions: ["a", "b", "c"] });
    await c.listen(7, { resourceSubscriptions: ["file:///far/too/long"] });
    await settle();
    const broken = (id: number, pointer: string, expected: string, got: string) => ({
      jsonrpc: "2.0",
      id,
      error: { code: -32602, message: `Invalid params: subscriptions/listen params ${pointer}: expected ${expected}, got ${got}`, data: { pointer, expected } },
    });
    const invalid = (id: number, message: string) => ({ jsonrpc: "2.0", id, error: { code: -32602, message: `Invalid params: notifications${message}` } });
    expect(c.received).toEqual([
      broken(1, "/notifications", "a SubscriptionFilter (required)", "nothing"),
      broken(2, "/notifications", "an object", "an array"),
      broken(3, "/notifications/toolsListChanged", "a boolean", '"yes"'),
      broken(4, "/notifications/resourceSubscriptions", "an array", '"file:///a"'),
      broken(5, "/notifications/resourceSubscriptions/1", "a string", "7"),
      invalid(6, ".resourceSubscriptions has 3 URIs; at most 2"),
      invalid(7, ".resourceSubscriptions has a URI of 20 characters; at most 10"),
    ]);
    expect(hub.size).toBe(0);
    c.received.length = 0;
    await c.listen(8, { toolsListChanged: true });
    await c.listen(9, { toolsListChanged: true });
    await settle();
    expect(c.received).toEqual([ack(8, { toolsListChanged: true }), { jsonrpc: "2.0", id: 9, error: { code: -32603, message: "Too many open subscriptions (at most 1)" } }]);
    expect(hub.size).toBe(1);
  });
});

describe("subscriptions/listen: ends, and nothing after", () => {
  it("a client cancel (notifications/cancelled) ends the stream: no response, nothing more, entry freed", async () => {
    const ends: R.SubscriptionEndEvent[] = [];
    const hub = new R.Subscriptions({ onEnd: (e) => ends.push(e) });
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true });
    await settle();
    await c.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "done" } });
    await settle();
    expect(hub.size).toBe(0);
    expect(hub.publish(TOOLS_CHANGED)).toBe(0);
    await settle();
    expect(c.received).toEqual([ack(1, { toolsListChanged: true })]);
    expect(c.server.inFlight).toEqual({ sent: 0, received: 0 });
    expect(ends).toEqual([{ subscriptionId: 1, cause: "cancelled", reason: "done" }]);
  });

  it("closing the request's stream (the HTTP cancel) ends it the same way", async () => {
    const hub = new R.Subscriptions();
    const c = await connect(hub);
    await c.listen("x", { toolsListChanged: true });
    await settle();
    expect(c.wire.onrequeststreamclose).toBeTypeOf("function");
    c.wire.onrequeststreamclose?.("x");
    expect(hub.size).toBe(0);
    expect(hub.publish(TOOLS_CHANGED)).toBe(0);
    await settle();
    expect(c.received).toEqual([ack("x", { toolsListChanged: true })]);
  });

  it("a cancel that arrives while a notification is with the transport: that one was already sent, nothing follows it", async () => {
    const hub = new R.Subscriptions();
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    await settle();
    c.wire.pause();
    hub.publish(TOOLS_CHANGED);
    hub.publish(UPDATED, { uri: "file:///a" });
    expect(hub.queued).toBe(1);
    await c.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await settle();
    expect(hub.size).toBe(0);
    expect(hub.queued).toBe(0);
    c.wire.resume();
    await settle();
    expect(c.received).toEqual([ack(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] }), note(1, TOOLS_CHANGED)]);
  });

  it("the connection closing frees every stream of it", async () => {
    const hub = new R.Subscriptions();
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true });
    await c.listen(2, { resourcesListChanged: true });
    await settle();
    expect(hub.size).toBe(2);
    await c.close();
    await settle();
    expect(hub.size).toBe(0);
    expect(hub.publish(TOOLS_CHANGED)).toBe(0);
  });

  it("close() ends every stream gracefully: the listen result with the subscription id, then nothing", async () => {
    const ends: R.SubscriptionEndEvent[] = [];
    const hub = new R.Subscriptions({ onEnd: (e) => ends.push(e) });
    const c = await connect(hub);
    await c.listen("a", { toolsListChanged: true });
    await settle();
    expect(hub.close()).toBe(1);
    expect(hub.size).toBe(0);
    expect(hub.publish(TOOLS_CHANGED)).toBe(0);
    await settle();
    expect(c.received).toEqual([
      ack("a", { toolsListChanged: true }),
      { jsonrpc: "2.0", id: "a", result: { resultType: "complete", _meta: { [SERVER_INFO]: DEFAULT_INFO, [SUB_ID]: "a" } } },
    ]);
    expect(ends).toEqual([{ subscriptionId: "a", cause: "closed", reason: "closed by the server" }]);
    // The hub still serves new listens.
    await c.listen("b", { toolsListChanged: true });
    await settle();
    expect(hub.size).toBe(1);
  });

  it("a handler that wraps the hub's and ends the stream with ctx.end(): notifications/cancelled, then nothing", async () => {
    const hub = new R.Subscriptions();
    let end: ((reason?: string) => Promise<void>) | undefined;
    const listen = hub.handler({ tools: { listChanged: true } });
    const c = await connect(hub, {
      handlers: {
        ...TOOLS_AND_RESOURCES,
        "subscriptions/listen": (params, ctx) => {
          end = ctx.end;
          return listen(params, ctx);
        },
      },
    });
    await c.listen(3, { toolsListChanged: true });
    await settle();
    await end?.("shutting down");
    expect(hub.size).toBe(0);
    expect(hub.publish(TOOLS_CHANGED)).toBe(0);
    await settle();
    expect(c.received).toEqual([
      ack(3, { toolsListChanged: true }),
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "shutting down" } },
    ]);
  });
});

describe("subscriptions/listen: fan-out and bounds", () => {
  it("fans out to every matching stream of every connection, each with its own subscription id", async () => {
    const hub = new R.Subscriptions();
    const c1 = await connect(hub);
    const c2 = await connect(hub);
    await c1.listen(1, { toolsListChanged: true });
    await c1.listen(2, { resourceSubscriptions: ["file:///a"] });
    await c2.listen(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    await settle();
    expect(hub.size).toBe(3);
    expect(hub.publish(TOOLS_CHANGED)).toBe(2);
    expect(hub.publish(UPDATED, { uri: "file:///a" })).toBe(2);
    await settle();
    expect(c1.received).toEqual([
      ack(1, { toolsListChanged: true }),
      ack(2, { resourceSubscriptions: ["file:///a"] }),
      note(1, TOOLS_CHANGED),
      note(2, UPDATED, { uri: "file:///a" }),
    ]);
    expect(c2.received).toEqual([
      ack(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] }),
      note(1, TOOLS_CHANGED),
      note(1, UPDATED, { uri: "file:///a" }),
    ]);
  });

  it("a notification published before the acknowledgment is taken waits behind it", async () => {
    const hub = new R.Subscriptions();
    const c = await connect(hub);
    c.wire.pause();
    await c.listen(1, { toolsListChanged: true });
    await settle();
    expect(c.wire.heldCount).toBe(1); // the acknowledgment
    expect(hub.publish(TOOLS_CHANGED)).toBe(1);
    c.wire.resume();
    await settle();
    expect(c.received).toEqual([ack(1, { toolsListChanged: true }), note(1, TOOLS_CHANGED)]);
  });

  it("a slow stream holds one message in the transport and coalesces the rest: memory stays bounded, the fast stream is not held up", async () => {
    const hub = new R.Subscriptions();
    const slow = await connect(hub);
    const fast = await connect(hub);
    await slow.listen(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a", "file:///b"] });
    await fast.listen(1, { toolsListChanged: true });
    await settle();
    slow.wire.pause();
    for (let i = 0; i < 1000; i++) {
      hub.publish(TOOLS_CHANGED);
      hub.publish(UPDATED, { uri: i % 2 === 0 ? "file:///a" : "file:///b" });
      // The fast stream takes each change before the next one.
      if (i % 20 === 0) await settle(1);
    }
    await settle();
    expect(slow.wire.heldCount).toBe(1);
    expect(hub.queued).toBe(3); // tools, a, b: one each
    expect(fast.received.length).toBeGreaterThan(50);
    expect(fast.received.slice(1).every((m) => JSON.stringify(m) === JSON.stringify(note(1, TOOLS_CHANGED)))).toBe(true);
    slow.wire.resume();
    await settle();
    expect(slow.received).toEqual([
      ack(1, { toolsListChanged: true, resourceSubscriptions: ["file:///a", "file:///b"] }),
      note(1, TOOLS_CHANGED), // the one the transport held
      // then the waiting ones, each once, in the order they first waited
      note(1, UPDATED, { uri: "file:///a" }),
      note(1, TOOLS_CHANGED),
      note(1, UPDATED, { uri: "file:///b" }),
    ]);
    expect(hub.queued).toBe(0);
    expect(hub.size).toBe(2);
  });

  it("a stream that overflows maxPending is ended with notifications/cancelled after what the transport already took, and freed", async () => {
    const ends: R.SubscriptionEndEvent[] = [];
    const errors: Error[] = [];
    const hub = new R.Subscriptions({
      maxPending: 2,
      // Sub-resources of a subscribed folder count as updates of it; a throwing matcher is no match.
      matchesUri: (subscribed, updated) => {
        if (updated === "boom") throw new Error("matcher broke");
        return updated.startsWith(subscribed);
      },
      onEnd: (e) => ends.push(e),
      onError: (e) => errors.push(e),
    });
    const c = await connect(hub);
    await c.listen(1, { resourceSubscriptions: ["file:///dir/"] });
    await settle();
    c.wire.pause();
    expect(hub.publish(UPDATED, { uri: "boom" })).toBe(0);
    expect(errors.map((e) => e.message)).toEqual(["matcher broke"]);
    expect(hub.publish(UPDATED, { uri: "file:///dir/1" })).toBe(1); // with the transport
    expect(hub.publish(UPDATED, { uri: "file:///dir/2" })).toBe(1); // waiting
    expect(hub.publish(UPDATED, { uri: "file:///dir/3" })).toBe(1); // waiting
    expect(hub.queued).toBe(2);
    expect(hub.publish(UPDATED, { uri: "file:///dir/4" })).toBe(1); // one too many: the stream ends
    expect(hub.size).toBe(0);
    expect(hub.queued).toBe(0);
    expect(hub.publish(UPDATED, { uri: "file:///dir/5" })).toBe(0);
    c.wire.resume();
    await settle();
    const reason = "subscriptions/listen ended: more than 2 notifications waiting for this stream";
    expect(c.received).toEqual([
      ack(1, { resourceSubscriptions: ["file:///dir/"] }),
      note(1, UPDATED, { uri: "file:///dir/1" }),
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason } },
    ]);
    expect(ends).toEqual([{ subscriptionId: 1, cause: "overflow", reason }]);
    expect(c.server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("a send the transport refuses ends the stream (send-failed) and frees it; the failure goes to onError", async () => {
    const ends: R.SubscriptionEndEvent[] = [];
    const errors: string[] = [];
    const hub = new R.Subscriptions({ onEnd: (e) => ends.push(e), onError: (e) => errors.push(e.message) });
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true });
    await settle();
    c.wire.failNext = (m) => "method" in m && m.method === TOOLS_CHANGED;
    hub.publish(TOOLS_CHANGED);
    await settle();
    expect(hub.size).toBe(0);
    expect(ends.map((e) => e.cause)).toEqual(["send-failed"]);
    expect(errors).toEqual(["the pipe broke"]);
    expect(c.received).toEqual([
      ack(1, { toolsListChanged: true }),
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "subscriptions/listen ended by the server (send-failed)" } },
    ]);
  });

  it("a throwing onEnd or onError does not stop the hub", async () => {
    const hub = new R.Subscriptions({
      onEnd: () => {
        throw new Error("observer");
      },
      onError: () => {
        throw new Error("observer");
      },
    });
    const c = await connect(hub);
    await c.listen(1, { toolsListChanged: true });
    await c.listen(2, { toolsListChanged: true });
    await settle();
    await c.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await settle();
    expect(hub.size).toBe(1);
    expect(hub.publish(TOOLS_CHANGED)).toBe(1);
    await settle();
    expect(c.received.at(-1)).toEqual(note(2, TOOLS_CHANGED));
  });

  it("publish rejects what no stream can carry, and options out of range", () => {
    const hub = new R.Subscriptions();
    const untyped = hub as unknown as { publish(method: string, params?: unknown): number };
    expect(() => untyped.publish("notifications/message", { level: "info", data: 1 })).toThrow(TypeError);
    expect(() => untyped.publish(UPDATED)).toThrow('notifications/resources/updated: params.uri must be a string, got undefined');
    expect(() => untyped.publish(TOOLS_CHANGED, "x")).toThrow(TypeError);
    expect(() => new R.Subscriptions({ kinds: ["tools" as "toolsListChanged"] })).toThrow('kinds: "tools" is not a field of the subscriptions/listen filter');
    expect(() => new R.Subscriptions({ maxPending: -1 })).toThrow(RangeError);
  });
});

describe("subscriptions/listen with the generated client", () => {
  it("the client listens, gets the notifications it asked for, and cancels with its signal; close() resolves another listen with the result", async () => {
    const hub = new R.Subscriptions();
    const [a, b] = R.createInMemoryTransportPair();
    const server = new R.McpServer({ logger: null, handlers: TOOLS_AND_RESOURCES, subscriptions: hub });
    const got: Array<[string, unknown]> = [];
    const client = new R.McpClient({
      logger: null,
      notificationHandlers: {
        "notifications/subscriptions/acknowledged": (p) => void got.push(["ack", p]),
        "notifications/tools/list_changed": (p) => void got.push(["tools", p]),
      },
    });
    await server.connect(b);
    await client.connect(a, { initialize: false });
    const stop = new AbortController();
    const first = client.subscriptionsListen({ notifications: { toolsListChanged: true } }, { signal: stop.signal }).catch((e: unknown) => e);
    await settle();
    hub.publish(TOOLS_CHANGED);
    await settle();
    expect(got).toEqual([
      ["ack", { _meta: { [SUB_ID]: 1 }, notifications: { toolsListChanged: true } }],
      ["tools", { _meta: { [SUB_ID]: 1 } }],
    ]);
    stop.abort("enough");
    expect(await first).toBeInstanceOf(R.RequestCancelledError);
    await settle();
    expect(hub.size).toBe(0);

    const second = client.subscriptionsListen({ notifications: { toolsListChanged: true } });
    await settle();
    hub.close();
    await expect(second).resolves.toEqual({ resultType: "complete", _meta: { [SERVER_INFO]: DEFAULT_INFO, [SUB_ID]: 2 } });
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
  });
});
