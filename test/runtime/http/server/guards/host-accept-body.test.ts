/**
 * The checks createHttpHandler makes before a message reaches the server, called as a fetch-style
 * handler (no socket): Host and Origin per local address, allowedHosts and allowedOrigins,
 * Content-Type and Accept parsing, bodies without content, in several chunks or failing
 * mid-way, and a server that throws. Exact statuses and JSON-RPC errors.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../../generated/2026-07-28/index.js";
import { headersFor, META } from "../../stateless/support.js";

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

async function answer(response: Response): Promise<{ status: number; json: unknown }> {
  const text = await response.text();
  return { status: response.status, json: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

describe("Host and Origin", () => {
  it("without a Host header the URL's host is checked: a loopback one is served, another is refused", async () => {
    const handler = R.createHttpHandler(server());
    expect(await answer(await handler(post("http://localhost:3000/mcp")))).toEqual({ status: 200, json: listed });
    expect(await answer(await handler(post("http://evil.example.com:3000/mcp")))).toEqual({ status: 403, json: forbidden('Host "evil.example.com:3000" is not a loopback host') });
  });

  it("which local addresses are loopback: ::1, all of 127/8, their IPv4-mapped forms in any case; nothing else", async () => {
    const handler = R.createHttpHandler(server());
    const loopback = () => post("http://localhost/mcp", { host: "localhost" });
    for (const localAddress of ["::1", "127.0.0.1", "127.1.2.3", "::ffff:127.0.0.1", "::FFFF:127.0.0.1"]) {
      expect((await handler(loopback(), { localAddress })).status, localAddress).toBe(200);
    }
    // Elsewhere even a loopback name is refused until allowedHosts lists the names (issue 28).
    for (const localAddress of ["10.0.0.5", "128.0.0.1", "::2", "::ffff:10.0.0.1", "1127.0.0.1"]) {
      const refused = await answer(await handler(loopback(), { localAddress }));
      expect(refused.status, localAddress).toBe(403);
      expect(JSON.stringify(refused.json), localAddress).toContain("allowedHosts");
    }
  });

  it("a loopback Host is recognised by its name alone, in any case, with or without a port; an IPv6 literal by its brackets", async () => {
    const handler = R.createHttpHandler(server());
    for (const host of ["LOCALHOST", "LocalHost:8080", "127.0.0.1:1", "[::1]", "[::1]:9"]) {
      expect((await handler(post("http://127.0.0.1/mcp", { host }))).status, host).toBe(200);
    }
    for (const host of ["localhost.evil.example", "127.0.0.1.evil.example:80", "[::2]:80"]) {
      expect(await answer(await handler(post("http://127.0.0.1/mcp", { host }))), host).toEqual({ status: 403, json: forbidden(`Host ${JSON.stringify(host)} is not a loopback host`) });
    }
    // No host[:port] at all (an unclosed IPv6 literal): 400 since issue 28 (RFC 9112 3.2), as the node adapter answers.
    expect((await handler(post("http://127.0.0.1/mcp", { host: "[::1" }))).status).toBe(400);
  });

  it("allowedHosts: an entry without a port allows every port, one with a port only that port; both in any case", async () => {
    const handler = R.createHttpHandler(server(), { allowedHosts: ["MCP.example.com", "api.example.com:8443"] });
    for (const host of ["mcp.example.com", "mcp.EXAMPLE.com:8080", "API.example.com:8443"]) {
      expect((await handler(post("http://127.0.0.1/mcp", { host }))).status, host).toBe(200);
    }
    for (const host of ["api.example.com", "api.example.com:80", "localhost", "example.com"]) {
      expect(await answer(await handler(post("http://127.0.0.1/mcp", { host }))), host).toEqual({ status: 403, json: forbidden(`Host ${JSON.stringify(host)} is not allowed`) });
    }
  });

  it("allowedOrigins: compared whole and in any case; a request without Origin is not checked against it", async () => {
    const handler = R.createHttpHandler(server(), { allowedOrigins: ["https://App.example.com"] });
    expect((await handler(post("http://127.0.0.1/mcp", { origin: "HTTPS://app.EXAMPLE.com" }))).status).toBe(200);
    expect((await handler(post("http://127.0.0.1/mcp"))).status).toBe(200);
    for (const origin of ["https://app.example.com:8443", "http://app.example.com", "http://localhost"]) {
      expect(await answer(await handler(post("http://127.0.0.1/mcp", { origin }))), origin).toEqual({ status: 403, json: forbidden(`Origin ${JSON.stringify(origin)} is not allowed`) });
    }
  });

  it("at a non-loopback address an Origin must be of the Host (port included, in any case); Origin null or garbage is refused", async () => {
    const handler = R.createHttpHandler(server(), { allowedHosts: ["mcp.example.com"] });
    const info = { localAddress: "10.0.0.5" };
    const at = (host: string, origin: string) => handler(post("http://mcp.example.com/mcp", { host, origin }), info);
    expect((await at("MCP.Example.com:8443", "https://mcp.example.com:8443")).status).toBe(200);
    expect((await at("mcp.example.com", "https://mcp.example.com:8443")).status).toBe(403);
    for (const origin of ["null", "not a url"]) {
      expect(await answer(await at("mcp.example.com", origin)), origin).toEqual({ status: 403, json: forbidden(`Origin ${JSON.stringify(origin)} is not this server's origin`) });
    }
  });

  it("at a loopback address an Origin that is not a URL is refused", async () => {
    const handler = R.createHttpHandler(server());
    expect(await answer(await handler(post("http://127.0.0.1/mcp", { origin: "garbage" })))).toEqual({ status: 403, json: forbidden('Origin "garbage" is not a loopback origin') });
  });
});

describe("Content-Type and Accept", () => {
  const notAcceptable = { status: 406, json: { jsonrpc: "2.0", error: { code: -32600, message: "Not Acceptable: the Accept header must list application/json and text/event-stream" } } };

  it("a media type with spaces before its parameters is application/json", async () => {
    const handler = R.createHttpHandler(server());
    expect((await handler(post("http://127.0.0.1/mcp", { "content-type": "application/json ; charset=utf-8" }))).status).toBe(200);
    expect((await handler(post("http://127.0.0.1/mcp", { "content-type": "application/json-seq" }))).status).toBe(415);
  });

  it("q parameters: in any case and beside others; 0, 0.0 and a q that is not a number refuse the range", async () => {
    const handler = R.createHttpHandler(server());
    const accepted = ["application/json;charset=utf-8;q=1, text/event-stream", "application/json; Q=0.1, text/event-stream ;level=1", " APPLICATION/JSON , TEXT/EVENT-STREAM "];
    for (const accept of accepted) expect((await handler(post("http://127.0.0.1/mcp", { accept }))).status, accept).toBe(200);
    const refused = ["application/json, text/event-stream; Q=0", "application/json;q=0.0, text/event-stream", "application/json, text/event-stream;q=abc", "*/*;q=0", "application/*;q=0, text/event-stream", "text/*;q=0, application/json"];
    for (const accept of refused) expect(await answer(await handler(post("http://127.0.0.1/mcp", { accept }))), accept).toEqual(notAcceptable);
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
    for (const [accept, status] of sequence) expect((await handler(post("http://127.0.0.1/mcp", { accept }))).status, accept).toBe(status);
  });
});

describe("the body", () => {
  it("a POST without a body: Parse error", async () => {
    const handler = R.createHttpHandler(server());
    expect(await answer(await handler(post("http://127.0.0.1/mcp", {}, null)))).toEqual({ status: 400, json: { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } } });
  });

  it("a body in several chunks is put together in order", async () => {
    const handler = R.createHttpHandler(server());
    const bytes = new TextEncoder().encode(LIST);
    const cuts = [0, 5, 6, 30, bytes.length];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 1; i < cuts.length; i++) controller.enqueue(bytes.slice(cuts[i - 1], cuts[i]));
        controller.close();
      },
    });
    expect(await answer(await handler(post("http://127.0.0.1/mcp", {}, stream)))).toEqual({ status: 200, json: listed });
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
    const refused = await handler(post("http://127.0.0.1/mcp", {}, over));
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
    expect((await handler(post("http://127.0.0.1/mcp", {}, exact))).status).toBe(200);
  });

  it("a body whose stream fails: 400 Bad Request, and the handler goes on serving", async () => {
    const handler = R.createHttpHandler(server());
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{"));
        controller.error(new Error("socket hang up"));
      },
    });
    expect(await answer(await handler(post("http://127.0.0.1/mcp", {}, failing)))).toEqual({
      status: 400,
      json: { jsonrpc: "2.0", error: { code: -32600, message: "Bad Request: the body could not be read" } },
    });
    expect((await handler(post("http://127.0.0.1/mcp"))).status).toBe(200);
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
    expect(await answer(await R.createHttpHandler(broken, { onError: (e) => errors.push(e) })(post("http://127.0.0.1/mcp")))).toEqual(internal);
    expect(errors.map((e) => e.message)).toEqual(["no more connections"]);
    const throwing = R.createHttpHandler(broken, {
      onError: () => {
        throw new Error("onError broke");
      },
    });
    expect(await answer(await throwing(post("http://127.0.0.1/mcp")))).toEqual(internal);
  });

  it("what is thrown need not be an Error: onError gets one with its text", async () => {
    const broken = {
      httpBinding: server().httpBinding,
      openConnection(): never {
        throw "out of sockets"; // eslint-disable-line @typescript-eslint/only-throw-error
      },
    };
    const errors: unknown[] = [];
    expect((await R.createHttpHandler(broken, { onError: (e) => errors.push(e) })(post("http://127.0.0.1/mcp"))).status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(Error);
    expect((errors[0] as Error).message).toBe("out of sockets");
  });
});
