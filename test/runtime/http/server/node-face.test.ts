/**
 * templates/runtime/http/server/node-face.ts: NodeCall, the native node:http face, over fakes of
 * IncomingMessage and ServerResponse (node:events emitters with the parts the runtime uses): the
 * head (headers by any case, repeated ones joined, in name order; the URL from Host and the
 * socket; the path as URL.pathname gives it; the query; whether a body is declared), the body
 * read within a bound (a declared length over it not read at all; chunks past it; broken), the
 * answers (a whole one with its Content-Length, a web Response, a stream whose unread bytes are
 * the response's writableLength and whose room is its drain), the client going away, and the
 * connection closed after a refusal that left a large or chunked body unread. The node:http
 * listener and the bridge of foreign web handlers: test/runtime/http/node-http/.
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { BROKEN, TOO_LARGE, type BodyRead } from "../../../../templates/runtime/http/server/call.js";
import { NodeCall, type NodeIncomingMessage, type NodeServerResponse } from "../../../../templates/runtime/http/server/node-face.js";

class FakeRequest extends EventEmitter implements NodeIncomingMessage {
  method: string | undefined;
  url: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  socket: { localAddress?: string; remoteAddress?: string; remotePort?: number; encrypted?: boolean } | null;
  constructor(init: { method?: string | undefined; url?: string | undefined; headers?: Record<string, string | string[]>; socket?: { localAddress?: string; remoteAddress?: string; remotePort?: number; encrypted?: boolean } | null } = {}) {
    super();
    this.method = "method" in init ? init.method : "POST";
    this.url = "url" in init ? init.url : "/mcp";
    this.headers = { host: "127.0.0.1:3000", ...init.headers };
    this.socket = init.socket === undefined ? { localAddress: "127.0.0.1" } : init.socket;
  }
  pause(): this {
    return this;
  }
  resume(): this {
    return this;
  }
}

class FakeResponse extends EventEmitter implements NodeServerResponse {
  head: { status: number; headers: Record<string, string | string[]> } | undefined;
  readonly chunks: string[] = [];
  ended = false;
  flushed = false;
  writableFinished = false;
  destroyed = false;
  writableLength = 0;
  writeHead(status: number, headers: Record<string, string | string[]>): this {
    this.head = { status, headers };
    return this;
  }
  write(chunk: Uint8Array | string): boolean {
    this.chunks.push(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));
    return true;
  }
  end(chunk?: Uint8Array | string): this {
    if (chunk !== undefined) this.write(chunk);
    this.ended = true;
    return this;
  }
  flushHeaders(): void {
    this.flushed = true;
  }
  destroy(): this {
    this.destroyed = true;
    return this;
  }
  /** The response went out whole, then the connection closed. */
  finish(): void {
    this.writableFinished = true;
    this.emit("close");
  }
}

function nodeCall(init: ConstructorParameters<typeof FakeRequest>[0] = {}) {
  const request = new FakeRequest(init);
  const response = new FakeResponse();
  return { request, response, call: new NodeCall(request, response) };
}

const text = (read: BodyRead): string | symbol => (read instanceof Uint8Array ? new TextDecoder().decode(read) : read);

describe("the head", () => {
  it("headers by any case; repeated ones joined; has; forEach in name order; method and local address", () => {
    const { call } = nodeCall({ method: "DELETE", headers: { "x-b": ["1", "2"], "x-a": "v", accept: "text/event-stream" } });
    expect([call.method, call.localAddress]).toEqual(["DELETE", "127.0.0.1"]);
    expect([call.headers.get("X-A"), call.headers.get("x-b"), call.headers.get("missing"), call.headers.has("Accept"), call.headers.has("nope")]).toEqual(["v", "1, 2", null, true, false]);
    const seen: string[] = [];
    call.headers.forEach((value, name) => seen.push(`${name}=${value}`));
    expect(seen).toEqual(["accept=text/event-stream", "host=127.0.0.1:3000", "x-a=v", "x-b=1, 2"]);
  });

  it("url: from Host and the socket (https when encrypted; localhost without a Host); an absolute-form target as it is", () => {
    expect(nodeCall({ url: "/mcp?x=1" }).call.url).toBe("http://127.0.0.1:3000/mcp?x=1");
    expect(nodeCall({ socket: { encrypted: true } }).call.url).toBe("https://127.0.0.1:3000/mcp");
    expect(nodeCall({ headers: { host: "" } }).call.url).toBe("http://localhost/mcp");
    expect(nodeCall({ url: "http://proxy.example/mcp" }).call.url).toBe("http://proxy.example/mcp");
    const none = nodeCall({ method: undefined, url: undefined, socket: null }).call;
    expect([none.method, none.url, none.path, none.localAddress]).toEqual(["GET", "http://127.0.0.1:3000/", "/", undefined]);
  });

  it("peer: the socket's remote address and port (IPv6 in brackets), the address alone without a port; none without a socket or an address", () => {
    expect(nodeCall({ socket: { remoteAddress: "203.0.113.7", remotePort: 52311 } }).call.peer).toBe("203.0.113.7:52311");
    expect(nodeCall({ socket: { remoteAddress: "::1", remotePort: 52311 } }).call.peer).toBe("[::1]:52311");
    expect(nodeCall({ socket: { remoteAddress: "203.0.113.7" } }).call.peer).toBe("203.0.113.7");
    expect([nodeCall({ socket: null }).call.peer, nodeCall({ socket: {} }).call.peer]).toEqual([undefined, undefined]);
  });

  it("path: as URL.pathname gives it: a plain path as sent, the query and fragment cut, dot segments resolved, other bytes escaped", () => {
    const path = (url: string) => nodeCall({ url }).call.path;
    expect(path("/mcp")).toBe("/mcp");
    expect(path("/a/b-c_d~e@f:g")).toBe("/a/b-c_d~e@f:g");
    expect(path("/mcp?x=/y")).toBe("/mcp");
    expect(path("/mcp#frag")).toBe("/mcp");
    expect(path("/a/../mcp")).toBe("/mcp");
    expect(path("/a/./mcp")).toBe("/a/mcp");
    expect(path("/m%63p")).toBe(new URL("http://h/m%63p").pathname);
    expect(path("/a b")).toBe("/a%20b");
    expect(path("/名前")).toBe(new URL("http://h/名前").pathname);
    expect(path("http://proxy.example/abs?q")).toBe("/abs");
  });

  it("query: the first parameter of a name, decoded; none: null; a fragment is no part of it", () => {
    const { call } = nodeCall({ url: "/messages?sessionId=a%20b&sessionId=2&e=#x=1" });
    expect([call.query("sessionId"), call.query("e"), call.query("x"), nodeCall().call.query("sessionId")]).toEqual(["a b", "", null, null]);
  });

  it("hasBody: a Content-Length above 0, or a Transfer-Encoding", () => {
    expect(nodeCall({ headers: { "content-length": "12" } }).call.hasBody).toBe(true);
    expect(nodeCall({ headers: { "content-length": "0" } }).call.hasBody).toBe(false);
    expect(nodeCall({ headers: { "transfer-encoding": "chunked" } }).call.hasBody).toBe(true);
    expect(nodeCall().call.hasBody).toBe(false);
  });
});

describe("readBody", () => {
  it("the chunks (strings encoded) to their end; none: empty", async () => {
    const { request, call } = nodeCall({ headers: { "content-length": "11" } });
    const read = call.readBody(64);
    request.emit("data", new TextEncoder().encode("hello "));
    request.emit("data", "名");
    request.emit("data", new TextEncoder().encode("!"));
    request.emit("end");
    expect(text(await read)).toBe("hello 名!");
    const empty = nodeCall();
    const nothing = empty.call.readBody(64);
    empty.request.emit("end");
    expect(await nothing).toEqual(new Uint8Array(0));
  });

  it("a declared length over the bound: TOO_LARGE at once, nothing listened to", async () => {
    const { request, call } = nodeCall({ headers: { "content-length": "65" } });
    expect(await call.readBody(64)).toBe(TOO_LARGE);
    expect(request.listenerCount("data")).toBe(0);
  });

  it("refused unread for its declared length, the body stays unread: whatever answers then closes the connection", async () => {
    const { response, call } = nodeCall({ headers: { "content-length": String(4 * 1024 * 1024) } });
    expect(await call.readBody(1024)).toBe(TOO_LARGE);
    call.respond(401, { "content-type": "application/json" }, "{}");
    expect(response.head?.headers["connection"]).toBe("close");
  });

  it("chunks past the bound (chunked, or a lying length): TOO_LARGE; later chunks and the end change nothing", async () => {
    const { request, call } = nodeCall({ headers: { "transfer-encoding": "chunked" } });
    const read = call.readBody(8);
    request.emit("data", "12345");
    request.emit("data", "6789");
    request.emit("data", "more");
    request.emit("end");
    expect(await read).toBe(TOO_LARGE);
  });

  it("an error, or the request closing before its end: BROKEN", async () => {
    for (const event of ["error", "close"] as const) {
      const { request, call } = nodeCall({ headers: { "content-length": "10" } });
      const read = call.readBody(64);
      request.emit("data", "12");
      if (event === "error") request.emit("error", new Error("aborted"));
      else request.emit("close");
      request.emit("end");
      expect(await read, event).toBe(BROKEN);
    }
  });
});

describe("the answers", () => {
  it("respond: the head with the body's Content-Length (bytes, not characters), then the body; none: just the head", () => {
    const { response, call } = nodeCall();
    expect(call.answered).toBe(false);
    call.respond(200, { "content-type": "application/json" }, '"名前"');
    expect(call.answered).toBe(true);
    expect(response.head).toEqual({ status: 200, headers: { "content-type": "application/json", "content-length": "8" } });
    expect([response.chunks, response.ended]).toEqual([['"名前"'], true]);
    const empty = nodeCall();
    empty.call.respond(202, { "mcp-session-id": "s" });
    expect(empty.response.head).toEqual({ status: 202, headers: { "mcp-session-id": "s" } });
    expect([empty.response.chunks, empty.response.ended]).toEqual([[], true]);
  });

  it("respondWith: the Response's status, headers and body with its length", async () => {
    const { response, call } = nodeCall();
    await call.respondWith(new Response('{"error":"unauthorized"}', { status: 401, headers: { "www-authenticate": "Bearer", "content-type": "application/json" } }));
    expect(response.head).toEqual({ status: 401, headers: { "www-authenticate": "Bearer", "content-type": "application/json", "content-length": "24" } });
    expect(response.chunks).toEqual(['{"error":"unauthorized"}']);
    const bare = nodeCall();
    await bare.call.respondWith(new Response(null, { status: 204 }));
    expect(bare.response.head).toEqual({ status: 204, headers: {} });
  });

  it("one answer: a second throws", () => {
    const { call } = nodeCall();
    call.respond(200, {});
    expect(() => call.respond(200, {})).toThrow("the response has already started");
    expect(() => call.stream(200, {}, 16)).toThrow("the response has already started");
  });

  it("a client already gone: nothing written, the answer counted as started", async () => {
    const { response, call } = nodeCall();
    response.destroyed = true;
    expect(call.gone).toBe(true);
    call.respond(200, {}, "x");
    expect([response.head, response.chunks, call.answered]).toEqual([undefined, [], true]);
    const other = nodeCall();
    other.response.destroyed = true;
    await other.call.respondWith(new Response("x"));
    expect(other.response.head).toBeUndefined();
  });

  describe("stream", () => {
    it("the head flushed at once; writes go out; buffered is the response's writableLength; its drain is the room; end and abort", () => {
      const { response, call } = nodeCall({ method: "GET" });
      const body = call.stream(200, { "content-type": "text/event-stream" }, 16);
      expect([response.head, response.flushed]).toEqual([{ status: 200, headers: { "content-type": "text/event-stream" } }, true]);
      body.write(new TextEncoder().encode("data: 1\n\n"));
      expect(response.chunks).toEqual(["data: 1\n\n"]);
      response.writableLength = 300;
      expect(body.buffered).toBe(300);
      let drains = 0;
      body.ondrain = () => void drains++;
      response.emit("drain");
      expect(drains).toBe(1);
      body.end();
      expect(response.ended).toBe(true);
      const aborted = nodeCall({ method: "GET" });
      aborted.call.stream(200, {}, 16).abort();
      expect(aborted.response.destroyed).toBe(true);
    });

    it("writes and the end after the connection was destroyed are dropped", () => {
      const { response, call } = nodeCall({ method: "GET" });
      const body = call.stream(200, {}, 16);
      response.destroyed = true;
      body.write(new TextEncoder().encode("late"));
      body.end();
      expect([response.chunks, response.ended]).toEqual([[], false]);
    });
  });
});

describe("the client going away", () => {
  it("the response closing before it finished: onclose once, gone", () => {
    const { response, call } = nodeCall({ method: "GET" });
    let closes = 0;
    call.onclose = () => void closes++;
    call.stream(200, {}, 16);
    expect(call.gone).toBe(false);
    response.emit("close");
    response.emit("close");
    expect([closes, call.gone]).toEqual([1, true]);
  });

  it("the connection closing after the response finished: no onclose", () => {
    const { response, call } = nodeCall();
    let closes = 0;
    call.onclose = () => void closes++;
    call.respond(200, {}, "done");
    response.finish();
    expect([closes, call.gone]).toEqual([0, false]);
  });
});

describe("a refusal that left the body unread", () => {
  it("a declared body over 64 KiB, or a chunked one: the connection closes (it is never read)", () => {
    for (const headers of [{ "content-length": String(64 * 1024 + 1) }, { "transfer-encoding": "chunked" }]) {
      const { response, call } = nodeCall({ headers });
      call.respond(401, { "content-type": "application/json" }, "{}");
      expect(response.head?.headers, JSON.stringify(headers)).toEqual({ "content-type": "application/json", connection: "close", "content-length": "2" });
    }
  });

  it("one of 64 KiB or less: kept alive (node:http drains it); a body that was read, or none: kept alive", async () => {
    const small = nodeCall({ headers: { "content-length": String(64 * 1024) } });
    small.call.respond(401, {}, "{}");
    expect(small.response.head?.headers).toEqual({ "content-length": "2" });
    const read = nodeCall({ headers: { "content-length": String(1024 * 1024) } });
    const body = read.call.readBody(2 * 1024 * 1024);
    read.request.emit("end");
    await body;
    read.call.respond(200, {}, "{}");
    expect(read.response.head?.headers).toEqual({ "content-length": "2" });
    const none = nodeCall({ method: "GET" });
    none.call.respond(405, { allow: "POST" });
    expect(none.response.head?.headers).toEqual({ allow: "POST" });
  });

  it("respondWith and stream close it too", async () => {
    const refused = nodeCall({ headers: { "content-length": String(4 * 1024 * 1024) } });
    await refused.call.respondWith(new Response("no", { status: 401 }));
    expect(refused.response.head?.headers).toMatchObject({ connection: "close" });
    const streamed = nodeCall({ headers: { "transfer-encoding": "chunked" } });
    streamed.call.stream(200, {}, 16);
    expect(streamed.response.head?.headers).toEqual({ connection: "close" });
  });
});
