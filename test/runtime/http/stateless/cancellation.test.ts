/**
 * Cancellation over Streamable HTTP, by construction (2026-07-28, basic/patterns/cancellation:
 * "Closing the SSE response stream is the cancellation signal"), on both faces of the handler (the
 * native face hears the ServerResponse close; the web face its Request's signal, through the
 * bridge): a real HTTP client that goes away mid-stream or mid-request (fetch aborted, a node:http
 * socket destroyed) aborts that handler's ctx.signal with a reason that says so, nothing more is
 * written for the request, its in-flight entry is freed and onCancellation hears of it. A POSTed
 * notifications/cancelled names a request of its own POST, which has none: it is ignored. No
 * wall-clock assertions: every step awaits an event.
 */
import { request as httpRequest, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { abortOf, call, deferred, describeFaces, headersFor, listen, META, post, SERVER_INFO_META, serve, type Face, type Served } from "./support.js";

type Handlers = NonNullable<R.McpServerOptions["handlers"]>;

interface Write {
  readonly bytes: number;
  /** Written after the handler's signal aborted. */
  readonly afterAbort: boolean;
}

/**
 * A server whose tools/call sends a progress notification (opening the SSE stream), hands its
 * context to the test, waits for its signal, then tries to write more: a second progress and a
 * log message. Every write to the node:http response is recorded against the abort.
 */
async function streamingServer(face: Face) {
  const started = deferred<{ readonly signal: AbortSignal }>();
  const finished = deferred<void>();
  let abortedYet = false;
  const writes: Write[] = [];
  const events: R.CancellationEvent[] = [];
  const handlers: Handlers = {
    "tools/call": async (_params, ctx) => {
      await ctx.sendProgress(1, 2, "started");
      ctx.signal.addEventListener("abort", () => (abortedYet = true), { once: true });
      started.resolve(ctx);
      await abortOf(ctx.signal);
      await ctx.sendProgress(2, 2, "after the abort");
      // Refused or dropped, never written (the connection of a cancelled request closes).
      await ctx.notify("notifications/message", { level: "info", data: "after the abort" }).catch(() => undefined);
      finished.resolve();
      return { resultType: "complete", content: [{ type: "text", text: "after the abort" }] };
    },
  };
  const server = new R.McpServer({ logger: null, serverInfo: { name: "http-fixture", version: "1.0.0" }, handlers, onCancellation: (e) => events.push(e) });
  const listening = await listen(face, R.createHttpHandler(server), {
    wrap: (listener) => (req, res) => {
      const write = res.write.bind(res) as (chunk: Uint8Array) => boolean;
      const end = res.end.bind(res) as (chunk?: Uint8Array) => ServerResponse;
      res.write = ((chunk: Uint8Array) => (writes.push({ bytes: chunk.byteLength, afterAbort: abortedYet }), write(chunk))) as typeof res.write;
      res.end = ((chunk?: Uint8Array) => (chunk !== undefined && writes.push({ bytes: chunk.byteLength, afterAbort: abortedYet }), end(chunk))) as typeof res.end;
      listener(req, res);
    },
  });
  closers.push(() => listening.close());
  return { server, url: listening.url, started, finished, writes, events };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const SLOW = { name: "slow", arguments: {}, _meta: { ...META, progressToken: "tok" } };
const firstFrame = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 2, message: "started" } })}\n\n`;

/** Lets pending I/O callbacks and timers of this turn run (the server is in this process). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describeFaces("cancellation over Streamable HTTP", (face) => {
  describe("closing the response stream is the cancel", () => {
    it("fetch aborted mid-SSE-stream: the handler's signal aborts with the reason, nothing more is written, in-flight freed, one event", async () => {
      const t = await streamingServer(face);
      const ac = new AbortController();
      const response = await fetch(t.url, { method: "POST", headers: headersFor("tools/call", SLOW), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: SLOW }), signal: ac.signal });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const reader = response.body!.getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toBe(firstFrame);
      const ctx = await t.started.promise;
      expect(t.server.inFlight).toEqual({ sent: 0, received: 1 });

      ac.abort();
      expect(await abortOf(ctx.signal)).toBe("request stream closed");
      expect(t.server.inFlight).toEqual({ sent: 0, received: 0 });
      await t.finished.promise; // the handler tried to write twice more
      await turn();
      expect(t.writes.filter((w) => w.afterAbort)).toEqual([]);
      expect(t.writes.reduce((n, w) => n + w.bytes, 0)).toBe(new TextEncoder().encode(firstFrame).byteLength);
      expect(t.events).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason: "request stream closed" }]);
    });

    it("a node:http client destroying its socket mid-stream: the same", async () => {
      const t = await streamingServer(face);
      const body = JSON.stringify({ jsonrpc: "2.0", id: "s-1", method: "tools/call", params: SLOW });
      const target = new URL(t.url);
      const gotFrame = deferred<string>();
      const request = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: headersFor("tools/call", SLOW) }, (response) => {
        response.once("data", (chunk: Buffer) => gotFrame.resolve(chunk.toString("utf8")));
      });
      request.on("error", () => undefined);
      request.end(body);
      expect(await gotFrame.promise).toBe(firstFrame);
      const ctx = await t.started.promise;

      request.destroy();
      expect(await abortOf(ctx.signal)).toBe("request stream closed");
      expect(t.server.inFlight).toEqual({ sent: 0, received: 0 });
      await t.finished.promise;
      await turn();
      expect(t.writes.filter((w) => w.afterAbort)).toEqual([]);
      expect(t.events).toEqual([{ type: "received", requestId: "s-1", method: "tools/call", reason: "request stream closed" }]);
    });

    it("a client gone before anything was streamed (the JSON phase): the handler aborts the same way", async () => {
      const started = deferred<AbortSignal>();
      const s = await serve(face, { handlers: { "tools/call": async (_p, ctx) => (started.resolve(ctx.signal), await abortOf(ctx.signal), { resultType: "complete", content: [] }) } });
      closers.push(() => s.close());
      const ac = new AbortController();
      const pending = fetch(s.url, {
        method: "POST",
        headers: headersFor("tools/call", { name: "t" }),
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t", arguments: {}, _meta: META } }),
        signal: ac.signal,
      }).catch((e: unknown) => e);
      const signal = await started.promise;
      ac.abort();
      expect(await abortOf(signal)).toBe("request stream closed");
      expect((await pending) as Error).toBeInstanceOf(Error);
      expect(s.server.inFlight).toEqual({ sent: 0, received: 0 });
      expect(s.events).toEqual([{ type: "received", requestId: 7, method: "tools/call", reason: "request stream closed" }]);
    });

    it("a storm: 50 requests aborted mid-stream, every handler aborts and nothing stays in flight", async () => {
      const signals: AbortSignal[] = [];
      const all = deferred<void>();
      const s = await serve(face, {
        handlers: {
          "tools/call": async (_p, ctx) => {
            await ctx.sendProgress(1);
            signals.push(ctx.signal);
            if (signals.length === 50) all.resolve();
            await abortOf(ctx.signal);
            return { resultType: "complete", content: [] };
          },
        },
      });
      closers.push(() => s.close());
      const controllers = Array.from({ length: 50 }, () => new AbortController());
      const responses = await Promise.all(
        controllers.map((ac, i) =>
          fetch(s.url, {
            method: "POST",
            headers: headersFor("tools/call", { name: "t" }),
            body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "t", arguments: {}, _meta: { ...META, progressToken: i } } }),
            signal: ac.signal,
          }),
        ),
      );
      expect(responses.map((r) => r.headers.get("content-type"))).toEqual(Array(50).fill("text/event-stream"));
      await all.promise;
      for (const ac of controllers) ac.abort();
      expect(await Promise.all(signals.map(abortOf))).toEqual(Array(50).fill("request stream closed"));
      expect(s.server.inFlight).toEqual({ sent: 0, received: 0 });
      expect(s.events.filter((e) => e.type === "received")).toHaveLength(50);
    });
  });

  describe("a POSTed notifications/cancelled", () => {
    it("is 202, names no request of its own POST and is ignored: the request with that id on another POST goes on", async () => {
      const started = deferred<void>();
      const release = deferred<void>();
      let signal: AbortSignal | undefined;
      const s = await serve(face, {
        handlers: {
          "tools/call": async (_p, ctx) => {
            signal = ctx.signal;
            started.resolve();
            await release.promise;
            return { resultType: "complete", content: [] };
          },
        },
      });
      closers.push(() => s.close());
      const pending = call(s.url, 1, "tools/call", { name: "t", arguments: {} });
      await started.promise;
      const cancel = await post(s.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "stop" } }, headersFor("notifications/cancelled"));
      expect(cancel.status).toBe(202);
      expect(cancel.text).toBe("");
      expect(s.events).toEqual([{ type: "ignored", cause: "unknown-request", requestId: 1, reason: "stop" }]);
      expect(signal?.aborted).toBe(false);
      release.resolve();
      expect((await pending).json).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [], _meta: SERVER_INFO_META } });
    });
  });

  describe("the server closing", () => {
    it("server.close() with a request in flight: its handler aborts (Connection closed) and the client gets 503", async () => {
      const started = deferred<AbortSignal>();
      const s = await serve(face, {
        handlers: {
          "tools/call": async (p, ctx) => {
            if (p.name === "t") {
              started.resolve(ctx.signal);
              await abortOf(ctx.signal);
            }
            return { resultType: "complete", content: [] };
          },
        },
      });
      closers.push(() => s.close());
      const pending = call(s.url, 3, "tools/call", { name: "t", arguments: {} });
      const signal = await started.promise;
      await s.server.close();
      expect(await abortOf(signal)).toBe("Connection closed");
      const answer = await pending;
      expect(answer.status).toBe(503);
      expect(answer.json).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "the server closed the connection before answering" } });
      // The server still serves new requests.
      expect((await call(s.url, 4, "tools/call", { name: "other", arguments: {} })).status).toBe(200);
    });

    it("server.close() while a response streams: the stream ends without a response", async () => {
      const t = await streamingServer(face);
      const response = await fetch(t.url, { method: "POST", headers: headersFor("tools/call", SLOW), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: SLOW }) });
      const ctx = await t.started.promise;
      await t.server.close();
      expect(await abortOf(ctx.signal)).toBe("Connection closed");
      expect(await response.text()).toBe(firstFrame);
      expect(t.events).toEqual([]);
    });
  });

  describe("the server's own outgoing work over a connection", () => {
    it("a request a handler sends on an HTTP connection is refused: the revision has no server-to-client requests (MRTR)", async () => {
      const refused = deferred<unknown>();
      const s: Served = await serve(face, {
        handlers: {
          "tools/call": async (_p, ctx) => {
            const untyped = ctx as unknown as { request(method: string, params: object): Promise<unknown> };
            refused.resolve(await untyped.request("roots/list", {}).catch((e: unknown) => e));
            return { resultType: "complete", content: [] };
          },
        },
      });
      closers.push(() => s.close());
      const answer = await call(s.url, 1, "tools/call", { name: "t", arguments: {} });
      expect(answer.status).toBe(200);
      expect(((await refused.promise) as Error).message).toBe(
        "roots/list: Streamable HTTP carries no server-to-client requests in this revision (ask with an InputRequiredResult)",
      );
    });
  });
});
