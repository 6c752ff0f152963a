/**
 * The runtime's one SSE parser and writer (templates/runtime/http/sse.ts), and the rules it
 * gives both HTTP client transports alike: an event with empty data is not a message (a priming
 * event breaks nothing), the last event id takes effect when its event is complete (WHATWG HTML,
 * "Interpreting an event stream": the last event ID buffer is applied at dispatch), and one
 * bound in bytes for an event's data (UTF-8 bytes of the data lines' values, each with its LF),
 * on the 2026-07-28 client and on the session client, at the exact edge.
 */
import { describe, expect, it } from "vitest";
import { SseParser, type SseEvent } from "../../../../templates/runtime/http/sse.js";
import { sseEvent } from "../../../../templates/runtime/http/server/sse-stream.js";
import * as Stateless from "../../../generated/2026-07-28/index.js";
import * as Session from "../../../generated/2025-11-25/index.js";
import { event, handshake, openTransport, scriptedFetch, sessionScript, sse, waitFor, within, type Sse } from "../http-session-client/support.js";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Every event of `chunks` fed one by one, the parser after them, and the first problem. */
function parse(chunks: readonly string[], max = 1024, lastEventId?: string) {
  const parser = new SseParser(max, lastEventId);
  const events: SseEvent[] = [];
  let problem: string | null = null;
  for (const chunk of chunks) {
    const out = parser.push(bytes(chunk));
    events.push(...out.events);
    problem ??= out.problem;
  }
  return { parser, events, problem };
}

describe("SseParser", () => {
  it("reads fields, comments and line ends (CRLF, LF, CR, split across chunks); data lines are joined with LF", () => {
    const { events } = parse([": comment\r\nevent: ping\rdata: a\r", "\ndata:b\n\ndata\ndata: c\n", "\n"]);
    expect(events).toEqual([
      { type: "ping", data: "a\nb" },
      { type: "message", data: "\nc" },
    ]);
  });

  it("does not dispatch an event whose data is empty (no data line, or an empty one: a priming event)", () => {
    const { events, parser } = parse(["id: p1\ndata: \n\n", "id: p2\ndata\n\n", "event: x\n\n", "data: real\n\n"]);
    expect(events).toEqual([{ type: "message", data: "real" }]);
    expect(parser.lastEventId).toBe("p2");
  });

  it("applies an id when its event is complete: an event cut short leaves the last event id of the one before", () => {
    const { parser } = parse(["id: 1\ndata: one\n\nid: 2\ndata: two"]);
    expect(parser.lastEventId).toBe("1");
    parser.push(bytes("\n\n"));
    expect(parser.lastEventId).toBe("2");
  });

  it("ignores an id with NUL, keeps one given at the start, and an empty id clears it", () => {
    expect(parse(["id: bad\0id\ndata: x\n\n"], 1024, "from-before").parser.lastEventId).toBe("from-before");
    expect(parse(["data: x\n\n"], 1024, "from-before").parser.lastEventId).toBe("from-before");
    expect(parse(["id\ndata: x\n\n"], 1024, "from-before").parser.lastEventId).toBe("");
  });

  it("takes retry: of ASCII digits only (at most 10), at once", () => {
    expect(parse(["retry: 250\n"]).parser.retryMs).toBe(250);
    expect(parse(["retry: 250\nretry: 2x\nretry: -1\nretry: 12345678901\n"]).parser.retryMs).toBe(250);
  });

  it("bounds an event's data in UTF-8 bytes (values with their LFs): exactly max passes, one byte more is a problem", () => {
    // "é" is 2 bytes, 1 UTF-16 code unit: a bound in code units would let twice as much through.
    // Two data lines of 10 bytes each (5 code units each), + 2 LFs = 22 bytes; each line is 16 bytes.
    const value = "é".repeat(5);
    expect(parse([`data: ${value}\ndata: ${value}\n\n`], 22).events).toEqual([{ type: "message", data: `${value}\n${value}` }]);
    expect(parse([`data: ${value}\ndata: ${value}\n\n`], 21).problem).toBe("an SSE event exceeds 21 bytes");
    // The field name, the colon and the space do not count; comments, ids and event types neither.
    expect(parse([`: ${"c".repeat(18)}\nid: ${"i".repeat(17)}\ndata: ${value}\ndata: ${value}\n\n`], 22).problem).toBeNull();
  });

  it("bounds a line in bytes", () => {
    expect(parse([`: ${"c".repeat(30)}\n`], 32).problem).toBeNull();
    expect(parse([`: ${"c".repeat(31)}\n`], 32).problem).toBe("an SSE line exceeds 32 bytes");
  });
});

describe("sseEvent (the server's writer)", () => {
  it("writes one data line per line of the data and the blank line; the parser reads back the same data", () => {
    expect(sseEvent('{"a":1}')).toBe('data: {"a":1}\n\n');
    for (const data of ['{"jsonrpc":"2.0"}', "two\nlines", "cr\rand\r\ncrlf", " leading space", "é ✓"]) {
      expect(parse([sseEvent(data)]).events, JSON.stringify(data)).toEqual([{ type: "message", data: data.replace(/\r\n|\r/g, "\n") }]);
    }
  });
});

const note = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "é".repeat(200) } };
/**
 * `note` as an event of two data lines (JSON allows the LF between its tokens), so that each line
 * stays under a bound equal to the event's size; `size`: the event's data in bytes, LFs counted.
 */
const noteJson = JSON.stringify(note);
const cut = noteJson.indexOf(',"method"') + 1;
const noteEvent = `data: ${noteJson.slice(0, cut)}\ndata: ${noteJson.slice(cut)}\n\n`;
const noteSize = bytes(noteJson.slice(0, cut)).length + 1 + bytes(noteJson.slice(cut)).length + 1;

describe("the 2026-07-28 client (HttpClientTransport)", () => {
  const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
  const call = (id: number): Stateless.JsonRpcMessage => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", arguments: {}, _meta: META } });
  const answer = (id: number) => ({ jsonrpc: "2.0", id, result: { content: [] } });

  async function read(chunks: readonly string[], maxMessageBytes = 4096) {
    const { fetch } = scriptedFetch(() => {
      const body = sse();
      for (const chunk of chunks) body.write(chunk);
      body.end();
      return body.response;
    });
    const transport = Stateless.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch, maxMessageBytes });
    const received: unknown[] = [];
    transport.onmessage = (m) => received.push(m);
    const outcome = await within("the request", transport.send(call(1)).then(() => "answered", (e: unknown) => e));
    await transport.close();
    return { outcome, received };
  }

  it("skips a priming event (an id and empty data) instead of breaking the stream on it", async () => {
    const { outcome, received } = await read([`id: 0\ndata: \n\n`, event(answer(1))]);
    expect(outcome).toBe("answered");
    expect(received).toEqual([answer(1)]);
  });

  it("bounds an event's data in bytes: multi-byte data of exactly maxMessageBytes passes, one byte more breaks the request", async () => {
    const size = noteSize;
    expect(size).toBeGreaterThan(noteJson.length + 2); // multi-byte: bytes, not code units
    const exact = await read([noteEvent, event(answer(1))], size);
    expect(exact.outcome).toBe("answered");
    expect(exact.received).toEqual([note, answer(1)]);
    const over = await read([noteEvent, event(answer(1))], size - 1);
    expect(over.outcome).toBeInstanceOf(Stateless.RequestStreamBrokenError);
    expect((over.outcome as Error).message).toContain(`an SSE event exceeds ${size - 1} bytes`);
  });
});

describe("the session client (SessionHttpClientTransport)", () => {
  const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } } as const;
  const CALL_RESULT = { jsonrpc: "2.0", id: 1, result: { content: [] } };

  async function session(posts: Sse[], gets: Sse[] = [], options: Partial<Session.SessionHttpClientTransportOptions> = {}) {
    const { fetch, calls } = scriptedFetch(sessionScript((c) => (c.method === "GET" ? gets.shift()! : posts.shift()!).response));
    const opened = openTransport(fetch, options);
    await handshake(opened.transport);
    return { ...opened, calls };
  }

  it("resumes from the id of the last event received whole, not from the id of an event cut short", async () => {
    const post = sse();
    const resumed = sse();
    const { transport, calls } = await session([post], [resumed], { reconnect: { defaultRetryMs: 1 } });
    const sent = transport.send(CALL);
    post.write(`id: whole\n${event(note).slice(0, -1)}\nid: cut\ndata: {"jsonrpc":`);
    post.end();
    await waitFor("the reconnect", () => calls.find((c) => c.method === "GET"));
    resumed.write(event(CALL_RESULT));
    await within("the call", sent);
    expect(calls.find((c) => c.method === "GET")!.headers["last-event-id"]).toBe("whole");
    await transport.close();
  });

  it("bounds an event's data in bytes: multi-byte data of exactly maxMessageBytes passes, one byte more closes the stream", async () => {
    const size = noteSize;
    const exact = sse();
    const { transport, received } = await session([exact], [], { maxMessageBytes: size });
    const sent = transport.send(CALL);
    exact.write(noteEvent);
    exact.write(event(CALL_RESULT));
    await within("the call at the bound", sent);
    expect(received.slice(-2)).toEqual([note, CALL_RESULT]);
    await transport.close();

    const over = sse();
    const second = await session([over], [], { maxMessageBytes: size - 1 });
    const failed = second.transport.send(CALL).then(() => new Error("expected a rejection"), (e: unknown) => e);
    over.write(noteEvent);
    const error = await within("the call over the bound", failed);
    expect(error).toBeInstanceOf(Session.RequestStreamBrokenError);
    expect((error as Error).message).toContain(`an SSE event exceeds ${size - 1} bytes`);
    await second.transport.close();
  });
});
