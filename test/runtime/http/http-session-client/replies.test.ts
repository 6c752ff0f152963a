/**
 * What the session HTTP client transport (templates/runtime/http/http-session-client.ts) makes of the
 * server's HTTP replies to a POST: error statuses with and without a JSON-RPC error, bodies that
 * are missing, unlabelled, chunked or at the size bound, content types with parameters, which
 * request a response may settle, and what the initialize reply may set (session id, version).
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { event, handshake, INITIALIZE, initializeResult, json, openTransport, scriptedFetch, sessionScript, SESSION, sse, streamed, waitFor, within } from "./support.js";

const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } } as const;
const CALL_RESULT = { jsonrpc: "2.0", id: 1, result: { content: [] } };
const ERROR = { code: -32602, message: "bad params" };

const failure = (promise: Promise<unknown>) => within("the send to settle", promise.then(() => new Error("expected a rejection"), (e: unknown) => e));

describe("SessionHttpClientTransport: HTTP replies to a request", () => {
  it("an error status: a body that is no JSON-RPC error is cancelled unread (HttpStatusError); none at all is an HttpStatusError too", async () => {
    const html = streamed(["<html>overloaded"], { status: 500, headers: { "content-type": "text/html" } });
    // A JSON-RPC error in a body not labelled application/json is no answer.
    const unlabelled = streamed([JSON.stringify({ jsonrpc: "2.0", id: 1, error: ERROR })], { status: 400, headers: { "content-type": "text/plain" } });
    const replies = [html.response, new Response(null, { status: 503 }), unlabelled.response];
    const { fetch } = scriptedFetch(sessionScript(() => replies.shift()!));
    const { transport, received } = openTransport(fetch);
    await handshake(transport);
    for (const [id, status] of [[1, 500], [2, 503], [3, 400]] as const) {
      const error = await failure(transport.send({ ...CALL, id }));
      expect(error, String(status)).toBeInstanceOf(R.HttpStatusError);
      expect((error as R.HttpStatusError).status).toBe(status);
    }
    expect(html.cancelled()).toBe(true);
    expect(unlabelled.cancelled()).toBe(true);
    expect(received).toHaveLength(1); // the initialize result only
    await transport.close();
  });

  it("a 200 without a body, or a 202 with one, is no response: RequestStreamBrokenError naming the status, the body cancelled", async () => {
    const body202 = streamed(["queued"], { status: 202, headers: { "content-type": "text/plain" } });
    const replies = [new Response(null, { status: 200, headers: { "content-type": "application/json" } }), body202.response];
    const { fetch } = scriptedFetch(sessionScript(() => replies.shift()!));
    const { transport } = openTransport(fetch);
    await handshake(transport);
    const empty = await failure(transport.send(CALL));
    expect(empty).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((empty as Error).message).toContain("HTTP 200 without a response");
    const queued = await failure(transport.send({ ...CALL, id: 2 }));
    expect(queued).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((queued as Error).message).toContain("HTTP 202 without a response");
    expect(body202.cancelled()).toBe(true);
    await transport.close();
  });

  it("content types are compared without parameters, spaces or case; a missing one is named as empty", async () => {
    const stream = sse();
    const replies = [
      new Response(JSON.stringify(CALL_RESULT), { status: 200, headers: { "content-type": "Application/JSON ; charset=utf-8" } }),
      new Response(stream.response.body, { status: 200, headers: { "content-type": " text/event-stream ;charset=utf-8" } }),
      new Response(new TextEncoder().encode("{}"), { status: 200 }),
    ];
    const { fetch } = scriptedFetch(sessionScript(() => replies.shift()!));
    const { transport, received } = openTransport(fetch);
    await handshake(transport);
    await within("the JSON reply", transport.send(CALL));
    const sent = transport.send({ ...CALL, id: 2 });
    stream.write(event({ ...CALL_RESULT, id: 2 }));
    await within("the SSE reply", sent);
    expect(received.slice(1).map((m) => m["id"])).toEqual([1, 2]);
    const untyped = await failure(transport.send({ ...CALL, id: 3 }));
    expect((untyped as Error).message).toContain('unexpected content type ""');
    await transport.close();
  });

  it("a JSON body read in chunks is whole; exactly maxMessageBytes passes, one byte more does not; garbage and other ids are named", async () => {
    const MAX = 256;
    const exact = (id: number, size: number): string => {
      const head = JSON.stringify({ jsonrpc: "2.0", id, result: { pad: "" } });
      return head.replace('"pad":""', `"pad":"${"p".repeat(size - head.length)}"`);
    };
    expect(exact(1, MAX)).toHaveLength(MAX);
    const split = (text: string): string[] => [text.slice(0, 10), text.slice(10, 100), text.slice(100)];
    const replies = [
      streamed(split(exact(1, MAX)), { status: 200, headers: { "content-type": "application/json" } }, true).response,
      streamed(split(exact(2, MAX + 1)), { status: 200, headers: { "content-type": "application/json" } }, true).response,
      new Response("{oops", { status: 200, headers: { "content-type": "application/json" } }),
      json({ jsonrpc: "2.0", id: 99, result: {} }),
    ];
    const { fetch } = scriptedFetch(sessionScript(() => replies.shift()!));
    const { transport, received } = openTransport(fetch, { maxMessageBytes: MAX });
    await handshake(transport);
    await within("the body of exactly maxMessageBytes", transport.send(CALL));
    expect(received.at(-1)).toEqual(JSON.parse(exact(1, MAX)));
    const big = await failure(transport.send({ ...CALL, id: 2 }));
    expect((big as Error).message).toContain(`the body exceeds ${MAX} bytes`);
    const garbage = await failure(transport.send({ ...CALL, id: 3 }));
    expect((garbage as Error).message).toContain("the server sent a body that is not JSON");
    const other = await failure(transport.send({ ...CALL, id: 4 }));
    expect((other as Error).message).toContain("the JSON body is not the response to this request");
    await transport.close();
  });

  it("a response settles only the request whose stream carried it", async () => {
    const first = sse();
    const second = sse();
    const { fetch } = scriptedFetch(sessionScript((call) => (call.body?.["id"] === 1 ? first.response : second.response)));
    const { transport, received, errors } = openTransport(fetch);
    await handshake(transport);
    let settled2 = false;
    const sent1 = transport.send(CALL);
    const sent2 = transport.send({ ...CALL, id: 2 }).then(() => (settled2 = true));
    // Request 1's stream carries a response to request 2: dropped, request 2 still pending.
    first.write(event({ jsonrpc: "2.0", id: 2, result: { forged: true } }));
    await waitFor("the forged response handled", () => (errors.length + received.length > 1 ? true : undefined));
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("response for id 2 that this stream does not carry")]);
    expect(settled2).toBe(false);
    second.write(event({ jsonrpc: "2.0", id: 2, result: { real: true } }));
    first.write(event(CALL_RESULT));
    await within("both requests", Promise.all([sent1, sent2]));
    expect(received.slice(1)).toEqual([{ jsonrpc: "2.0", id: 2, result: { real: true } }, CALL_RESULT]);
    await transport.close();
  });

  it("the initialize reply alone names the version, and only as a string; without Mcp-Session-Id no session header and no DELETE", async () => {
    const { fetch, calls } = scriptedFetch((call) => {
      if (call.body?.["method"] === "initialize") return json({ jsonrpc: "2.0", id: 0, result: { ...initializeResult().result, protocolVersion: 20250618 } }, 200, null);
      if (call.body !== undefined && !("id" in call.body)) return new Response(null, { status: 202 });
      return json({ jsonrpc: "2.0", id: call.body?.["id"], result: { protocolVersion: "1999-01-01" } }, 200, null);
    });
    const { transport } = openTransport(fetch);
    await handshake(transport);
    expect(transport.sessionId).toBeUndefined();
    expect(transport.protocolVersion).toBeUndefined();
    await within("tools/call", transport.send(CALL));
    await within("close", transport.close());
    expect(calls.map((c) => [c.method, c.headers["mcp-session-id"], c.headers["mcp-protocol-version"]])).toEqual([
      ["POST", undefined, undefined],
      ["POST", undefined, undefined],
      ["POST", undefined, undefined],
    ]);

    // With a version negotiated, a later result carrying protocolVersion changes nothing.
    const session = scriptedFetch(sessionScript((call) => json({ jsonrpc: "2.0", id: call.body?.["id"], result: { protocolVersion: "1999-01-01" } })));
    const second = openTransport(session.fetch);
    await handshake(second.transport);
    await within("tools/call", second.transport.send(CALL));
    await within("again", second.transport.send({ ...CALL, id: 2 }));
    expect(second.transport.protocolVersion).toBe("2025-06-18");
    expect(session.calls.at(-1)?.headers).toMatchObject({ "mcp-session-id": SESSION, "mcp-protocol-version": "2025-06-18" });
    await second.transport.close();
  });

  it("an event of JSON null is dropped as not JSON-RPC, the stream goes on", async () => {
    const stream = sse();
    const { fetch } = scriptedFetch(sessionScript(() => stream.response));
    const { transport, received, errors } = openTransport(fetch);
    await handshake(transport);
    const sent = transport.send(CALL);
    stream.write("data: null\n\n" + event(CALL_RESULT));
    await within("the call", sent);
    expect(received.slice(1)).toEqual([CALL_RESULT]);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("not JSON-RPC 2.0; dropped")]);
    await transport.close();
  });
});

describe("SessionHttpClientTransport: sends", () => {
  it("a reused request id rejects the earlier send; that send's late failure does not touch the new one", async () => {
    let failFirst!: (response: Response) => void;
    const firstReply = new Promise<Response>((resolve) => (failFirst = resolve));
    const stream = sse();
    let posts = 0;
    const { fetch, calls } = scriptedFetch(sessionScript(() => (posts++ === 0 ? firstReply : stream.response)));
    const { transport, received } = openTransport(fetch);
    await handshake(transport);
    const earlier = transport.send(CALL).then(() => "resolved", (e: unknown) => e);
    await waitFor("the first POST", () => calls.find((c) => c.body?.["id"] === 1));
    const later = transport.send(CALL).then(() => "resolved", (e: unknown) => e);
    const reused = await within("the earlier send", earlier);
    expect((reused as Error).message).toBe("request id 1 reused");
    await waitFor("the second POST", () => (calls.filter((c) => c.body?.["id"] === 1).length === 2 ? true : undefined));
    const failing = streamed(["down"], { status: 500, headers: { "content-type": "text/plain" } });
    failFirst(failing.response);
    await waitFor("the first reply handled", () => (failing.cancelled() ? true : undefined));
    await new Promise((resolve) => setImmediate(resolve));
    stream.write(event(CALL_RESULT));
    expect(await within("the later send", later)).toBe("resolved");
    expect(received.slice(1)).toEqual([CALL_RESULT]);
    await transport.close();
  });

  it("a message that JSON cannot encode rejects its send and sends nothing", async () => {
    const { fetch, calls } = scriptedFetch(() => new Response(null, { status: 202 }));
    const { transport } = openTransport(fetch);
    const error = await failure(transport.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { n: 1n } } as unknown as R.JsonRpcMessage));
    expect(error).toBeInstanceOf(TypeError);
    expect(calls).toEqual([]);
    await transport.close();
  });

  it("a notification or a response answered with an error status rejects with HttpStatusError naming it", async () => {
    const { fetch } = scriptedFetch((call) => (call.body?.["method"] === "initialize" ? json(initializeResult()) : new Response("no", { status: call.body?.["id"] === "s1" ? 400 : 500 })));
    const { transport } = openTransport(fetch);
    await within("initialize", transport.send(INITIALIZE as unknown as R.JsonRpcMessage));
    const notification = await failure(transport.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }));
    expect(notification).toMatchObject({ name: "HttpStatusError", status: 500, method: "notifications/roots/list_changed" });
    const response = await failure(transport.send({ jsonrpc: "2.0", id: "s1", result: {} }));
    expect(response).toMatchObject({ name: "HttpStatusError", status: 400, method: "response (id s1)" });
    await transport.close();
  });

  it("without onmessage nothing is reported; a throwing onmessage is reported to onerror, for requests and responses alike", async () => {
    const stream = sse();
    const { fetch } = scriptedFetch(sessionScript(() => stream.response));
    const transport = R.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch, listen: false });
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    await handshake(transport);
    const sent = transport.send(CALL);
    stream.write(event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }) + event(CALL_RESULT));
    await within("the call", sent);
    expect(errors).toEqual([]);
    await transport.close();

    const again = sse();
    const second = openTransport(scriptedFetch(sessionScript(() => again.response)).fetch);
    await handshake(second.transport);
    second.transport.onmessage = (m) => {
      throw new Error(`user code: ${"method" in m ? m.method : "response"}`);
    };
    const call = second.transport.send(CALL);
    again.write(event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }) + event(CALL_RESULT));
    await within("the call", call);
    expect(second.errors.map((e) => e.message)).toEqual(["user code: notifications/message", "user code: response"]);
    await second.transport.close();
  });
});

describe("SessionHttpClientTransport: error classes", () => {
  it("SessionExpiredError names itself and the session", async () => {
    const { fetch } = scriptedFetch(sessionScript(() => new Response("gone", { status: 404 })));
    const { transport } = openTransport(fetch);
    await handshake(transport);
    const error = await failure(transport.send(CALL));
    expect(error).toBeInstanceOf(R.SessionExpiredError);
    expect((error as Error).name).toBe("SessionExpiredError");
    expect((error as Error).message).toBe(`the server ended MCP session "${SESSION}" (HTTP 404): initialize a new session`);
    await transport.close();
  });
});
