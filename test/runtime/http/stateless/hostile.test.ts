/**
 * Hostile bytes at the Streamable HTTP handler, on both faces over real sockets: bodies past the
 * bound (declared or streamed), a refused body on a keep-alive connection (drained up to 64 KiB;
 * past it both faces close the connection), nesting
 * deep enough to break JSON.stringify, annotations that would make a naive schema walk explode, and
 * a server that keeps serving after each.
 */
import { Agent, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { call, describeFaces, headersFor, META, post, serve, type Answer, type Served } from "./support.js";

const MAX = 2048;

const TOO_LARGE = { jsonrpc: "2.0", error: { code: -32600, message: `Payload Too Large: the body exceeds ${MAX} bytes` } };

/** Sends headers, then `chunks` one at a time while the server has not answered; resolves with the answer. */
function stream(url: string, headers: Record<string, string>, chunks: Iterable<Uint8Array>): Promise<Answer & { chunksSent: number }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    let chunksSent = 0;
    let answered = false;
    const request = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers }, (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on("data", (c: Buffer) => parts.push(c));
      response.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        const out = new Headers();
        for (const [k, v] of Object.entries(response.headers)) if (typeof v === "string") out.set(k, v);
        resolve({ status: response.statusCode ?? 0, headers: out, text, json: JSON.parse(text) as unknown, chunksSent });
        request.destroy();
      });
    });
    request.on("error", (e) => (answered ? undefined : reject(e)));
    const iterator = chunks[Symbol.iterator]();
    const pump = (): void => {
      while (!answered) {
        const next = iterator.next();
        if (next.done === true) {
          request.end();
          return;
        }
        chunksSent++;
        if (!request.write(next.value)) {
          request.once("drain", pump);
          return;
        }
      }
    };
    request.flushHeaders();
    pump();
  });
}

function* forever(chunk: Uint8Array, limit: number): Generator<Uint8Array> {
  for (let i = 0; i < limit; i++) yield chunk;
}

describeFaces("hostile requests", (face) => {
  let s: Served;
  beforeAll(async () => {
    s = await serve(face, {}, { maxBodyBytes: MAX });
  });
  afterAll(async () => {
    await s.close();
  });

  describe("bodies past maxBodyBytes", () => {
    it("a Content-Length past the bound: 413 before any of the body is read, and the connection closes", async () => {
      const answer = await stream(s.url, { ...headersFor("tools/list"), "content-length": String(10 * 1024 * 1024 * 1024) }, forever(new Uint8Array(1024), 1_000_000));
      expect(answer.status).toBe(413);
      expect(answer.headers.get("connection")).toBe("close");
      expect(answer.json).toEqual(TOO_LARGE);
    });

    it("a chunked body that grows past the bound: 413, and the reading stops (far fewer chunks than offered were taken)", async () => {
      const chunk = new TextEncoder().encode(" ".repeat(1024));
      const answer = await stream(s.url, { ...headersFor("tools/list"), "transfer-encoding": "chunked" }, forever(chunk, 1_000_000));
      expect(answer.status).toBe(413);
      expect(answer.json).toEqual(TOO_LARGE);
      expect(answer.chunksSent).toBeLessThan(1_000_000);
    });

    it("a body exactly at the bound is read", async () => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "" }, _meta: META } });
      const padded = body + " ".repeat(MAX - body.length);
      expect(padded.length).toBe(MAX);
      expect((await post(s.url, padded, headersFor("tools/call", { name: "echo" }))).status).toBe(200);
    });

    it("the server keeps serving after them", async () => {
      expect((await call(s.url, 2, "tools/call", { name: "echo", arguments: { text: "still here" } })).status).toBe(200);
    });
  });

  describe("a keep-alive connection after a refused body (never read: 415)", () => {
    /** POSTs over `agent` and reads the whole answer; the socket it went on, and whether that socket closed after. */
    const once = (agent: Agent, headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; connection: string | undefined; socket: import("node:net").Socket; closed: Promise<void> }>((resolve, reject) => {
        const target = new URL(s.url);
        const request = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers, agent }, (response) => {
          const socket = request.socket!;
          const closed = new Promise<void>((done) => (socket.destroyed ? done() : socket.once("close", () => done())));
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, socket, closed }));
        });
        request.on("error", reject);
        request.end(body);
      });
    const refusedHeaders = { ...headersFor("tools/list"), "content-type": "text/plain" };
    const echo = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "again" }, _meta: META } });

    it("a body of 64 KiB is drained: the next request on the same socket is served", async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const refused = await once(agent, refusedHeaders, "x".repeat(64 * 1024));
        expect(refused.status).toBe(415);
        expect(refused.connection).toBe("keep-alive");
        const served = await once(agent, headersFor("tools/call", { name: "echo" }), echo);
        expect(served.status).toBe(200);
        expect(served.socket).toBe(refused.socket);
      } finally {
        agent.destroy();
      }
    });

    it("a body past 64 KiB is not read (on both faces: the bridge of a web handler applies the native rule): the refusal says connection: close, the socket closes, the next request is served on a new one", async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const refused = await once(agent, refusedHeaders, "x".repeat(64 * 1024 + 1));
        expect(refused.status).toBe(415);
        const served = await once(agent, headersFor("tools/call", { name: "echo" }), echo);
        expect(served.status).toBe(200);
        expect(refused.connection).toBe("close");
        await refused.closed;
        expect(served.socket).not.toBe(refused.socket);
      } finally {
        agent.destroy();
      }
    });
  });

  describe("deep and awkward JSON", () => {
    it("nesting too deep for JSON.stringify in what a handler returns: an in-band -32603 instead, the request does not hang", async () => {
      // maxJsonDepth lets the body through (its bound is tested in json-depth.test.ts); 60,000
      // levels parse, and are past what JSON.stringify can write back.
      const deep = await serve(face, { handlers: { "tools/call": (params) => ({ resultType: "complete", content: [], structuredContent: params.arguments }) } }, { maxJsonDepth: 100_000 });
      try {
        const nested = "[".repeat(60_000) + "]".repeat(60_000);
        const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":${nested}},"_meta":${JSON.stringify(META)}}}`;
        const answer = await post(deep.url, body, headersFor("tools/call", { name: "t" }));
        expect(answer.status).toBe(200);
        expect(answer.json).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: the response could not be sent" } });
        expect(deep.errors.length).toBeGreaterThan(0);
      } finally {
        await deep.close();
      }
    });

    it("a UTF-8 byte order mark before the JSON is tolerated", async () => {
      const body = `\ufeff${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { text: "bom" }, _meta: META } })}`;
      expect((await post(s.url, body, headersFor("tools/call", { name: "echo" }))).status).toBe(200);
    });

    it("members named after Object.prototype do not confuse the header tables", async () => {
      const answer = await call(s.url, 4, "constructor", { name: "toString" }, { "mcp-name": "toString" });
      expect(answer.status).toBe(404);
      const proto = await post(s.url, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"__proto__":{"name":"x"},"name":"echo","arguments":{"text":"p"},"_meta":${JSON.stringify(META)}}}`, headersFor("tools/call", { name: "echo" }));
      expect(proto.status).toBe(200);
    });
  });

  describe("x-mcp-header annotations a naive walk would choke on", () => {
    it("a shared sub-schema under every property (exponential as a tree) and a cycle: the scan is bounded and calls are served", async () => {
      const shared: Record<string, unknown> = { type: "object", properties: {} };
      let level = shared;
      for (let i = 0; i < 40; i++) {
        const next: Record<string, unknown> = { type: "object", properties: {} };
        level["properties"] = { a: next, b: next };
        level = next;
      }
      const cyclic: Record<string, unknown> = { type: "object" };
      cyclic["properties"] = { self: cyclic, r: { type: "string", "x-mcp-header": "R" } };
      const tools: R.Tool[] = [
        { name: "wide", inputSchema: { type: "object", properties: { x: shared } } },
        { name: "cyclic", inputSchema: cyclic as R.Tool["inputSchema"] },
      ];
      const odd = await serve(face, {
        handlers: { "tools/list": () => ({ resultType: "complete", tools, ttlMs: 60_000, cacheScope: "public" }), "tools/call": () => ({ resultType: "complete", content: [] }) },
      });
      try {
        expect((await call(odd.url, 1, "tools/call", { name: "wide", arguments: {} })).status).toBe(200);
        // The scan (headers.ts, one for client and server) stops at its bounds and finds both tools
        // invalid (too large; nested past 64 through the cycle): no header is expected for either.
        expect((await call(odd.url, 2, "tools/call", { name: "cyclic", arguments: { r: "v" } })).status).toBe(200);
        expect((await call(odd.url, 3, "tools/call", { name: "cyclic", arguments: { r: "v" } }, { "mcp-param-r": "v" })).status).toBe(200);
      } finally {
        await odd.close();
      }
    });
  });
});
