/**
 * Listen streams per principal (issue 28, item 5: one client held every listen slot): over a real
 * node:http server on loopback with `authenticate`, on both faces of createHttpHandler (native
 * node:http and web-standard, test/helpers/faces.ts), principal A opening streams until refused
 * stops at its own quota (maxStreamsPerPrincipal, default 64) with an error naming it, while
 * principal B still opens streams; the global maxStreams still holds; a stream that ends gives
 * its slot back to its owner. Without `authenticate` the quota is the connection's (issue 41,
 * finding 6: one anonymous client used to lock every other one out with 64 listen streams).
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { waitFor } from "../../../helpers/async.js";
import { describeFaces, headersFor, META, pipelined, serve, type Served } from "../../http/stateless/support.js";

const LISTEN = { notifications: { toolsListChanged: true } };

const bearer: R.Authenticate = (request) => {
  const token = /^Bearer (\w+)-token$/.exec(request.headers.get("authorization") ?? "");
  return token === null ? new Response(null, { status: 401 }) : { id: token[1]! };
};

/** A server offering tools (so toolsListChanged is honoured) with this hub. */
function withHub(hub: R.Subscriptions): R.McpServerOptions {
  return {
    subscriptions: hub,
    handlers: { "tools/list": () => ({ resultType: "complete", cacheScope: "public", ttlMs: 0, tools: [] }) },
  };
}

interface Opened {
  /** The first message of the answer: the acknowledgment of an open stream, or the error response. */
  readonly first: { method?: string; error?: { code: number; message: string } };
  /** Ends the stream (the client's cancel over HTTP). */
  close(): Promise<void>;
}

/** POSTs a listen as `who` and reads its first SSE event (or its JSON answer); the stream stays open. */
async function listen(url: string, id: number, who: string): Promise<Opened> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headersFor("subscriptions/listen"), authorization: `Bearer ${who}-token` },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { ...LISTEN, _meta: META } }),
    signal: controller.signal,
  });
  if (response.headers.get("content-type") !== "text/event-stream") {
    return { first: (await response.json()) as Opened["first"], close: async () => undefined };
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!/^data: .*\n\n/m.test(text)) {
    const next = await reader.read();
    if (next.done === true) break;
    text += decoder.decode(next.value, { stream: true });
  }
  const data = /^data: (.*)$/m.exec(text);
  return {
    first: JSON.parse(data![1]!) as Opened["first"],
    close: async () => {
      await reader.cancel().catch(() => undefined);
      controller.abort();
    },
  };
}

const ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
const quotaError = (n: number) => ({ code: -32603, message: `Too many open subscriptions of this principal (at most ${n}: maxStreamsPerPrincipal)` });

let served: Served | undefined;
const open: Opened[] = [];
afterEach(async () => {
  for (const stream of open.splice(0)) await stream.close();
  await served?.close();
  served = undefined;
});

/** Opens listens as `who` until one is refused (at most `bound` tries); returns how many opened and the refusal. */
async function fill(url: string, who: string, firstId: number, bound: number): Promise<{ opened: number; refusal: Opened["first"] | undefined }> {
  for (let i = 0; i < bound; i++) {
    const stream = await listen(url, firstId + i, who);
    if (stream.first.method !== ACKNOWLEDGED) return { opened: i, refusal: stream.first };
    open.push(stream);
  }
  return { opened: bound, refusal: undefined };
}

describeFaces("listen streams per principal", (face) => {
  it("one principal opening listens until refused stops at its quota (default 64); another principal still opens its own", async () => {
    // The global bound is above the per-principal one, so only the quota can stop A first.
    const hub = new R.Subscriptions({ maxStreams: 100 });
    served = await serve(face, withHub(hub), { authenticate: bearer });
    const a = await fill(served.url, "alice", 1, 101);
    expect(a.opened).toBe(64);
    expect(a.refusal).toMatchObject({ error: quotaError(64) });
    const b = await listen(served.url, 1000, "bob");
    open.push(b);
    expect(b.first.method).toBe(ACKNOWLEDGED);
    expect(hub.size).toBe(65);
  });

  it("the global maxStreams still holds over every principal", async () => {
    const hub = new R.Subscriptions({ maxStreams: 3, maxStreamsPerPrincipal: 2 });
    served = await serve(face, withHub(hub), { authenticate: bearer });
    expect((await fill(served.url, "alice", 1, 3)).opened).toBe(2);
    const b = await fill(served.url, "bob", 10, 3);
    expect(b.opened).toBe(1);
    expect(b.refusal).toMatchObject({ error: { code: -32603, message: "Too many open subscriptions (at most 3)" } });
  });

  it("a stream that ends gives its slot back to its principal", async () => {
    const hub = new R.Subscriptions({ maxStreamsPerPrincipal: 2 });
    served = await serve(face, withHub(hub), { authenticate: bearer });
    expect((await fill(served.url, "alice", 1, 3)).opened).toBe(2);
    await open.shift()!.close();
    for (let i = 0; i < 100 && hub.size > 1; i++) await new Promise((r) => setTimeout(r, 5));
    expect(hub.size).toBe(1);
    const again = await listen(served.url, 20, "alice");
    open.push(again);
    expect(again.first.method).toBe(ACKNOWLEDGED);
    expect((await listen(served.url, 21, "alice")).first).toMatchObject({ error: quotaError(2) });
  });

  it("issue 41: without authenticate the quota is per connection: one anonymous client holding 64 listen streams on its connection does not lock another out", async () => {
    const hub = new R.Subscriptions({ maxStreams: 1000 });
    let received = 0;
    served = await serve(face, withHub(hub), {}, { wrap: (listener) => (request, response) => (received++, listener(request, response)) });
    // 65 listens on one connection (pipelined): 64 (the default maxStreamsPerPrincipal) open, the 65th is refused.
    const hog = pipelined(served.url, Array.from({ length: 65 }, (_, i) => ({ id: i + 1, method: "subscriptions/listen", params: LISTEN })));
    await waitFor("the hog's 64 streams", () => (received === 65 && hub.size === 64 && served!.server.inFlight.received === 64 ? true : undefined));
    // aa78207: one anonymous quota for everyone, so this listen was refused naming maxStreamsPerPrincipal.
    const other = await listen(served.url, 1000, "whoever");
    open.push(other);
    expect(other.first.method).toBe(ACKNOWLEDGED);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.size).toBe(65);
    hog.socket.destroy();
  });

  it("without authenticate the quota is per connection: maxStreamsPerPrincipal 2, a third listen on one connection is refused", async () => {
    const hub = new R.Subscriptions({ maxStreamsPerPrincipal: 2 });
    served = await serve(face, withHub(hub));
    const one = pipelined(served.url, [1, 2, 3].map((id) => ({ id, method: "subscriptions/listen", params: LISTEN })));
    await waitFor("two streams and the third answered", () => (hub.size === 2 && served!.server.inFlight.received === 2 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.size).toBe(2);
    // Connections of their own (fetch opens one per stream held open) each get their quota.
    const others = await fill(served.url, "whoever", 10, 3);
    expect(others.opened).toBe(3);
    one.socket.destroy();
  });
});
