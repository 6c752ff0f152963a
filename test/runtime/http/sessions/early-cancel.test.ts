/**
 * Cancels that overtake their request in a 2025 session (issue 41, finding 4; core/early-cancels.ts,
 * sessions/session.ts). Each message of a session is its own POST, so a client's
 * notifications/cancelled may reach the server before the request it names. The session
 * remembers it (maxEarlyCancels, 64; earlyCancelWindowMs, 10 s) and the request that then arrives
 * is cancelled at once: its handler never runs, no response is sent, and its answer is an SSE
 * stream that ends empty, as for any cancel. On aa78207 the cancel was ignored as unknown and the
 * handler ran to its end: 98 of 2,491 aborted calls under load, 18 of 600 with our client.
 */
import { Agent, request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { aborted, deferred, messagesOf, notify, open, parseEvents, post, rpc, serve, sessionHeaders, waitFor, within, type Served } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A server whose tools/call waits for its cancel (or `release`); which handlers ran, and their signals. */
function hanging(release: Promise<void>) {
  const signals = new Map<unknown, AbortSignal>();
  const options: R.McpServerOptions = {
    handlers: {
      "tools/call": async (_params, ctx) => {
        signals.set(ctx.requestId, ctx.signal);
        await Promise.race([release, aborted(ctx.signal)]);
        return { content: [{ type: "text", text: ctx.signal.aborted ? "aborted" : "ran to its end" }] };
      },
    },
  };
  return { signals, options };
}

const CALL = { name: "hang", arguments: {} };

/** The JSON-RPC messages of a request's answer (JSON or SSE): none for a cancelled request. */
function messagesIn(answer: { headers: Headers; text: string; json: unknown }): unknown[] {
  if (answer.headers.get("content-type") === "text/event-stream") return messagesOf(parseEvents(answer.text));
  return answer.json === undefined ? [] : [answer.json];
}

/**
 * POSTs through node:http with a keep-alive pool: a fetch costs the client about three times the
 * CPU (docs/benchmarks.md), and 4,000 of them would make this file slow. Each POST of the pool may
 * go on any of its connections, so a cancel and its request travel apart, as they do from any client.
 */
function poster(url: string, sessionId: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  const send = (body: unknown) =>
    new Promise<{ status: number; headers: Headers; text: string; json: unknown }>((resolve, reject) => {
      const request = httpRequest({ agent, host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode!, headers: new Headers({ "content-type": String(response.headers["content-type"]) }), text, json });
        });
        response.on("error", reject);
      });
      request.on("error", reject);
      request.end(JSON.stringify(body));
    });
  return { send, close: () => agent.destroy() };
}

const random = (n: number): number => Math.floor(Math.random() * n);
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("a cancel that overtakes its request (2025 session)", () => {
  it("sent first (202), then the request: the handler never runs, no response, the answer is an SSE stream that ends empty", async () => {
    const release = deferred();
    const { signals, options } = hanging(release.promise);
    served = await serve("native", options);
    const { sessionId } = await open(served.url);
    expect((await notify(served.url, sessionId, "notifications/cancelled", { requestId: 5, reason: "changed my mind" })).status).toBe(202);
    const answer = await within("the request's answer", rpc(served.url, sessionId, 5, "tools/call", CALL));
    expect([answer.status, answer.headers.get("content-type"), messagesIn(answer)]).toEqual([200, "text/event-stream", []]);
    expect(signals.has(5)).toBe(false);
    expect(served.events).toEqual([
      { type: "ignored", cause: "unknown-request", requestId: 5, reason: "changed my mind", early: true },
      { type: "received", requestId: 5, method: "tools/call", reason: "changed my mind", early: true },
    ]);
    expect(served.server.inFlight.received).toBe(0);
    // The session goes on: the next request is served.
    release.resolve();
    expect((await rpc(served.url, sessionId, 6, "tools/call", CALL)).json).toMatchObject({ id: 6, result: { content: [{ text: "ran to its end" }] } });
  });

  it("2,000 randomly aborted calls, the cancel first, at the same time, or after: 0 lost (every handler that ran saw its signal abort), no response for any", async () => {
    const release = deferred();
    const { signals, options } = hanging(release.promise);
    served = await serve("native", options);
    const url = served.url;
    const { sessionId } = await open(url);
    const http = poster(url, sessionId);
    const answers: unknown[][] = [];
    const modes = { first: 0, together: 0, after: 0 };
    // Ids 1 to 2,000: initialize took 0, and an id is never used twice in a session (basic, Requests),
    // so a cancel naming 0 would be ignored as finished.
    let next = 1;
    const one = async (id: number): Promise<void> => {
      const cancel = (): Promise<unknown> => http.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "random abort" } });
      const mode = (["first", "together", "after"] as const)[random(3)]!;
      modes[mode]++;
      if (mode === "first") await cancel(); // deterministic: the cancel has been taken before the request leaves
      const request = http.send({ jsonrpc: "2.0", id, method: "tools/call", params: CALL });
      if (mode === "together") await cancel();
      if (mode === "after") await pause(random(3)).then(cancel);
      answers.push(messagesIn(await request));
    };
    // 32 at a time: under the session's 64 requests in flight, and under its 64 remembered cancels.
    const workers = Array.from({ length: 32 }, async () => {
      for (let id = next++; id <= 2000; id = next++) await one(id);
    });
    // A lost cancel leaves its handler waiting: its POST is never answered and its worker stalls.
    // Waited for until no answer came for 5 s, then counted.
    let finished = false;
    const stalled = (async () => {
      for (let seen = -1; !finished && answers.length !== seen; ) {
        seen = answers.length;
        await pause(5000);
      }
    })();
    await Promise.race([Promise.all(workers), stalled]);
    finished = true;
    const lost = [...signals.values()].filter((signal) => !signal.aborted).length;
    release.resolve();
    http.close();
    expect({ lost, answered: answers.length }).toEqual({ lost: 0, answered: 2000 });
    expect(answers.filter((messages) => messages.length > 0)).toEqual([]);
    expect(Math.min(modes.first, modes.together, modes.after)).toBeGreaterThan(500);
    // Every cancel that came first was remembered and then taken: as many early "received" as handlers that never ran.
    const early = served.events.filter((e) => e.type === "received" && e.early === true).length;
    expect(early).toBe(2000 - signals.size);
    expect(early).toBeGreaterThanOrEqual(modes.first);
    expect(served.server.inFlight.received).toBe(0);
  }, 90_000);

  it("300 calls of our session client, each aborted 0 to 2 ms after it starts: 0 lost on the server", async () => {
    const release = deferred();
    const { signals, options } = hanging(release.promise);
    served = await serve("native", options);
    const client = new R.McpClient({ logger: null, defaultTimeoutMs: 0 });
    await client.connect(R.createSessionHttpClientTransport({ url: served.url, listen: false }), { initialize: false });
    await client.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "early-cancel", version: "1" } });
    await client.notify("notifications/initialized");
    const outcomes: unknown[] = [];
    let next = 0;
    const workers = Array.from({ length: 16 }, async () => {
      for (let i = next++; i < 300; i = next++) {
        const controller = new AbortController();
        const call = client.callTool(CALL, { signal: controller.signal }).catch((error: unknown) => error);
        const ms = random(3);
        if (ms === 0) queueMicrotask(() => controller.abort("random abort"));
        else setTimeout(() => controller.abort("random abort"), ms);
        outcomes.push(await call);
      }
    });
    await within("every call to reject", Promise.all(workers), 30_000);
    expect(outcomes.filter((o) => !(o instanceof R.RequestCancelledError))).toEqual([]);
    // Generous: under a loaded machine the last cancels can queue for seconds; none may be lost.
    await waitFor("every handler that ran to see its cancel", () => (served!.server.inFlight.received === 0 ? true : undefined), 20_000, () => `${served!.server.inFlight.received} handlers still running`);
    expect([...signals.values()].filter((signal) => !signal.aborted)).toEqual([]);
    release.resolve();
    await client.close();
  }, 60_000);
});

describe("the bounds of the cancels a session remembers", () => {
  it("maxEarlyCancels (64): the 65th unknown id forgets the first; the first's request then runs, the last's is cancelled", async () => {
    const release = deferred();
    const { signals, options } = hanging(release.promise);
    served = await serve("native", options);
    const { sessionId } = await open(served.url);
    for (let id = 1; id <= 65; id++) expect((await notify(served.url, sessionId, "notifications/cancelled", { requestId: id })).status).toBe(202);
    const last = await rpc(served.url, sessionId, 65, "tools/call", CALL);
    expect(messagesIn(last)).toEqual([]);
    const first = rpc(served.url, sessionId, 1, "tools/call", CALL);
    await waitFor("the first id's handler runs", () => signals.get(1));
    release.resolve();
    expect(messagesIn(await first)).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ran to its end" }] } }]);
    expect([...signals.keys()]).toEqual([1]);
  });

  it("earlyCancelWindowMs: a cancel older than the window does not cancel a later request with its id; a younger one does", async () => {
    const release = deferred();
    const { signals, options } = hanging(release.promise);
    served = await serve("native", options, { earlyCancelWindowMs: 200 });
    const { sessionId } = await open(served.url);
    await notify(served.url, sessionId, "notifications/cancelled", { requestId: "old" });
    await pause(300);
    await notify(served.url, sessionId, "notifications/cancelled", { requestId: "young" });
    expect(messagesIn(await rpc(served.url, sessionId, "young", "tools/call", CALL))).toEqual([]);
    const old = rpc(served.url, sessionId, "old", "tools/call", CALL);
    await waitFor("the old id's handler runs", () => signals.get("old"));
    release.resolve();
    expect(messagesIn(await old)).toEqual([{ jsonrpc: "2.0", id: "old", result: { content: [{ type: "text", text: "ran to its end" }] } }]);
    expect(signals.get("old")!.aborted).toBe(false);
    expect(signals.has("young")).toBe(false);
  });

  it("options are checked by name when the handler is made", () => {
    const server = new R.McpServer({ logger: null });
    expect(() => R.createSessionHttpHandler(server, { maxEarlyCancels: 0 })).toThrow(/^maxEarlyCancels must be an integer from 1 to 100000/);
    expect(() => R.createSessionHttpHandler(server, { earlyCancelWindowMs: Number.NaN })).toThrow(/^earlyCancelWindowMs must be/);
  });

  it("stateless (sessions: false): nothing is remembered; a cancel reaches a request of its own POST only", async () => {
    const release = deferred();
    const { signals, options } = hanging(release.promise);
    served = await serve("native", options, { sessions: false });
    await post(served.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } }, sessionHeaders(undefined));
    const call = rpc(served.url, undefined, 3, "tools/call", CALL);
    await waitFor("the handler runs", () => signals.get(3));
    release.resolve();
    expect(messagesIn(await call)).toHaveLength(1);
    expect(served.events).toEqual([{ type: "ignored", cause: "unknown-request", requestId: 3, reason: undefined }]);
  });
});
