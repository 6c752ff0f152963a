/**
 * The Streamable HTTP client transport of the session revisions (templates/runtime/
 * http-session-client.ts) against a scripted server (a fetch stub): the exact headers of each
 * HTTP request kind, resumption of a broken SSE stream with GET + Last-Event-ID, the errors of
 * an exhausted resumption and of an expired session, DELETE on close, and cancellation by
 * notifications/cancelled with the request's stream left open. Every wait is bounded.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { accepted, event, handshake, INITIALIZE, json, openTransport, scriptedFetch, sessionScript, SESSION, sse, waitFor, within, type Sse } from "./support.js";

const POST = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } } as const;
const CALL_RESULT = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done" }] } };

describe("SessionHttpClientTransport: headers per request kind", () => {
  it("initialize goes without session id and version; everything after it carries both; notifications get 202", async () => {
    const { fetch, calls } = scriptedFetch(
      sessionScript((call) => {
        if (call.method === "GET") return new Response(null, { status: 405 });
        if (call.method === "DELETE") return new Response(null, { status: 200 });
        if (call.body?.["method"] === "tools/list") return json({ jsonrpc: "2.0", id: call.body["id"], result: { tools: [] } });
        return accepted(); // the response to the server's ping
      }),
    );
    const { transport, received, errors } = openTransport(fetch, { listen: true, headers: { authorization: "Bearer t", "mcp-protocol-version": "theirs" } });
    await within("initialize", transport.send(INITIALIZE as unknown as R.JsonRpcMessage));
    expect(transport.sessionId).toBe(SESSION);
    expect(transport.protocolVersion).toBe("2025-06-18");
    await within("initialized", transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }));
    await waitFor("the GET stream", () => (calls.some((c) => c.method === "GET") ? true : undefined));
    await within("tools/list", transport.send({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    await within("a response", transport.send({ jsonrpc: "2.0", id: "s1", result: {} }));
    await within("close", transport.close());

    const session = { "mcp-session-id": SESSION, "mcp-protocol-version": "2025-06-18" };
    expect(calls.map((c) => [c.method, c.headers])).toEqual([
      // The caller's headers go everywhere; once a version is negotiated, ours wins on a clash.
      ["POST", { ...POST, authorization: "Bearer t", "mcp-protocol-version": "theirs" }],
      ["POST", { ...POST, authorization: "Bearer t", ...session }],
      ["GET", { accept: "text/event-stream", authorization: "Bearer t", ...session }],
      ["POST", { ...POST, authorization: "Bearer t", ...session }],
      ["POST", { ...POST, authorization: "Bearer t", ...session }],
      ["DELETE", { authorization: "Bearer t", ...session }],
    ]);
    expect(calls.map((c) => c.body)).toEqual([
      INITIALIZE,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      undefined,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: "s1", result: {} },
      undefined,
    ]);
    expect(received.map((m) => m["id"])).toEqual([0, 1]);
    // The 405 on GET (no stream offered) and on nothing else: no error.
    expect(errors).toEqual([]);
  });

  it("a JSON-RPC error with an HTTP error status answers the request; a bare error status rejects it with HttpStatusError", async () => {
    const { fetch } = scriptedFetch(
      sessionScript((call) =>
        call.body?.["id"] === 1 ? json({ jsonrpc: "2.0", id: null, error: { code: -32601, message: "no" } }, 400) : new Response("nope", { status: 500 }),
      ),
    );
    const { transport, received } = openTransport(fetch);
    await handshake(transport);
    await within("the error response", transport.send({ jsonrpc: "2.0", id: 1, method: "x/y" }));
    expect(received.at(-1)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "no" } });
    const failed = await within("the 500", transport.send({ jsonrpc: "2.0", id: 2, method: "x/y" }).catch((e: unknown) => e));
    expect(failed).toBeInstanceOf(R.HttpStatusError);
    expect((failed as R.HttpStatusError).status).toBe(500);
    await transport.close();
  });

  it("has no closeRequestStream: a cancel in the session revisions is notifications/cancelled, never a disconnect", () => {
    const { transport } = openTransport(scriptedFetch(() => accepted()).fetch);
    expect("closeRequestStream" in transport).toBe(false);
    expect((transport as R.Transport).closeRequestStream).toBeUndefined();
  });
});

describe("SessionHttpClientTransport: server messages over SSE", () => {
  it("delivers a server request from the POST's stream, POSTs our response back, then takes the response and cancels the stream", async () => {
    const stream = sse();
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.body?.["id"] === 1 ? stream.response : accepted())));
    const { transport, received, errors } = openTransport(fetch);
    await handshake(transport);
    const sent = transport.send(CALL);
    const elicit = { jsonrpc: "2.0", id: "e1", method: "elicitation/create", params: { message: "ok?", requestedSchema: { type: "object", properties: {} } } };
    stream.write(event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }) + event(elicit));
    await waitFor("the elicitation", () => (received.some((m) => m["id"] === "e1") ? true : undefined));
    await within("our answer", transport.send({ jsonrpc: "2.0", id: "e1", result: { action: "decline" } }));
    stream.write(event(CALL_RESULT));
    await within("the call", sent);
    await within("the stream cancelled after its response", stream.cancelled);
    expect(received.slice(1)).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }, elicit, CALL_RESULT]);
    expect(calls.at(-1)).toMatchObject({ method: "POST", headers: { "mcp-session-id": SESSION }, body: { jsonrpc: "2.0", id: "e1", result: { action: "decline" } } });
    expect(errors).toEqual([]);
    await transport.close();
  });

  it("drops a response for another id (it settles nothing) and reports it", async () => {
    const stream = sse();
    const { fetch } = scriptedFetch(sessionScript(() => stream.response));
    const { transport, received, errors } = openTransport(fetch);
    await handshake(transport);
    const sent = transport.send(CALL);
    stream.write(event({ jsonrpc: "2.0", id: 7, result: {} }) + event(CALL_RESULT));
    await within("the call", sent);
    expect(received.slice(1)).toEqual([CALL_RESULT]);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("response for id 7")]);
    await transport.close();
  });
});

describe("SessionHttpClientTransport: resumption (Resumability and Redelivery)", () => {
  it("a stream that ends after an event with id: and retry: is resumed with GET + Last-Event-ID, and the response arrives there", async () => {
    const post = sse();
    const resumed = sse();
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? resumed.response : post.response)));
    const { transport, received, errors } = openTransport(fetch, { reconnect: { defaultRetryMs: 60_000 } });
    await handshake(transport);
    const sent = transport.send(CALL);
    // A priming event (empty data: not dispatched), then a notification with its own id, then the end.
    post.write("id: p-1\nretry: 10\ndata: \n\n");
    post.write(event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }, "p-2"));
    post.end();
    // retry: 10 wins over the default of a minute: the GET comes (bounded wait, not a timing assertion).
    await waitFor("the reconnect", () => calls.find((c) => c.method === "GET"), 5000);
    resumed.write(event(CALL_RESULT, "p-3"));
    await within("the call", sent);
    const get = calls.find((c) => c.method === "GET")!;
    expect(get.headers).toEqual({ accept: "text/event-stream", "last-event-id": "p-2", "mcp-session-id": SESSION, "mcp-protocol-version": "2025-06-18" });
    expect(received.slice(1).map((m) => m["method"] ?? m["id"])).toEqual(["notifications/message", 1]);
    await within("the resumed stream cancelled", resumed.cancelled);
    expect(errors).toEqual([]);
    await transport.close();
  });

  it("a broken connection (not a graceful end) is resumed too", async () => {
    const post = sse();
    const resumed = sse();
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? resumed.response : post.response)));
    const { transport, received } = openTransport(fetch, { reconnect: { defaultRetryMs: 1 } });
    await handshake(transport);
    const sent = transport.send(CALL);
    post.write(event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }, "a"));
    await waitFor("the event read", () => (received.length === 2 ? true : undefined));
    post.fail();
    await waitFor("the reconnect", () => calls.find((c) => c.method === "GET"), 5000);
    resumed.write(event(CALL_RESULT));
    await within("the call", sent);
    expect(calls.find((c) => c.method === "GET")!.headers["last-event-id"]).toBe("a");
    await transport.close();
  });

  it("attempts exhausted: StreamResumptionError for that request after maxAttempts GETs", async () => {
    const post = sse();
    const { fetch, calls } = scriptedFetch(
      sessionScript((call, index) => {
        if (call.method === "GET") {
          // Each reconnect only primes (a new id, no message) and hangs up: no progress.
          const priming = sse();
          priming.write(`id: prime-${index}\nretry: 1\ndata: \n\n`);
          priming.end();
          return priming.response;
        }
        return post.response;
      }),
    );
    const { transport } = openTransport(fetch, { reconnect: { maxAttempts: 2, defaultRetryMs: 1 } });
    await handshake(transport);
    const sent = transport.send(CALL).catch((e: unknown) => e);
    post.write("id: only\n\n");
    post.end();
    const error = await within("the resumption to give up", sent);
    expect(error).toBeInstanceOf(R.StreamResumptionError);
    expect(error).toMatchObject({ method: "tools/call", requestId: 1, attempts: 2 });
    const gets = calls.filter((c) => c.method === "GET");
    expect(gets).toHaveLength(2);
    // The second reconnect resumes from the first one's priming id.
    expect(gets[0]!.headers["last-event-id"]).toBe("only");
    expect(gets[1]!.headers["last-event-id"]).toBe(`prime-${calls.indexOf(gets[0]!)}`);
    await transport.close();
  });

  it("a stream that ends without any event id is not resumed: RequestStreamBrokenError, no GET", async () => {
    const post = sse();
    const { fetch, calls } = scriptedFetch(sessionScript(() => post.response));
    const { transport } = openTransport(fetch, { reconnect: { defaultRetryMs: 1 } });
    await handshake(transport);
    const sent = transport.send(CALL).catch((e: unknown) => e);
    post.write(": a comment\n\n");
    post.end();
    expect(await within("the call to fail", sent)).toBeInstanceOf(R.RequestStreamBrokenError);
    expect(calls.filter((c) => c.method === "GET")).toEqual([]);
    await transport.close();
  });

  it("a huge retry: is capped at maxRetryMs", async () => {
    const post = sse();
    const resumed = sse();
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? resumed.response : post.response)));
    const { transport } = openTransport(fetch, { reconnect: { maxRetryMs: 5 } });
    await handshake(transport);
    const sent = transport.send(CALL);
    post.write("id: a\nretry: 9999999999\n\n");
    post.end();
    await waitFor("the reconnect (capped)", () => calls.find((c) => c.method === "GET"), 5000);
    resumed.write(event(CALL_RESULT));
    await within("the call", sent);
    await transport.close();
  });
});

describe("SessionHttpClientTransport: session expiry and close", () => {
  it("404 while holding a session id: SessionExpiredError to the pending requests and onerror", async () => {
    const open: Sse = sse();
    const { fetch } = scriptedFetch(sessionScript((call) => (call.body?.["id"] === 1 ? open.response : new Response("gone", { status: 404 }))));
    const { transport, errors } = openTransport(fetch);
    await handshake(transport);
    const pending = transport.send(CALL).catch((e: unknown) => e);
    open.write(": waiting\n\n");
    const other = await within("the 404", transport.send({ jsonrpc: "2.0", id: 2, method: "tools/list" }).catch((e: unknown) => e));
    expect(other).toBeInstanceOf(R.SessionExpiredError);
    expect(await within("the pending call", pending)).toBeInstanceOf(R.SessionExpiredError);
    expect((other as R.SessionExpiredError).sessionId).toBe(SESSION);
    expect(errors.filter((e) => e instanceof R.SessionExpiredError)).toHaveLength(1);
    await transport.close();
  });

  it("404 before any session (initialize) is an HTTP error, not an expired session", async () => {
    const { fetch } = scriptedFetch(() => new Response("no", { status: 404 }));
    const { transport } = openTransport(fetch);
    const error = await within("initialize", transport.send(INITIALIZE as unknown as R.JsonRpcMessage).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(R.HttpStatusError);
    await transport.close();
  });

  it("close(): DELETE with the session id, open fetches aborted, pending sends settled; a 405 on DELETE is no error", async () => {
    const post = sse();
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "DELETE" ? new Response(null, { status: 405 }) : post.response)));
    const { transport, errors } = openTransport(fetch);
    let closed = 0;
    transport.onclose = () => closed++;
    await handshake(transport);
    const pending = transport.send(CALL).catch((e: unknown) => e);
    post.write(": open\n\n");
    await waitFor("the POST", () => calls.find((c) => c.body?.["id"] === 1));
    await within("close", transport.close());
    // Settled without an error: the endpoint rejects the request itself (ConnectionClosedError).
    expect(await within("the pending send", pending)).toBeUndefined();
    expect(calls.find((c) => c.body?.["id"] === 1)!.signal!.aborted).toBe(true);
    expect(calls.at(-1)).toMatchObject({ method: "DELETE", headers: { "mcp-session-id": SESSION, "mcp-protocol-version": "2025-06-18" } });
    expect(closed).toBe(1);
    expect(errors).toEqual([]);
    await expect(transport.send(CALL)).rejects.toThrow("transport closed");
  });

  it("through the McpClient, a call pending at close() rejects with ConnectionClosedError", async () => {
    const post = sse();
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "DELETE" ? new Response(null, { status: 200 }) : post.response), "2025-11-25"));
    const client = new R.McpClient({ logger: null });
    await client.connect(R.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch, listen: false }), { initialize: false });
    await within("initialize", client.initialize(INITIALIZE.params));
    const call = client.callTool({ name: "slow" }).catch((e: unknown) => e);
    await waitFor("the POST", () => calls.find((c) => c.body?.["method"] === "tools/call"));
    await within("close", client.close());
    expect(await within("the call", call)).toBeInstanceOf(R.ConnectionClosedError);
    expect(calls.at(-1)?.method).toBe("DELETE");
  });

  it("close() without a session sends no DELETE", async () => {
    const { fetch, calls } = scriptedFetch(() => accepted());
    const { transport } = openTransport(fetch);
    await transport.close();
    expect(calls).toEqual([]);
  });
});

describe("SessionHttpClientTransport: cancellation through the generated McpClient", () => {
  it("an aborted call sends exactly one notifications/cancelled, and only then drops the request's stream (issue 28)", async () => {
    const slow = sse();
    const { fetch, calls } = scriptedFetch(
      sessionScript((call) => {
        if (call.body?.["method"] === "tools/call") return slow.response;
        if (call.method === "DELETE") return new Response(null, { status: 200 });
        return accepted();
      }, "2025-11-25"),
    );
    const events: R.CancellationEvent[] = [];
    const client = new R.McpClient({ logger: null, onCancellation: (e) => events.push(e) });
    await client.connect(R.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch, listen: false }), { initialize: false });
    await within("initialize", client.initialize(INITIALIZE.params));
    await client.notify("notifications/initialized");
    const controller = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: controller.signal }).catch((e: unknown) => e);
    const posted = await waitFor("the tools/call POST", () => calls.find((c) => c.body?.["method"] === "tools/call"));
    slow.write(": working\n\n");
    let cancelsAtDrop: number | undefined;
    posted.signal!.addEventListener("abort", () => (cancelsAtDrop = calls.filter((c) => c.body?.["method"] === "notifications/cancelled").length));
    controller.abort("user pressed stop");
    expect(await within("the call to reject", call)).toBeInstanceOf(R.RequestCancelledError);
    await waitFor("the cancel POST", () => calls.find((c) => c.body?.["method"] === "notifications/cancelled"));
    const cancels = calls.filter((c) => c.body?.["method"] === "notifications/cancelled");
    expect(cancels.map((c) => c.body)).toEqual([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: posted.body!["id"], reason: "user pressed stop" } },
    ]);
    expect(cancels[0]!.headers).toMatchObject({ "mcp-session-id": SESSION, "mcp-protocol-version": "2025-11-25" });
    // Once the cancel went out, the cancelled request's stream is dropped: a server may hold it open
    // for a response it never sends (a disconnect is still no cancel here: the notification came first).
    await within("the stream of the cancelled request to close", slow.cancelled);
    expect(posted.signal!.aborted).toBe(true);
    expect(cancelsAtDrop).toBe(1);
    // Sent as a notification (no `via: "stream-close"`).
    expect(events.filter((e) => e.type === "sent")).toEqual([{ type: "sent", requestId: posted.body!["id"], method: "tools/call", reason: "user pressed stop", cause: "abort" }]);
    await client.close();
  });
});

describe("SessionHttpClientTransport: the GET stream", () => {
  it("carries the server's requests; when it drops after an event id it is resumed with Last-Event-ID", async () => {
    const first = sse();
    const second = sse();
    let gets = 0;
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? (gets++ === 0 ? first.response : second.response) : accepted()), "2025-03-26"));
    const { transport, received, errors } = openTransport(fetch, { listen: true, reconnect: { defaultRetryMs: 1 } });
    await handshake(transport);
    await waitFor("the GET stream", () => calls.find((c) => c.method === "GET"));
    first.write(event({ jsonrpc: "2.0", id: "r1", method: "roots/list" }, "g-1"));
    await waitFor("the server request", () => received.find((m) => m["id"] === "r1"));
    first.end();
    await waitFor("the reconnect", () => (calls.filter((c) => c.method === "GET").length === 2 ? true : undefined), 5000);
    second.write(event({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }, "g-2"));
    await waitFor("the notification", () => received.find((m) => m["method"] === "notifications/tools/list_changed"));
    expect(calls.filter((c) => c.method === "GET").map((c) => c.headers)).toEqual([
      { accept: "text/event-stream", "mcp-session-id": SESSION, "mcp-protocol-version": "2025-03-26" },
      { accept: "text/event-stream", "mcp-session-id": SESSION, "mcp-protocol-version": "2025-03-26", "last-event-id": "g-1" },
    ]);
    expect(errors).toEqual([]);
    await transport.close();
    // The open (second) GET is aborted and its body no longer read.
    expect(calls.filter((c) => c.method === "GET").map((c) => c.signal!.aborted)).toEqual([false, true]);
    await within("the open stream cancelled", second.cancelled);
  });

  it("a GET answered with an error status other than 405 is reported, the session goes on", async () => {
    const { fetch } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? new Response("bad", { status: 400 }) : json({ jsonrpc: "2.0", id: call.body!["id"], result: {} }))));
    const { transport, errors } = openTransport(fetch, { listen: true });
    await handshake(transport);
    await waitFor("the error", () => errors[0]);
    expect(errors.map((e) => e.message)).toEqual(["GET stream: the server answered HTTP 400"]);
    await within("a ping", transport.send({ jsonrpc: "2.0", id: 5, method: "ping" }));
    await transport.close();
  });
});
