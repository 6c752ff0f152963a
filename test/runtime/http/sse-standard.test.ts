/**
 * The SSE nits of issue 28 (defect 9), at the wire of both HTTP client transports, as WHATWG HTML
 * "Interpreting an event stream" says: an event whose data is empty (`data:` alone, or a bare
 * `data` line) is not dispatched, so it is no "not JSON" message; a bare `id` line is an `id`
 * field with an empty value, which clears the last event ID at the next dispatch (then no
 * `Last-Event-ID` is sent and nothing is resumed from ""), never before; and one BOM at the start
 * of the stream is dropped while a BOM opening a later line is text (that line's field is unknown).
 */
import { describe, expect, it } from "vitest";
import { SseParser, type SseEvent } from "../../../templates/runtime/http/sse.js";
import * as Stateless from "../../generated/2026-07-28/index.js";
import * as Session from "../../generated/2025-11-25/index.js";
import { event, handshake, openTransport, scriptedFetch, sessionScript, sse, waitFor, within, type Sse } from "../../http-session-client/support.js";

const bytes = (text: string) => new TextEncoder().encode(text);

function parse(chunks: readonly (string | Uint8Array)[], lastEventId?: string) {
  const parser = new SseParser(1024, lastEventId);
  const events: SseEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(typeof chunk === "string" ? bytes(chunk) : chunk).events);
  return { parser, events };
}

describe("SseParser, as the standard says", () => {
  it("drops one BOM at the start of the stream, even split across chunks; a BOM opening a later line makes an unknown field", () => {
    expect(parse(["\uFEFFdata: first\n\n", "\uFEFFdata: second\n\ndata: third\n\n"]).events).toEqual([
      { type: "message", data: "first" },
      { type: "message", data: "third" },
    ]);
    const bom = bytes("\uFEFF");
    expect(parse([bom.subarray(0, 2), bom.subarray(2), "data: x\n\n"]).events).toEqual([{ type: "message", data: "x" }]);
    // Only one: a second BOM at the start is text.
    expect(parse(["\uFEFF\uFEFFdata: x\n\n"]).events).toEqual([]);
  });

  it("a bare id line clears the last event ID at the dispatch, even of an event with no data; not in an event cut short", () => {
    expect(parse(["id: a\ndata: x\n\nid\n\n"]).parser.lastEventId).toBe("");
    expect(parse(["id: a\ndata: x\n\nid\ndata: y"]).parser.lastEventId).toBe("a");
    expect(parse(["id\ndata: y\n\n"], "resumed-from").parser.lastEventId).toBe("");
  });
});

describe("the 2026-07-28 client", () => {
  const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
  const call: Stateless.JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {}, _meta: META } };
  const answer = { jsonrpc: "2.0", id: 1, result: { content: [] } };

  async function read(chunks: readonly string[]) {
    const { fetch } = scriptedFetch(() => {
      const body = sse();
      for (const chunk of chunks) body.write(chunk);
      body.end();
      return body.response;
    });
    const transport = Stateless.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch });
    const received: unknown[] = [];
    const errors: Error[] = [];
    transport.onmessage = (m) => received.push(m);
    transport.onerror = (e) => errors.push(e);
    const outcome = await within("the request", transport.send(call).then(() => "answered", (e: unknown) => e));
    await transport.close();
    return { outcome, received, errors };
  }

  it("an event of only an empty data: line, a bare data line, or a bare id is skipped; the response after it answers", async () => {
    for (const empty of ["data:\n\n", "data\n\n", "id\ndata:\n\n", "id\n\n", "\uFEFFdata:\n\n"]) {
      const { outcome, received, errors } = await read([empty, event(answer)]);
      expect(outcome, JSON.stringify(empty)).toBe("answered");
      expect(received, JSON.stringify(empty)).toEqual([answer]);
      expect(errors, JSON.stringify(empty)).toEqual([]);
    }
  });

  it("a stream opened with a BOM is read: its first event answers", async () => {
    const { outcome, received } = await read([`\uFEFF${event(answer)}`]);
    expect(outcome).toBe("answered");
    expect(received).toEqual([answer]);
  });
});

describe("the session client", () => {
  const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } } as const;
  const RESULT = { jsonrpc: "2.0", id: 1, result: { content: [] } };
  const note = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "n" } };

  async function session(posts: Sse[], gets: Sse[] = []) {
    const { fetch, calls } = scriptedFetch(sessionScript((c) => (c.method === "GET" ? gets.shift()! : posts.shift()!).response, "2025-11-25"));
    const opened = openTransport(fetch, { reconnect: { defaultRetryMs: 1 } });
    await handshake(opened.transport);
    return { ...opened, calls };
  }

  it("an event of only an empty data: line (or a bare data line) is no message and no error: the response after it answers", async () => {
    for (const empty of ["data:\n\n", "data\n\n", "id: p\ndata:\n\n"]) {
      const post = sse();
      const { transport, received, errors } = await session([post]);
      const sent = transport.send(CALL as unknown as Session.JsonRpcMessage);
      post.write(empty);
      post.write(event(RESULT));
      await within("the call", sent);
      expect(received.slice(-1), JSON.stringify(empty)).toEqual([RESULT]);
      expect(errors, JSON.stringify(empty)).toEqual([]);
      await transport.close();
    }
  });

  it("a bare id line clears the last event ID: a stream that breaks after it is not resumed from \"\" (no empty Last-Event-ID)", async () => {
    const post = sse();
    const { transport, calls } = await session([post]);
    const failed = transport.send(CALL as unknown as Session.JsonRpcMessage).then(() => new Error("expected a rejection"), (e: unknown) => e);
    post.write(event(note, "a"));
    post.write(`id\n${event(note)}`);
    post.end();
    const error = await within("the call", failed);
    expect(error).toBeInstanceOf(Session.RequestStreamBrokenError);
    expect((error as Error).message).toContain("without an event id to resume from");
    expect(calls.filter((c) => c.method === "GET")).toEqual([]);
    await transport.close();
  });

  it("a bare id line in an event cut short changes nothing: the stream resumes from the id before it", async () => {
    const post = sse();
    const resumed = sse();
    const { transport, calls } = await session([post], [resumed]);
    const sent = transport.send(CALL as unknown as Session.JsonRpcMessage);
    post.write(event(note, "a"));
    post.write(`id\ndata: {"jsonrpc":`);
    post.end();
    await waitFor("the reconnect", () => calls.find((c) => c.method === "GET"));
    resumed.write(event(RESULT));
    await within("the call", sent);
    expect(calls.find((c) => c.method === "GET")!.headers["last-event-id"]).toBe("a");
    await transport.close();
  });
});
