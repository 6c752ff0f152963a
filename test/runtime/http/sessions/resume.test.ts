/**
 * Resumability and Redelivery, on both faces of the handler: every event of a stream has an id
 * from the EventStore; GET with `Last-Event-ID` replays the events of that stream after it and
 * carries the stream on. The 2025-11-25 polling pattern (the server closes a request's stream
 * early, handler.closeStream), a request stream and a GET stream broken by the client, unknown
 * and foreign event ids (400: the session lives on), and the in-memory store's bounds.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { deferred, getStream, settle, messagesOf, open, rpcStream, serve, text, waitFor, type Event, type Served, describeFaces } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A tool that logs "one", waits for `gate`, logs "two" and answers. */
function twoStep(gate: Promise<void>): R.McpServerOptions {
  return {
    handlers: {
      "tools/call": async (_params, ctx) => {
        await ctx.notify("notifications/message", { level: "info", data: "one" });
        await gate;
        await ctx.notify("notifications/message", { level: "info", data: "two" });
        return text("done");
      },
    },
  };
}

const log = (data: string) => ({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });

describeFaces("resumption", (face) => {
  it("closeStream (2025-11-25 polling): the stream ends early, the request runs on, GET + Last-Event-ID replays the rest and ends with the response", async () => {
    const gate = deferred();
    served = await serve(face, twoStep(gate.promise));
    const { sessionId } = await open(served.url);
    const call = await rpcStream(served.url, sessionId, 5, "tools/call", { name: "t" });
    const seen: Event[] = [(await call.next())!, (await call.next())!];
    expect(messagesOf(seen)).toEqual([log("one")]);
    expect(served.handler.closeStream(sessionId, 5)).toBe(true);
    expect(await call.rest()).toEqual([]);
    gate.resolve();
    await waitFor("the request is answered", () => (served!.server.inFlight.received === 0 ? true : undefined));
    const resumed = await getStream(served.url, sessionId, seen[1]!.id);
    expect(resumed.status).toBe(200);
    expect(messagesOf(await resumed.rest())).toEqual([log("two"), { jsonrpc: "2.0", id: 5, result: text("done") }]);
  });

  it("a tool may close its own stream (the conformance suite's test_reconnection): priming first, with retry; the answer comes on the resumed GET", async () => {
    const holder: { handler?: R.SessionHttpHandler } = {};
    const closed = deferred<boolean>();
    served = await serve(face, {
      handlers: {
        "tools/call": async (_params, ctx) => {
          closed.resolve(holder.handler!.closeStream(ctx.http!.headers.get("mcp-session-id")!, ctx.requestId));
          await closed.promise;
          await Promise.resolve();
          return text("after reconnection");
        },
      },
    });
    holder.handler = served.handler;
    const { sessionId } = await open(served.url);
    const call = await rpcStream(served.url, sessionId, 1, "tools/call", { name: "test_reconnection" });
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    const events = await call.rest();
    expect(await closed.promise).toBe(true);
    expect(events).toEqual([{ id: expect.any(String), retry: "1000", data: "" }]);
    await waitFor("the request is answered", () => (served!.server.inFlight.received === 0 ? true : undefined));
    const resumed = await getStream(served.url, sessionId, events[0]!.id);
    expect(messagesOf(await resumed.rest())).toEqual([{ jsonrpc: "2.0", id: 1, result: text("after reconnection") }]);
  });

  it("a request stream the client broke is resumed while the request still runs: the replay, then the rest live", async () => {
    const gate = deferred();
    served = await serve(face, twoStep(gate.promise));
    const { sessionId } = await open(served.url);
    const call = await rpcStream(served.url, sessionId, 6, "tools/call", { name: "t" });
    const priming = (await call.next())!;
    await call.next(); // "one"
    call.abort();
    await waitFor("the server sees the client go", () => (served!.gone.count > 0 ? true : undefined));
    const resumed = await getStream(served.url, sessionId, priming.id);
    const replayed = messagesOf([(await resumed.next())!]);
    expect(replayed).toEqual([log("one")]);
    gate.resolve();
    expect(messagesOf(await resumed.rest())).toEqual([log("two"), { jsonrpc: "2.0", id: 6, result: text("done") }]);
    expect(served.events.filter((e) => e.type === "received")).toEqual([]);
  });

  it("a GET stream the client broke is resumed with what was sent meanwhile, then carries the session's messages on", async () => {
    served = await serve(face);
    const { sessionId } = await open(served.url);
    const get = await getStream(served.url, sessionId);
    const priming = (await get.next())!;
    served.handler.notify(sessionId, "notifications/tools/list_changed");
    const first = (await get.next())!;
    get.abort();
    await waitFor("the server sees the client go", () => (served!.gone.count > 0 ? true : undefined));
    served.handler.notify(sessionId, "notifications/prompts/list_changed");
    const resumed = await getStream(served.url, sessionId, first.id);
    expect(messagesOf([(await resumed.next())!])).toEqual([{ jsonrpc: "2.0", method: "notifications/prompts/list_changed" }]);
    served.handler.notify(sessionId, "notifications/resources/list_changed");
    expect(messagesOf([(await resumed.next())!])).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/list_changed" }]);
    expect(priming.id).not.toBe(first.id);
  });

  it("an unknown Last-Event-ID is 400 (not 404: the session lives on), and so is another session's event id in a shared store", async () => {
    const store = new R.InMemoryEventStore();
    served = await serve(face, {}, { eventStore: store });
    const a = await open(served.url);
    const b = await open(served.url);
    expect((await getStream(served.url, a.sessionId, "no-such-event")).status).toBe(400);
    const get = await getStream(served.url, a.sessionId);
    const priming = (await get.next())!;
    expect(priming.id).toBeDefined();
    expect((await getStream(served.url, b.sessionId, priming.id)).status).toBe(400);
  });

  it("a store that throws or gives an unusable id: the events go without ids, the failure is reported, the session lives on", async () => {
    let calls = 0;
    const store: R.EventStore = {
      storeEvent: () => (++calls % 2 === 0 ? "bad\nid" : Promise.reject(new Error("store down"))),
      replayEventsAfter: () => undefined,
    };
    served = await serve(face, twoStep(Promise.resolve()), { eventStore: store });
    const { sessionId } = await open(served.url);
    const events = await (await rpcStream(served.url, sessionId, 1, "tools/call", { name: "t" })).rest();
    expect(events.every((e) => e.id === undefined)).toBe(true);
    expect(messagesOf(events)).toEqual([log("one"), log("two"), { jsonrpc: "2.0", id: 1, result: text("done") }]);
    expect(served.errors.map((e) => e.message)).toEqual(expect.arrayContaining(["store down", expect.stringContaining("storeEvent must return")]));
  });
});

describe("InMemoryEventStore", () => {
  it("keeps at most maxEvents: the oldest go, and an evicted id cannot be resumed from", () => {
    const store = new R.InMemoryEventStore({ maxEvents: 3 });
    const ids = ["a", "b", "c", "d", "e"].map((data) => store.storeEvent("s/1", data));
    expect(store.size).toBe(3);
    expect(store.replayEventsAfter(ids[0]!)).toBeUndefined();
    expect(store.replayEventsAfter(ids[2]!)).toEqual({ streamId: "s/1", events: [{ id: ids[3], data: "d" }, { id: ids[4], data: "e" }] });
  });

  it("keeps at most maxBytes of data, replays only the stream of the id, and never a priming event", () => {
    const store = new R.InMemoryEventStore({ maxBytes: 100 });
    const first = store.storeEvent("s/1", "");
    store.storeEvent("s/2", "other");
    store.storeEvent("s/1", "");
    const kept = store.storeEvent("s/1", "mine");
    expect(store.replayEventsAfter(first)).toEqual({ streamId: "s/1", events: [{ id: kept, data: "mine" }] });
    for (let i = 0; i < 50; i++) store.storeEvent("s/3", "x".repeat(10));
    expect(store.size).toBeLessThanOrEqual(5);
  });

  it.each([{ maxEvents: 0 }, { maxEvents: 2.5 }, { maxBytes: -1 }])("checks its options: %o", (options) => {
    expect(() => new R.InMemoryEventStore(options)).toThrow(RangeError);
  });
});

describeFaces("InMemoryEventStore behind a session", (face) => {
  it("a session's events stay within the default bound however many are sent", async () => {
    const store = new R.InMemoryEventStore({ maxEvents: 50 });
    served = await serve(face, {}, { eventStore: store });
    const { sessionId } = await open(served.url);
    for (let i = 0; i < 500; i++) served.handler.notify(sessionId, "notifications/tools/list_changed");
    await settle(); // every write has run (the GET stream's writes are one promise chain)
    expect(store.size).toBe(50);
  });
});
