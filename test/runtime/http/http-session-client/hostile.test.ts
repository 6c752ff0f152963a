/**
 * A hostile server against the session HTTP client transport: every body, line and event is
 * bounded (maxMessageBytes), and its JSON nesting (maxJsonDepth) before it is parsed; garbage goes
 * to onerror and is dropped, and nothing crashes, hangs or grows without bound. A stream that
 * broke the bounds is not resumed.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { event, handshake, json, openTransport, scriptedFetch, SESSION, sessionScript, sse, waitFor, within } from "./support.js";

const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } } as const;
const CALL_RESULT = { jsonrpc: "2.0", id: 1, result: { content: [] } };
const MAX = 256;

/** A transport after the handshake whose tools/call is answered by `stream`; GETs are recorded. */
async function withStream(stream: ReturnType<typeof sse>) {
  const { fetch, calls } = scriptedFetch(sessionScript(() => stream.response));
  const opened = openTransport(fetch, { maxMessageBytes: MAX, reconnect: { defaultRetryMs: 1 } });
  await handshake(opened.transport);
  const sent = opened.transport.send(CALL).catch((e: unknown) => e);
  return { ...opened, calls, sent };
}

describe("SessionHttpClientTransport: hostile server", () => {
  it("an event larger than maxMessageBytes (many data lines) closes the stream and rejects the request; no resumption", async () => {
    const stream = sse();
    const { transport, calls, sent } = await withStream(stream);
    stream.write("id: e1\n");
    for (let i = 0; i < 20; i++) stream.write(`data: ${"x".repeat(40)}\n`);
    const error = await within("the request to fail", sent);
    expect(error).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((error as Error).message).toContain(`an SSE event exceeds ${MAX} bytes`);
    await within("the stream cancelled", stream.cancelled);
    expect(calls.filter((c) => c.method === "GET")).toEqual([]);
    await transport.close();
  });

  it("an endless line (no line break, chunk after chunk) is cut at maxMessageBytes", async () => {
    const stream = sse();
    const { transport, sent } = await withStream(stream);
    for (let i = 0; i < 10; i++) stream.write("y".repeat(64));
    const error = await within("the request to fail", sent);
    expect((error as Error).message).toContain(`an SSE line exceeds ${MAX} bytes`);
    await within("the stream cancelled", stream.cancelled);
    await transport.close();
  });

  it("data that is not JSON, or not JSON-RPC, is reported and dropped; the stream goes on to the response", async () => {
    const stream = sse();
    const { transport, received, errors, sent } = await withStream(stream);
    stream.write("data: {not json\n\n");
    stream.write("data: [1,2,3]\n\n");
    stream.write('data: {"jsonrpc":"1.0","method":"x"}\n\n');
    stream.write("event: other\ndata: ignored, not a message event\n\n");
    stream.write("retry: soon\nid: a\0b\n: comment\n\n");
    stream.write(event(CALL_RESULT));
    expect(await within("the call", sent)).toBeUndefined();
    expect(received.slice(1)).toEqual([CALL_RESULT]);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringContaining("not JSON; dropped"),
      expect.stringContaining("not JSON-RPC 2.0; dropped"),
      expect.stringContaining("not JSON-RPC 2.0; dropped"),
    ]);
    await transport.close();
  });

  it("an event nested deeper than maxJsonDepth (2 M arrays) is dropped unparsed; the stream goes on to the response", async () => {
    const stream = sse();
    const { fetch } = scriptedFetch(sessionScript(() => stream.response));
    const { transport, received, errors } = openTransport(fetch);
    await handshake(transport);
    const sent = transport.send(CALL).catch((e: unknown) => e);
    stream.write(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":${"[".repeat(2_000_000)}${"]".repeat(2_000_000)}}}\n\n`);
    stream.write(event(CALL_RESULT));
    expect(await within("the call", sent)).toBeUndefined();
    expect(received.slice(1)).toEqual([CALL_RESULT]);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("the server sent an SSE event that nests deeper than 1000 levels (maxJsonDepth); dropped")]);
    await transport.close();
  });

  it("a JSON body nested deeper than maxJsonDepth rejects the request, unparsed", async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"result":{"a":${"[".repeat(20)}${"]".repeat(20)}}}`;
    const { fetch } = scriptedFetch(sessionScript(() => new Response(deep, { status: 200, headers: { "content-type": "application/json", "mcp-session-id": SESSION } })));
    const { transport } = openTransport(fetch, { maxJsonDepth: 16 });
    await handshake(transport);
    const error = await within("the call", transport.send(CALL).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((error as Error).message).toContain("the server sent a body that nests deeper than 16 levels (maxJsonDepth)");
    expect(() => openTransport(fetch, { maxJsonDepth: 7 })).toThrow(/maxJsonDepth/);
    await transport.close();
  });

  it("a JSON body larger than maxMessageBytes rejects the request", async () => {
    const { fetch } = scriptedFetch(sessionScript(() => json({ jsonrpc: "2.0", id: 1, result: { big: "z".repeat(MAX * 2) } })));
    const { transport } = openTransport(fetch, { maxMessageBytes: MAX });
    await handshake(transport);
    const error = await within("the call", transport.send(CALL).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((error as Error).message).toContain(`exceeds ${MAX} bytes`);
    await transport.close();
  });

  it("a JSON body that is not JSON, or answers another id, rejects the request (nothing else settles)", async () => {
    let n = 0;
    const { fetch } = scriptedFetch(
      sessionScript(() => (n++ === 0 ? new Response("{oops", { status: 200, headers: { "content-type": "application/json" } }) : json({ jsonrpc: "2.0", id: 99, result: {} }))),
    );
    const { transport, received, errors } = openTransport(fetch, { maxMessageBytes: MAX });
    await handshake(transport);
    expect(await within("garbage", transport.send(CALL).catch((e: unknown) => e))).toBeInstanceOf(R.RequestStreamBrokenError);
    expect(await within("another id", transport.send({ ...CALL, id: 2 }).catch((e: unknown) => e))).toBeInstanceOf(R.RequestStreamBrokenError);
    expect(received).toHaveLength(1); // the initialize result only
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("response for id 99")]);
    await transport.close();
  });

  it("an unexpected content type rejects the request", async () => {
    const { fetch } = scriptedFetch(sessionScript(() => new Response("<html>", { status: 200, headers: { "content-type": "text/html" } })));
    const { transport } = openTransport(fetch);
    await handshake(transport);
    const error = await within("the call", transport.send(CALL).catch((e: unknown) => e));
    expect((error as Error).message).toContain('unexpected content type "text/html"');
    await transport.close();
  });

  it("the GET stream: a response on it settles nothing; an oversized event ends it with an onerror; no crash", async () => {
    const get = sse();
    const { fetch, calls } = scriptedFetch(sessionScript(() => get.response));
    const { transport, received, errors } = openTransport(fetch, { listen: true, maxMessageBytes: MAX });
    await handshake(transport);
    await waitFor("the GET", () => calls.find((c) => c.method === "GET"));
    get.write(event({ jsonrpc: "2.0", id: 0, result: {} }));
    get.write(event({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
    await waitFor("the notification", () => received.find((m) => m["method"] === "notifications/tools/list_changed"));
    get.write(`data: ${"q".repeat(MAX)}\n`);
    await within("the GET stream cancelled", get.cancelled);
    await waitFor("the error", () => errors.find((e) => e.message.includes("exceeds")));
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("response for id 0"), expect.stringContaining(`an SSE line exceeds ${MAX} bytes`)]);
    await transport.close();
  });

  it("a throwing onmessage or onerror does not break the transport", async () => {
    const stream = sse();
    const { fetch } = scriptedFetch(sessionScript(() => stream.response));
    const { transport } = openTransport(fetch);
    await handshake(transport);
    transport.onmessage = () => {
      throw new Error("user code");
    };
    transport.onerror = () => {
      throw new Error("user code too");
    };
    const sent = transport.send(CALL);
    stream.write("data: nope\n\n" + event(CALL_RESULT));
    await within("the call", sent);
    await transport.close();
  });

  it("rejects bad options", () => {
    const { fetch } = scriptedFetch(() => new Response(null, { status: 202 }));
    expect(() => R.createSessionHttpClientTransport({ url: "http://x", fetch, maxMessageBytes: 0 })).toThrow(RangeError);
    expect(() => R.createSessionHttpClientTransport({ url: "http://x", fetch, reconnect: { maxAttempts: -1 } })).toThrow(RangeError);
    expect(() => R.createSessionHttpClientTransport({ url: "http://x", fetch, reconnect: { defaultRetryMs: 1.5 } })).toThrow(RangeError);
  });
});
