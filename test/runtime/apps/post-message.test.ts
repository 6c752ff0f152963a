/**
 * The postMessage transport (templates/runtime/apps/post-message.ts) between two fake windows
 * (fake-windows.ts): messages pass both ways; another origin, or the peer's origin from another
 * window, is ignored; what the peer posts that is not one JSON-RPC message, or is too large, is
 * dropped and reported; what arrives before start() is held up to maxQueue; options are checked.
 */
import { describe, expect, it } from "vitest";
import { embedderOrigin, PostMessageTransport, type PostMessageProblem } from "../../../templates/runtime/apps/post-message.js";
import type { JsonRpcMessage } from "../../../templates/runtime/core/protocol.js";
import { FakeWindow, windows } from "./fake-windows.js";

const PING: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "ping" };

/** The App's transport (in `app`, talking to its parent `host`) and the Host's (talking to the iframe). */
function pair(extra: { app?: object; host?: object } = {}) {
  const w = windows();
  const appProblems: PostMessageProblem[] = [];
  const hostProblems: PostMessageProblem[] = [];
  const app = new PostMessageTransport({ target: w.host.as(w.app), peerOrigin: w.host.origin, listen: w.app, onReport: (p) => appProblems.push(p), ...extra.app });
  const host = new PostMessageTransport({ target: w.app.as(w.host), peerOrigin: w.app.origin, listen: w.host, onReport: (p) => hostProblems.push(p), ...extra.host });
  return { w, app, host, appProblems, hostProblems };
}

function received(transport: PostMessageTransport): JsonRpcMessage[] {
  const got: JsonRpcMessage[] = [];
  transport.onmessage = (message) => got.push(message);
  return got;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("PostMessageTransport", () => {
  it("carries messages both ways, posted to the peer's origin only", async () => {
    const { app, host, w } = pair();
    const atApp = received(app);
    const atHost = received(host);
    await app.start();
    await host.start();
    await app.send(PING);
    await host.send({ jsonrpc: "2.0", id: 1, result: {} });
    await tick();
    expect(atHost).toEqual([PING]);
    expect(atApp).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    expect(w.host.posted).toBe(1);
    expect(w.app.posted).toBe(1);
  });

  it("ignores another origin, and the peer's origin from another window, without reporting", async () => {
    const { app, w, appProblems } = pair();
    const atApp = received(app);
    await app.start();
    // A third origin posts into the app's window.
    w.app.dispatch(PING, w.other);
    // The host's origin, but not from the host window (another frame of the same origin).
    w.app.dispatch(PING, w.host, {});
    // The host window, but another origin claimed (a navigated parent).
    w.app.dispatch(PING, w.other, w.host.as(w.app));
    expect(atApp).toEqual([]);
    expect(app.ignored).toBe(3);
    expect(app.dropped).toBe(0);
    expect(appProblems).toEqual([]);
    w.app.dispatch(PING, w.host);
    expect(atApp).toEqual([PING]);
  });

  it.each<[string, unknown]>([
    ["a string", JSON.stringify(PING)],
    ["an array (a batch)", [PING]],
    ["null", null],
    ["jsonrpc 1.0", { jsonrpc: "1.0", id: 1, method: "ping" }],
    ["a numeric method", { jsonrpc: "2.0", id: 1, method: 7 }],
    ["an object id", { jsonrpc: "2.0", id: {}, method: "ping" }],
    ["array params", { jsonrpc: "2.0", id: 1, method: "ping", params: [] }],
    ["a response with result and error", { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } }],
    ["a response without an id", { jsonrpc: "2.0", result: {} }],
    ["an error without a code", { jsonrpc: "2.0", id: 1, error: { message: "x" } }],
    ["a cycle", (() => { const o: Record<string, unknown> = { jsonrpc: "2.0", method: "x" }; o["self"] = o; return o; })()],
  ])("drops and reports %s from the peer", async (_name, data) => {
    const { app, w, appProblems } = pair();
    const atApp = received(app);
    await app.start();
    w.app.dispatch(data, w.host);
    expect(atApp).toEqual([]);
    expect(app.dropped).toBe(1);
    expect(appProblems).toEqual([expect.objectContaining({ kind: "malformed", origin: w.host.origin })]);
  });

  it("reports to onerror (the endpoint's onError) when no onReport is given", async () => {
    const w = windows();
    const app = new PostMessageTransport({ target: w.host.as(w.app), peerOrigin: w.host.origin, listen: w.app });
    const errors: Error[] = [];
    app.onerror = (error) => errors.push(error);
    await app.start();
    w.app.dispatch("nonsense", w.host);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining("postMessage malformed")]);
  });

  it("drops and reports a message over maxMessageBytes either way", async () => {
    const { app, host, w, hostProblems, appProblems } = pair({ app: { maxMessageBytes: 100 }, host: { maxMessageBytes: 100 } });
    const atHost = received(host);
    await app.start();
    await host.start();
    const big = { jsonrpc: "2.0" as const, method: "notifications/message", params: { data: "é".repeat(60) } };
    await expect(app.send(big)).rejects.toThrow(RangeError);
    expect(appProblems).toEqual([expect.objectContaining({ kind: "send-failed" })]);
    expect(w.host.posted).toBe(0);
    w.host.dispatch(big, w.app);
    expect(atHost).toEqual([]);
    expect(hostProblems).toEqual([expect.objectContaining({ kind: "oversize", detail: expect.stringContaining("over maxMessageBytes 100") })]);
  });

  it("holds what arrives before start(), at most maxQueue, and reports the rest", async () => {
    const { app, w, appProblems } = pair({ app: { maxQueue: 2 } });
    const atApp = received(app);
    for (const id of [1, 2, 3]) w.app.dispatch({ ...PING, id }, w.host);
    expect(atApp).toEqual([]);
    expect(appProblems).toEqual([expect.objectContaining({ kind: "queue-full" })]);
    await app.start();
    expect(atApp.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
  });

  it("stops listening on close(), and refuses to send after it", async () => {
    const { app, w } = pair();
    let closed = 0;
    app.onclose = () => closed++;
    const atApp = received(app);
    await app.start();
    expect(w.app.listeners).toBe(1);
    await app.close();
    await app.close();
    expect(closed).toBe(1);
    expect(w.app.listeners).toBe(0);
    w.app.dispatch(PING, w.host);
    expect(atApp).toEqual([]);
    await expect(app.send(PING)).rejects.toThrow("transport closed");
  });

  it('posts to "*" for an opaque ("null") peer origin, and still reads only "null" from the peer window', async () => {
    const w = windows();
    const sandboxed = new FakeWindow("null");
    const targets: string[] = [];
    const host = new PostMessageTransport({ target: { postMessage: (_m: unknown, targetOrigin: string) => void targets.push(targetOrigin) }, source: sandboxed.as(w.host), peerOrigin: "null", listen: w.host });
    const atHost = received(host);
    await host.start();
    await host.send(PING);
    expect(targets).toEqual(["*"]);
    w.host.dispatch(PING, w.app, sandboxed.as(w.host));
    expect(atHost).toEqual([]);
    w.host.dispatch(PING, sandboxed);
    expect(atHost).toEqual([PING]);
  });

  it("reports a postMessage that throws as send-failed, and rejects with its error", async () => {
    const w = windows();
    const problems: PostMessageProblem[] = [];
    const gone = new DOMException("the window is gone", "DataCloneError");
    const app = new PostMessageTransport({ target: { postMessage: () => { throw gone; } }, peerOrigin: w.host.origin, listen: w.app, onReport: (p) => problems.push(p) });
    await app.start();
    await expect(app.send(PING)).rejects.toBe(gone);
    expect(problems).toEqual([{ kind: "send-failed", origin: w.host.origin, detail: "the window is gone" }]);
  });

  it("refuses a listen without addEventListener (Node has no window)", () => {
    const w = windows();
    expect(() => new PostMessageTransport({ target: w.host.as(w.app), peerOrigin: w.host.origin })).toThrow(/pass `listen`/);
  });

  it.each<[string, object]>([
    ['peerOrigin "*"', { peerOrigin: "*" }],
    ["an empty peerOrigin", { peerOrigin: "" }],
    ["maxMessageBytes NaN", { maxMessageBytes: Number.NaN }],
    ["maxMessageBytes 63", { maxMessageBytes: 63 }],
    ["maxQueue 0", { maxQueue: 0 }],
    ["maxQueue 1.5", { maxQueue: 1.5 }],
  ])("refuses %s with a RangeError naming it", (_name, bad) => {
    const w: { app: FakeWindow; host: FakeWindow } = windows();
    const name = Object.keys(bad)[0]!;
    expect(() => new PostMessageTransport({ target: w.host.as(w.app), peerOrigin: w.host.origin, listen: w.app, ...bad })).toThrow(new RegExp(name));
    expect(w.app.listeners).toBe(0);
  });
});

describe("embedderOrigin", () => {
  it("takes location.ancestorOrigins[0], else the referrer's origin, else nothing", () => {
    expect(embedderOrigin({ location: { ancestorOrigins: ["https://host.test"] }, document: { referrer: "https://other.test/x" } })).toBe("https://host.test");
    expect(embedderOrigin({ location: { ancestorOrigins: [] }, document: { referrer: "https://host.test/page?q=1" } })).toBe("https://host.test");
    expect(embedderOrigin({ location: {}, document: { referrer: "" } })).toBeUndefined();
    expect(embedderOrigin({ document: { referrer: "about:srcdoc" } })).toBeUndefined();
    expect(embedderOrigin({ document: { referrer: "not a url" } })).toBeUndefined();
    expect(embedderOrigin(undefined)).toBeUndefined();
  });
});
