/**
 * Backpressure on the SSE response streams of createHttpHandler (issue 28, defect 1): a client
 * that stops reading makes sends wait (so the subscription hub's queue grows, and it coalesces or
 * overflows as configured), and a writer that does not wait ends its stream as an overflow once
 * `maxStreamBufferBytes` wait unread. Over a real node:http server on loopback with a client that
 * pauses the response, on both faces (the native face measures the ServerResponse's unread bytes;
 * the web face its Response body's queue, which the bridge reads only as the socket takes it); and
 * over the web face called in process with a Response body nobody reads, which only that face has.
 * Memory is asserted as a bound on heap growth, never a time.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { answer, describeFaces, headersFor, listen, META, type Face } from "./support.js";
import { TOOLS_AND_RESOURCES } from "../../features/subscriptions/support.js";
import { MiB, retained as memory } from "../../../helpers/retained.js";

const TOOLS_CHANGED = "notifications/tools/list_changed";
const UPDATED = "notifications/resources/updated";
const PUBLISHES = 200_000;

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Lets I/O and timers run (a publisher that yields, as an application does between changes). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** True when `promise` settles within `rounds` turns of the event loop (I/O included). */
async function settlesWithin(promise: Promise<unknown>, rounds: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  for (let i = 0; i < rounds && !settled; i++) await turn();
  return settled;
}

function listenBody(id: number, notifications: object): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: META, notifications } });
}

function callBody(id: number, name: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: { ...META, progressToken: "p" }, name, arguments: {} } });
}

/**
 * POSTs `body` through node:http and pauses the response as soon as its first bytes arrive (the
 * acknowledgment or first progress): from then on the client reads nothing.
 */
function pausedPost(url: string, method: string, body: string, name?: string): Promise<{ response: IncomingMessage; first: string; destroy(): void }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: headersFor(method, name === undefined ? undefined : { name }) },
      (response) => {
        response.once("data", (chunk: Buffer) => {
          response.pause();
          resolve({ response, first: chunk.toString("utf8"), destroy: () => request.destroy() });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A request to the web handler as a fetch runtime hands it over (loopback Host). */
function webRequest(method: string, body: string, name?: string, signal?: AbortSignal): Request {
  return new Request("http://127.0.0.1/mcp", { method: "POST", headers: headersFor(method, name === undefined ? undefined : { name }), body, ...(signal === undefined ? {} : { signal }) });
}

/** A server with a hub; every stream end is recorded. */
function hubServer(options: NonNullable<ConstructorParameters<typeof R.Subscriptions>[0]> = {}): { server: R.McpServer; hub: R.Subscriptions; ends: R.SubscriptionEndEvent[] } {
  const ends: R.SubscriptionEndEvent[] = [];
  const hub = new R.Subscriptions({ ...options, onEnd: (event) => ends.push(event) });
  const server = new R.McpServer({ logger: null, handlers: TOOLS_AND_RESOURCES, subscriptions: hub });
  return { server, hub, ends };
}

/** `handler` on `face` on a loopback server closed after the test; its /mcp URL. */
async function served(face: Face, handler: R.HttpHandler): Promise<string> {
  const listening = await listen(face, handler);
  closers.push(() => listening.close());
  return listening.url;
}

describeFaces("SSE streams whose client stops reading, over node:http", (face) => {
  describe("a subscriptions/listen stream", () => {
    it("200,000 publishes grow the heap by a few MiB at most, and the hub holds them coalesced", async () => {
      const { server, hub, ends } = hubServer();
      const url = await served(face, R.createHttpHandler(server, { keepAliveMs: 0 }));
      const client = await pausedPost(url, "subscriptions/listen", listenBody(1, { toolsListChanged: true }));
      closers.push(client.destroy);
      expect(client.first).toContain("notifications/subscriptions/acknowledged");
      // Warm up (the socket buffers fill; the stream's own queue reaches its mark), then measure.
      for (let i = 0; i < 20_000; i++) {
        hub.publish(TOOLS_CHANGED);
        await turn();
      }
      const before = memory();
      let queuedAtMost = 0;
      for (let i = 0; i < PUBLISHES; i++) {
        hub.publish(TOOLS_CHANGED);
        if (i % 64 === 0) queuedAtMost = Math.max(queuedAtMost, hub.queued);
        await turn();
      }
      const grown = memory() - before;
      expect(grown).toBeLessThan(4 * MiB);
      // The hub saw its stream's send wait: the notifications coalesced into one waiting entry.
      expect(hub.queued).toBe(1);
      expect(queuedAtMost).toBe(1);
      expect(hub.size).toBe(1);
      expect(ends).toEqual([]);
    });

    it("per-resource updates that cannot coalesce end the stream as overflow at maxPending", async () => {
      const { server, hub, ends } = hubServer({ maxPending: 16, matchesUri: (subscribed, updated) => updated.startsWith(subscribed) });
      const url = await served(face, R.createHttpHandler(server, { keepAliveMs: 0 }));
      const client = await pausedPost(url, "subscriptions/listen", listenBody(1, { resourceSubscriptions: ["file:///"] }));
      closers.push(client.destroy);
      let delivered = 0;
      for (let i = 0; i < PUBLISHES && ends.length === 0; i++) {
        delivered += hub.publish(UPDATED, { uri: `file:///${i}` });
        await turn();
      }
      expect(ends).toEqual([{ subscriptionId: 1, cause: "overflow", reason: "subscriptions/listen ended: more than 16 notifications waiting for this stream" }]);
      expect(hub.size).toBe(0);
      expect(hub.queued).toBe(0);
      // What went out before is what the socket buffers and the stream's mark hold: far from all.
      expect(delivered).toBeLessThan(PUBLISHES);
      // Reading again, the client gets what waited, then the server's cancel of the stream
      // (Subscriptions, Cancellation), and the response ends.
      const chunks: Buffer[] = [];
      client.response.on("data", (chunk: Buffer) => chunks.push(chunk));
      const ended = new Promise<void>((resolve) => client.response.once("end", () => resolve()));
      client.response.resume();
      await ended;
      const events = Buffer.concat(chunks).toString("utf8").split("\n\n").filter((e) => e.startsWith("data: "));
      expect(JSON.parse(events.at(-1)!.slice("data: ".length))).toEqual({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 1, reason: "subscriptions/listen ended: more than 16 notifications waiting for this stream" },
      });
    });
  });

  describe("a tools/call response stream", () => {
    it("a handler that awaits its progress notifications waits for the reader (bounded, not 200,000 sent)", async () => {
      let sent = 0;
      let aborted: unknown;
      const waiting = deferred<void>();
      const server = new R.McpServer({
        logger: null,
        handlers: {
          ...TOOLS_AND_RESOURCES,
          "tools/call": async (_params, ctx) => {
            ctx.signal.addEventListener("abort", () => (aborted = ctx.signal.reason), { once: true });
            for (let i = 0; i < PUBLISHES && !ctx.signal.aborted; i++) {
              const progress = ctx.sendProgress(i, PUBLISHES);
              sent++;
              // Stuck behind the reader: the test looks at how far it got.
              if (!(await settlesWithin(progress, 50))) {
                waiting.resolve();
                await progress;
              }
            }
            return { resultType: "complete", content: [] };
          },
        },
      });
      const url = await served(face, R.createHttpHandler(server, { keepAliveMs: 0 }));
      const client = await pausedPost(url, "tools/call", callBody(1, "spin"), "spin");
      expect(client.first).toContain("notifications/progress");
      await waiting.promise;
      // The socket buffers and the stream's 64 KiB mark hold some thousands of ~110-byte events at most.
      expect(sent).toBeLessThan(60_000);
      expect(aborted).toBeUndefined();
      client.destroy();
    });

    it("a handler that does not wait: the overflow ends the request (onCancellation hears why) and drops the connection", async () => {
      const events: R.CancellationEvent[] = [];
      const signalled = deferred<unknown>();
      const server = new R.McpServer({
        logger: null,
        onCancellation: (event) => events.push(event),
        handlers: {
          ...TOOLS_AND_RESOURCES,
          "tools/call": async (_params, ctx) => {
            ctx.signal.addEventListener("abort", () => signalled.resolve(ctx.signal.reason), { once: true });
            for (let i = 0; i < PUBLISHES && !ctx.signal.aborted; i++) {
              void ctx.sendProgress(i, PUBLISHES);
              if (i % 256 === 0) await turn();
            }
            return { resultType: "complete", content: [] };
          },
        },
      });
      const errors: Error[] = [];
      const url = await served(face, R.createHttpHandler(server, { keepAliveMs: 0, maxStreamBufferBytes: 64 * 1024, onError: (e) => errors.push(e) }));
      const client = await pausedPost(url, "tools/call", callBody(1, "flood"), "flood");
      const reason = await signalled.promise;
      expect(String(reason)).toMatch(/^response stream overflow: the client left \d+ bytes unread \(maxStreamBufferBytes 65536\)$/);
      expect(events).toContainEqual({ type: "received", requestId: 1, method: "tools/call", reason });
      // Reading again, the client gets what the socket held and then a connection that was
      // dropped: the response never completes.
      client.response.on("error", () => undefined);
      const closed = new Promise<void>((resolve) => client.response.once("close", () => resolve()));
      client.response.resume();
      await closed;
      expect(client.response.complete).toBe(false);
      expect(errors).toEqual([]);
    });
  });
});

describe("the web face called in process: a Response body nobody reads (no socket between)", () => {
  it("a subscriptions/listen stream: the heap stays bounded and the hub coalesces", async () => {
    const { server, hub, ends } = hubServer();
    const handler = R.createHttpHandler(server, { keepAliveMs: 0 });
    const abort = new AbortController();
    const response = await answer("web", handler, webRequest("subscriptions/listen", listenBody(1, { toolsListChanged: true }), undefined, abort.signal));
    closers.push(() => abort.abort());
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    for (let i = 0; i < 2_000; i++) {
      hub.publish(TOOLS_CHANGED);
      await turn();
    }
    const before = memory();
    for (let i = 0; i < PUBLISHES; i++) {
      hub.publish(TOOLS_CHANGED);
      await turn();
    }
    const grown = memory() - before;
    expect(grown).toBeLessThan(4 * MiB);
    expect(hub.queued).toBe(1);
    expect(ends).toEqual([]);
    // Reading it now gets the waiting notifications, the acknowledgment first.
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain("notifications/subscriptions/acknowledged");
    await reader.cancel();
    expect(ends.map((e) => e.cause)).toEqual(["cancelled"]);
  });

  it("a tools/call handler that does not wait ends its stream as an overflow, reported to onCancellation with why; the reader learns the stream failed", async () => {
    const events: R.CancellationEvent[] = [];
    const signalled = deferred<unknown>();
    let sent = 0;
    const server = new R.McpServer({
      logger: null,
      onCancellation: (event) => events.push(event),
      handlers: {
        ...TOOLS_AND_RESOURCES,
        "tools/call": async (_params, ctx) => {
          ctx.signal.addEventListener("abort", () => signalled.resolve(ctx.signal.reason), { once: true });
          for (let i = 0; i < PUBLISHES && !ctx.signal.aborted; i++) {
            void ctx.sendProgress(i, PUBLISHES);
            sent++;
            if (i % 256 === 0) await turn();
          }
          return { resultType: "complete", content: [] };
        },
      },
    });
    const handler = R.createHttpHandler(server, { keepAliveMs: 0, maxStreamBufferBytes: 64 * 1024 });
    const before = memory();
    const response = await answer("web", handler, webRequest("tools/call", callBody(1, "flood"), "flood"));
    const reason = await signalled.promise;
    expect(String(reason)).toMatch(/^response stream overflow: the client left \d+ bytes unread \(maxStreamBufferBytes 65536\)$/);
    expect(events).toContainEqual({ type: "received", requestId: 1, method: "tools/call", reason });
    expect(sent).toBeLessThan(PUBLISHES);
    expect(memory() - before).toBeLessThan(16 * MiB);
    // What waited is dropped: the reader learns the stream failed.
    await expect(response.body!.getReader().read()).rejects.toThrow("response stream overflow");
  });

  it("keep-alive comments are not queued behind unread data: 40 intervals later only the acknowledgment waits", async () => {
    const { server, hub } = hubServer();
    // The smallest interval accepted (keepAliveMs is an integer ≥ 1000): the stream's interval
    // timer is faked, so 40 intervals pass at once (nothing else of the test is on a timer).
    const keepAliveMs = 1000;
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    closers.push(() => void vi.useRealTimers());
    const abort = new AbortController();
    closers.push(() => abort.abort());
    const response = await answer("web", R.createHttpHandler(server, { keepAliveMs }), webRequest("subscriptions/listen", listenBody(1, { toolsListChanged: true }), undefined, abort.signal));
    for (let i = 0; i < 40; i++) {
      vi.advanceTimersByTime(keepAliveMs);
      await turn();
    }
    expect(hub.size).toBe(1);
    // Read what waits, and stop at the first read that has to wait for more.
    const reader = response.body!.getReader();
    const chunks: string[] = [];
    for (;;) {
      const chunk = await Promise.race([reader.read(), turn().then(() => null)]);
      if (chunk === null || chunk.done) break;
      chunks.push(new TextDecoder().decode(chunk.value));
    }
    expect(chunks[0]).toContain("notifications/subscriptions/acknowledged");
    // At most one comment: one written in the moment between reading the ack and the next read.
    expect(chunks.filter((c) => c === ":\n\n").length).toBeLessThanOrEqual(1);
  });
});

describe("maxStreamBufferBytes", () => {
  it("is validated when the handler is made: a whole number ≥ 1024, else a RangeError naming it", () => {
    const server = new R.McpServer({ logger: null });
    for (const bad of [Number.NaN, -1, 0, 1023, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => R.createHttpHandler(server, { maxStreamBufferBytes: bad }), String(bad)).toThrow(RangeError);
      expect(() => R.createHttpHandler(server, { maxStreamBufferBytes: bad }), String(bad)).toThrow(/maxStreamBufferBytes/);
    }
    expect(() => R.createHttpHandler(server, { maxStreamBufferBytes: 1024 })).not.toThrow();
  });
});
