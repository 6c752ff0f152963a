/**
 * HttpClientTransport (templates/runtime/http/http-client.ts) on its own, against a scripted server
 * (a `fetch` stub answering with Responses the test writes, test/runtime/http/http-session-client/support.ts):
 * the option checks, the guards of send and close, how each kind of response settles a request
 * (no body, an unknown content type, an HTTP error whose JSON body names another id, a fetch
 * that fails), and the SSE format details (CR and split CRLF line ends, `data:` without a
 * space, events of another type, a field without a colon). Every awaited send is bounded by
 * `within`.
 */
import { describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { deferred } from "../stateless/support.js";
import { accepted, event, json, scriptedFetch, sse, within, type Script } from "../http-session-client/support.js";
import { META_KEYS, MODERN_VERSION } from "../../../helpers/fixtures.js";

const URL_ = "http://mcp.test/mcp";
const META = { [META_KEYS.protocolVersion]: MODERN_VERSION };
const call = (id: R.RequestId, name = "t"): R.JsonRpcMessage => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: META } });
const answer = (id: R.RequestId, text = "ok") => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

/** An SSE response whose body breaks when `signal` aborts (as a real fetch's does). */
function abortableSse(signal: AbortSignal | undefined) {
  const stream = sse();
  signal?.addEventListener("abort", () => stream.fail(), { once: true });
  return stream;
}

/** A transport over `script`, with what reached onmessage and onerror. */
function open(script: Script, options: Partial<R.HttpClientTransportOptions> = {}) {
  const { fetch, calls } = scriptedFetch(script);
  const transport = R.createHttpClientTransport({ url: URL_, fetch, ...options });
  const received: Record<string, unknown>[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => received.push(m as unknown as Record<string, unknown>);
  transport.onerror = (e) => errors.push(e);
  return { transport, calls, received, errors };
}

/** The rejection of `promise` (bounded), which must be an instance of `type`. */
async function rejection<E extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await within("the rejection", promise.then(() => undefined, (e: unknown) => e));
  expect(error).toBeInstanceOf(type);
  return error as E;
}

describe("HttpClientTransport: options", () => {
  it("refuses a maxMessageBytes that is not a positive integer", () => {
    const fetch: R.FetchLike = () => Promise.resolve(accepted());
    for (const bad of [0, -1, 1.5, Number.NaN, "10" as unknown as number]) {
      expect(() => R.createHttpClientTransport({ url: URL_, fetch, maxMessageBytes: bad })).toThrow(RangeError);
      expect(() => R.createHttpClientTransport({ url: URL_, fetch, maxMessageBytes: bad })).toThrow("maxMessageBytes must be an integer ≥ 1, got ");
    }
    expect(() => R.createHttpClientTransport({ url: URL_, fetch, maxMessageBytes: 1 })).not.toThrow();
  });

  it("without options.fetch the global fetch carries each POST; without one at all the constructor throws", async () => {
    const seen: string[] = [];
    vi.stubGlobal("fetch", (input: string | URL, init: RequestInit) => (seen.push(`${String(input)} ${String(init.method)}`), Promise.resolve(accepted())));
    try {
      const transport = R.createHttpClientTransport({ url: URL_ });
      await expect(transport.start()).resolves.toBeUndefined();
      await within("notification", transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }));
      expect(seen).toEqual([`${URL_} POST`]);
      await transport.close();
      vi.stubGlobal("fetch", undefined);
      expect(() => R.createHttpClientTransport({ url: URL_ })).toThrow(new TypeError("no fetch: pass options.fetch"));
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("HttpClientTransport: send and close", () => {
  it("sends no JSON-RPC response, nothing after close; close twice calls onclose once; a throwing onclose goes to onerror", async () => {
    const { transport, calls, errors } = open(() => accepted());
    await expect(within("send", transport.send({ jsonrpc: "2.0", id: 1, result: {} }))).rejects.toThrow("a client sends no JSON-RPC responses");
    let closes = 0;
    transport.onclose = () => {
      closes++;
      throw new Error("onclose threw");
    };
    await transport.close();
    await transport.close();
    expect(closes).toBe(1);
    expect(errors.map((e) => e.message)).toEqual(["onclose threw"]);
    await expect(within("send", transport.send(call(2)))).rejects.toThrow("transport closed");
    await expect(within("send", transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }))).rejects.toThrow("transport closed");
    expect(calls).toEqual([]);
  });

  it("close() aborts the fetch of every request in flight", async () => {
    const signals: AbortSignal[] = [];
    const { transport, errors } = open((c) => (signals.push(c.signal!), abortableSse(c.signal).response));
    const first = transport.send(call(1)).catch((e: unknown) => e);
    const second = transport.send(call(2)).catch((e: unknown) => e);
    await within("two POSTs", (async () => {
      while (signals.length < 2) await new Promise((r) => setTimeout(r, 5));
    })());
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
    await transport.close();
    expect(signals.map((s) => [s.aborted, s.reason])).toEqual([
      [true, "transport closed"],
      [true, "transport closed"],
    ]);
    // Closed by this side: the requests end without an error of the transport's.
    expect(await within("first", first)).toBeUndefined();
    expect(await within("second", second)).toBeUndefined();
    // No onclose set: nothing to report.
    expect(errors).toEqual([]);
  });

  it("closeRequestStream aborts that request's fetch (the cancel): the request ends without an error, the id is then unknown", async () => {
    const signals: AbortSignal[] = [];
    const { transport, errors, received } = open((c) => (signals.push(c.signal!), abortableSse(c.signal).response));
    const pending = transport.send(call(1));
    await within("the POST", (async () => {
      while (signals.length < 1) await new Promise((r) => setTimeout(r, 5));
    })());
    expect(transport.closeRequestStream(1)).toBe(true);
    expect([signals[0]!.aborted, signals[0]!.reason]).toEqual([true, "request cancelled by the client"]);
    await expect(within("the request", pending)).resolves.toBeUndefined();
    expect(transport.closeRequestStream(1)).toBe(false);
    expect(received).toEqual([]);
    expect(errors).toEqual([]);
    await transport.close();
  });

  it("a cancel before the response headers came (the fetch rejects with the abort) ends the request without an error", async () => {
    const posted = deferred<void>();
    const { transport, errors } = open(
      (c) =>
        new Promise<Response>((_resolve, reject) => {
          c.signal!.addEventListener("abort", () => reject(new DOMException("This operation was aborted", "AbortError")), { once: true });
          posted.resolve();
        }),
    );
    const pending = transport.send(call(1));
    await within("the POST", posted.promise);
    expect(transport.closeRequestStream(1)).toBe(true);
    await expect(within("the request", pending)).resolves.toBeUndefined();
    expect(errors).toEqual([]);
    await transport.close();
  });

  it("a message that cannot be serialised rejects its send and POSTs nothing; a message without params is sent, without a version when none is known", async () => {
    const { transport, calls } = open((c) => ("id" in c.body! ? json(answer(c.body["id"] as number), 200, null) : accepted()));
    const big = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { n: 1n } } } as unknown as R.JsonRpcMessage;
    await expect(within("send", transport.send(big))).rejects.toThrow(TypeError);
    expect(calls).toEqual([]);
    await within("notification", transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }));
    await within("request", transport.send({ jsonrpc: "2.0", id: 2, method: "tools/call" } as R.JsonRpcMessage));
    expect(calls.map((c) => c.headers)).toEqual([
      { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-method": "notifications/initialized" },
      { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-method": "tools/call" },
    ]);
    await transport.close();
  });

  it("MCP-Protocol-Version: the request's _meta string version, else the option, else the last request's", async () => {
    const { transport, calls } = open((c) => ("id" in c.body! ? json(answer(c.body["id"] as number), 200, null) : accepted()), { protocolVersion: "option-v" });
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } } as const;
    await within("note", transport.send(note));
    await within("call", transport.send({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { "io.modelcontextprotocol/protocolVersion": 20260728 } } }));
    await within("call", transport.send({ jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "own-v" } } }));
    await within("note", transport.send(note));
    expect(calls.map((c) => c.headers["mcp-protocol-version"])).toEqual(["option-v", "option-v", "own-v", "option-v"]);
    await transport.close();
  });

  it("a notification answered with an error status rejects with HttpStatusError; 202 resolves", async () => {
    const { transport } = open((_c, i) => (i === 0 ? accepted() : new Response("no", { status: 500 })));
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } } as const;
    await expect(within("202", transport.send(note))).resolves.toBeUndefined();
    const error = await rejection(transport.send(note), R.HttpStatusError);
    expect([error.status, error.method, error.message]).toEqual([500, "notifications/cancelled", "notifications/cancelled: the server answered HTTP 500"]);
  });

  it("extra headers go on every POST and the MCP headers win a clash; nameSources adds Mcp-Name sources", async () => {
    const { transport, calls } = open((c) => json(answer(c.body!["id"] as number), 200, null), {
      headers: { authorization: "Bearer x", "mcp-method": "forged", "content-type": "text/plain" },
      nameSources: { "x/run": "job" },
    });
    await within("call", transport.send(call(1, "echo")));
    await within("x/run", transport.send({ jsonrpc: "2.0", id: 2, method: "x/run", params: { job: "j 1", _meta: META } }));
    await within("x/other", transport.send({ jsonrpc: "2.0", id: 3, method: "x/other", params: { job: "j", _meta: META } }));
    expect(calls.map((c) => c.headers)).toEqual([
      { authorization: "Bearer x", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
      { authorization: "Bearer x", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "x/run", "mcp-name": "j 1" },
      { authorization: "Bearer x", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "x/other" },
    ]);
    await transport.close();
  });
});

describe("HttpClientTransport: how a response settles a request", () => {
  it("a 200 without a body, or with an unknown content type, breaks the request", async () => {
    const { transport, received } = open((_c, i) =>
      i === 0 ? new Response(null, { status: 200, headers: { "content-type": "application/json" } }) : new Response("<p>hi</p>", { status: 200, headers: { "content-type": "Text/HTML; charset=utf-8" } }),
    );
    const none = await rejection(transport.send(call(1)), R.RequestStreamBrokenError);
    expect([none.method, none.requestId, none.message]).toEqual(["tools/call", 1, "the response stream of tools/call (id 1) broke: the response has no body"]);
    const html = await rejection(transport.send(call(2)), R.RequestStreamBrokenError);
    expect(html.message).toBe('the response stream of tools/call (id 2) broke: unexpected content type "text/html"');
    expect(received).toEqual([]);
    await transport.close();
  });

  it("content types are compared without parameters and case; a JSON body answers", async () => {
    const { transport, received } = open((c, i) =>
      i === 0
        ? new Response(JSON.stringify(answer(1)), { headers: { "content-type": " Application/JSON ; charset=utf-8" } })
        : new Response(event(answer(c.body!["id"] as number, "sse")), { headers: { "content-type": "TEXT/EVENT-STREAM;charset=utf-8" } }),
    );
    await within("json", transport.send(call(1)));
    await within("sse", transport.send(call(2)));
    expect(received).toEqual([answer(1), answer(2, "sse")]);
    await transport.close();
  });

  it("an HTTP error with a JSON-RPC error for this request (its id, null or none) answers it; for another id, HttpStatusError", async () => {
    const error = { code: -32601, message: "Method not found" };
    const bodies = [{ jsonrpc: "2.0", id: 1, error }, { jsonrpc: "2.0", error }, { jsonrpc: "2.0", error }, { jsonrpc: "2.0", id: 9, error }, { jsonrpc: "2.0", id: 4, result: {} }, "{not json"];
    const { transport, received } = open((_c, i) =>
      new Response(typeof bodies[i] === "string" ? (bodies[i] as string) : JSON.stringify(bodies[i]), { status: 404, headers: { "content-type": i === 2 ? "text/plain" : "application/json" } }),
    );
    await within("own id", transport.send(call(1)));
    await within("no id", transport.send(call(2)));
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 1, error },
      { jsonrpc: "2.0", id: 2, error },
    ]);
    // Not declared JSON: not read as an answer, whatever the body holds.
    const plain = await rejection(transport.send(call(6)), R.HttpStatusError);
    expect(plain.status).toBe(404);
    for (const id of [3, 4, 5]) {
      const refused = await rejection(transport.send(call(id)), R.HttpStatusError);
      expect([refused.status, refused.method]).toEqual([404, "tools/call"]);
    }
    expect(received).toHaveLength(2);
    await transport.close();
  });

  it("an HTTP error without a body, or with a body that is not JSON, is HttpStatusError and that body is cancelled, not read", async () => {
    const body = sse();
    const { transport } = open((_c, i) => (i === 0 ? new Response(null, { status: 503 }) : new Response(body.response.body, { status: 500, headers: { "content-type": "text/html" } })));
    expect((await rejection(transport.send(call(1)), R.HttpStatusError)).status).toBe(503);
    expect((await rejection(transport.send(call(2)), R.HttpStatusError)).status).toBe(500);
    expect(body.isCancelled()).toBe(true);
    await transport.close();
  });

  it("a JSON body in many chunks is read whole; exactly maxMessageBytes is accepted, one byte more breaks the request", async () => {
    const text = JSON.stringify(answer(1));
    const chunked = (id: number) => {
      const body = sse();
      const whole = JSON.stringify(answer(id));
      for (let at = 0; at < whole.length; at += 7) body.write(whole.slice(at, at + 7));
      body.end();
      return new Response(body.response.body, { headers: { "content-type": "application/json" } });
    };
    const exact = open((c) => chunked(c.body!["id"] as number), { maxMessageBytes: text.length });
    await within("exact", exact.transport.send(call(1)));
    expect(exact.received).toEqual([answer(1)]);
    await exact.transport.close();
    const over = open((c) => chunked(c.body!["id"] as number), { maxMessageBytes: text.length - 1 });
    const error = await rejection(over.transport.send(call(1)), R.RequestStreamBrokenError);
    expect(error.message).toBe(`the response stream of tools/call (id 1) broke: the body exceeds ${text.length - 1} bytes`);
    expect(error.name).toBe("RequestStreamBrokenError");
    await over.transport.close();
  });

  it("a response without a content type, and an SSE connection that breaks, reject with what happened", async () => {
    const broken = sse();
    const { transport } = open((_c, i) => (i === 0 ? new Response(new TextEncoder().encode("{}"), { status: 200 }) : broken.response));
    const untyped = await rejection(transport.send(call(1)), R.RequestStreamBrokenError);
    expect(untyped.message).toBe('the response stream of tools/call (id 1) broke: unexpected content type ""');
    const pending = transport.send(call(2));
    broken.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })}\n\n`);
    broken.fail();
    const dropped = await rejection(pending, R.RequestStreamBrokenError);
    expect(dropped.message).toBe("the response stream of tools/call (id 2) broke: the connection broke: connection reset");
    await transport.close();
  });

  it("onmessage is optional; one that throws is reported to onerror and the request still settles", async () => {
    const { transport, errors } = open((c) => json(answer(c.body!["id"] as number), 200, null));
    transport.onmessage = undefined;
    await within("unheard", transport.send(call(1)));
    expect(errors).toEqual([]);
    transport.onmessage = () => {
      throw new Error("handler threw");
    };
    await within("thrown", transport.send(call(2)));
    expect(errors.map((e) => e.message)).toEqual(["handler threw"]);
    await transport.close();
  });

  it("a fetch that fails loses the request with RequestStreamBrokenError naming the failure", async () => {
    const { transport } = open((_c, i) => {
      if (i === 0) throw new TypeError("fetch failed");
      throw "refused";
    });
    const failed = await rejection(transport.send(call(1)), R.RequestStreamBrokenError);
    expect(failed.message).toBe("the response stream of tools/call (id 1) broke: fetch failed");
    const odd = await rejection(transport.send(call(2)), R.RequestStreamBrokenError);
    expect(odd.message).toBe('the response stream of tools/call (id 2) broke: "refused"');
    await transport.close();
  });

  it("a request sent again with the same id aborts the first one's fetch; the second is answered", async () => {
    const signals: AbortSignal[] = [];
    const { transport, received } = open((c, i) => {
      signals.push(c.signal!);
      return i === 0 ? abortableSse(c.signal).response : json(answer(7, "second"), 200, null);
    });
    const first = transport.send(call(7)).catch((e: unknown) => e);
    await within("first POST", (async () => {
      while (signals.length < 1) await new Promise((r) => setTimeout(r, 5));
    })());
    await within("second", transport.send(call(7)));
    expect([signals[0]!.aborted, signals[0]!.reason]).toEqual([true, "request id reused"]);
    expect(received).toEqual([answer(7, "second")]);
    expect(await within("first", first)).toBeInstanceOf(R.RequestStreamBrokenError);
    await transport.close();
  });
});

describe("HttpClientTransport: the SSE format", () => {
  /** A transport whose request 1 is answered by an SSE body written in exactly these chunks. */
  async function readChunks(chunks: readonly string[], options: Partial<R.HttpClientTransportOptions> = {}) {
    const opened = open(() => {
      const body = sse();
      for (const chunk of chunks) body.write(chunk);
      body.end();
      return body.response;
    }, options);
    const outcome = await within("the request", opened.transport.send(call(1)).then(() => "answered", (e: unknown) => e));
    await opened.transport.close();
    return { ...opened, outcome };
  }
  const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };

  it("lines end with CRLF, LF or CR, also split across chunks; data without a space after the colon; multi-line data joined with LF", async () => {
    const data = JSON.stringify(progress);
    const { outcome, received, errors } = await readChunks([
      `data:${data}\r`,
      `\n\r`,
      `\ndata: ${data}\r\r`,
      // One message in two data lines: joined with LF (JSON allows the line break between tokens).
      `data: {"jsonrpc": "2.0",\ndata: "id": 1, "result": {"content": []}}\n\n`,
    ]);
    expect(outcome).toBe("answered");
    expect(received).toEqual([progress, progress, { jsonrpc: "2.0", id: 1, result: { content: [] } }]);
    expect(errors).toEqual([]);
  });

  it("events of another type are skipped; event: message is read; the event type ends with its event; id:, retry: and unknown fields are ignored", async () => {
    const { outcome, received } = await readChunks([
      `event: ping\ndata: ${JSON.stringify(answer(1, "ping"))}\n\n`,
      `id: 5\nretry: 10\nfoo\nevent: message\ndata: ${JSON.stringify(progress)}\n\n`,
      `data: ${JSON.stringify(answer(1))}\n\n`,
    ]);
    expect(outcome).toBe("answered");
    expect(received).toEqual([progress, answer(1)]);
  });

  it("a blank line without data dispatches nothing; after the response the stream is closed and no more is read", async () => {
    const { outcome, received } = await readChunks([`\n\n: c\n\n`, `data: ${JSON.stringify(answer(1))}\n\ndata: ${JSON.stringify(progress)}\n\n`]);
    expect(outcome).toBe("answered");
    expect(received).toEqual([answer(1)]);
  });

  it("a data field without a colon is an empty data line", async () => {
    // `data` alone adds an empty line to the event's data: "\n{...}" is still one JSON message.
    const { outcome, received } = await readChunks([`data\ndata: ${JSON.stringify(answer(1))}\n\n`]);
    expect(outcome).toBe("answered");
    expect(received).toEqual([answer(1)]);
  });

  it("CRLF line ends split anywhere keep a multi-line event whole; a blank line right after a CRLF still dispatches; a LF after a CR-ended line ends its own line", async () => {
    const crlf = await readChunks([`data: {"jsonrpc": "2.0",\r`, `\ndata: "method": "notifications/progress",\r\n`, `data: "params": {"progressToken": 1, "progress": 1}}\r\n\n`, `: c\rdata: ${JSON.stringify(answer(1))}\n\n`]);
    expect(crlf.outcome).toBe("answered");
    expect(crlf.received).toEqual([progress, answer(1)]);
  });

  it("a field named event without a value resets the type, with or without the colon; only the event field sets it", async () => {
    const { outcome, received } = await readChunks([
      `event: ping\nevent\ndata: ${JSON.stringify(progress)}\n\n`,
      `event: ping\nevent:\ndata: ${JSON.stringify(progress)}\n\n`,
      `id: ping\nretry: ping\ndata: ${JSON.stringify(answer(1))}\n\n`,
    ]);
    expect(outcome).toBe("answered");
    expect(received).toEqual([progress, progress, answer(1)]);
  });

  it("the stream is cancelled once the response came, though the server keeps it open", async () => {
    const body = sse();
    const { transport, received } = open(() => body.response);
    const pending = transport.send(call(1));
    body.write(`data: ${JSON.stringify(answer(1))}\n\n`);
    await within("the request", pending);
    await within("the cancel", body.cancelled);
    expect(received).toEqual([answer(1)]);
    await transport.close();
  });

  it("a line of exactly maxMessageBytes is read, in one chunk or split; one byte more breaks the request", async () => {
    const line = `data: ${JSON.stringify(answer(1))}`;
    const whole = await readChunks([`${line}\n\n`], { maxMessageBytes: line.length });
    expect(whole.outcome).toBe("answered");
    const split = await readChunks([line, "\n\n"], { maxMessageBytes: line.length });
    expect(split.outcome).toBe("answered");
    for (const chunks of [[`${line}\n\n`], [line, "\n\n"]]) {
      const over = await readChunks(chunks, { maxMessageBytes: line.length - 1 });
      expect((over.outcome as Error).message).toBe(`the response stream of tools/call (id 1) broke: an SSE line exceeds ${line.length - 1} bytes`);
    }
  });

  it("data that is not JSON, or not JSON-RPC 2.0, breaks the request with that reason", async () => {
    for (const [data, reason] of [
      ["{not json", "the server sent a message that is not JSON"],
      [JSON.stringify({ id: 1, result: {} }), "the server sent a message that is not JSON-RPC 2.0"],
      [JSON.stringify({ jsonrpc: "1.0", id: 1, result: {} }), "the server sent a message that is not JSON-RPC 2.0"],
      [JSON.stringify([answer(1)]), "the server sent a message that is not JSON-RPC 2.0"],
    ] as const) {
      const { outcome, received } = await readChunks([`data: ${data}\n\n`]);
      expect((outcome as Error).message).toBe(`the response stream of tools/call (id 1) broke: ${reason}`);
      expect(received).toEqual([]);
    }
  });

  it("a response without an id, or a server request reusing this request's id, is dropped and reported; the real response answers", async () => {
    const { outcome, received, errors } = await readChunks([
      `data: ${JSON.stringify({ jsonrpc: "2.0", result: { forged: true } })}\n\n`,
      `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "roots/list" })}\n\n`,
      `data: ${JSON.stringify(answer(1))}\n\n`,
    ]);
    expect(outcome).toBe("answered");
    expect(received).toEqual([answer(1)]);
    expect(errors.map((e) => e.message)).toEqual([
      "the server sent a response for another id on the stream of tools/call (id 1); dropped",
      "the server sent a request on the stream of tools/call (id 1); dropped",
    ]);
  });

  it("after closeRequestStream (here from onmessage) nothing more of that stream is delivered, even from the same chunk", async () => {
    const opened = deferred<ReturnType<typeof sse>>();
    const { transport, received, errors } = open((c) => {
      const body = abortableSse(c.signal);
      opened.resolve(body);
      return body.response;
    });
    transport.onmessage = (m) => {
      received.push(m as unknown as Record<string, unknown>);
      transport.closeRequestStream(1);
    };
    const pending = transport.send(call(1));
    (await within("the POST", opened.promise)).write(`data: ${JSON.stringify(progress)}\n\ndata: ${JSON.stringify(progress)}\n\ndata: ${JSON.stringify(answer(1))}\n\n`);
    await expect(within("the request", pending)).resolves.toBeUndefined();
    expect(received).toEqual([progress]);
    expect(errors).toEqual([]);
    await transport.close();
  });

  it("an event's data is bounded: its data lines plus one line break each, at most maxMessageBytes", async () => {
    const pieces = ['{"jsonrpc":"2.0",', '"id":1,', '"result":{}}'];
    const size = pieces.reduce((n, p) => n + p.length + 1, 0);
    const chunks = [pieces.map((p) => `data: ${p}\n`).join("") + "\n"];
    const fits = await readChunks(chunks, { maxMessageBytes: size });
    expect(fits.outcome).toBe("answered");
    expect(fits.received).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    const over = await readChunks(chunks, { maxMessageBytes: size - 1 });
    expect(over.outcome).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((over.outcome as Error).message).toBe(`the response stream of tools/call (id 1) broke: an SSE event exceeds ${size - 1} bytes`);
    expect(over.received).toEqual([]);
  });
});
