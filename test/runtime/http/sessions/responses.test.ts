/**
 * What the session server answers (HTTP, Sending Messages to the Server; Listening for Messages
 * from the Server; Multiple Connections), on both faces of the handler: JSON or an SSE stream per
 * request, the server's requests and notifications about a request on that request's stream,
 * everything else on the session's one GET stream, ids in flight and the bound on them, and a GET
 * stream whose client stops reading (maxStreamBufferBytes ends the stream, not the session).
 */
import { afterEach, expect, it } from "vitest";
import { request as httpRequest, type IncomingMessage } from "node:http";
import * as R from "../../../generated/2025-11-25/index.js";
import { deferred, getStream, settle, messagesOf, open, post, rpc, rpcStream, serve, sessionHeaders, text, waitFor, LATEST, type Served, describeFaces } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describeFaces("request answers", (face) => {
  it("JSON when the handler answers first; an SSE stream (priming event, messages, response, in order) when it sends first", async () => {
    served = await serve(face, {
      handlers: {
        "tools/call": async (params, ctx) => {
          if (params.name === "chatty") {
            await ctx.notify("notifications/message", { level: "info", data: "one" });
            await ctx.sendProgress(1, 2);
          }
          return text(params.name);
        },
      },
    });
    const { sessionId } = await open(served.url);
    const quiet = await rpc(served.url, sessionId, 1, "tools/call", { name: "quiet" });
    expect(quiet.headers.get("content-type")).toBe("application/json");
    expect(quiet.json).toEqual({ jsonrpc: "2.0", id: 1, result: text("quiet") });
    const chatty = await rpcStream(served.url, sessionId, 2, "tools/call", { name: "chatty", _meta: { progressToken: "p" } });
    expect(chatty.headers.get("content-type")).toBe("text/event-stream");
    expect(chatty.headers.get("mcp-session-id")).toBe(sessionId);
    const events = await chatty.rest();
    expect(events[0]).toEqual({ id: expect.any(String), retry: "1000", data: "" });
    expect(messagesOf(events)).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "one" } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1, total: 2 } },
      { jsonrpc: "2.0", id: 2, result: text("chatty") },
    ]);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('responses: "sse" answers every request with a stream, opened by a priming event with the configured retry', async () => {
    served = await serve(face, { handlers: { "tools/call": (params) => text(params.name) } }, { responses: "sse", retryMs: 250 });
    const { sessionId } = await open(served.url);
    const answer = await rpcStream(served.url, sessionId, 1, "tools/call", { name: "x" });
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    const events = await answer.rest();
    expect(events[0]).toMatchObject({ retry: "250", data: "" });
    expect(messagesOf(events)).toEqual([{ jsonrpc: "2.0", id: 1, result: text("x") }]);
  });

  it("a request of the server about a request goes on that request's stream; the client's POSTed answer is 202 and reaches the handler", async () => {
    served = await serve(face, {
      handlers: {
        "tools/call": async (_params, ctx) => {
          const answer = await ctx.request("elicitation/create", { mode: "form", message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
          return text(`${answer.action}:${JSON.stringify(answer.content)}`);
        },
      },
    });
    const { sessionId } = await open(served.url);
    const call = await rpcStream(served.url, sessionId, 1, "tools/call", { name: "ask" });
    await call.next(); // priming
    const [asked] = messagesOf([(await call.next())!]);
    expect(asked).toMatchObject({ jsonrpc: "2.0", method: "elicitation/create", params: { message: "name?" } });
    const reply = await post(served.url, { jsonrpc: "2.0", id: asked!["id"], result: { action: "accept", content: { name: "Ada" } } }, sessionHeaders(sessionId));
    expect(reply.status).toBe(202);
    expect(messagesOf(await call.rest())).toEqual([{ jsonrpc: "2.0", id: 1, result: text('accept:{"name":"Ada"}') }]);
  });

  it("an id already in flight in the session is refused (400) and the first request keeps its stream", async () => {
    const gate = deferred();
    served = await serve(face, {
      handlers: {
        "tools/call": async (params) => {
          await gate.promise;
          return text(params.name);
        },
      },
    });
    const { sessionId } = await open(served.url);
    const first = rpc(served.url, sessionId, 9, "tools/call", { name: "first" });
    await waitFor("the first request is in flight", () => (served!.server.inFlight.received === 1 ? true : undefined));
    const second = await rpc(served.url, sessionId, 9, "tools/call", { name: "second" });
    expect(second.status).toBe(400);
    expect(second.json).toMatchObject({ id: 9, error: { code: -32600 } });
    gate.resolve();
    expect((await first).json).toEqual({ jsonrpc: "2.0", id: 9, result: text("first") });
  });

  it("maxInFlightPerSession: one more request is 429 naming the option; other sessions are not affected", async () => {
    const gate = deferred();
    served = await serve(face, { handlers: { "tools/call": async () => (await gate.promise, text("ok")) } }, { maxInFlightPerSession: 2 });
    const a = await open(served.url);
    const b = await open(served.url);
    const pending = [rpc(served.url, a.sessionId, 1, "tools/call", { name: "x" }), rpc(served.url, a.sessionId, 2, "tools/call", { name: "x" })];
    await waitFor("two requests in flight", () => (served!.server.inFlight.received === 2 ? true : undefined));
    const third = await rpc(served.url, a.sessionId, 3, "tools/call", { name: "x" });
    expect(third.status).toBe(429);
    expect(third.text).toContain("maxInFlightPerSession");
    gate.resolve();
    expect((await rpc(served.url, b.sessionId, 1, "tools/call", { name: "x" })).status).toBe(200);
    for (const answer of await Promise.all(pending)) expect(answer.status).toBe(200);
    expect((await rpc(served.url, a.sessionId, 4, "tools/call", { name: "x" })).status).toBe(200);
  });
});

describeFaces("the GET stream", (face) => {
  it("carries the server's messages outside requests (handler.notify), one stream per session (409 for a second)", async () => {
    served = await serve(face);
    const { sessionId } = await open(served.url);
    const get = await getStream(served.url, sessionId);
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toBe("text/event-stream");
    expect(await get.next()).toMatchObject({ data: "" }); // 2025-11-25: priming
    const second = await getStream(served.url, sessionId);
    expect(second.status).toBe(409);
    expect(served.handler.notify(sessionId, "notifications/tools/list_changed")).toBe(true);
    expect(messagesOf([(await get.next())!])).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    expect(served.handler.notify("no-such-session", "notifications/tools/list_changed")).toBe(false);
  });

  it("a message about a request already answered goes on the GET stream, not on a second stream", async () => {
    const later = deferred<R.TypedHandlerContext<object, object>>();
    served = await serve(face, {
      handlers: {
        "tools/call": (_params, ctx) => {
          later.resolve(ctx as never);
          return text("answered");
        },
      },
    });
    const { sessionId } = await open(served.url);
    const get = await getStream(served.url, sessionId);
    await get.next(); // priming
    expect((await rpc(served.url, sessionId, 1, "tools/call", { name: "x" })).json).toMatchObject({ result: text("answered") });
    const ctx = await later.promise;
    await ctx.notify("notifications/message" as never, { level: "info", data: "late" } as never);
    expect(messagesOf([(await get.next())!])).toEqual([{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "late" } }]);
  });
});

describeFaces("a GET stream whose client does not read", (face) => {
  it("maxStreamBufferBytes: the stream is closed once that many bytes wait unread, and the session lives on (a new GET opens)", async () => {
    served = await serve(face, {}, { maxStreamBufferBytes: 1024, keepAliveMs: 0, eventStore: null });
    const { sessionId } = await open(served.url);
    // A GET whose body is never read: its socket is paused once the head came.
    const target = new URL(served.url);
    const paused = new Promise<IncomingMessage>((resolve, reject) => {
      const get = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": LATEST } }, (response) => {
        response.pause();
        resolve(response);
      });
      get.on("error", reject);
      get.end();
    });
    expect((await paused).statusCode).toBe(200);
    expect((await getStream(served.url, sessionId)).status).toBe(409);
    // 16 KiB messages until the server's side of the stream holds unread bytes past the bound
    // (the socket buffers of loopback fill first); bounded at 64 MiB.
    const data = "x".repeat(16 * 1024);
    let sent = 0;
    while (served.gone.count === 0 && sent < 4096) {
      for (let i = 0; i < 64; i++) served.handler.notify(sessionId, "notifications/message", { level: "info", data });
      sent += 64;
      await settle(1);
    }
    await waitFor("the server drops the stream", () => (served!.gone.count === 1 ? true : undefined));
    expect(sent).toBeLessThan(4096);
    // The session is still there: a new GET stream opens, and carries what is sent now.
    const again = await getStream(served.url, sessionId);
    expect(again.status).toBe(200);
    served.handler.notify(sessionId, "notifications/tools/list_changed");
    expect(messagesOf([(await again.next())!])).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    again.abort();
    expect(served.handler.hasSession(sessionId)).toBe(true);
  });
});
