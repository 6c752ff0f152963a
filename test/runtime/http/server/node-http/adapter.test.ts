/**
 * The node:http adapter (templates/runtime/http/server/node-http.ts) bridging a plain web handler
 * of the test's instead of an MCP server (the way the web face is served on node:http; a runtime
 * handler's native face is in native.test.ts): the web Request it builds (URL, Host fallback,
 * headers, body), the Response it writes (plain, empty, SSE), a failing handler, a Host no URL
 * can be made of, and the signal that aborts when the client goes away. Raw sockets send what
 * fetch would not.
 */
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_DISCONNECTED, toNodeListener } from "../../../../../templates/runtime/http/server/node-http.js";
import type { HttpHandler } from "../../../../../templates/runtime/http/server/web-face.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: HttpHandler, onError?: (e: Error) => void): Promise<number> {
  server = createServer(toNodeListener(handler, { onError }));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends raw bytes and returns everything the server wrote back until it closed. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let got = "";
    socket.on("data", (chunk) => (got += chunk.toString("utf8")));
    socket.on("end", () => resolve(got));
    socket.on("error", reject);
  });
}

describe("toNodeListener of a plain web handler (the bridge)", () => {
  it("builds the web Request: URL from Host, every header (repeated ones too), the body of a POST, none for GET; info: the socket's local and remote addresses and remote port", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const port = await serve(async (request, context) => {
      seen.push({ url: request.url, method: request.method, cookie: request.headers.get("cookie"), x: request.headers.get("x-two"), cookies: request.headers.get("set-cookie"), body: request.body === null ? null : await request.text(), local: context?.localAddress, remote: context?.remoteAddress, port: typeof context?.remotePort });
      return new Response("ok", { status: 200, headers: { "content-type": "text/plain" } });
    });
    const posted = await fetch(`http://127.0.0.1:${port}/mcp?a=1`, { method: "POST", body: "hello", headers: { cookie: "c=1" } });
    expect([posted.status, await posted.text(), posted.headers.get("content-length")]).toEqual([200, "ok", "2"]);
    await raw(port, "GET /g HTTP/1.1\r\nHost: example.test:8080\r\nX-Two: a\r\nX-Two: b\r\nSet-Cookie: s=1\r\nSet-Cookie: t=2\r\nConnection: close\r\n\r\n");
    expect(seen).toEqual([
      { url: `http://127.0.0.1:${port}/mcp?a=1`, method: "POST", cookie: "c=1", x: null, cookies: null, body: "hello", local: "127.0.0.1", remote: "127.0.0.1", port: "number" },
      { url: "http://example.test:8080/g", method: "GET", cookie: null, x: "a, b", cookies: "s=1, t=2", body: null, local: "127.0.0.1", remote: "127.0.0.1", port: "number" },
    ]);
  });

  it("a request without Host is read as localhost; a Host no URL can be made of is a 400", async () => {
    const urls: string[] = [];
    const port = await serve(async (request) => {
      urls.push(request.url);
      return new Response(null, { status: 204 });
    });
    const answer = await raw(port, "GET /no-host HTTP/1.0\r\n\r\n");
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 204 No Content");
    expect(urls).toEqual(["http://localhost/no-host"]);
    const bad = await raw(port, "GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n");
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad.slice(bad.indexOf("\r\n\r\n"))).toContain("Bad Request");
    expect(bad.toLowerCase()).toContain("content-type: text/plain");
    expect(urls).toHaveLength(1);
  });

  it("a refusal that never read the body: a large (over 64 KiB) or chunked one closes the connection unread, a small one is drained and the connection kept; a read one keeps it", async () => {
    const port = await serve(async (request) => {
      if (request.headers.get("x-read") === "yes") await request.text();
      return new Response("no", { status: 401, headers: { "content-type": "text/plain" } });
    });
    // Declares 4 MiB, sends 1 KiB, and keeps the socket open: only the server can end it.
    const large = await raw(port, `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${4 * 1024 * 1024}\r\n\r\n${"x".repeat(1024)}`);
    expect(large.split("\r\n")[0]).toBe("HTTP/1.1 401 Unauthorized");
    expect(large.toLowerCase()).toContain("connection: close");
    const chunked = await raw(port, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n");
    expect(chunked.toLowerCase()).toContain("connection: close");
    // A small body, then a second request on the same connection: both answered (kept alive).
    const small = `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1024\r\n\r\n${"x".repeat(1024)}`;
    const two = await raw(port, `${small}${small.replace("Host:", "Connection: close\r\nHost:")}`);
    expect(two.match(/HTTP\/1\.1 401/g)).toHaveLength(2);
    // A large body the handler read: the connection is kept for the next request.
    const body = "x".repeat(100 * 1024);
    const read = `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Read: yes\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const kept = await raw(port, `${read}${read.replace("Host:", "Connection: close\r\nHost:")}`);
    expect(kept.match(/HTTP\/1\.1 401/g)).toHaveLength(2);
  });

  it("a handler that throws: 500 and the error reported; a throwing onError changes nothing", async () => {
    const reported: Error[] = [];
    const port = await serve(async () => {
      throw "not an Error";
    }, (e) => {
      reported.push(e);
      throw new Error("the logger broke");
    });
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(answer.status).toBe(500);
    expect(reported.map((e) => [e instanceof Error, e.message])).toEqual([[true, "not an Error"]]);
  });

  it("streams an SSE body as it comes, and aborts the request's signal when the client goes away", async () => {
    let aborted: unknown = "not aborted";
    let more!: () => void;
    const port = await serve(async (request) => {
      request.signal.addEventListener("abort", () => (aborted = request.signal.reason));
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("data: one\n\n"));
          more = () => controller.enqueue(new TextEncoder().encode("data: two\n\n"));
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    });
    const client = new AbortController();
    const answer = await fetch(`http://127.0.0.1:${port}/`, { signal: client.signal });
    expect(answer.headers.get("content-length")).toBeNull();
    const reader = answer.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
    more();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: two\n\n");
    client.abort();
    await expect.poll(() => aborted).toBe(CLIENT_DISCONNECTED);
  });
});
