/**
 * toNodeListener of a runtime handler (createHttpHandler), on both faces: the native face
 * (node-face.ts: NodeCall over the IncomingMessage and ServerResponse) and the web face through
 * the bridge, driven with stand-ins for node's objects (stand-ins.ts) so that every call on them
 * is exact: a JSON answer with its length, an SSE stream's head flushed before its first event and
 * each event written as it comes, the client going away mid-stream (the handler's signal aborts,
 * nothing more is written), a response destroyed before its "close", the request body in pieces,
 * failing or cut short, the URL the handler sees (https, no URL, no Host, a query), odd methods,
 * and on the native face the stream's backpressure read from `writableLength`. Over real sockets:
 * the request's head as ctx.http gives it (repeated headers joined, a request without Host).
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../../generated/2026-07-28/index.js";
import { deferred, settle } from "../../../../helpers/async.js";
import { describeFaces, headersFor, listen, listenerFor, META, rawRequest, type Face } from "../../stateless/support.js";
import { FakeRequest, FakeResponse } from "./stand-ins.js";

const POLL = { timeout: 10_000 };
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "mcp-server", version: "0.0.0" } };

type Handlers = NonNullable<R.McpServerOptions["handlers"]>;

/** A tools/call POST's body (`progressToken` p), its length, and the conformant headers with Host 127.0.0.1:3000. */
function toolCall(id: number, name = "t") {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: { ...META, progressToken: "p" } } });
  const headers = { host: "127.0.0.1:3000", ...headersFor("tools/call", { name }), "content-length": String(Buffer.byteLength(body)) };
  return { body, headers };
}

/** `handlers` behind createHttpHandler (keep-alive comments off), served to stand-ins on `face`. */
function standIn(face: Face, handlers: Handlers, options: R.HttpHandlerOptions = {}) {
  const listener = listenerFor(face, R.createHttpHandler(new R.McpServer({ logger: null, handlers }), { keepAliveMs: 0, ...options }));
  return (request: FakeRequest): FakeResponse => {
    const response = new FakeResponse();
    listener(request as never, response as never);
    return response;
  };
}

const progressEvent = (progress: number) => `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress } })}\n\n`;
const resultEvent = (id: number, text: string) => `data: ${JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", content: [{ type: "text", text }], _meta: SERVER_INFO } })}\n\n`;

describeFaces("toNodeListener(createHttpHandler(…)) on stand-ins", (face) => {
  describe("responses", () => {
    it("a JSON answer: the status, content-type and content-length, then the body in one end()", async () => {
      const serve = standIn(face, { "tools/call": () => ({ resultType: "complete", content: [{ type: "text", text: "ok" }] }) });
      const { body, headers } = toolCall(1);
      const request = new FakeRequest({ method: "POST", headers });
      const response = serve(request);
      request.send(body);
      await expect.poll(() => response.ended(), POLL).toBe(true);
      const text = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [{ type: "text", text: "ok" }], _meta: SERVER_INFO } });
      expect(response.calls).toEqual([
        ["writeHead", 200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }],
        ["end", text],
      ]);
    });

    it("an SSE answer: the head goes out flushed before any event, each event is written as the handler sends it, the result ends the response", async () => {
      const next = deferred<void>();
      const serve = standIn(face, {
        "tools/call": async (_p, ctx) => {
          await ctx.sendProgress(1);
          await next.promise;
          await ctx.sendProgress(2);
          return { resultType: "complete", content: [{ type: "text", text: "done" }] };
        },
      });
      const { body, headers } = toolCall(2);
      const request = new FakeRequest({ method: "POST", headers });
      const response = serve(request);
      request.send(body);
      await expect.poll(() => response.calls.length, POLL).toBe(3);
      expect(response.calls).toEqual([["writeHead", 200, SSE_HEADERS], ["flushHeaders"], ["write", progressEvent(1)]]);
      next.resolve();
      await expect.poll(() => response.ended(), POLL).toBe(true);
      expect(response.body()).toBe(progressEvent(1) + progressEvent(2) + resultEvent(2, "done"));
      expect(response.calls.at(-1)).toEqual(["end", undefined]);
    });

    it("the client going away mid-stream: the handler's signal aborts (request stream closed), nothing more is written", async () => {
      const signal = deferred<AbortSignal>();
      const after = deferred<void>();
      const serve = standIn(face, {
        "tools/call": async (_p, ctx) => {
          await ctx.sendProgress(1);
          signal.resolve(ctx.signal);
          await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
          await ctx.sendProgress(2).catch(() => undefined);
          after.resolve();
          return { resultType: "complete", content: [] };
        },
      });
      const { body, headers } = toolCall(3);
      const request = new FakeRequest({ method: "POST", headers });
      const response = serve(request);
      request.send(body);
      const aborted = await signal.promise;
      await expect.poll(() => response.calls.length, POLL).toBe(3);
      response.disconnect();
      await after.promise;
      await settle();
      expect(aborted.reason).toBe("request stream closed");
      expect(response.calls.map((c) => c[0])).toEqual(["writeHead", "flushHeaders", "write"]);
    });

    it("a response destroyed before its close event is emitted: an event that comes then is not written, nor is end()", async () => {
      const next = deferred<void>();
      const done = deferred<void>();
      const serve = standIn(face, {
        "tools/call": async (_p, ctx) => {
          await ctx.sendProgress(1);
          await next.promise;
          await ctx.sendProgress(2).catch(() => undefined);
          done.resolve();
          return { resultType: "complete", content: [] };
        },
      });
      const { body, headers } = toolCall(4);
      const request = new FakeRequest({ method: "POST", headers });
      const response = serve(request);
      request.send(body);
      await expect.poll(() => response.calls.length, POLL).toBe(3);
      response.destroyed = true; // node emits "close" a tick after destroy()
      next.resolve();
      await done.promise;
      await settle();
      expect(response.calls.map((c) => c[0])).toEqual(["writeHead", "flushHeaders", "write"]);
      response.emit("close");
    });
  });

  describe("the request body", () => {
    it("arrives in pieces (bytes and strings) and is put together in order", async () => {
      const serve = standIn(face, { "tools/call": (params) => ({ resultType: "complete", content: [{ type: "text", text: String(params.name) }] }) });
      const { body, headers } = toolCall(5, "pieces");
      const request = new FakeRequest({ method: "POST", headers });
      const response = serve(request);
      await settle(1);
      request.emit("data", new TextEncoder().encode(body.slice(0, 7)));
      request.emit("data", body.slice(7, 40));
      request.emit("data", new TextEncoder().encode(body.slice(40)));
      request.emit("end");
      await expect.poll(() => response.ended(), POLL).toBe(true);
      expect(response.status()).toBe(200);
      expect(JSON.parse(response.body())).toMatchObject({ id: 5, result: { content: [{ text: "pieces" }] } });
    });

    it("an error on the request mid-body: 400, the body could not be read, and no handler runs", async () => {
      let handled = 0;
      const serve = standIn(face, { "tools/call": () => (handled++, { resultType: "complete", content: [] }) });
      const { body, headers } = toolCall(6);
      const request = new FakeRequest({ method: "POST", headers });
      const response = serve(request);
      await settle(1);
      request.emit("data", new TextEncoder().encode(body.slice(0, 10)));
      request.emit("error", new Error("aborted"));
      request.emit("end"); // a late end is ignored
      await expect.poll(() => response.ended(), POLL).toBe(true);
      expect(response.status()).toBe(400);
      expect(JSON.parse(response.body())).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Bad Request: the body could not be read" } });
      expect(handled).toBe(0);
    });
  });

  describe("the request's head", () => {
    it("the URL the handler sees: https for an encrypted socket, the query kept, '/' without a URL, localhost without a Host", async () => {
      const urls: string[] = [];
      const serve = standIn(face, { "tools/call": (_p, ctx) => (urls.push(ctx.http!.url), { resultType: "complete", content: [] }) }, { dnsRebindingProtection: false });
      const { body, headers } = toolCall(7);
      const { host: _host, ...withoutHost } = headers;
      const requests = [
        new FakeRequest({ method: "POST", url: "/mcp?tenant=t1", headers: { ...headers, host: "example.test" }, socket: { encrypted: true } }),
        new FakeRequest({ method: "POST", url: undefined, headers }),
        new FakeRequest({ method: "POST", url: "/m", headers: withoutHost }),
        new FakeRequest({ method: "POST", url: "/s", headers: { ...headers, host: "example.test" }, socket: null }),
      ];
      const responses = requests.map((request) => serve(request));
      for (const request of requests) request.send(body);
      for (const response of responses) await expect.poll(() => response.ended(), POLL).toBe(true);
      expect(responses.map((r) => r.status())).toEqual([200, 200, 200, 200]);
      expect(urls).toEqual(["https://example.test/mcp?tenant=t1", "http://127.0.0.1:3000/", "http://localhost/m", "http://example.test/s"]);
    });

    it("no method is GET (405, Allow: POST); HEAD is 405 without a body", async () => {
      const serve = standIn(face, {});
      const get = serve(new FakeRequest({ method: undefined }));
      const head = serve(new FakeRequest({ method: "HEAD" }));
      await expect.poll(() => get.ended() && head.ended(), POLL).toBe(true);
      expect(get.status()).toBe(405);
      expect(JSON.parse(get.body())).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Method not allowed: GET; the MCP endpoint accepts POST" } });
      expect(head.calls).toEqual([
        ["writeHead", 405, { allow: "POST" }],
        ["end", undefined],
      ]);
    });
  });
});

describe("the native face's stream backpressure (writableLength: bytes node has not handed to the socket)", () => {
  it("a handler's sends wait while 64 KiB wait unread, and go on at the response's drain", async () => {
    let sent = 0;
    const serve = standIn("native", {
      "tools/call": async (_p, ctx) => {
        for (let i = 1; i <= 3; i++) {
          sent = i;
          await ctx.sendProgress(i);
        }
        return { resultType: "complete", content: [] };
      },
    });
    const { body, headers } = toolCall(8);
    const request = new FakeRequest({ method: "POST", headers });
    const response = serve(request);
    // The socket is full: 64 KiB written before are still waiting in node.
    response.writableLength = 64 * 1024;
    request.send(body);
    await expect.poll(() => response.calls.length, POLL).toBe(3);
    await settle();
    expect(sent).toBe(1);
    expect(response.calls.filter((c) => c[0] === "write")).toEqual([["write", progressEvent(1)]]);
    response.writableLength = 0;
    response.emit("drain");
    await expect.poll(() => response.ended(), POLL).toBe(true);
    expect(sent).toBe(3);
    expect(response.body()).toBe(progressEvent(1) + progressEvent(2) + progressEvent(3) + `data: ${JSON.stringify({ jsonrpc: "2.0", id: 8, result: { resultType: "complete", content: [], _meta: SERVER_INFO } })}\n\n`);
  });
});

describeFaces("toNodeListener(createHttpHandler(…)) over a real socket", (face) => {
  it("the request head as ctx.http gives it: the URL from Host with its query, repeated headers joined, a request without Host read as localhost", async () => {
    const seen: Array<{ url: string; two: string | null }> = [];
    const handler = R.createHttpHandler(
      new R.McpServer({ logger: null, handlers: { "tools/call": (_p, ctx) => (seen.push({ url: ctx.http!.url, two: ctx.http!.headers.get("x-two") }), { resultType: "complete", content: [] }) } }),
    );
    const listening = await listen(face, handler);
    try {
      const { body, headers } = toolCall(9);
      const { host: _host, ...withoutHost } = headers;
      const lines: Array<[string, string]> = [["host", "localhost:8080"], ...Object.entries(withoutHost), ["x-two", "a"], ["x-two", "b"]];
      expect((await rawRequest(`${listening.url}?tenant=t1`, "POST", lines, body).answer).status).toBe(200);
      expect((await rawRequest(listening.url, "POST", withoutHost, body, { version: "HTTP/1.0" }).answer).status).toBe(200);
      expect(seen).toEqual([
        { url: "http://localhost:8080/mcp?tenant=t1", two: "a, b" },
        { url: "http://localhost/mcp", two: null },
      ]);
    } finally {
      await listening.close();
    }
  });
});
