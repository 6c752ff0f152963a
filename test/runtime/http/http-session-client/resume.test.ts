/**
 * Resumption of a request's broken SSE stream by the session HTTP client transport
 * (templates/runtime/http/http-session-client.ts): what each kind of reconnect reply makes of the
 * request, the attempts counted and reset by progress, the wait before a reconnect (a `retry:`
 * that is not a number is ignored), and no reconnects for a request that was settled meanwhile.
 * The waits run on fake timers where the test asserts that something does not happen yet.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { event, handshake, openTransport, scriptedFetch, sessionScript, sse, streamed, within, type Script } from "./support.js";

const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } } as const;
const CALL_RESULT = { jsonrpc: "2.0", id: 1, result: { content: [] } };
const NOTE = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } };

const failure = (promise: Promise<unknown>) => within("the send to settle", promise.then(() => new Error("expected a rejection"), (e: unknown) => e));

/** Sends CALL after the handshake; its POST stream writes `first` and ends; GETs go to `onGet`. */
async function broken(first: string, onGet: Script, reconnect: R.SessionReconnectOptions) {
  const post = sse();
  const { fetch, calls } = scriptedFetch(sessionScript((call, index) => (call.method === "GET" ? onGet(call, index) : post.response)));
  const opened = openTransport(fetch, { reconnect });
  await handshake(opened.transport);
  const sent = opened.transport.send(CALL);
  post.write(first);
  post.end();
  return { ...opened, calls, sent, gets: () => calls.filter((c) => c.method === "GET") };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("SessionHttpClientTransport: resumption outcomes", () => {
  it("maxAttempts 0: no reconnect, StreamResumptionError after 0 attempts; no event id: RequestStreamBrokenError saying so", async () => {
    const a = await broken("id: a\n\n", () => new Response(null, { status: 500 }), { maxAttempts: 0 });
    const error = await failure(a.sent);
    expect(error).toBeInstanceOf(R.StreamResumptionError);
    expect((error as Error).name).toBe("StreamResumptionError");
    expect((error as Error).message).toBe("the response stream of tools/call (id 1) could not be resumed after 0 attempt(s): the stream ended");
    expect(a.gets()).toEqual([]);
    await a.transport.close();

    const b = await broken(": no id\n\n", () => new Response(null, { status: 500 }), { defaultRetryMs: 1 });
    expect(((await failure(b.sent)) as Error).message).toContain("the stream ended without a response and without an event id to resume from");
    await b.transport.close();
  });

  it("a reconnect that brings a message resets the attempts; one that brings none uses one up", async () => {
    const streams = [sse(), sse()];
    streams[0]!.write(event(NOTE, "b"));
    streams[0]!.end();
    streams[1]!.write(event(CALL_RESULT, "c"));
    const a = await broken("id: a\n\n", () => streams.shift()!.response, { maxAttempts: 1, defaultRetryMs: 1 });
    await within("the call, answered on the second reconnect", a.sent);
    expect(a.gets().map((c) => c.headers["last-event-id"])).toEqual(["a", "b"]);
    expect(a.received.slice(1)).toEqual([NOTE, CALL_RESULT]);
    await a.transport.close();

    const b = await broken("id: a\n\n", () => {
      const priming = sse();
      priming.write("id: p\ndata: \n\n");
      priming.end();
      return priming.response;
    }, { maxAttempts: 1, defaultRetryMs: 1 });
    const error = await failure(b.sent);
    expect((error as Error).message).toContain("after 1 attempt(s): the resumed stream ended");
    expect(b.gets()).toHaveLength(1);
    await b.transport.close();
  });

  it("a reconnect answered with an error status, another content type or no body: its body cancelled, the reply named in the error", async () => {
    const html = streamed(["<html>busy"], { status: 500, headers: { "content-type": "text/html" } });
    const cases: Array<[Response, string]> = [
      [new Response(null, { status: 503 }), 'the reconnect answered HTTP 503 ""'],
      [html.response, 'the reconnect answered HTTP 500 "text/html"'],
      [streamed([JSON.stringify(CALL_RESULT)], { status: 200, headers: { "content-type": "application/json" } }, true).response, 'the reconnect answered HTTP 200 "application/json"'],
      [new Response(null, { status: 200, headers: { "content-type": "text/event-stream" } }), 'the reconnect answered HTTP 200 "text/event-stream"'],
    ];
    for (const [reply, problem] of cases) {
      const a = await broken("id: a\n\n", () => reply, { maxAttempts: 1, defaultRetryMs: 1 });
      const error = await failure(a.sent);
      expect(error, problem).toBeInstanceOf(R.StreamResumptionError);
      expect((error as Error).message).toContain(`after 1 attempt(s): ${problem}`);
      expect(a.received).toHaveLength(1); // the initialize result only
      await a.transport.close();
    }
    expect(html.cancelled()).toBe(true);
  });

  it("a reconnect whose fetch fails names the failure", async () => {
    const a = await broken("id: a\n\n", () => Promise.reject(new Error("connect ECONNREFUSED")), { maxAttempts: 1, defaultRetryMs: 1 });
    const error = await failure(a.sent);
    expect(error).toBeInstanceOf(R.StreamResumptionError);
    expect((error as Error).message).toContain("after 1 attempt(s): connect ECONNREFUSED");
    await a.transport.close();
  });
});

describe("SessionHttpClientTransport: the wait before a reconnect", () => {
  it("a retry: that is not a plain number is ignored: the reconnect waits the default", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const resumed = sse();
    const a = await broken("id: a\nretry: soon\nretry: x5\nretry: 5x\n\n", () => resumed.response, { defaultRetryMs: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(a.gets()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(a.gets()).toHaveLength(1));
    vi.useRealTimers();
    resumed.write(event(CALL_RESULT));
    await within("the call", a.sent);
    await a.transport.close();
  });

  it("a request settled while its stream is resumed (here: the session expired) is not reconnected again", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const first = sse();
    const post = sse();
    const { fetch, calls } = scriptedFetch(
      sessionScript((call) => {
        if (call.method === "GET") return calls.filter((c) => c.method === "GET").length === 1 ? first.response : sse().response;
        return call.body?.["id"] === 1 ? post.response : new Response("gone", { status: 404 });
      }),
    );
    const { transport } = openTransport(fetch, { reconnect: { maxAttempts: 3, defaultRetryMs: 1000 } });
    await handshake(transport);
    const sent = transport.send(CALL).then(() => new Error("expected a rejection"), (e: unknown) => e);
    post.write("id: a\n\n");
    post.end();
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(calls.filter((c) => c.method === "GET")).toHaveLength(1));
    // Another request meets a 404: every pending request rejects, the call's too.
    expect(await transport.send({ jsonrpc: "2.0", id: 2, method: "ping" }).catch((e: unknown) => e)).toBeInstanceOf(R.SessionExpiredError);
    expect(await sent).toBeInstanceOf(R.SessionExpiredError);
    first.end();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(1);
    vi.useRealTimers();
    await within("close", transport.close());
  });
});
