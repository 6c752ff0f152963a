/**
 * close() of the session HTTP client transport (templates/runtime/http/http-session-client.ts): once
 * only, its DELETE bounded and reported, a throwing onclose reported, only open fetches aborted
 * (finished ones are released), a late reply's body cancelled unread, nothing delivered after it,
 * and a reconnect wait cut short with no GET and no timer left behind.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { accepted, event, handshake, json, openTransport, scriptedFetch, sessionScript, sse, waitFor, within } from "./support.js";

const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } } as const;
const CALL_RESULT = { jsonrpc: "2.0", id: 1, result: { content: [] } };
const note = (data: string) => ({ jsonrpc: "2.0" as const, method: "notifications/message", params: { level: "info", data } });

afterEach(() => {
  vi.useRealTimers();
});

describe("SessionHttpClientTransport: close()", () => {
  it("a second close() does nothing: one DELETE, one onclose", async () => {
    const { fetch, calls } = scriptedFetch(sessionScript(() => new Response(null, { status: 200 })));
    const { transport, errors } = openTransport(fetch);
    let closed = 0;
    transport.onclose = () => closed++;
    await handshake(transport);
    await within("close", transport.close());
    await within("close again", transport.close());
    expect(calls.filter((c) => c.method === "DELETE")).toHaveLength(1);
    expect(closed).toBe(1);
    expect(errors).toEqual([]);
  });

  it("the DELETE: a 500 is reported as the session end's; a finished one leaves no timer; a hanging one is aborted after 5 s and reported", async () => {
    const failing = scriptedFetch(sessionScript(() => new Response("x", { status: 500 })));
    const a = openTransport(failing.fetch);
    await handshake(a.transport);
    await within("close", a.transport.close());
    expect(a.errors.map((e) => e.message)).toEqual(["DELETE (session end): the server answered HTTP 500"]);

    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const quick = scriptedFetch(sessionScript(() => new Response(null, { status: 200 })));
    const b = openTransport(quick.fetch);
    await handshake(b.transport);
    await b.transport.close();
    expect(vi.getTimerCount()).toBe(0);

    const hanging = scriptedFetch(
      sessionScript((call) => new Promise<Response>((_, reject) => call.signal!.addEventListener("abort", () => reject(call.signal!.reason)))),
    );
    const c = openTransport(hanging.fetch);
    await handshake(c.transport);
    let done = false;
    const closing = c.transport.close().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(4999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    await closing;
    expect(hanging.calls.at(-1)?.method).toBe("DELETE");
    expect(c.errors.map((e) => e.message)).toEqual(["DELETE timed out"]);
  });

  it("a throwing onclose is reported to onerror", async () => {
    const { transport, errors } = openTransport(scriptedFetch(() => accepted()).fetch);
    transport.onclose = () => {
      throw new Error("user code");
    };
    await within("close", transport.close());
    expect(errors.map((e) => e.message)).toEqual(["user code"]);
  });

  it("aborts only what is still open: finished POSTs, GETs and reconnects are let go", async () => {
    const post = sse();
    const resumed = sse();
    const open = sse();
    const { fetch, calls } = scriptedFetch(
      sessionScript((call) => {
        if (call.method === "GET") return call.headers["last-event-id"] === undefined ? new Response(null, { status: 405 }) : resumed.response;
        if (call.method === "DELETE") return new Response(null, { status: 200 });
        if (call.body?.["id"] === 1) return json(CALL_RESULT);
        if (call.body?.["id"] === 2) return post.response;
        return open.response;
      }),
    );
    const { transport } = openTransport(fetch, { listen: true, reconnect: { defaultRetryMs: 1 } });
    await handshake(transport);
    await waitFor("the GET stream refused", () => calls.find((c) => c.method === "GET"));
    await within("a notification", transport.send(note("x")));
    await within("a JSON answer", transport.send(CALL));
    const resumedCall = transport.send({ ...CALL, id: 2 });
    post.write("id: a\n\n");
    post.end();
    await waitFor("the reconnect", () => calls.find((c) => c.headers["last-event-id"] === "a"));
    resumed.write(event({ ...CALL_RESULT, id: 2 }));
    await within("the resumed answer", resumedCall);
    const pending = transport.send({ ...CALL, id: 3 });
    await waitFor("the open POST", () => calls.find((c) => c.body?.["id"] === 3));
    await within("close", transport.close());
    await within("the open send", pending);
    expect(calls.map((c) => [c.method, c.body?.["id"] ?? c.body?.["method"] ?? c.headers["last-event-id"] ?? null, c.signal?.aborted])).toEqual([
      ["POST", 0, false],
      ["POST", "notifications/initialized", false],
      ["GET", null, false],
      ["POST", "notifications/message", false],
      ["POST", 1, false],
      ["POST", 2, false],
      ["GET", "a", false],
      ["POST", 3, true],
      ["DELETE", null, false],
    ]);
  });

  it("a fetch that ignores the abort and answers after close(): the body is cancelled unread", async () => {
    let answer!: (response: Response) => void;
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "DELETE" ? new Response(null, { status: 200 }) : new Promise<Response>((resolve) => (answer = resolve)))));
    const { transport, received } = openTransport(fetch);
    await handshake(transport);
    const sent = transport.send(CALL);
    await waitFor("the POST", () => calls.find((c) => c.body?.["id"] === 1));
    await within("close", transport.close());
    await within("the send", sent);
    // An open stream with nothing on it: only this side can end it.
    const late = sse();
    answer(late.response);
    await within("the late body cancelled", late.cancelled);
    expect(received).toHaveLength(1); // the initialize result only
  });

  it("an onmessage that closes the transport: nothing more is delivered", async () => {
    const get = sse();
    const { fetch } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? get.response : new Response(null, { status: 200 }))));
    const { transport, received } = openTransport(fetch, { listen: true });
    await handshake(transport);
    let closing: Promise<void> | undefined;
    transport.onmessage = (m) => {
      received.push(m as unknown as Record<string, unknown>);
      closing ??= transport.close();
    };
    // Both events in one chunk: the second is read right after the first closed the transport.
    get.write(event(note("first")) + event(note("second")));
    await waitFor("the first message", () => (closing === undefined ? undefined : true));
    await within("close", closing!);
    expect(received.slice(1)).toEqual([note("first")]);
  });

  it("close() during the wait before a reconnect: the wait ends, no GET follows, no timer is left", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const post = sse();
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "DELETE" ? new Response(null, { status: 200 }) : call.method === "GET" ? sse().response : post.response)));
    const { transport } = openTransport(fetch, { reconnect: { defaultRetryMs: 60_000, maxRetryMs: 60_000 } });
    await handshake(transport);
    const sent = transport.send(CALL);
    post.write("id: a\n\n");
    post.end();
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    await transport.close();
    await sent;
    expect(vi.getTimerCount()).toBe(0);
    expect(calls.map((c) => c.method)).toEqual(["POST", "POST", "POST", "DELETE"]);
  });
});

