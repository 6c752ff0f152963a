/**
 * The checks createHttpHandler makes before a message reaches the server, on both faces of the
 * handler over real sockets: Host and Origin per local address (a LAN address shown to the
 * handler as the socket's), allowedHosts and allowedOrigins, a request without Host, Content-Type
 * and Accept parsing, bodies without content, in several chunks, past the bound or broken
 * mid-way, and a server that throws; and the web face called in process with body streams that
 * only it is given. Exact statuses and JSON-RPC errors.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../../generated/2026-07-28/index.js";
import { settle } from "../../../../helpers/async.js";
import { answer, arrivingAt, describeFaces, headersFor, listen, META, raw, rawRequest, type Answer, type Face } from "../../stateless/support.js";

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "prompts/list", params: { _meta: META } });
const listed = { jsonrpc: "2.0", id: 1, result: { resultType: "complete", prompts: [], ttlMs: 0, cacheScope: "public", _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-server", version: "0.0.0" } } } };

const server = () => new R.McpServer({ logger: null, handlers: { "prompts/list": () => ({ resultType: "complete", prompts: [], ttlMs: 0, cacheScope: "public" }) } });

/** A prompts/list POST to `url` with the conformant headers, `headers` added (undefined: removed). */
function post(url: string, headers: Record<string, string | undefined> = {}, body: BodyInit | null = LIST): Request {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...headersFor("prompts/list"), ...headers })) if (value !== undefined) sent[name] = value;
  return new Request(url, { method: "POST", headers: sent, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);
}

const forbidden = (why: string) => ({ jsonrpc: "2.0", error: { code: -32600, message: `Forbidden: ${why}` } });

async function read(response: Response): Promise<{ status: number; json: unknown }> {
  const text = await response.text();
  return { status: response.status, json: text === "" ? undefined : (JSON.parse(text) as unknown) };
}
const got = (a: Answer) => ({ status: a.status, json: a.json });

/**
 * `handler` on `face` on a loopback server, its requests seen as arriving at `at()` (default
 * 127.0.0.1); `send` POSTs prompts/list there with these headers (Host among them).
 */
async function servedAt(face: Face, handler: R.HttpHandler, at: () => string = () => "127.0.0.1") {
  const listening = await listen(face, handler, { wrap: arrivingAt(at) });
  const closers = [() => listening.close()];
  const send = (headers: Record<string, string | undefined> = {}) => {
    const sent: Record<string, string> = { host: new URL(listening.url).host };
    for (const [name, value] of Object.entries({ ...headersFor("prompts/list"), ...headers })) if (value !== undefined) sent[name] = value;
    return raw(listening.url, "POST", sent, LIST);
  };
  return { url: listening.url, send, close: () => Promise.all(closers.map((c) => c())) };
}

describeFaces("createHttpHandler's checks", (face) => {
  describe("Host and Origin", () => {
    it("without a Host header (HTTP/1.0, the target in absolute form) the target's host is checked: a loopback one is served, another is refused", async () => {
      const s = await servedAt(face, R.createHttpHandler(server()));
      try {
        const length = { "content-length": String(LIST.length) };
        const noHost = (target: string) => rawRequest(s.url, "POST", { ...headersFor("prompts/list"), ...length }, LIST, { target, version: "HTTP/1.0" }).answer;
        const loopback = await noHost("http://localhost:3000/mcp");
        expect({ status: loopback.status, json: JSON.parse(loopback.text) as unknown }).toEqual({ status: 200, json: listed });
        const evil = await noHost("http://evil.example.com:3000/mcp");
        expect({ status: evil.status, json: JSON.parse(evil.text) as unknown }).toEqual({ status: 403, json: forbidden('Host "evil.example.com:3000" is not a loopback host') });
      } finally {
        await s.close();
      }
    });

    it("which local addresses are loopback: ::1, all of 127/8, their IPv4-mapped forms in any case; nothing else", async () => {
      let at = "127.0.0.1";
      const s = await servedAt(face, R.createHttpHandler(server()), () => at);
      try {
        for (const localAddress of ["::1", "127.0.0.1", "127.1.2.3", "::ffff:127.0.0.1", "::FFFF:127.0.0.1"]) {
          at = localAddress;
          expect((await s.send({ host: "localhost" })).status, localAddress).toBe(200);
        }
        // Elsewhere even a loopback name is refused until allowedHosts lists the names (issue 28).
        for (const localAddress of ["10.0.0.5", "128.0.0.1", "::2", "::ffff:10.0.0.1", "1127.0.0.1"]) {
          at = localAddress;
          const refused = await s.send({ host: "localhost" });
          expect(refused.status, localAddress).toBe(403);
          expect(refused.text, localAddress).toContain("allowedHosts");
        }
      } finally {
        await s.close();
      }
    });

    it("a loopback Host is recognised by its name alone, in any case, with or without a port; an IPv6 literal by its brackets", async () => {
      const s = await servedAt(face, R.createHttpHandler(server()));
      try {
        for (const host of ["LOCALHOST", "LocalHost:8080", "127.0.0.1:1", "[::1]", "[::1]:9"]) expect((await s.send({ host })).status, host).toBe(200);
        for (const host of ["localhost.evil.example", "127.0.0.1.evil.example:80", "[::2]:80"]) {
          expect(got(await s.send({ host })), host).toEqual({ status: 403, json: forbidden(`Host ${JSON.stringify(host)} is not a loopback host`) });
        }
        // No host[:port] at all (an unclosed IPv6 literal): 400 since issue 28 (RFC 9112 3.2).
        expect((await s.send({ host: "[::1" })).status).toBe(400);
      } finally {
        await s.close();
      }
    });

    it("allowedHosts: an entry without a port allows every port, one with a port only that port; both in any case", async () => {
      const s = await servedAt(face, R.createHttpHandler(server(), { allowedHosts: ["MCP.example.com", "api.example.com:8443"] }));
      try {
        for (const host of ["mcp.example.com", "mcp.EXAMPLE.com:8080", "API.example.com:8443"]) expect((await s.send({ host })).status, host).toBe(200);
        for (const host of ["api.example.com", "api.example.com:80", "localhost", "example.com"]) {
          expect(got(await s.send({ host })), host).toEqual({ status: 403, json: forbidden(`Host ${JSON.stringify(host)} is not allowed`) });
        }
      } finally {
        await s.close();
      }
    });

    it("allowedOrigins: compared whole and in any case; a request without Origin is not checked against it", async () => {
      const s = await servedAt(face, R.createHttpHandler(server(), { allowedOrigins: ["https://App.example.com"] }));
      try {
        expect((await s.send({ origin: "HTTPS://app.EXAMPLE.com" })).status).toBe(200);
        expect((await s.send()).status).toBe(200);
        for (const origin of ["https://app.example.com:8443", "http://app.example.com", "http://localhost"]) {
          expect(got(await s.send({ origin })), origin).toEqual({ status: 403, json: forbidden(`Origin ${JSON.stringify(origin)} is not allowed`) });
        }
      } finally {
        await s.close();
      }
    });

    it("at a non-loopback address an Origin must be of the Host (port included, in any case); Origin null or garbage is refused", async () => {
      const s = await servedAt(face, R.createHttpHandler(server(), { allowedHosts: ["mcp.example.com"] }), () => "10.0.0.5");
      try {
        expect((await s.send({ host: "MCP.Example.com:8443", origin: "https://mcp.example.com:8443" })).status).toBe(200);
        expect((await s.send({ host: "mcp.example.com", origin: "https://mcp.example.com:8443" })).status).toBe(403);
        for (const origin of ["null", "not a url"]) {
          expect(got(await s.send({ host: "mcp.example.com", origin })), origin).toEqual({ status: 403, json: forbidden(`Origin ${JSON.stringify(origin)} is not this server's origin`) });
        }
      } finally {
        await s.close();
      }
    });

    it("at a loopback address an Origin that is not a URL is refused", async () => {
      const s = await servedAt(face, R.createHttpHandler(server()));
      try {
        expect(got(await s.send({ origin: "garbage" }))).toEqual({ status: 403, json: forbidden('Origin "garbage" is not a loopback origin') });
      } finally {
        await s.close();
      }
    });
  });

  describe("Content-Type and Accept", () => {
    const notAcceptable = { status: 406, json: { jsonrpc: "2.0", error: { code: -32600, message: "Not Acceptable: the Accept header must list application/json and text/event-stream" } } };

    it("a media type with spaces before its parameters is application/json", async () => {
      const handler = R.createHttpHandler(server());
      expect((await answer(face, handler, post("http://127.0.0.1/mcp", { "content-type": "application/json ; charset=utf-8" }))).status).toBe(200);
      expect((await answer(face, handler, post("http://127.0.0.1/mcp", { "content-type": "application/json-seq" }))).status).toBe(415);
    });

    it("q parameters: in any case and beside others; 0, 0.0 and a q that is not a number refuse the range", async () => {
      const handler = R.createHttpHandler(server());
      const accepted = ["application/json;charset=utf-8;q=1, text/event-stream", "application/json; Q=0.1, text/event-stream ;level=1", " APPLICATION/JSON , TEXT/EVENT-STREAM "];
      for (const accept of accepted) expect((await answer(face, handler, post("http://127.0.0.1/mcp", { accept }))).status, accept).toBe(200);
      const refused = ["application/json, text/event-stream; Q=0", "application/json;q=0.0, text/event-stream", "application/json, text/event-stream;q=abc", "*/*;q=0", "application/*;q=0, text/event-stream", "text/*;q=0, application/json"];
      for (const accept of refused) expect(await read(await answer(face, handler, post("http://127.0.0.1/mcp", { accept }))), accept).toEqual(notAcceptable);
    });

    it("*/* alone, type wildcards, and neither: the answer follows each value even when the previous one was the same or different", async () => {
      const handler = R.createHttpHandler(server());
      const sequence: Array<[string, number]> = [
        ["application/json, text/event-stream", 200],
        ["application/json, text/event-stream", 200],
        ["application/json", 406],
        ["application/json", 406],
        ["text/*, application/json", 200],
        ["*/*", 200],
        ["text/event-stream, application/*", 200],
        ["text/html, application/xml", 406],
        ["*/*", 200],
      ];
      for (const [accept, status] of sequence) expect((await answer(face, handler, post("http://127.0.0.1/mcp", { accept }))).status, accept).toBe(status);
    });
  });

  describe("the body", () => {
    const chunked = { ...headersFor("prompts/list"), "transfer-encoding": "chunked" };
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

    it("a POST without a body: Parse error", async () => {
      const handler = R.createHttpHandler(server());
      expect(await read(await answer(face, handler, post("http://127.0.0.1/mcp", {}, null)))).toEqual({ status: 400, json: { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } } });
    });

    it("a chunked body in several chunks is put together in order", async () => {
      const s = await servedAt(face, R.createHttpHandler(server()));
      try {
        const cuts = [0, 5, 6, 30, LIST.length];
        const exchange = rawRequest(s.url, "POST", { host: new URL(s.url).host, ...chunked });
        for (let i = 1; i < cuts.length; i++) {
          exchange.write(chunk(LIST.slice(cuts[i - 1], cuts[i])));
          await settle(1);
        }
        exchange.write("0\r\n\r\n");
        const answered = await exchange.answer;
        expect({ status: answered.status, json: JSON.parse(answered.text) as unknown }).toEqual({ status: 200, json: listed });
        exchange.socket.destroy();
      } finally {
        await s.close();
      }
    });

    it("chunks that together pass maxBodyBytes: 413, the connection closes; exactly at the bound is read", async () => {
      const s = await servedAt(face, R.createHttpHandler(server(), { maxBodyBytes: LIST.length }));
      try {
        const over = rawRequest(s.url, "POST", { host: new URL(s.url).host, ...chunked }, chunk(LIST) + chunk(" "));
        const refused = await over.answer;
        expect(refused.status).toBe(413);
        expect(refused.headers["connection"]).toBe("close");
        expect(JSON.parse(refused.text)).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: `Payload Too Large: the body exceeds ${LIST.length} bytes` } });
        await over.closed;
        const exact = rawRequest(s.url, "POST", { host: new URL(s.url).host, ...chunked }, chunk(LIST.slice(0, 10)) + chunk(LIST.slice(10)) + "0\r\n\r\n");
        expect((await exact.answer).status).toBe(200);
        exact.socket.destroy();
      } finally {
        await s.close();
      }
    });

    it("a client gone mid-body: no handler runs, nothing is reported, and the handler goes on serving", async () => {
      const errors: Error[] = [];
      let handled = 0;
      const counting = new R.McpServer({ logger: null, handlers: { "prompts/list": () => (handled++, { resultType: "complete", prompts: [], ttlMs: 0, cacheScope: "public" }) } });
      // One request in flight at most: a request stranded by the broken body would hold the only slot.
      const s = await servedAt(face, R.createHttpHandler(counting, { maxInFlight: 1, onError: (e) => errors.push(e) }));
      try {
        const broken = rawRequest(s.url, "POST", { host: new URL(s.url).host, ...headersFor("prompts/list"), "content-length": String(LIST.length) }, LIST.slice(0, 10));
        await settle();
        broken.socket.destroy();
        await broken.closed;
        expect((await s.send()).status).toBe(200);
        expect(handled).toBe(1);
        expect(errors).toEqual([]);
      } finally {
        await s.close();
      }
    });
  });

  describe("a server that throws", () => {
    it("500 with an id-less InternalError; the error goes to onError, and an onError that throws changes nothing", async () => {
      const binding = server().httpBinding;
      const broken = {
        httpBinding: binding,
        openConnection(): never {
          throw new Error("no more connections");
        },
      };
      const errors: Error[] = [];
      const internal = { status: 500, json: { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } } };
      expect(await read(await answer(face, R.createHttpHandler(broken, { onError: (e) => errors.push(e) }), post("http://127.0.0.1/mcp")))).toEqual(internal);
      expect(errors.map((e) => e.message)).toEqual(["no more connections"]);
      const throwing = R.createHttpHandler(broken, {
        onError: () => {
          throw new Error("onError broke");
        },
      });
      expect(await read(await answer(face, throwing, post("http://127.0.0.1/mcp")))).toEqual(internal);
    });

    it("what is thrown need not be an Error: onError gets one with its text", async () => {
      const broken = {
        httpBinding: server().httpBinding,
        openConnection(): never {
          throw "out of sockets"; // eslint-disable-line @typescript-eslint/only-throw-error
        },
      };
      const errors: unknown[] = [];
      expect((await answer(face, R.createHttpHandler(broken, { onError: (e) => errors.push(e) }), post("http://127.0.0.1/mcp"))).status).toBe(500);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(Error);
      expect((errors[0] as Error).message).toBe("out of sockets");
    });
  });
});

describe("the web face called in process: body streams only it is given", () => {
  it("a body stream in several chunks is put together in order", async () => {
    const handler = R.createHttpHandler(server());
    const bytes = new TextEncoder().encode(LIST);
    const cuts = [0, 5, 6, 30, bytes.length];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 1; i < cuts.length; i++) controller.enqueue(bytes.slice(cuts[i - 1], cuts[i]));
        controller.close();
      },
    });
    expect(await read(await answer("web", handler, post("http://127.0.0.1/mcp", {}, stream)))).toEqual({ status: 200, json: listed });
  });

  it("chunks that together pass maxBodyBytes: 413 and the stream is cancelled; exactly at the bound is read", async () => {
    const handler = R.createHttpHandler(server(), { maxBodyBytes: LIST.length });
    let cancelled = false;
    const over = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(LIST));
        controller.enqueue(new TextEncoder().encode(" "));
      },
      cancel() {
        cancelled = true;
      },
    });
    const refused = await answer("web", handler, post("http://127.0.0.1/mcp", {}, over));
    expect(refused.status).toBe(413);
    expect(refused.headers.get("connection")).toBe("close");
    expect(await refused.json()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: `Payload Too Large: the body exceeds ${LIST.length} bytes` } });
    expect(cancelled).toBe(true);
    const exact = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(LIST.slice(0, 10)));
        controller.enqueue(new TextEncoder().encode(LIST.slice(10)));
        controller.close();
      },
    });
    expect((await answer("web", handler, post("http://127.0.0.1/mcp", {}, exact))).status).toBe(200);
  });

  it("a body whose stream fails: 400 Bad Request, and the handler goes on serving", async () => {
    const handler = R.createHttpHandler(server());
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{"));
        controller.error(new Error("socket hang up"));
      },
    });
    expect(await read(await answer("web", handler, post("http://127.0.0.1/mcp", {}, failing)))).toEqual({
      status: 400,
      json: { jsonrpc: "2.0", error: { code: -32600, message: "Bad Request: the body could not be read" } },
    });
    expect((await answer("web", handler, post("http://127.0.0.1/mcp"))).status).toBe(200);
  });

  it("without a Host header the URL's host is checked", async () => {
    const handler = R.createHttpHandler(server());
    expect(await read(await answer("web", handler, post("http://localhost:3000/mcp")))).toEqual({ status: 200, json: listed });
    expect(await read(await answer("web", handler, post("http://evil.example.com:3000/mcp")))).toEqual({ status: 403, json: forbidden('Host "evil.example.com:3000" is not a loopback host') });
  });
});
