/**
 * Issue 44, item 1: deletion is final on every instance. Two session handlers in one process
 * (two instances, on both faces) share a RedisSessionRegistry on one real redis-server, with a
 * short sessionIdleMs. A session opened on A is continued on B (B holds a copy); more than a
 * quarter of the idle time later, so that the DELETE's own request refreshes the record on A
 * (the refresh that used to write a deleted session back), DELETE on A; then B answers 404 at
 * once, after 0.3 and after 0.6 of the idle time, and no record comes back. Without the
 * tombstone B found the record again and answered 200.
 */
import { afterEach, expect, it } from "vitest";
import { RedisSessionRegistry } from "../../../../templates/runtime/addons/redis/session-registry.js";
import type { RedisConnection } from "../../../../templates/runtime/addons/redis/connection.js";
import { describeFaces, open, rpc, serve, sessionHeaders, type Face, type Served } from "../../http/sessions/support.js";
import { redisPairs } from "./support.js";

const IDLE_MS = 1000;
const { pair } = redisPairs("deletion");
const served: Served[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function instances(face: Face): Promise<{ a: Served; b: Served; redis: RedisConnection; registry: RedisSessionRegistry }> {
  const [one, two] = await pair();
  const registry = new RedisSessionRegistry(one);
  const a = await serve(face, {}, { sessionRegistry: registry, sessionIdleMs: IDLE_MS });
  const b = await serve(face, {}, { sessionRegistry: new RedisSessionRegistry(two), sessionIdleMs: IDLE_MS });
  served.push(a, b);
  return { a, b, redis: one, registry };
}

describeFaces("a DELETE on one instance", (face) => {
  it("is final on the other: 404 at once, after 0.3 and after 0.6 of sessionIdleMs; the record never comes back", async () => {
    const { a, b, redis, registry } = await instances(face);
    const { sessionId } = await open(a.url);
    expect((await rpc(b.url, sessionId, 1, "ping")).status).toBe(200);
    expect(b.handler.sessionCount).toBe(1);
    // Past a quarter of the idle time since A saved it: the DELETE's own request refreshes the record on A.
    await sleep(IDLE_MS * 0.3);
    const removed = await fetch(a.url, { method: "DELETE", headers: sessionHeaders(sessionId) });
    expect(removed.status).toBe(200);
    // B's next request is 404 (B reads the record first), and B's copy is gone.
    expect((await rpc(b.url, sessionId, 2, "ping")).status).toBe(404);
    expect(b.handler.sessionCount).toBe(0);
    await sleep(IDLE_MS * 0.3);
    expect((await rpc(b.url, sessionId, 3, "ping")).status).toBe(404);
    expect(await registry.load(sessionId)).toBeUndefined();
    await sleep(IDLE_MS * 0.3);
    expect((await rpc(b.url, sessionId, 4, "ping")).status).toBe(404);
    expect((await rpc(a.url, sessionId, 5, "ping")).status).toBe(404);
    expect(await registry.load(sessionId)).toBeUndefined();
    // The tombstone is bounded: it expires with the idle time.
    const ttl = await redis.command<number>(["PTTL", redis.key("session", sessionId)]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(IDLE_MS);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it("a session B never held is 404 there from the first request on", async () => {
    const { a, b } = await instances(face);
    const { sessionId } = await open(a.url);
    expect((await fetch(a.url, { method: "DELETE", headers: sessionHeaders(sessionId) })).status).toBe(200);
    expect((await rpc(b.url, sessionId, 1, "ping")).status).toBe(404);
    expect(b.handler.sessionCount).toBe(0);
  });
});
