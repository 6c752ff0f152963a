/**
 * Issue 44, item 5: a real load balancer in front. Debian's nginx, run with the project's own
 * config (examples/deploy/nginx.conf: no buffering for SSE, long read timeouts, keep-alive
 * upstreams, proxy_next_upstream for what may be sent again), round-robins over three
 * everything-server instances (child processes) on one redis-server. Under load (2026-07-28
 * calls, 2025-11-25 sessions with their GET streams, tasks, listen streams), every instance is
 * restarted in turn: SIGTERM (a graceful drain: examples/everything-server.ts, shutdown), its
 * exit, a new process on the same port.
 *
 * The client does what the spec lets it: a 503 with Retry-After (a draining instance refused the
 * request unserved) is sent again after that delay (counted as a retry); a stream that ends is
 * opened again (a GET stream with Last-Event-ID, from the shared event store; a listen stream as
 * a new listen). Anything else is a failure. Asserted: no failure; no task lost (each one started
 * ends completed or, when cancelled, cancelled); every cancel honoured; every GET stream that
 * ended was resumed through the event store; every instance exited 0 after its drain.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EverythingInstance } from "../../helpers/everything-instance.js";
import { startNginx, type Nginx } from "../../helpers/nginx.js";
import { freePort, startRedisServer, type RedisServer } from "../../helpers/redis-server.js";
import { sseEvents } from "../../helpers/sse-events.js";
import { modernHeaders, modernMeta } from "../redis/support.js";

const DRAIN_MS = 5_000;
const SESSION_VERSION = "2025-11-25";
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the load did and saw. */
const figures = {
  requests: 0,
  retries: 0,
  failures: [] as string[],
  calls: 0,
  sessions: 0,
  sessionCalls: 0,
  tasks: { started: 0, completed: 0, cancelled: 0 },
  cancels: { sent: 0, honoured: 0 },
  get: { opened: 0, ended: 0, hinted: 0, resumed: 0 },
  listen: { opened: 0, ended: 0, hinted: 0 },
};
let ids = 0;
let stopping = false;
/** Ends the streams (GET, listen) when the load stops; the task workers poll their last tasks on. */
const streams = new AbortController();

/**
 * A request through the balancer: a 503 with Retry-After (refused unserved by a draining
 * instance) is sent again after that delay; any other answer is returned.
 */
async function send(url: string, init: () => RequestInit, what: string): Promise<Response | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    figures.requests++;
    let response: Response;
    try {
      response = await fetch(url, init());
    } catch (error) {
      if (stopping) return undefined;
      figures.failures.push(`${what}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? "")}`);
      return undefined;
    }
    const retryAfter = response.headers.get("retry-after");
    if (response.status !== 503 || retryAfter === null) return response;
    await response.body?.cancel();
    figures.retries++;
    await sleep(Number(retryAfter) * 1000);
  }
  figures.failures.push(`${what}: still 503 after 20 attempts`);
  return undefined;
}

/** The JSON-RPC response of an answer (JSON, or the response event of an SSE body). */
async function responseOf(response: Response): Promise<Record<string, unknown> | undefined> {
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    for await (const event of sseEvents(response.body!)) {
      if (event.data === "") continue;
      const message = JSON.parse(event.data) as Record<string, unknown>;
      if ("id" in message && ("result" in message || "error" in message)) return message;
    }
    return undefined;
  }
  const text = await response.text();
  return text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

/** A 2026-07-28 request through the balancer; its result, or undefined (a failure recorded). */
async function modern(origin: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const id = ++ids;
  const init = (): RequestInit => ({ method: "POST", headers: modernHeaders(method, params), body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: modernMeta() } }) });
  const response = await send(`${origin}/mcp`, init, `${method} ${JSON.stringify(params)}`);
  if (response === undefined) return undefined;
  const message = await responseOf(response).catch(() => undefined);
  if (response.status !== 200 || message === undefined || "error" in message) {
    if (!stopping) figures.failures.push(`${method}: ${response.status} ${JSON.stringify(message)}`);
    return undefined;
  }
  return message["result"] as Record<string, unknown>;
}

const sessionHeaders = (sessionId: string | undefined): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId, "mcp-protocol-version": SESSION_VERSION }),
});

/** A 2025-11-25 message in a session through the balancer: the response (undefined: a failure, recorded), or the status of a notification. */
async function inSession(origin: string, sessionId: string | undefined, message: Record<string, unknown>): Promise<{ response: Response; message: Record<string, unknown> | undefined } | undefined> {
  const response = await send(`${origin}/mcp`, () => ({ method: "POST", headers: sessionHeaders(sessionId), body: JSON.stringify({ jsonrpc: "2.0", ...message }) }), `${String(message["method"])} in ${sessionId}`);
  if (response === undefined) return undefined;
  if (!("id" in message)) {
    await response.body?.cancel();
    if (response.status !== 202 && !stopping) figures.failures.push(`${String(message["method"])} in ${sessionId}: ${response.status}`);
    return response.status === 202 ? { response, message: undefined } : undefined;
  }
  const answer = await responseOf(response).catch(() => undefined);
  if (response.status !== 200 || answer === undefined || "error" in answer) {
    if (!stopping) figures.failures.push(`${String(message["method"])} in ${sessionId}: ${response.status} ${JSON.stringify(answer)}`);
    return undefined;
  }
  return { response, message: answer };
}

/** 2026-07-28 calls, one after another. */
async function callWorker(origin: string): Promise<void> {
  while (!stopping) {
    const result = await modern(origin, "tools/call", { name: "greet", arguments: { name: "nginx" } });
    if (result !== undefined) {
      figures.calls++;
      if (JSON.stringify(result["content"]) !== JSON.stringify([{ type: "text", text: "Hello, nginx!" }])) figures.failures.push(`greet: ${JSON.stringify(result)}`);
    }
  }
}

/** A task (slow_compute, 0.3 s of work) polled to its end; every third one cancelled first (the cancel must stick). */
async function taskWorker(origin: string, worker: number): Promise<void> {
  for (let n = 0; !stopping; n++) {
    const cancel = n % 3 === worker % 3;
    const handle = await modern(origin, "tools/call", { name: "slow_compute", arguments: { seconds: cancel ? 20 : 0.3, label: `t${worker}.${n}` } });
    if (handle === undefined) continue;
    if (handle["resultType"] !== "task") {
      figures.failures.push(`slow_compute: not a task ${JSON.stringify(handle)}`);
      continue;
    }
    figures.tasks.started++;
    const taskId = handle["taskId"] as string;
    if (cancel) {
      figures.cancels.sent++;
      await modern(origin, "tasks/cancel", { taskId });
    }
    for (const deadline = Date.now() + 30_000; ; ) {
      // Polled to its end even once the load stops: a task started is never left unread.
      if (Date.now() > deadline) {
        figures.failures.push(`task ${taskId} (cancel ${cancel}) still working after 30 s`);
        break;
      }
      const got = await modern(origin, "tasks/get", { taskId });
      const status = got?.["status"];
      if (got === undefined) {
        figures.failures.push(`task ${taskId} lost`);
        break;
      }
      if (status === "working") {
        await sleep(100);
        continue;
      }
      if (cancel && status === "cancelled") (figures.tasks.cancelled++, figures.cancels.honoured++);
      else if (!cancel && status === "completed") figures.tasks.completed++;
      else figures.failures.push(`task ${taskId} (cancel ${cancel}) ended ${String(status)}: ${JSON.stringify(got)}`);
      break;
    }
  }
}

/** The session's GET stream, kept open: when it ends, opened again with Last-Event-ID, from the shared event store. */
async function getStream(origin: string, sessionId: string): Promise<void> {
  let lastEventId: string | undefined;
  while (!stopping) {
    const headers: Record<string, string> = { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": SESSION_VERSION };
    if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
    const response = await send(`${origin}/mcp`, () => ({ method: "GET", headers, signal: streams.signal }), `GET ${sessionId}${lastEventId === undefined ? "" : ` from ${lastEventId}`}`);
    if (response === undefined) return;
    if (response.status !== 200 || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      if (!stopping) figures.failures.push(`GET ${sessionId} (Last-Event-ID ${String(lastEventId)}): ${response.status} ${await response.text()}`);
      return;
    }
    if (lastEventId === undefined) figures.get.opened++;
    else figures.get.resumed++;
    let hinted = false;
    for await (const event of sseEvents(response.body!)) {
      if (event.id !== undefined) lastEventId = event.id;
      hinted = event.retry !== undefined && event.id === undefined && event.data === "";
    }
    if (stopping) return;
    figures.get.ended++;
    if (hinted) figures.get.hinted++;
    if (lastEventId === undefined) {
      figures.failures.push(`GET ${sessionId}: ended before any event id (no resumption possible)`);
      return;
    }
  }
}

/** A 2025-11-25 session: initialize, its GET stream, then calls in it one after another. */
async function sessionWorker(origin: string, worker: number): Promise<{ readonly done: Promise<void> }> {
  const init = await inSession(origin, undefined, { id: ++ids, method: "initialize", params: { protocolVersion: SESSION_VERSION, capabilities: {}, clientInfo: { name: `nginx-${worker}`, version: "1" } } });
  const sessionId = init?.response.headers.get("mcp-session-id");
  if (init === undefined || sessionId === null || sessionId === undefined) throw new Error(`initialize failed: ${figures.failures.join("\n")}`);
  figures.sessions++;
  await inSession(origin, sessionId, { method: "notifications/initialized" });
  const get = getStream(origin, sessionId);
  const calls = (async () => {
    while (!stopping) {
      const answered = await inSession(origin, sessionId, { id: ++ids, method: "tools/call", params: { name: "test_simple_text", arguments: {} } });
      if (answered !== undefined) figures.sessionCalls++;
    }
  })();
  return { done: Promise.all([get, calls]).then(() => undefined) };
}

/** A listen stream kept open: when it ends (a drain ends it with a retry hint), a new listen. */
async function listenWorker(origin: string, worker: number): Promise<void> {
  const params = { notifications: { toolsListChanged: true } };
  for (let n = 0; !stopping; n++) {
    const id = `listen-${worker}-${n}`;
    const init = (): RequestInit => ({ method: "POST", signal: streams.signal, headers: modernHeaders("subscriptions/listen", params), body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { ...params, _meta: modernMeta() } }) });
    const response = await send(`${origin}/mcp`, init, `listen ${id}`);
    if (response === undefined) return;
    if (response.status !== 200 || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      if (!stopping) figures.failures.push(`listen ${id}: ${response.status} ${await response.text()}`);
      return;
    }
    figures.listen.opened++;
    let acknowledged = false;
    let hinted = false;
    for await (const event of sseEvents(response.body!)) {
      if (event.data.includes("notifications/subscriptions/acknowledged")) acknowledged = true;
      hinted = event.retry !== undefined && event.data === "";
    }
    if (stopping) return;
    figures.listen.ended++;
    if (hinted) figures.listen.hinted++;
    if (!acknowledged) figures.failures.push(`listen ${id}: ended before its acknowledgment`);
  }
}

let redis: RedisServer;
let instances: EverythingInstance[];
let nginx: Nginx;

beforeAll(async () => {
  redis = await startRedisServer();
  const flags = ["--drain-ms", String(DRAIN_MS), "--redis", redis.url, "--state-key", randomBytes(32).toString("hex")];
  const ports = [await freePort(), await freePort(), await freePort()];
  instances = ports.map((port) => new EverythingInstance(port, flags));
  await Promise.all(instances.map((instance) => instance.start()));
  nginx = await startNginx(ports.map((port) => `127.0.0.1:${port}`));
}, 60_000);

afterAll(async () => {
  stopping = true;
  streams.abort();
  await nginx?.stop();
  await Promise.all((instances ?? []).map((instance) => instance.terminate()));
  await redis?.stop();
});

describe("nginx round-robin over three everything-server instances on one redis-server", () => {
  it("restarts every instance in turn under load: no failed request, no task lost, every cancel honoured, every GET stream resumed", async () => {
    const origin = nginx.origin;
    const sessions = await Promise.all([0, 1, 2].map((worker) => sessionWorker(origin, worker)));
    const load = [
      ...sessions.map((session) => session.done),
      callWorker(origin),
      callWorker(origin),
      taskWorker(origin, 0),
      taskWorker(origin, 1),
      listenWorker(origin, 0),
      listenWorker(origin, 1),
    ];
    const progress = process.env["NGINX_TEST_DEBUG"] === undefined ? undefined : setInterval(() => console.error(new Date().toISOString(), JSON.stringify(figures), instances.map((i) => i.exits)), 2000);
    await sleep(1_000);
    for (const instance of instances) {
      await instance.restart();
      // nginx skips an instance that failed for fail_timeout (1 s): let it come back before the next one goes.
      await sleep(1_500);
    }
    stopping = true;
    streams.abort();
    // The task workers poll their last tasks to the end.
    await Promise.all(load);
    clearInterval(progress);
    if (progress !== undefined) for (const instance of instances) console.error(instance.port, instance.lines.join("\n"));
    const summary =
      `rolling restart behind nginx (3 instances, each SIGTERM → drain → restart): requests ${figures.requests}, failures ${figures.failures.length}, retries ${figures.retries}; ` +
      `2026 calls ${figures.calls}; 2025 sessions ${figures.sessions} (calls ${figures.sessionCalls}); ` +
      `tasks started ${figures.tasks.started}, completed ${figures.tasks.completed}, cancelled ${figures.tasks.cancelled}, lost ${figures.tasks.started - figures.tasks.completed - figures.tasks.cancelled}; ` +
      `cancels sent ${figures.cancels.sent}, honoured ${figures.cancels.honoured}; ` +
      `GET streams opened ${figures.get.opened}, ended ${figures.get.ended} (retry hint ${figures.get.hinted}), resumed with Last-Event-ID ${figures.get.resumed}; ` +
      `listen streams opened ${figures.listen.opened}, ended ${figures.listen.ended} (retry hint ${figures.listen.hinted})`;
    console.log(summary);

    expect(figures.failures, `${figures.failures.slice(0, 10).join("\n")}\n${nginx.errorLog().slice(-3000)}`).toEqual([]);
    expect(instances.map((instance) => instance.exits)).toEqual([[0], [0], [0]]);
    expect(figures.tasks.started).toBeGreaterThan(0);
    expect(figures.tasks.completed + figures.tasks.cancelled).toBe(figures.tasks.started);
    expect(figures.cancels.sent).toBeGreaterThan(0);
    expect(figures.cancels.honoured).toBe(figures.cancels.sent);
    // Every instance held some GET streams at its restart: each of the three ended at least once and was resumed each time.
    expect(figures.get.opened).toBe(3);
    expect(figures.get.ended).toBeGreaterThanOrEqual(3);
    expect(figures.get.resumed).toBe(figures.get.ended);
    expect(figures.get.hinted).toBe(figures.get.ended);
    expect(figures.listen.ended).toBeGreaterThanOrEqual(1);
    expect(figures.listen.hinted).toBe(figures.listen.ended);
    expect(figures.retries).toBeGreaterThanOrEqual(0);
  }, 90_000);
});
