/**
 * Cancellation in a session (basic/utilities/cancellation; HTTP, Sending Messages to the Server),
 * on both faces of the handler: notifications/cancelled for any valid id, 0 included, aborts the
 * handler's ctx.signal, sends no response and ends that request's stream, whichever POST of the
 * session carries it; a client that goes away is not a cancel; the end of the session is. The
 * session acts on what the endpoint made of the cancel (Connection.receive: "received"), never on
 * the method name: a cancel the endpoint ignored (an unknown or finished id, initialize, a
 * malformed one) leaves the request and its stream alone. Each field bug of the SDK named in
 * issue 29 has its test here.
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { aborted, deferred, deleteSession, describeFaces, messagesOf, notify, open, post, POST_HEADERS, rpcStream, serve, sessionHeaders, stream, text, waitFor, type Served } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A tool that (with `stream`) sends a log message first, then waits for `gate` or its signal; every ctx.signal is kept. */
function waiting(signals: AbortSignal[], gate: Promise<void>): R.McpServerOptions {
  return {
    handlers: {
      "tools/call": async (params, ctx) => {
        signals.push(ctx.signal);
        if (params.arguments?.["stream"] === true) await ctx.notify("notifications/message", { level: "info", data: "working" });
        await Promise.race([gate, aborted(ctx.signal)]);
        return text(ctx.signal.aborted ? "aborted" : "done");
      },
    },
  };
}

describeFaces("notifications/cancelled", (face) => {
  it("for request id 0, on another POST, aborts the handler, sends no response and ends the request's SSE stream (#2283, #2115, #401, mcp-ts-core #311)", async () => {
    const signals: AbortSignal[] = [];
    served = await serve(face, waiting(signals, new Promise(() => {})));
    const { sessionId } = await open(served.url);
    const call = await rpcStream(served.url, sessionId, 0, "tools/call", { name: "wait", arguments: { stream: true } });
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    const priming = await call.next();
    expect(priming).toMatchObject({ data: "" });
    expect(messagesOf([(await call.next())!])).toEqual([{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }]);
    const cancel = await notify(served.url, sessionId, "notifications/cancelled", { requestId: 0, reason: "user" });
    expect(cancel.status).toBe(202);
    expect(await aborted(signals[0]!)).toBe("user");
    // The stream ends, and no response was on it.
    expect(messagesOf(await call.rest())).toEqual([]);
    expect(served.events).toContainEqual({ type: "received", requestId: 0, method: "tools/call", reason: "user" });
    expect(served.server.inFlight.received).toBe(0);
  });

  it("for a request still unanswered and silent (JSON still possible): the answer is an SSE stream that ends empty", async () => {
    const signals: AbortSignal[] = [];
    served = await serve(face, waiting(signals, new Promise(() => {})));
    const { sessionId } = await open(served.url);
    const call = rpcStream(served.url, sessionId, 0, "tools/call", { name: "wait", arguments: {} });
    await waitFor("the handler runs", () => signals[0]);
    expect((await notify(served.url, sessionId, "notifications/cancelled", { requestId: 0 })).status).toBe(202);
    const answer = await call;
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(answer.headers.get("mcp-session-id")).toBe(sessionId);
    expect(await answer.rest()).toEqual([]);
    expect(signals[0]!.aborted).toBe(true);
  });

  it("names a request of its own session only: another session's cancel of the same id changes nothing", async () => {
    const signals: AbortSignal[] = [];
    const gate = deferred();
    served = await serve(face, waiting(signals, gate.promise));
    const alice = await open(served.url);
    const mallory = await open(served.url);
    const call = await rpcStream(served.url, alice.sessionId, 0, "tools/call", { name: "wait", arguments: { stream: true } });
    await call.next(); // priming
    await call.next(); // the log message
    expect((await notify(served.url, mallory.sessionId, "notifications/cancelled", { requestId: 0 })).status).toBe(202);
    // In mallory's session, id 0 was its own initialize, long answered.
    expect(served.events).toContainEqual(expect.objectContaining({ type: "ignored", cause: "finished", requestId: 0 }));
    gate.resolve();
    expect(messagesOf(await call.rest())).toEqual([{ jsonrpc: "2.0", id: 0, result: text("done") }]);
    expect(signals[0]!.aborted).toBe(false);
  });

  it("a cancel the endpoint ignored (an unknown id, a finished one, a string naming a number id) leaves the silent request's answer JSON", async () => {
    const signals: AbortSignal[] = [];
    const gate = deferred();
    served = await serve(face, waiting(signals, gate.promise));
    const { sessionId } = await open(served.url);
    const call = post(served.url, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "wait", arguments: {} } }, sessionHeaders(sessionId));
    await waitFor("the handler runs", () => signals[0]);
    for (const params of [{ requestId: 99 }, { requestId: 0 }, { requestId: "5" }]) {
      expect((await notify(served.url, sessionId, "notifications/cancelled", params)).status).toBe(202);
    }
    // The unknown ids are remembered (early): two POSTs may arrive in either order (early-cancel.test.ts).
    expect(served.events).toEqual([
      { type: "ignored", cause: "unknown-request", requestId: 99, reason: undefined, early: true },
      { type: "ignored", cause: "finished", requestId: 0, reason: undefined },
      { type: "ignored", cause: "unknown-request", requestId: "5", reason: undefined, early: true },
    ]);
    gate.resolve();
    const answer = await call;
    // Nothing turned the answer into a stream: it is the JSON response.
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.json).toEqual({ jsonrpc: "2.0", id: 5, result: text("done") });
    expect(signals[0]!.aborted).toBe(false);
  });

  it("a cancel of initialize (in flight: the stream already names the session) is ignored; initialize is answered and the session opens", async () => {
    const gate = deferred();
    const started = deferred();
    served = await serve(
      face,
      {
        handlers: {
          initialize: async () => {
            started.resolve();
            await gate.promise;
            return { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "slow-init", version: "1.0.0" } };
          },
        },
      },
      { responses: "sse" },
    );
    const init = await stream(served.url, {
      method: "POST",
      headers: POST_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    const sessionId = init.headers.get("mcp-session-id")!;
    expect(sessionId).not.toBeNull();
    expect(await init.next()).toMatchObject({ data: "" }); // priming
    await started.promise;
    expect((await notify(served.url, sessionId, "notifications/cancelled", { requestId: 0, reason: "never mind" })).status).toBe(202);
    expect(served.events).toEqual([{ type: "ignored", cause: "uncancellable", requestId: 0, reason: "never mind", method: "initialize" }]);
    gate.resolve();
    expect(messagesOf(await init.rest())).toEqual([{ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "slow-init", version: "1.0.0" } } }]);
    expect(served.handler.hasSession(sessionId)).toBe(true);
  });

  it("a malformed cancel (no id, an id that is no string or integer, a reason that is no string) is accepted (202) and aborts nothing", async () => {
    const signals: AbortSignal[] = [];
    const gate = deferred();
    served = await serve(face, waiting(signals, gate.promise));
    const { sessionId } = await open(served.url);
    const call = await rpcStream(served.url, sessionId, 1, "tools/call", { name: "wait", arguments: { stream: true } });
    await call.next();
    await call.next();
    const malformed = [{}, { requestId: null }, { requestId: 1.5 }, { requestId: [1] }, { requestId: 1, reason: 7 }];
    for (const params of malformed) {
      expect((await notify(served.url, sessionId, "notifications/cancelled", params)).status).toBe(202);
    }
    // Every one was the endpoint's "malformed"; the last names the request in flight, and still ends nothing.
    expect(served.events.map((e) => e.type === "ignored" && e.cause)).toEqual(malformed.map(() => "malformed"));
    gate.resolve();
    expect(messagesOf(await call.rest())).toEqual([{ jsonrpc: "2.0", id: 1, result: text("done") }]);
    expect(signals[0]!.aborted).toBe(false);
  });

  it("a client that goes away is not a cancel: the handler runs on, unaborted, to its end", async () => {
    const signals: AbortSignal[] = [];
    const gate = deferred();
    const finished = deferred<string>();
    served = await serve(face, {
      handlers: {
        "tools/call": async (_params, ctx) => {
          signals.push(ctx.signal);
          await ctx.notify("notifications/message", { level: "info", data: "working" });
          await gate.promise;
          finished.resolve(ctx.signal.aborted ? "aborted" : "ran to its end");
          return text("done");
        },
      },
    });
    const { sessionId } = await open(served.url);
    const call = await rpcStream(served.url, sessionId, 7, "tools/call", { name: "wait", arguments: {} });
    await call.next(); // priming
    await call.next(); // the log message
    call.abort();
    await waitFor("the server sees the client go", () => (served!.gone.count > 0 ? true : undefined));
    gate.resolve();
    expect(await finished.promise).toBe("ran to its end");
    expect(served.events.filter((e) => e.type === "received")).toEqual([]);
  });

  it("the end of the session (DELETE) aborts its handlers and ends their streams (#611)", async () => {
    const signals: AbortSignal[] = [];
    served = await serve(face, waiting(signals, new Promise(() => {})));
    const { sessionId } = await open(served.url);
    const call = await rpcStream(served.url, sessionId, 3, "tools/call", { name: "wait", arguments: { stream: true } });
    await call.next();
    await call.next();
    const silent = rpcStream(served.url, sessionId, 4, "tools/call", { name: "wait", arguments: {} });
    await waitFor("both handlers run", () => signals[1]);
    expect((await deleteSession(served.url, sessionId)).status).toBe(200);
    await aborted(signals[0]!);
    await aborted(signals[1]!);
    expect(messagesOf(await call.rest())).toEqual([]);
    // The request still unanswered gets the 404 of a session that ended.
    expect((await silent).status).toBe(404);
    expect(served.server.inFlight.received).toBe(0);
  });
});
