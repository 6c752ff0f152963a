/**
 * The SSE format as the session HTTP client transport (templates/runtime/http/http-session-client.ts)
 * reads it: `event: message` is a message, `data:` without a space, data split over lines (a
 * line without a colon is a field with an empty value), ids with NUL ignored, and the bound of an
 * event counted over its data lines only, at the exact edge.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { event, handshake, openTransport, scriptedFetch, sessionScript, sse, waitFor, within, type Sse } from "./support.js";

const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } } as const;
const CALL_RESULT = { jsonrpc: "2.0", id: 1, result: { content: [] } };
const note = (data: string) => ({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });

/** A transport after the handshake; each POST request is answered by the next of `posts`, each GET by the next of `gets`. */
async function session(posts: Sse[], gets: Sse[] = [], options: Partial<R.SessionHttpClientTransportOptions> = {}) {
  const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? gets.shift()! : posts.shift()!).response));
  const opened = openTransport(fetch, options);
  await handshake(opened.transport);
  return { ...opened, calls };
}

describe("SessionHttpClientTransport: SSE fields", () => {
  it("`event: message`, `data:` without a space, data over several lines (one a bare `data`) are messages", async () => {
    const stream = sse();
    const { transport, received, errors } = await session([stream]);
    const sent = transport.send(CALL);
    stream.write(`event: message\ndata: ${JSON.stringify(note("typed"))}\n\n`);
    stream.write(`data:${JSON.stringify(note("no space"))}\n\n`);
    // The first line ends in a colon; the bare `data` adds an empty line (JSON whitespace).
    stream.write(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":\ndata\ndata: "split"}}\n\n`);
    stream.write(event(CALL_RESULT));
    await within("the call", sent);
    expect(received.slice(1)).toEqual([note("typed"), note("no space"), note("split"), CALL_RESULT]);
    expect(errors).toEqual([]);
    await transport.close();
  });

  it("an id with NUL is ignored: the resumption asks for the last good id", async () => {
    const post = sse();
    const resumed = sse();
    const { transport, calls } = await session([post], [resumed], { reconnect: { defaultRetryMs: 1 } });
    const sent = transport.send(CALL);
    post.write("id: good\ndata: \n\nid: bad\0id\ndata: \n\n");
    post.end();
    await waitFor("the reconnect", () => calls.find((c) => c.method === "GET"));
    resumed.write(event(CALL_RESULT));
    await within("the call", sent);
    expect(calls.find((c) => c.method === "GET")!.headers["last-event-id"]).toBe("good");
    await transport.close();
  });
});

describe("SessionHttpClientTransport: the bound of an SSE event", () => {
  const MAX = 256;
  /**
   * An event answering `id` whose data (the values of its two data lines, each with its LF: the
   * SSE data buffer, as sse.ts bounds it for both client transports) takes exactly `size` bytes.
   */
  const sized = (id: number, size: number): string => {
    const first = `{"jsonrpc":"2.0","id":${id},"result":{"content":[]},"pad":`;
    const rest = size - (first.length + 1) - 1 - '""}'.length;
    return `data: ${first}\ndata: "${"p".repeat(rest)}"}\n\n`;
  };

  it("comment, id and event lines do not count toward it", async () => {
    const stream = sse();
    const { transport } = await session([stream], [], { maxMessageBytes: MAX });
    const sent = transport.send(CALL);
    for (let i = 0; i < 10; i++) stream.write(`: keep-alive ${"k".repeat(30)}\nid: ${"i".repeat(30)}\nevent: ${"e".repeat(20)}\n`);
    stream.write("event: message\n" + event(CALL_RESULT));
    await within("the call", sent);
    await transport.close();
  });

  it("data of exactly maxMessageBytes (the values of its data lines, line ends counted) passes; one byte more closes the stream", async () => {
    expect(sized(1, MAX).split("\n").slice(0, 2).reduce((n, line) => n + line.slice("data: ".length).length + 1, 0)).toBe(MAX);
    const exact = sse();
    const over = sse();
    const { transport, received } = await session([exact, over], [], { maxMessageBytes: MAX });
    const sent = transport.send(CALL);
    exact.write(sized(1, MAX));
    await within("the call at the bound", sent);
    expect(received.at(-1)?.["id"]).toBe(1);
    const failed = transport.send({ ...CALL, id: 2 }).then(() => new Error("expected a rejection"), (e: unknown) => e);
    over.write(sized(2, MAX + 1));
    const error = await within("the call over the bound", failed);
    expect(error).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((error as Error).message).toContain(`an SSE event exceeds ${MAX} bytes`);
    await transport.close();
  });
});
