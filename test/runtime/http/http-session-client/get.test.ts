/**
 * The GET stream of the session HTTP client transport (templates/runtime/http/http-session-client.ts),
 * Listening for Messages from the Server: what each reply to the GET reports to onerror (once),
 * when a stream that ended is resumed and when not (no event id, over the bounds, session
 * expired, closed), and what an exhausted resumption reports.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { event, handshake, openTransport, scriptedFetch, sessionScript, sse, streamed, waitFor, within, type Sse } from "./support.js";

const NOTE = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
const MAX = 256;

/** A listening transport after the handshake; the n-th GET is answered by `gets[n]`. */
async function listening(gets: ReadonlyArray<() => Response | Promise<Response>>, reconnect: R.SessionReconnectOptions = {}) {
  let n = 0;
  const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? gets[n++]!() : new Response(null, { status: 200 }))));
  const opened = openTransport(fetch, { listen: true, maxMessageBytes: MAX, reconnect: { defaultRetryMs: 1, ...reconnect } });
  await handshake(opened.transport);
  return { ...opened, gets: () => calls.filter((c) => c.method === "GET") };
}

/** A GET stream that sends `text` and ends (unless `open`). */
function stream(text: string, open = false): () => Response {
  return () => {
    const s: Sse = sse();
    s.write(text);
    if (!open) s.end();
    return s.response;
  };
}

/** close(), then one turn of the event loop: whatever the close set off has happened. */
async function closeAndSettle(transport: R.SessionHttpClientTransport): Promise<void> {
  await within("close", transport.close());
  await new Promise((resolve) => setImmediate(resolve));
}

describe("SessionHttpClientTransport: the GET stream's end", () => {
  it("over the bounds after an event id: reported once, as the GET stream's, and not resumed", async () => {
    const { transport, errors, gets } = await listening([stream(`id: g1\ndata: ${"q".repeat(MAX)}\n`, true)], { maxAttempts: 0 });
    await waitFor("the error", () => errors[0]);
    await closeAndSettle(transport);
    expect(errors.map((e) => e.message)).toEqual([`GET stream: an SSE line exceeds ${MAX} bytes; closed`]);
    expect(gets()).toHaveLength(1);
  });

  it("a resumed GET stream over the bounds is not resumed again", async () => {
    const { transport, errors, gets } = await listening([stream(event(NOTE, "g1")), stream(`data: ${"q".repeat(MAX)}\n`, true)], { maxAttempts: 1 });
    await waitFor("the error", () => errors[0]);
    await closeAndSettle(transport);
    expect(errors.map((e) => e.message)).toEqual([`GET stream: an SSE line exceeds ${MAX} bytes; closed`]);
    expect(gets()).toHaveLength(2);
  });

  it("ended without any event id: not resumed, nothing reported", async () => {
    const { transport, received, errors, gets } = await listening([stream(event(NOTE))], { maxAttempts: 0 });
    await waitFor("the notification", () => received.find((m) => m["method"] === NOTE.method));
    await closeAndSettle(transport);
    expect(errors).toEqual([]);
    expect(gets()).toHaveLength(1);
  });

  it("a resumption that gives up is reported; one cut short by close() is not", async () => {
    const a = await listening([stream(event(NOTE, "g1")), () => new Response(null, { status: 500 })], { maxAttempts: 1 });
    await waitFor("the error", () => a.errors[0]);
    await closeAndSettle(a.transport);
    expect(a.errors.map((e) => e.message)).toEqual(['the GET stream could not be resumed: the reconnect answered HTTP 500 ""']);

    const b = await listening([stream(event(NOTE, "g1")), stream(": open\n\n", true)]);
    await waitFor("the reconnect", () => (b.gets().length === 2 ? true : undefined));
    await closeAndSettle(b.transport);
    expect(b.errors).toEqual([]);
  });
});

describe("SessionHttpClientTransport: replies to the GET", () => {
  it("404, on the first GET or on a reconnect: one SessionExpiredError, no more GETs", async () => {
    const a = await listening([() => new Response("gone", { status: 404 })]);
    await waitFor("the error", () => a.errors[0]);
    await closeAndSettle(a.transport);
    expect(a.errors.map((e) => e.name)).toEqual(["SessionExpiredError"]);

    const b = await listening([stream(event(NOTE, "g1")), () => new Response("gone", { status: 404 })], { maxAttempts: 1 });
    await waitFor("the error", () => b.errors[0]);
    await closeAndSettle(b.transport);
    expect(b.errors.map((e) => e.name)).toEqual(["SessionExpiredError"]);
    expect(b.gets()).toHaveLength(2);
  });

  it("a GET whose fetch fails is reported", async () => {
    const { transport, errors } = await listening([() => Promise.reject(new Error("connect ECONNREFUSED"))]);
    await waitFor("the error", () => errors[0]);
    await closeAndSettle(transport);
    expect(errors.map((e) => e.message)).toEqual(["connect ECONNREFUSED"]);
  });

  it("a 200 that is not an event stream, or has no body, and an error status without a body: HttpStatusError, the body cancelled", async () => {
    const jsonBody = streamed([JSON.stringify(NOTE)], { status: 200, headers: { "content-type": "application/json" } });
    const cases: Array<[() => Response, number]> = [
      [() => jsonBody.response, 200],
      [() => new Response(null, { status: 200, headers: { "content-type": "text/event-stream" } }), 200],
      [() => new Response(null, { status: 500 }), 500],
    ];
    for (const [reply, status] of cases) {
      const { transport, errors, received } = await listening([reply]);
      await waitFor("the error", () => errors[0]);
      await closeAndSettle(transport);
      expect(errors.map((e) => [e.name, (e as R.HttpStatusError).status, e.message]), String(status)).toEqual([
        ["HttpStatusError", status, `GET stream: the server answered HTTP ${status}`],
      ]);
      expect(received).toHaveLength(1); // the initialize result only
    }
    expect(jsonBody.cancelled()).toBe(true);
  });
});
