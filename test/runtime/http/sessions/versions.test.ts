/**
 * Each revision's own rules, by the version a session negotiated: the MCP-Protocol-Version
 * header (2025-06-18 and later: an unsupported or malformed value is 400, another supported
 * version than the negotiated one is served; absent, the negotiated version is assumed; 2025-03-26
 * has no such header) and priming
 * events (2025-11-25 only). The generated servers of 2025-03-26 and 2025-06-18 are served too.
 * Each on both faces of the handler.
 */
import { afterEach, expect, it } from "vitest";
import * as R0326 from "../../../generated/2025-03-26/index.js";
import * as R0618 from "../../../generated/2025-06-18/index.js";
import { listen, type Listening } from "../../../helpers/faces.js";
import { getStream, open, post, rpc, rpcStream, serve, sessionHeaders, text, waitFor, type Served, describeFaces } from "./support.js";

let served: Served | undefined;
let other: Listening | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  await other?.close();
  other = undefined;
});

const tools = { handlers: { "tools/call": async (params: { name: string }, ctx: { notify: (m: "notifications/message", p: { level: "info"; data: string }) => Promise<void> }) => (await ctx.notify("notifications/message", { level: "info", data: "x" }), text(params.name)) } };

describeFaces("MCP-Protocol-Version", (face) => {
  it("2025-06-18 and 2025-11-25 sessions: an unknown or malformed value is 400, every supported version is served, none is the negotiated", async () => {
    served = await serve(face, tools as never);
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const { sessionId, answer } = await open(served.url, version);
      expect(answer.json).toMatchObject({ result: { protocolVersion: version } });
      let id = 0;
      for (const bad of ["1999-01-01", "2024-11-05", "2026-07-28", "garbage", "2025-11-25x", "2025-13-45"]) {
        const refused = await rpc(served.url, sessionId, ++id, "ping", {}, {}, bad);
        expect([bad, refused.status]).toEqual([bad, 400]);
        expect(refused.text).toContain("unsupported MCP-Protocol-Version");
      }
      // Any version this server supports, the negotiated one or not (the SDKs' leniency).
      for (const supported of ["2025-03-26", "2025-06-18", "2025-11-25"]) {
        const answered = await rpc(served.url, sessionId, ++id, "ping", {}, {}, supported);
        expect([supported, answered.status, answered.json]).toEqual([supported, 200, { jsonrpc: "2.0", id, result: {} }]);
      }
      expect((await rpc(served.url, sessionId, ++id, "ping", {}, { "mcp-protocol-version": undefined })).status).toBe(200);
    }
  });

  it("a session keeps its negotiated rules when a request names another supported version: a 2025-11-25 session still primes its streams", async () => {
    served = await serve(face, tools as never);
    const { sessionId } = await open(served.url, "2025-11-25");
    const events = await (await rpcStream(served.url, sessionId, 1, "tools/call", { name: "t" }, "2025-03-26")).rest();
    expect(events[0]!.data).toBe("");
  });

  it("a 2025-03-26 session has no such header: any value is left alone", async () => {
    served = await serve(face, tools as never);
    const { sessionId } = await open(served.url, "2025-03-26");
    expect((await rpc(served.url, sessionId, 1, "ping", {}, {}, "1999-01-01")).status).toBe(200);
  });

  it("stateless: the header names the request's revision; an unsupported value is 400", async () => {
    served = await serve(face, tools as never, { sessions: false });
    expect((await rpc(served.url, undefined, 1, "ping", {}, {}, "1999-01-01")).status).toBe(400);
    expect((await rpc(served.url, undefined, 2, "ping", {}, {}, "2025-06-18")).status).toBe(200);
  });
});

describeFaces("priming events", (face) => {
  it("2025-11-25 opens every SSE stream with an id and empty data; 2025-06-18 and 2025-03-26 streams start with the message, ids still on", async () => {
    served = await serve(face, tools as never);
    for (const [version, primed] of [["2025-11-25", true], ["2025-06-18", false], ["2025-03-26", false]] as const) {
      const { sessionId } = await open(served.url, version);
      const events = await (await rpcStream(served.url, sessionId, 1, "tools/call", { name: "t" }, version)).rest();
      expect(events[0]!.data === "", version).toBe(primed);
      expect(events.every((e) => e.id !== undefined)).toBe(true);
      const get = await getStream(served.url, sessionId, undefined, version);
      served.handler.notify(sessionId, "notifications/tools/list_changed");
      expect((await get.next())!.data === "", version).toBe(primed);
      get.abort();
    }
  });

  it("eventStore: null gives no ids and no priming events", async () => {
    served = await serve(face, tools as never, { eventStore: null });
    const { sessionId } = await open(served.url);
    const events = await (await rpcStream(served.url, sessionId, 1, "tools/call", { name: "t" })).rest();
    expect(events.map((e) => e.id)).toEqual([undefined, undefined]);
    expect(events.every((e) => e.data !== "")).toBe(true);
    expect(served.handler.closeStream(sessionId, 1)).toBe(false);
  });
});

describeFaces("the generated servers of the older session revisions", (face) => {
  it.each([
    ["2025-03-26", () => new R0326.McpServer({ logger: null, handlers: { "tools/call": (p) => ({ content: [{ type: "text", text: p.name }] }) } }), R0326],
    ["2025-06-18", () => new R0618.McpServer({ logger: null, handlers: { "tools/call": (p) => ({ content: [{ type: "text", text: p.name }] }) } }), R0618],
  ] as const)("%s: initialize and tools/call through its own index's createSessionHttpHandler", async (version, make, R) => {
    const handler = R.createSessionHttpHandler(make());
    other = await listen(face, handler);
    const { url } = other;
    const { sessionId, answer } = await open(url, version);
    expect(answer.json).toMatchObject({ result: { protocolVersion: version } });
    expect((await rpc(url, sessionId, 1, "tools/call", { name: "hello" }, {}, version)).json).toEqual({ jsonrpc: "2.0", id: 1, result: text("hello") });
    await handler.close();
  });
});

describeFaces("JSON-RPC batches (2025-03-26 only)", (face) => {
  const batchTools = {
    handlers: {
      "tools/call": async (params: { name: string }, ctx: { signal: AbortSignal }) => {
        if (params.name === "wait") await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return text(params.name);
      },
    },
  };

  it("a 2025-03-26 session takes a batch of requests and notifications: one JSON array of the responses, in order", async () => {
    served = await serve(face, batchTools as never);
    const { sessionId } = await open(served.url, "2025-03-26");
    const answer = await post(served.url, [
      { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "first" } },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", id: 0, method: "ping" },
    ], sessionHeaders(sessionId, "2025-03-26"));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([
      { jsonrpc: "2.0", id: "a", result: text("first") },
      { jsonrpc: "2.0", id: 0, result: {} },
    ]);
    const onlyNotifications = await post(served.url, [{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }], sessionHeaders(sessionId, "2025-03-26"));
    expect(onlyNotifications.status).toBe(202);
  });

  it("a batch whose requests were all cancelled is answered 202 with nothing (never an empty array)", async () => {
    served = await serve(face, batchTools as never);
    const { sessionId } = await open(served.url, "2025-03-26");
    const pending = post(served.url, [{ jsonrpc: "2.0", id: 0, method: "tools/call", params: { name: "wait" } }], sessionHeaders(sessionId, "2025-03-26"));
    await waitFor("the handler runs", () => (served!.server.inFlight.received === 1 ? true : undefined));
    await post(served.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0 } }, sessionHeaders(sessionId, "2025-03-26"));
    const answer = await pending;
    expect(answer.status).toBe(202);
    expect(answer.text).toBe("");
  });

  it("refused (400): in a later revision's session, empty, with initialize, with repeated ids; past maxInFlightPerSession: 429", async () => {
    served = await serve(face, batchTools as never, { maxInFlightPerSession: 2 });
    const later = await open(served.url, "2025-06-18");
    const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
    expect((await post(served.url, [ping(1)], sessionHeaders(later.sessionId, "2025-06-18"))).status).toBe(400);
    const { sessionId } = await open(served.url, "2025-03-26");
    const h = sessionHeaders(sessionId, "2025-03-26");
    expect((await post(served.url, [], h)).status).toBe(400);
    expect((await post(served.url, [{ jsonrpc: "2.0", id: 9, method: "initialize", params: {} }], h)).status).toBe(400);
    expect((await post(served.url, [ping(1), ping(1)], h)).status).toBe(400);
    expect((await post(served.url, [ping(1), { jsonrpc: "2.0" }], h)).status).toBe(400);
    expect((await post(served.url, [ping(1), ping(2), ping(3)], h)).status).toBe(429);
    expect((await post(served.url, [ping(1), ping(2)], h)).json).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }, { jsonrpc: "2.0", id: 2, result: {} }]);
  });
});
