/**
 * The order of createHttpHandler's checks at the wire (server/pipeline.ts; stateless/handler.ts
 * lists its stages), on both faces over real sockets: the path, then Host/Origin, then
 * `authenticate`, then the envelope (method, Content-Type, Accept), then the in-flight quota, and
 * only then the body. A client `authenticate` refuses gets its 401 whatever its method and media
 * types, and a body it declared (4 MiB, of which it sent a few bytes) is never awaited: the 401
 * comes at once, and on the native face the connection closes (the body is not read at all).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deferred } from "../../../helpers/async.js";
import { describeFaces, headersFor, META, raw, rawRequest, serve, type Served } from "./support.js";

const FOUR_MIB = 4 * 1024 * 1024;
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });
const UNAUTHORIZED = { error: "invalid_token" };
const rpcError = (message: string) => ({ jsonrpc: "2.0", error: { code: -32600, message } });

describeFaces("createHttpHandler's pipeline order", (face) => {
  let asked = 0;
  let s: Served;
  beforeAll(async () => {
    s = await serve(face, {}, {
      path: "/mcp",
      authenticate: (request) => {
        asked++;
        return request.headers.get("authorization") === "Bearer ok"
          ? { id: "ok" }
          : new Response(JSON.stringify(UNAUTHORIZED), { status: 401, headers: { "content-type": "application/json", "www-authenticate": 'Bearer error="invalid_token"' } });
      },
    });
  });
  afterAll(async () => {
    await s.close();
  });
  const host = () => new URL(s.url).host;

  it("the path first: another path is 404 before Host or authenticate are looked at", async () => {
    const before = asked;
    const answer = await raw(`${s.origin}/other`, "POST", { ...headersFor("tools/list"), host: "evil.example.com" }, LIST);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual(rpcError("Not Found"));
    expect(asked).toBe(before);
  });

  it("then Host/Origin: a foreign Host or Origin is 403 and authenticate is not asked", async () => {
    const before = asked;
    expect((await raw(s.url, "POST", { ...headersFor("tools/list"), host: "evil.example.com" }, LIST)).status).toBe(403);
    expect((await raw(s.url, "POST", { ...headersFor("tools/list"), origin: "http://evil.example.com" }, LIST)).status).toBe(403);
    expect(asked).toBe(before);
  });

  describe("then authenticate, before the envelope and the body", () => {
    it.each([
      ["a POST of text/plain", "POST", { "content-type": "text/plain" }],
      ["a POST accepting JSON only", "POST", { accept: "application/json" }],
      ["a GET", "GET", {}],
      ["a DELETE", "DELETE", {}],
    ])("%s without a token: the 401 authenticate answered, as it is", async (_label, method, headers) => {
      const answer = await raw(s.url, method, { ...headersFor("tools/list"), ...headers }, method === "POST" ? LIST : undefined);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
      expect(answer.json).toEqual(UNAUTHORIZED);
    });

    it(
      face === "native"
        ? "a POST declaring 4 MiB, a few bytes of them sent: 401 at once, with connection: close, and the connection closes (the body is never read)"
        : "a POST declaring 4 MiB, a few bytes of them sent: 401 at once (the body is never awaited)",
      async () => {
        const exchange = rawRequest(s.url, "POST", { host: host(), ...headersFor("tools/list"), "content-length": String(FOUR_MIB) }, LIST.slice(0, 16));
        try {
          const answer = await exchange.answer;
          expect(answer.status).toBe(401);
          expect(JSON.parse(answer.text)).toEqual(UNAUTHORIZED);
          if (face === "native") {
            expect(answer.headers["connection"]).toBe("close");
            await exchange.closed;
          }
        } finally {
          exchange.socket.destroy();
        }
      },
    );
  });

  describe("with a token, the envelope next", () => {
    const ok = { authorization: "Bearer ok" };
    it("415 for another media type, 406 for an Accept without SSE, 405 for a GET", async () => {
      expect((await raw(s.url, "POST", { ...headersFor("tools/list"), ...ok, "content-type": "text/plain" }, LIST)).status).toBe(415);
      expect((await raw(s.url, "POST", { ...headersFor("tools/list"), ...ok, accept: "application/json" }, LIST)).status).toBe(406);
      const get = await raw(s.url, "GET", { ...headersFor("tools/list"), ...ok });
      expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    });

    it("a body declared past maxBodyBytes is 413 before any of it is read (the body stage), then the JSON", async () => {
      const exchange = rawRequest(s.url, "POST", { host: host(), ...headersFor("tools/list"), ...ok, "content-length": String(FOUR_MIB + 1) }, LIST.slice(0, 16));
      try {
        const answer = await exchange.answer;
        expect(answer.status).toBe(413);
        expect(answer.headers["connection"]).toBe("close");
      } finally {
        exchange.socket.destroy();
      }
      const broken = await raw(s.url, "POST", { ...headersFor("tools/list"), ...ok }, "{");
      expect([broken.status, broken.json]).toEqual([400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } }]);
    });
  });
});

describeFaces("the in-flight quota, before the body", (face) => {
  it("with maxInFlight 1 taken, a POST declaring 4 MiB (a few bytes sent) is 429 at once", async () => {
    const started = deferred<void>();
    const release = deferred<void>();
    const s = await serve(face, {
      handlers: {
        "tools/call": async () => {
          started.resolve();
          await release.promise;
          return { resultType: "complete", content: [] };
        },
      },
    }, { maxInFlight: 1 });
    try {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: {}, _meta: META } });
      const slow = raw(s.url, "POST", headersFor("tools/call", { name: "slow" }), body);
      await started.promise;
      const exchange = rawRequest(s.url, "POST", { host: new URL(s.url).host, ...headersFor("tools/list"), "content-length": String(FOUR_MIB) }, LIST.slice(0, 16));
      try {
        const answer = await exchange.answer;
        expect(answer.status).toBe(429);
        expect(JSON.parse(answer.text)).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Too Many Requests: 1 requests are in flight (maxInFlight)" } });
      } finally {
        exchange.socket.destroy();
      }
      release.resolve();
      expect((await slow).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
