/**
 * What a hostile or careless client gets from the HTTP+SSE handler (2024-11-05), on both faces of
 * the handler: unknown sessions, bodies that are huge, not JSON (400, -32700 "Parse error") or not
 * one message, the wrong methods, another principal's session, no credentials (401 before a
 * declared body is read), a foreign Host, too many sessions or requests (a cancel the endpoint
 * took frees a request's slot, one it ignored does not), a stream nobody reads
 * (maxStreamBufferBytes), and the options refused where they are read.
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { aborted, deferred, waitFor, within } from "../../../helpers/async.js";
import { rawRequest } from "../sessions/support.js";
import { closeAll, INITIALIZE, openStream, post, R, serve, session, describeFaces } from "./support.js";

afterEach(closeAll);

const TEXT = (text: string) => ({ type: "text" as const, text });

describeFaces("HTTP+SSE server: hostile POSTs", (face) => {
  it("an unknown, missing or ended session id is 404", async () => {
    const served = await serve(face);
    expect((await post(`${served.origin}/messages?sessionId=nope`, { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(404);
    expect((await post(`${served.origin}/messages`, { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(404);
    const { stream, endpoint } = await session(served);
    stream.close();
    await waitFor("the ended session answers 404", async () => ((await post(endpoint, { jsonrpc: "2.0", id: 1, method: "ping" })).status === 404 ? true : undefined));
  });

  it("a body over maxBodyBytes is 413, not JSON 400, not one JSON-RPC message 400, not application/json 415; the session survives", async () => {
    const served = await serve(face, {}, { maxBodyBytes: 1024 });
    const { stream, endpoint } = await session(served);
    expect((await post(endpoint, { jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(2000) } })).status).toBe(413);
    const notJson = await post(endpoint, "{not json");
    expect([notJson.status, JSON.parse(notJson.text)]).toEqual([400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } }]);
    expect((await post(endpoint, [{ jsonrpc: "2.0", id: 1, method: "ping" }])).status).toBe(400);
    expect((await post(endpoint, { jsonrpc: "1.0", id: 1, method: "ping" })).status).toBe(400);
    expect((await post(endpoint, { jsonrpc: "2.0", id: { x: 1 }, method: "ping" })).status).toBe(400);
    expect((await post(endpoint, { jsonrpc: "2.0", id: 1, method: "ping" }, { "content-type": "text/plain" })).status).toBe(415);
    expect((await post(endpoint, { jsonrpc: "2.0", id: 7, method: "ping" })).status).toBe(202);
    expect(await stream.nextMessage()).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    stream.close();
  });

  it("the wrong method on each path is 405 with Allow (no DELETE in 2024-11-05); other paths are 404", async () => {
    const served = await serve(face);
    const del = await fetch(`${served.origin}/sse`, { method: "DELETE" });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET");
    const postSse = await post(`${served.origin}/sse`, { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE });
    expect(postSse.status).toBe(405);
    expect(postSse.headers.get("allow")).toBe("GET");
    const getMessages = await fetch(`${served.origin}/messages?sessionId=x`);
    expect(getMessages.status).toBe(405);
    expect(getMessages.headers.get("allow")).toBe("POST");
    expect((await fetch(`${served.origin}/other`)).status).toBe(404);
  });

  it("a foreign Host or Origin is 403 before a session opens", async () => {
    const served = await serve(face);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${served.origin}/sse`, { headers: { host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
    expect((await fetch(`${served.origin}/sse`, { headers: { origin: "https://evil.example" } })).status).toBe(403);
  });
});

describeFaces("HTTP+SSE server: principals, quotas and bounds", (face) => {
  const bearer: R.Authenticate = (request) => {
    const token = request.headers.get("authorization");
    if (token === "Bearer alice") return { id: "alice" };
    if (token === "Bearer bob") return { id: "bob" };
    return new Response("who?", { status: 401, headers: { "www-authenticate": "Bearer" } });
  };

  it("authenticate runs on the GET and on every POST; a session answers only its own principal (another gets 404)", async () => {
    const seen: (R.Principal | undefined)[] = [];
    const served = await serve(face, { handlers: { "tools/call": (_p, ctx) => (seen.push(ctx.principal), { content: [] }) } }, { authenticate: bearer });
    expect((await fetch(`${served.origin}/sse`)).status).toBe(401);
    const { stream, endpoint } = await session(served, { authorization: "Bearer alice" });
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } };
    expect((await post(endpoint, call, { "content-type": "application/json" })).status).toBe(401);
    expect((await post(endpoint, call, { "content-type": "application/json", authorization: "Bearer bob" })).status).toBe(404);
    expect((await post(endpoint, call, { "content-type": "application/json", authorization: "Bearer alice" })).status).toBe(202);
    expect(await stream.nextMessage()).toMatchObject({ id: 1, result: { content: [] } });
    expect(seen).toEqual([{ id: "alice" }]);
    stream.close();
  });

  it("authenticate runs before the body: a POST declaring 4 MiB it never sends is answered 401 at once", async () => {
    const served = await serve(face, {}, { authenticate: bearer });
    const { stream, endpoint } = await session(served, { authorization: "Bearer alice" });
    const target = new URL(endpoint);
    // Answered while the client still owes the whole body: a server that read it first would wait forever.
    const answer = await within(
      "the 401 before the body",
      rawRequest(endpoint, [`POST ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, "Content-Type: application/json", `Content-Length: ${4 * 1024 * 1024}`]),
      5000,
    );
    expect([answer.status, answer.headers["www-authenticate"], answer.body]).toEqual([401, "Bearer", "who?"]);
    if (face === "native") expect(answer.headers["connection"]).toBe("close");
    stream.close();
  });

  it("maxSessions: one more GET is 503 until a session ends", async () => {
    const served = await serve(face, {}, { maxSessions: 2 });
    const a = await session(served);
    const b = await session(served);
    const refused = await fetch(`${served.origin}/sse`);
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([503, "1"]);
    expect(await refused.json()).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Service Unavailable: 2 sessions are open (maxSessions)" } });
    a.stream.close();
    await waitFor("a slot is free again", async () => {
      const response = await fetch(`${served.origin}/sse`);
      await response.body?.cancel();
      return response.status === 200 ? true : undefined;
    });
    b.stream.close();
  });

  it("maxInFlightPerSession: one more request is 429; a cancel the endpoint took frees its slot, one it ignored does not", async () => {
    const served = await serve(face, { handlers: { "tools/call": async (_p, ctx) => (await aborted(ctx.signal), { content: [] }) } }, { maxInFlightPerSession: 1 });
    const { stream, endpoint } = await session(served);
    const ping = (id: number) => post(endpoint, { jsonrpc: "2.0", id, method: "ping" });
    const cancel = (params: Record<string, unknown>) => post(endpoint, { jsonrpc: "2.0", method: "notifications/cancelled", params });
    expect((await post(endpoint, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } })).status).toBe(202);
    const second = await ping(2);
    expect([second.status, second.headers.get("retry-after"), JSON.parse(second.text)]).toEqual([
      429,
      "1",
      { jsonrpc: "2.0", error: { code: -32603, message: "Too Many Requests: 1 requests of this session are in flight (maxInFlightPerSession)" } },
    ]);
    // Ignored by the endpoint: an unknown id, a string that is not the number id, a malformed cancel naming the request.
    for (const params of [{ requestId: 99 }, { requestId: "1" }, { requestId: 1, reason: 7 }]) {
      expect((await cancel(params)).status).toBe(202);
      expect((await ping(2)).status).toBe(429);
    }
    expect(served.events.map((e) => e.type === "ignored" && e.cause)).toEqual(["unknown-request", "unknown-request", "malformed"]);
    // Taken: the request is cancelled, no response will come, and its slot is free at once.
    expect((await cancel({ requestId: 1 })).status).toBe(202);
    expect(served.events.at(-1)).toEqual({ type: "received", requestId: 1, method: "tools/call", reason: undefined });
    expect((await ping(3)).status).toBe(202);
    expect(await stream.nextMessage()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    stream.close();
  });

  it("a cancel of initialize in flight is ignored (initialize is not cancellable): it still counts until it is answered", async () => {
    const gate = deferred();
    const started = deferred();
    const served = await serve(
      face,
      {
        handlers: {
          initialize: async () => {
            started.resolve();
            await gate.promise;
            return { protocolVersion: "2024-11-05", capabilities: {}, serverInfo: { name: "slow-init", version: "1.0.0" } };
          },
        },
      },
      { maxInFlightPerSession: 1 },
    );
    const { stream, endpoint } = await session(served);
    expect((await post(endpoint, { jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE })).status).toBe(202);
    await started.promise;
    expect((await post(endpoint, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0 } })).status).toBe(202);
    expect(served.events).toEqual([{ type: "ignored", cause: "uncancellable", requestId: 0, reason: undefined, method: "initialize" }]);
    expect((await post(endpoint, { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(429);
    gate.resolve();
    expect(await stream.nextMessage()).toEqual({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2024-11-05", capabilities: {}, serverInfo: { name: "slow-init", version: "1.0.0" } } });
    expect((await post(endpoint, { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(202);
    expect(await stream.nextMessage()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    stream.close();
  });

  it("sessionIdleMs: a session without POSTs and without requests in flight ends; one with a request running outlives it", async () => {
    const idleMs = 200;
    const served = await serve(
      face,
      { handlers: { "tools/call": async () => (await new Promise((resolve) => setTimeout(resolve, 3 * idleMs)), { content: [TEXT("still here")] }) } },
      { sessionIdleMs: idleMs },
    );
    const idle = await session(served);
    const busy = await session(served);
    await post(busy.endpoint, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "long" } });
    await within("the idle session's stream ended", idle.stream.ended);
    expect((await post(idle.endpoint, { jsonrpc: "2.0", id: 2, method: "ping" })).status).toBe(404);
    // The busy session's request, running for three idle periods, is answered on its stream.
    expect(await within("the long call", busy.stream.nextMessage())).toMatchObject({ id: 1, result: { content: [TEXT("still here")] } });
    busy.stream.close();
  });

  it("a request id already in flight is refused (400) before the server sees it, and still counts once", async () => {
    const served = await serve(face, { handlers: { "tools/call": async (_p, ctx) => (await aborted(ctx.signal), { content: [] }) } }, { maxInFlightPerSession: 1 });
    const { stream, endpoint } = await session(served);
    expect((await post(endpoint, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } })).status).toBe(202);
    const again = await post(endpoint, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } });
    expect(again.status).toBe(400);
    expect(again.text).toContain("already in flight");
    expect((await post(endpoint, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow" } })).status).toBe(429);
    stream.close();
  });

  it("maxStreamBufferBytes: one message larger than the bound still goes to a reading client", async () => {
    const big = "z".repeat(16 * 1024);
    const served = await serve(face, { handlers: { "tools/call": () => ({ content: [TEXT(big)] }) } }, { maxStreamBufferBytes: 1024 });
    const { stream, endpoint } = await session(served);
    await post(endpoint, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big" } });
    expect(await within("the big answer", stream.nextMessage())).toMatchObject({ id: 1, result: { content: [TEXT(big)] } });
    stream.close();
  });

  it("maxStreamBufferBytes: a client that never reads its stream ends its session instead of growing the server", async () => {
    let sent = 0;
    let abortedSeen = false;
    const chunk = "y".repeat(16 * 1024);
    const served = await serve(
      face,
      {
        handlers: {
          "tools/call": async (_p, ctx) => {
            // Bounded either way: 10 000 × 16 KiB would be far past any socket buffer.
            while (!ctx.signal.aborted && sent < 10_000) {
              await ctx.notify("notifications/message", { level: "info", data: chunk });
              sent++;
              await new Promise((resolve) => setImmediate(resolve));
            }
            abortedSeen = ctx.signal.aborted;
            return { content: [] };
          },
        },
      },
      { maxStreamBufferBytes: 64 * 1024 },
    );
    // A raw GET whose body is never read.
    const endpoint = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${served.origin}/sse`, (res) => {
        res.once("data", (first: Buffer) => {
          res.pause();
          resolve(new URL(/data: (.*)/.exec(first.toString())![1]!, served.origin).href);
        });
      });
      req.on("error", reject);
      req.end();
    });
    await post(endpoint, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood" } });
    await waitFor("the flooding handler was aborted", () => (abortedSeen ? true : undefined), 20_000);
    expect(sent).toBeLessThan(10_000);
    expect((await post(endpoint, { jsonrpc: "2.0", id: 2, method: "ping" })).status).toBe(404);
  });
});

describe("HTTP+SSE server: options", () => {
  it("rejects bad options where they are read", () => {
    const server = new R.McpServer({ logger: null });
    expect(() => R.createLegacySseHandler(server, { maxSessions: 0 })).toThrow(/maxSessions/);
    expect(() => R.createLegacySseHandler(server, { sessionIdleMs: -1 })).toThrow(/sessionIdleMs/);
    expect(() => R.createLegacySseHandler(server, { maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes/);
    expect(() => R.createLegacySseHandler(server, { maxBodyBytes: Infinity })).toThrow(/maxBodyBytes/);
    expect(() => R.createLegacySseHandler(server, { maxBodyBytes: 127 })).toThrow(/maxBodyBytes/);
    expect(() => R.createLegacySseHandler(server, { maxStreamBufferBytes: 1023 })).toThrow(/maxStreamBufferBytes/);
    expect(() => R.createLegacySseHandler(server, { maxJsonDepth: 7 })).toThrow(/maxJsonDepth/);
    expect(() => R.createLegacySseHandler(server, { maxInFlightPerSession: Number.NaN })).toThrow(/maxInFlightPerSession/);
    expect(() => R.createLegacySseHandler(server, { keepAliveMs: -5 })).toThrow(/keepAliveMs/);
    expect(() => R.createLegacySseHandler(server, { ssePath: "sse" })).toThrow(/ssePath/);
    expect(() => R.createLegacySseHandler(server, { messagesPath: "/m?x=1" })).toThrow(/messagesPath/);
    expect(() => R.createLegacySseHandler(server, { ssePath: "/x", messagesPath: "/x" })).toThrow(/differ/);
    expect(() => R.createLegacySseHandler(server, { authenticate: "yes" as unknown as R.Authenticate })).toThrow(/authenticate/);
    expect(() => R.createLegacySseHandler(server, { maxSessions: Infinity, sessionIdleMs: Infinity, keepAliveMs: 0 })).not.toThrow();
  });
});

describeFaces("HTTP+SSE server: paths", (face) => {
  it("ssePath and messagesPath move both endpoints; the endpoint event follows", async () => {
    const served = await serve(face, {}, { ssePath: "/legacy/sse", messagesPath: "/legacy/post" });
    const stream = await openStream(`${served.origin}/legacy/sse`);
    const first = await stream.next();
    expect(first.event).toBe("endpoint");
    expect(first.data).toMatch(/^\/legacy\/post\?sessionId=[0-9a-f-]{36}$/);
    expect((await post(new URL(first.data, served.origin).href, { jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(202);
    expect(await stream.nextMessage()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    stream.close();
  });
});
