/**
 * The node:http adapter's bridge of a plain web handler (templates/runtime/http/server/node-http.ts;
 * a runtime handler on both faces: native.test.ts) driven with stand-ins for node's
 * IncomingMessage and ServerResponse (issue 17), so that what it calls on them is exact: the
 * SSE headers flushed before the first event, a slow client's backpressure, the body cancelled
 * with CLIENT_DISCONNECTED when the client goes, nothing written to a response already gone,
 * the request body paused, resumed, discarded and failed, and the Request built from odd
 * requests (https, no URL, no method, HEAD).
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { CLIENT_DISCONNECTED, toNodeListener } from "../../../../../templates/runtime/http/server/node-http.js";
import type { HttpHandler } from "../../../../../templates/runtime/http/server/web-face.js";
import { deferred, settle } from "../../../../helpers/harness.js";

const POLL = { timeout: 10_000 };
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));
const sse = (body: ReadableStream<Uint8Array>) => new Response(body, { headers: { "content-type": "text/event-stream" } });
const encode = (s: string) => new TextEncoder().encode(s);

/** A node:http IncomingMessage stand-in: the test emits its "data", "end" and "error"; pause and resume are recorded. */
class FakeRequest extends EventEmitter {
  readonly flow: string[] = [];
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly socket: { localAddress?: string; encrypted?: boolean } | null;
  /** A GET of /mcp to Host 127.0.0.1:3000, unless `init` says otherwise (a key set to undefined: left out). */
  constructor(init: Partial<Pick<FakeRequest, "method" | "url" | "headers" | "socket">> = {}) {
    super();
    this.method = "method" in init ? init.method : "GET";
    this.url = "url" in init ? init.url : "/mcp";
    this.headers = init.headers ?? { host: "127.0.0.1:3000" };
    this.socket = init.socket === undefined ? { localAddress: "127.0.0.1" } : init.socket;
  }
  pause() {
    this.flow.push("pause");
  }
  resume() {
    this.flow.push("resume");
  }
}

/** A node:http ServerResponse stand-in recording every call; `ready` is what write() returns. */
class FakeResponse extends EventEmitter {
  readonly calls: unknown[][] = [];
  ready = true;
  writableFinished = false;
  destroyed = false;
  #headersSent = false;
  writeHead(status: number, headers: Record<string, string | string[]>) {
    if (this.#headersSent) throw new Error("ERR_HTTP_HEADERS_SENT");
    this.#headersSent = true;
    this.calls.push(["writeHead", status, headers]);
  }
  flushHeaders() {
    this.calls.push(["flushHeaders"]);
  }
  write(chunk: Uint8Array) {
    this.#headersSent = true;
    this.calls.push(["write", text(chunk)]);
    return this.ready;
  }
  end(chunk?: Uint8Array) {
    this.calls.push(["end", text(chunk)]);
    this.writableFinished = true;
  }
  /** The client went away. */
  disconnect() {
    this.destroyed = true;
    this.emit("close");
  }
  ended() {
    return this.calls.some((c) => c[0] === "end");
  }
}

/** A body the test feeds; `cancelled` resolves with the reason it was cancelled with. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const cancelled = deferred<unknown>();
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: (reason) => cancelled.resolve(reason),
  });
  return { stream, cancelled: cancelled.promise, push: (s: string) => controller.enqueue(encode(s)), close: () => controller.close(), fail: (e: Error) => controller.error(e) };
}

function run(handler: HttpHandler, request = new FakeRequest(), onError?: (e: Error) => void) {
  const response = new FakeResponse();
  toNodeListener(handler, { onError })(request, response);
  return { request, response };
}

describe("toNodeListener: SSE responses", () => {
  it("the status and headers go out (flushed) before any event, each event is written as it comes, the end of the body ends the response", async () => {
    const body = controlledBody();
    const { response } = run(async () => sse(body.stream));
    await expect.poll(() => response.calls.length, POLL).toBe(2);
    expect(response.calls).toEqual([["writeHead", 200, { "content-type": "text/event-stream" }], ["flushHeaders"]]);
    body.push("data: one\n\n");
    await expect.poll(() => response.calls.length, POLL).toBe(3);
    body.push("data: two\n\n");
    body.close();
    await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(response.calls.slice(2)).toEqual([["write", "data: one\n\n"], ["write", "data: two\n\n"], ["end", undefined]]);
    // Only the adapter's own "close" listener (the request's abort) is left.
    expect([response.listenerCount("close"), response.listenerCount("drain")]).toEqual([1, 0]);
  });

  it("a client that reads slowly: after write() returns false the next event waits for drain; then the rest goes out", async () => {
    const body = controlledBody();
    const { response } = run(async () => sse(body.stream));
    response.ready = false;
    body.push("data: one\n\n");
    body.push("data: two\n\n");
    await expect.poll(() => response.calls.length, POLL).toBe(3);
    await settle();
    expect(response.calls.slice(2)).toEqual([["write", "data: one\n\n"]]);
    expect([response.listenerCount("drain"), response.listenerCount("close")]).toEqual([1, 3]);
    response.ready = true;
    response.emit("drain");
    body.close();
    await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(response.calls.slice(2)).toEqual([["write", "data: one\n\n"], ["write", "data: two\n\n"], ["end", undefined]]);
    expect([response.listenerCount("close"), response.listenerCount("drain")]).toEqual([1, 0]);
  });

  it("a client that goes away (even while a write waits for drain): the body is cancelled with CLIENT_DISCONNECTED, the request's signal aborts, nothing more is written", async () => {
    for (const slow of [false, true]) {
      const body = controlledBody();
      let signal: AbortSignal | undefined;
      const { response } = run(async (request) => ((signal = request.signal), sse(body.stream)));
      response.ready = !slow;
      body.push("data: one\n\n");
      await expect.poll(() => response.calls.length, POLL).toBe(3);
      response.disconnect();
      const reason = await Promise.race([body.cancelled, settle(20).then(() => "not cancelled")]);
      expect(reason).toBe(CLIENT_DISCONNECTED);
      expect(signal?.aborted && signal.reason).toBe(CLIENT_DISCONNECTED);
      await settle();
      expect(response.calls.map((c) => c[0])).toEqual(["writeHead", "flushHeaders", "write"]);
      expect([response.listenerCount("close"), response.listenerCount("drain")]).toEqual([1, 0]);
    }
  });

  it("a response destroyed before its close event is emitted: an event that arrives then is not written, nor is end()", async () => {
    const body = controlledBody();
    const { response } = run(async () => sse(body.stream));
    await expect.poll(() => response.calls.length, POLL).toBe(2);
    response.destroyed = true; // node emits "close" a tick after destroy()
    body.push("data: late\n\n");
    await settle();
    expect(response.calls.map((c) => c[0])).toEqual(["writeHead", "flushHeaders"]);
    response.emit("close");
  });

  it("a response already destroyed when the handler answers: nothing is written and the body is cancelled", async () => {
    const answer = deferred<void>();
    const body = controlledBody();
    const { response } = run(async () => (await answer.promise, sse(body.stream)));
    response.disconnect();
    answer.resolve();
    const reason = await Promise.race([body.cancelled, settle(20).then(() => "not cancelled")]);
    expect(reason).not.toBe("not cancelled");
    await settle();
    expect(response.calls).toEqual([]);
  });

  it("a body that fails after the headers went out: the error is reported and the response ended, no 500 over it", async () => {
    const body = controlledBody();
    const reported: string[] = [];
    const { response } = run(async () => sse(body.stream), undefined, (e) => reported.push(e.message));
    body.push("data: one\n\n");
    await expect.poll(() => response.calls.length, POLL).toBe(3);
    body.fail(new Error("the source broke"));
    await expect.poll(() => reported, POLL).toEqual(["the source broke"]);
    expect(response.calls.map((c) => c[0])).toEqual(["writeHead", "flushHeaders", "write", "end", "end"]);
  });

  it("a handler that fails after the client went away: reported, nothing written", async () => {
    const answer = deferred<void>();
    const reported: string[] = [];
    const { response } = run(
      async () => {
        await answer.promise;
        throw new Error("too late");
      },
      undefined,
      (e) => reported.push(e.message),
    );
    response.disconnect();
    answer.resolve();
    await expect.poll(() => reported, POLL).toEqual(["too late"]);
    await settle();
    expect(response.calls).toEqual([]);
  });
});

describe("toNodeListener: plain responses", () => {
  it("a complete response: the connection closing afterwards does not abort the request's signal", async () => {
    let signal: AbortSignal | undefined;
    const { response } = run(async (request) => ((signal = request.signal), new Response("ok", { headers: { "content-type": "text/plain" } })));
    await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(response.calls).toEqual([
      ["writeHead", 200, { "content-type": "text/plain", "content-length": "2" }],
      ["end", "ok"],
    ]);
    response.emit("close");
    expect(signal?.aborted).toBe(false);
  });
});

describe("toNodeListener: failures", () => {
  it("a handler that throws: exactly a 500 with content-type text/plain and an empty body", async () => {
    const reported: string[] = [];
    const { response } = run(
      async () => {
        throw new Error("handler bug");
      },
      undefined,
      (e) => reported.push(e.message),
    );
    await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(response.calls).toEqual([
      ["writeHead", 500, { "content-type": "text/plain" }],
      ["end", undefined],
    ]);
    expect(reported).toEqual(["handler bug"]);
  });

  it("a bodiless answer for a client already gone: nothing written, nothing reported", async () => {
    const answer = deferred<void>();
    const reported: string[] = [];
    const { response } = run(async () => (await answer.promise, new Response(null, { status: 204 })), undefined, (e) => reported.push(e.message));
    response.disconnect();
    answer.resolve();
    await settle();
    expect(response.calls).toEqual([]);
    expect(reported).toEqual([]);
  });
});

describe("toNodeListener: the Request it builds", () => {
  it("https for an encrypted socket; '/' without a URL; GET without a method; HEAD without a body; a null socket", async () => {
    const seen: Array<[string, string, boolean]> = [];
    const handler: HttpHandler = async (request) => (seen.push([request.method, request.url, request.body === null]), new Response(null, { status: 204 }));
    const requests = [
      new FakeRequest({ url: "/x", headers: { host: "example.test" }, socket: { encrypted: true } }),
      new FakeRequest({ url: undefined }),
      new FakeRequest({ method: undefined, url: "/m" }),
      new FakeRequest({ method: "HEAD", url: "/h" }),
      new FakeRequest({ url: "/s", headers: { host: "example.test" }, socket: null }),
    ];
    const responses = requests.map((request) => run(handler, request).response);
    for (const response of responses) await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(seen).toEqual([
      ["GET", "https://example.test/x", true],
      ["GET", "http://127.0.0.1:3000/", true],
      ["GET", "http://127.0.0.1:3000/m", true],
      ["HEAD", "http://127.0.0.1:3000/h", true],
      ["GET", "http://example.test/s", true],
    ]);
    expect(responses.map((r) => r.calls[0])).toEqual(Array(5).fill(["writeHead", 204, {}]));
  });
});

describe("toNodeListener: the request body", () => {
  it("the request is paused while the body's queue is full and resumed when the handler reads; the body arrives whole", async () => {
    const request = new FakeRequest({ method: "POST", headers: { host: "h", "content-type": "text/plain" } });
    const read = deferred<void>();
    const { response } = run(async (r) => (await read.promise, new Response(await r.text())), request);
    await settle(1);
    request.emit("data", encode("hello "));
    expect(request.flow.at(-1)).toBe("pause");
    read.resolve();
    await expect.poll(() => request.flow.at(-1), POLL).toBe("resume");
    request.emit("data", "world");
    request.emit("end");
    await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(response.calls.at(-1)).toEqual(["end", "hello world"]);
  });

  it("an error on the request fails the handler's read of the body with it", async () => {
    const request = new FakeRequest({ method: "POST", headers: { host: "h" } });
    const { response } = run(async (r) => {
      const failure = await r.text().then(
        () => "read",
        (e: unknown) => String((e as Error).message),
      );
      return new Response(failure);
    }, request);
    await settle(1);
    request.emit("data", encode("{"));
    request.emit("error", new Error("aborted"));
    request.emit("end"); // a late end is ignored
    await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(response.calls.at(-1)).toEqual(["end", "aborted"]);
  });

  it("a body the handler left unread is discarded (the request resumed, later chunks dropped, never paused again)", async () => {
    const request = new FakeRequest({ method: "POST", headers: { host: "h" } });
    const answer = deferred<void>();
    const { response } = run(async () => (await answer.promise, new Response(null, { status: 202 })), request);
    await settle(1);
    request.emit("data", encode("a"));
    expect(request.flow.at(-1)).toBe("pause");
    answer.resolve();
    await expect.poll(() => response.ended(), POLL).toBe(true);
    await settle(1);
    expect(request.flow.at(-1)).toBe("resume");
    const before = request.flow.length;
    request.emit("data", encode("b"));
    request.emit("data", encode("c"));
    request.emit("end");
    expect(request.flow.length).toBe(before);
  });

  it("a body the handler cancelled: the request is resumed and chunks, an end or an error after that are ignored", async () => {
    const request = new FakeRequest({ method: "POST", headers: { host: "h" } });
    const { response } = run(async (r) => (await r.body?.cancel("not wanted"), new Response(null, { status: 413 })), request);
    await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(request.flow.at(-1)).toBe("resume");
    const before = request.flow.length;
    expect(() => {
      request.emit("data", encode("late"));
      request.emit("end");
      request.emit("error", new Error("late error"));
    }).not.toThrow();
    expect(request.flow.length).toBe(before);
  });
});
