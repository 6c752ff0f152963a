/**
 * Requests in flight per principal and over all (issue 28, item 3: quotas per principal), over a
 * real node:http server on loopback with `authenticate`, on both faces of the handler: a principal
 * past maxInFlightPerPrincipal (default 256) gets 429 with a JSON-RPC error naming the option while
 * another principal is served; the global maxInFlight still holds; a slot comes back when its
 * response ends, and an SSE response (a listen stream) holds its slot until the stream closes; a
 * client that leaves while `authenticate` is pending gives its slot back. Without `authenticate`
 * the quota per principal is the connection's (issue 41, finding 6: one anonymous client used to
 * lock every other one out with 256 calls in flight), or one shared quota where the web handler
 * is not told the connection.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { call, deferred, describeFaces, headersFor, META, pipelined, rawRequest, serve, type Answer, type Served } from "./support.js";

const bearer: R.Authenticate = (request) => {
  const token = /^Bearer (\w+)-token$/.exec(request.headers.get("authorization") ?? "");
  return token === null ? new Response(null, { status: 401 }) : { id: token[1]! };
};
const as = (who: string) => ({ authorization: `Bearer ${who}-token` });

/** A server whose `slow` tool waits for release(); `quick` answers at once. `started` counts slow calls running. */
function gated() {
  const gate = deferred<void>();
  const state = { started: 0, waiters: [] as Array<{ n: number; resolve: () => void }> };
  const options: R.McpServerOptions = {
    handlers: {
      "tools/call": async (params) => {
        if (params.name === "slow") {
          state.started++;
          for (const w of state.waiters.filter((w) => state.started >= w.n)) w.resolve();
          await gate.promise;
        }
        return { resultType: "complete", content: [{ type: "text", text: params.name }] };
      },
    },
  };
  /** Resolves once n slow calls have started (the test's own calls; each resolves or the test fails). */
  const running = (n: number) =>
    state.started >= n ? Promise.resolve() : new Promise<void>((resolve) => state.waiters.push({ n, resolve }));
  return { options, release: () => gate.resolve(), running };
}

const tool = (name: string) => ({ name, arguments: {} });
const tooMany = (message: string) => ({ jsonrpc: "2.0", error: { code: -32603, message } });
const PER_PRINCIPAL = (n: number) => `Too Many Requests: ${n} requests of this principal are in flight (maxInFlightPerPrincipal)`;

describeFaces("requests in flight", (face) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  describe("requests in flight per principal", () => {
    it("a principal past maxInFlightPerPrincipal gets 429 naming the option; another principal is served meanwhile; the slots come back", async () => {
      const g = gated();
      served = await serve(face, g.options, { authenticate: bearer, maxInFlightPerPrincipal: 3 });
      const url = served.url;
      const slow = [1, 2, 3].map((id) => call(url, id, "tools/call", tool("slow"), as("alice")));
      await g.running(3);
      const refused = await call(url, 4, "tools/call", tool("quick"), as("alice"));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.json).toEqual(tooMany(PER_PRINCIPAL(3)));
      const other = await call(url, 5, "tools/call", tool("quick"), as("bob"));
      expect(other.status).toBe(200);
      expect(other.json).toMatchObject({ id: 5, result: { content: [{ text: "quick" }] } });
      g.release();
      expect((await Promise.all(slow)).map((a: Answer) => a.status)).toEqual([200, 200, 200]);
      const again = await Promise.all([6, 7, 8].map((id) => call(url, id, "tools/call", tool("quick"), as("alice"))));
      expect(again.map((a) => a.status)).toEqual([200, 200, 200]);
    });

    it("is on by default: 256 requests of one principal in flight, the 257th refused, another principal served", async () => {
      const g = gated();
      served = await serve(face, g.options, { authenticate: bearer });
      const url = served.url;
      const slow = Array.from({ length: 256 }, (_, i) => call(url, i + 1, "tools/call", tool("slow"), as("alice")));
      await g.running(256);
      const refused = await call(url, 999, "tools/call", tool("quick"), as("alice"));
      expect(refused.status).toBe(429);
      expect(refused.json).toEqual(tooMany(PER_PRINCIPAL(256)));
      expect((await call(url, 1000, "tools/call", tool("quick"), as("bob"))).status).toBe(200);
      g.release();
      expect((await Promise.all(slow)).every((a) => a.status === 200)).toBe(true);
    });

    it("the global maxInFlight holds over every principal, and names itself", async () => {
      const g = gated();
      served = await serve(face, g.options, { authenticate: bearer, maxInFlight: 4, maxInFlightPerPrincipal: 3 });
      const url = served.url;
      const slow = [
        ...[1, 2, 3].map((id) => call(url, id, "tools/call", tool("slow"), as("alice"))),
        call(url, 4, "tools/call", tool("slow"), as("bob")),
      ];
      await g.running(4);
      const refused = await call(url, 5, "tools/call", tool("quick"), as("carol"));
      expect(refused.status).toBe(429);
      expect(refused.json).toEqual(tooMany("Too Many Requests: 4 requests are in flight (maxInFlight)"));
      g.release();
      await Promise.all(slow);
      expect((await call(url, 6, "tools/call", tool("quick"), as("carol"))).status).toBe(200);
    });

    it("an SSE response holds its slot until its stream closes (a listen stream counts)", async () => {
      const ended = deferred<void>();
      const hub = new R.Subscriptions({ onEnd: () => ended.resolve() });
      served = await serve(face, 
        { subscriptions: hub, handlers: { "tools/list": () => ({ resultType: "complete", cacheScope: "public", ttlMs: 0, tools: [] }), "tools/call": () => ({ resultType: "complete", content: [] }) } },
        { authenticate: bearer, maxInFlightPerPrincipal: 1 },
      );
      const url = served.url;
      const controller = new AbortController();
      const response = await fetch(url, {
        method: "POST",
        headers: { ...headersFor("subscriptions/listen"), ...as("alice") },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: META } }),
        signal: controller.signal,
      });
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const reader = response.body!.getReader();
      await reader.read(); // the acknowledgment: the stream is open
      expect((await call(url, 2, "tools/call", tool("quick"), as("alice"))).status).toBe(429);
      await reader.cancel();
      controller.abort();
      // The exchange releases its slot as it ends, before the cancel reaches the hub (onEnd).
      await ended.promise;
      expect(hub.size).toBe(0);
      expect((await call(url, 3, "tools/call", tool("quick"), as("alice"))).status).toBe(200);
    });

    it("without authenticate the quota is per connection: a third request on one connection is refused, another connection is served", async () => {
      const g = gated();
      served = await serve(face, g.options, { maxInFlightPerPrincipal: 2 });
      const one = pipelined(served.url, [1, 2, 3].map((id) => ({ id, method: "tools/call", params: tool(id === 3 ? "quick" : "slow") })));
      await g.running(2);
      const other = await call(served.url, 4, "tools/call", tool("quick"));
      expect([other.status, other.json]).toMatchObject([200, { id: 4, result: { content: [{ text: "quick" }] } }]);
      g.release();
      const answers = await one.responses(3);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
      expect(JSON.parse(answers[2]!.text)).toEqual(tooMany(PER_PRINCIPAL(2)));
      one.socket.destroy();
    });

    it("issue 41: one anonymous client holding 256 calls in flight on its connection does not lock another anonymous client out", async () => {
      const g = gated();
      served = await serve(face, g.options);
      // 257 calls on one connection: 256 (the default maxInFlightPerPrincipal) run, the 257th is refused.
      const hog = pipelined(served.url, Array.from({ length: 257 }, (_, i) => ({ id: i + 1, method: "tools/call", params: tool(i === 256 ? "quick" : "slow") })));
      await g.running(256);
      // aa78207: one anonymous quota for everyone, so this was 429 naming maxInFlightPerPrincipal.
      const other = await call(served.url, 1000, "tools/call", tool("quick"));
      expect([other.status, other.json]).toMatchObject([200, { id: 1000, result: { content: [{ text: "quick" }] } }]);
      g.release();
      const answers = await hog.responses(257);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(256);
      expect([answers[256]!.status, JSON.parse(answers[256]!.text)]).toEqual([429, tooMany(PER_PRINCIPAL(256))]);
      hog.socket.destroy();
    });
  });

  describe("a client gone while authenticate is pending (before its body is read)", () => {
    it("its request ends without reaching a handler, and its slot comes back: with maxInFlight 1 the next request is served", async () => {
      const asked = deferred<void>();
      const gone = deferred<void>();
      let handled = 0;
      served = await serve(
        face,
        { handlers: { "tools/call": () => (handled++, { resultType: "complete", content: [] }) } },
        {
          maxInFlight: 1,
          authenticate: async (request) => {
            if (request.headers.get("authorization") === "Bearer slow-token") {
              asked.resolve();
              // The token check takes its time; the client leaves meanwhile.
              await gone.promise;
            }
            return { id: "someone" };
          },
        },
        { wrap: (listener) => (req, res) => (req.headers.authorization === "Bearer slow-token" && res.once("close", () => gone.resolve()), listener(req, res)) },
      );
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...tool("quick"), _meta: META } });
      const leaving = rawRequest(served.url, "POST", { host: new URL(served.url).host, ...headersFor("tools/call", tool("quick")), authorization: "Bearer slow-token", "content-length": String(body.length) }, body);
      await asked.promise;
      leaving.socket.destroy();
      await gone.promise;
      const next = await call(served.url, 2, "tools/call", tool("quick"), as("bob"));
      expect(next.status).toBe(200);
      expect(handled).toBe(1);
    });
  });

  describe("options", () => {
    it.each(["maxInFlight", "maxInFlightPerPrincipal"] as const)("%s: 0, a fraction, NaN or a negative is a RangeError naming it when the handler is made", (name) => {
      const server = new R.McpServer({ logger: null });
      for (const bad of [0, 1.5, Number.NaN, -1, Number.NEGATIVE_INFINITY]) {
        expect(() => R.createHttpHandler(server, { [name]: bad })).toThrow(RangeError);
      }
      expect(() => R.createHttpHandler(server, { [name]: Number.NaN })).toThrow(new RangeError(`${name} must be an integer ≥ 1 or Infinity (no bound), got NaN`));
      expect(() => R.createHttpHandler(server, { [name]: 1 })).not.toThrow();
      expect(() => R.createHttpHandler(server, { [name]: Number.POSITIVE_INFINITY })).not.toThrow();
    });
  });
});

describe("the web face told nothing of the connection", () => {
  it("a web handler told nothing of the connection (no HttpRequestInfo) keeps one anonymous quota", async () => {
    const g = gated();
    const handler = R.createHttpHandler(new R.McpServer({ logger: null, ...g.options }), { maxInFlightPerPrincipal: 2 });
    const request = (id: number, name: string) =>
      new Request("http://127.0.0.1/mcp", { method: "POST", headers: headersFor("tools/call", tool(name)), body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { ...tool(name), _meta: META } }) });
    const slow = [handler(request(1, "slow")), handler(request(2, "slow"))];
    await g.running(2);
    expect((await handler(request(3, "quick"))).status).toBe(429);
    // Told the client's address and port, each connection has its own.
    expect((await handler(request(4, "quick"), { remoteAddress: "192.0.2.7", remotePort: 50_000 })).status).toBe(200);
    g.release();
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200]);
  });
});
