/**
 * Issue 44, item 3, at the wire: the everything server's SIGTERM is a graceful drain. Two
 * instances, A and B, on one redis-server, reached directly on loopback. While A drains: a
 * 2026-07-28 call in flight on it finishes; a new connection to it is refused (what lets a load
 * balancer send the request to another instance, whatever its method); its 2025 session's GET
 * stream ends with a `retry:` hint; a session request in flight on it (test_reconnection, whose
 * answer goes to the shared event store after its stream was closed) is finished. Then A exits 0,
 * and B continues the session from the Redis registry: new requests are served (no 404), the GET
 * stream resumes with Last-Event-ID, and the in-flight request's answer is replayed from Redis.
 */
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EverythingInstance } from "../helpers/everything-instance.js";
import { freePort, startRedisServer, type RedisServer } from "../helpers/redis-server.js";
import { requestMeta } from "../helpers/fixtures.js";
import { sseEvents, type SseEvent } from "../helpers/sse-events.js";
import { modernHeaders } from "../integration/redis/support.js";

const VERSION = "2025-11-25";
/** The example's SSE_RETRY_MS: the `retry:` of its session streams. */
const RETRY = "500";

let redis: RedisServer;
let a: EverythingInstance;
let b: EverythingInstance;

beforeAll(async () => {
  redis = await startRedisServer();
  const flags = ["--drain-ms", "5000", "--redis", redis.url, "--state-key", randomBytes(32).toString("hex")];
  [a, b] = [new EverythingInstance(await freePort(), flags), new EverythingInstance(await freePort(), flags)];
  await Promise.all([a.start(), b.start()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.terminate(), b?.terminate()]);
  await redis?.stop();
});

const sessionHeaders = (sessionId?: string, extra: Record<string, string> = {}): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId, "mcp-protocol-version": VERSION }),
  ...extra,
});
const post = (origin: string, body: object, headers: Record<string, string>) => fetch(`${origin}/mcp`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", ...body }) });
const get = (origin: string, sessionId: string, lastEventId?: string) =>
  fetch(`${origin}/mcp`, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": VERSION, ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }) } });

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve("connected")));
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe("everything-server: SIGTERM drains", () => {
  it("finishes what is in flight, refuses new connections, ends the GET stream with a retry hint; another instance continues the session from Redis", async () => {
    // A 2025-11-25 session on A, and its GET stream (a priming event first).
    const init = await post(a.origin, { id: 1, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "drain", version: "1" } } }, sessionHeaders());
    const sessionId = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    expect((await post(a.origin, { method: "notifications/initialized" }, sessionHeaders(sessionId))).status).toBe(202);
    const getStream = sseEvents((await get(a.origin, sessionId)).body!);
    const primed = (await getStream.next()).value as SseEvent;
    expect(primed.retry).toBe(RETRY);

    // In flight on A: a session call whose stream A closes early (its answer goes to the event
    // store about 200 ms later), and a 2026-07-28 call of 1.5 s.
    const reconnection = [];
    for await (const event of sseEvents((await post(a.origin, { id: 2, method: "tools/call", params: { name: "test_reconnection", arguments: {} } }, sessionHeaders(sessionId))).body!)) reconnection.push(event);
    const callStreamId = reconnection.at(-1)?.id;
    expect(callStreamId).toBeDefined();
    const params = { name: "slow_compute", arguments: { seconds: 1.5 } };
    const slow = fetch(`${a.origin}/mcp`, {
      method: "POST",
      headers: modernHeaders("tools/call", params),
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { ...params, _meta: requestMeta({ capabilities: {} }) } }),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));

    const exit = a.terminate();
    await a.line(/^SIGTERM: draining 1 session/);
    expect(await refused(a.port)).toBe("ECONNREFUSED");
    const rest: SseEvent[] = [];
    for await (const event of getStream) rest.push(event);
    expect(rest.at(-1)).toEqual({ id: undefined, retry: RETRY, data: "" });
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain("compute: computed after 1500 ms");
    expect(await exit).toBe(0);

    // B continues the session: Redis holds its record and its events.
    const onB = await post(b.origin, { id: 4, method: "tools/call", params: { name: "test_simple_text", arguments: {} } }, sessionHeaders(sessionId));
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain("This is a simple text response for testing.");
    const replayed: SseEvent[] = [];
    for await (const event of sseEvents((await get(b.origin, sessionId, callStreamId)).body!)) replayed.push(event);
    expect(replayed.map((event) => event.data).join("\n")).toContain("Reconnection test completed");
    const resumed = await get(b.origin, sessionId, primed.id);
    expect([resumed.status, resumed.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    await resumed.body?.cancel();
  }, 60_000);
});
