/**
 * The Redis add-on's other stores against a real redis-server, each through two connections (two
 * instances): the bus (a message published on one reaches the other's listeners, malformed and
 * oversized ones are dropped with an error), the event store on Streams (replay after an id from
 * either instance, bounded per stream, an evicted or forged id unknown, expiry), the session
 * registry (records expire, are removed) and the replay guard (a key is claimed once, over both).
 */
import { describe, expect, it } from "vitest";
import { RedisSubscriptionBus } from "../../../../templates/runtime/addons/redis/bus.js";
import { RedisEventStore } from "../../../../templates/runtime/addons/redis/event-store.js";
import { RedisSessionRegistry } from "../../../../templates/runtime/addons/redis/session-registry.js";
import { RedisReplayGuard } from "../../../../templates/runtime/addons/redis/replay-guard.js";
import type { BusMessage } from "../../../../templates/runtime/features/subscriptions.js";
import { waitFor } from "../../../helpers/async.js";
import { redisPairs } from "./support.js";

/** Two connections under one fresh prefix: two instances of one server. */
const { pair } = redisPairs("s");

function until<T>(check: () => T | undefined, ms = 3000): Promise<T> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() > deadline) return reject(new Error("timed out"));
      setTimeout(poll, 10);
    };
    poll();
  });
}

describe("RedisSubscriptionBus", () => {
  it("delivers what one instance publishes to the other's listeners; drops what is not a message, with an error", async () => {
    const [a, b] = await pair();
    const errors: Error[] = [];
    const sender = new RedisSubscriptionBus(a);
    const receiver = new RedisSubscriptionBus(b, { onError: (e) => errors.push(e), maxMessageBytes: 256 });
    const got: BusMessage[] = [];
    receiver.subscribe((m) => got.push(m));
    await receiver.ready();
    await sender.publish({ origin: "one", method: "notifications/tools/list_changed" });
    await sender.publish({ origin: "one", method: "notifications/resources/updated", params: { uri: "file:///a" } });
    await until(() => (got.length === 2 ? got : undefined));
    expect(got).toEqual([
      { origin: "one", method: "notifications/tools/list_changed" },
      { origin: "one", method: "notifications/resources/updated", params: { uri: "file:///a" } },
    ]);
    // Someone else on the channel: not JSON, not a message, too big.
    for (const text of ["{nope", JSON.stringify({ method: 5 }), JSON.stringify({ origin: "x", method: "m", params: "x".repeat(300) })]) {
      await a.command(["PUBLISH", `${a.prefix}bus`, text]);
    }
    await until(() => (errors.length === 3 ? errors : undefined));
    expect(errors.map((e) => e.message)).toEqual([
      "bus: dropped a message that is not JSON",
      "bus: dropped a message that is not a BusMessage",
      expect.stringContaining("maxMessageBytes 256"),
    ]);
    expect(got).toHaveLength(2);
    await Promise.all([sender.close(), receiver.close()]);
  });
});

describe("RedisEventStore", () => {
  it("replays a stream after an id on any instance, priming events left out; unknown and forged ids are undefined", async () => {
    const [a, b] = await pair();
    const one = new RedisEventStore(a);
    const two = new RedisEventStore(b);
    const prime = await one.storeEvent("sess/1", "");
    const first = await one.storeEvent("sess/1", '{"n":1}');
    await one.storeEvent("sess/2", '{"other":true}');
    const second = await one.storeEvent("sess/1", '{"n":2}');
    expect(prime).not.toMatch(/[\r\n\0]/);
    expect(await two.replayEventsAfter(prime)).toEqual({
      streamId: "sess/1",
      events: [
        { id: first, data: '{"n":1}' },
        { id: second, data: '{"n":2}' },
      ],
    });
    expect(await two.replayEventsAfter(second)).toEqual({ streamId: "sess/1", events: [] });
    for (const bad of ["", "nope", "1-0@", "@sess/1", "99999999999-0@sess/1", `${first.split("@")[0]}@sess/9`, "1-0\r\n@x"]) {
      expect(await two.replayEventsAfter(bad), bad).toBeUndefined();
    }
  });

  it("keeps at most maxEventsPerStream events per stream: an evicted id cannot be resumed", async () => {
    const [a] = await pair();
    const store = new RedisEventStore(a, { maxEventsPerStream: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await store.storeEvent("s/1", `{"i":${i}}`));
    expect(await store.replayEventsAfter(ids[0]!)).toBeUndefined();
    expect(await store.replayEventsAfter(ids[1]!)).toBeUndefined();
    expect((await store.replayEventsAfter(ids[2]!))?.events.map((e) => e.data)).toEqual(['{"i":3}', '{"i":4}']);
    const ttl = await a.command<number>(["PTTL", `${a.prefix}events:s/1`]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
  });

  it("a stream expires ttlMs after its last event", async () => {
    const [a] = await pair();
    const store = new RedisEventStore(a, { ttlMs: 100 });
    const id = await store.storeEvent("s/1", "{}");
    await new Promise((r) => setTimeout(r, 250));
    expect(await store.replayEventsAfter(id)).toBeUndefined();
  });
});

describe("RedisSessionRegistry", () => {
  it("saves, loads on another instance, expires and removes records", async () => {
    const [a, b] = await pair();
    const one = new RedisSessionRegistry(a);
    const two = new RedisSessionRegistry(b);
    const record = { sessionId: "s1", protocolVersion: "2025-11-25", clientCapabilities: { roots: {} }, principal: "alice", expiresAt: Date.now() + 60_000 };
    await one.save(record);
    expect(await two.load("s1")).toEqual(record);
    await two.remove("s1", Date.now() + 60_000);
    expect(await one.load("s1")).toBeUndefined();
    await one.save({ ...record, sessionId: "s2", expiresAt: Date.now() + 100 });
    await new Promise((r) => setTimeout(r, 250));
    expect(await two.load("s2")).toBeUndefined();
    await expect(one.save({ ...record, clientCapabilities: { big: "x".repeat(70_000) } })).rejects.toThrow("maxRecordBytes");
  });

  it("a removed session's tombstone refuses saves from every instance until it expires, and the removal reaches every watcher", async () => {
    const [a, b] = await pair();
    const one = new RedisSessionRegistry(a);
    const two = new RedisSessionRegistry(b);
    const heard: string[] = [];
    const stop = two.watchRemovals((id) => heard.push(id));
    await new Promise((r) => setTimeout(r, 100)); // the subscription is made
    const record = { sessionId: "s1", protocolVersion: "2025-11-25", clientCapabilities: {}, expiresAt: Date.now() + 60_000 };
    await one.save(record);
    await one.remove("s1", Date.now() + 300);
    // A refresh that read the record before the removal writes nothing.
    await two.save(record);
    expect(await one.load("s1")).toBeUndefined();
    expect(await two.load("s1")).toBeUndefined();
    await waitFor("the removal notice", () => (heard.length > 0 ? true : undefined));
    expect(heard).toEqual(["s1"]);
    // Bounded: the tombstone expires, and the id may be saved again.
    await new Promise((r) => setTimeout(r, 400));
    expect(await a.command(["EXISTS", a.key("session", "s1")])).toBe(0);
    await two.save(record);
    expect(await one.load("s1")).toEqual(record);
    stop();
  });

  it("ids outside the spec's alphabet (visible ASCII, at most 256) reach no key: load answers undefined, save and remove refuse", async () => {
    const [a] = await pair();
    const registry = new RedisSessionRegistry(a);
    const before = await a.command<number>(["DBSIZE"]);
    for (const id of ["", "a b", "x\r\nSET k v", "é", "x".repeat(257)]) {
      expect(await registry.load(id)).toBeUndefined();
      await expect(registry.save({ sessionId: id, protocolVersion: "2025-11-25", clientCapabilities: {}, expiresAt: null })).rejects.toThrow(RangeError);
      await expect(registry.remove(id, Date.now() + 1000)).rejects.toThrow(RangeError);
    }
    expect(await a.command<number>(["DBSIZE"])).toBe(before);
  });
});

describe("RedisReplayGuard", () => {
  it("claims a key once over every instance, until it expires; an expired state is never claimed", async () => {
    const [a, b] = await pair();
    const one = new RedisReplayGuard(a);
    const two = new RedisReplayGuard(b);
    const expiresAt = Date.now() + 200;
    const claims = await Promise.all([one.claim("k", expiresAt), two.claim("k", expiresAt), one.claim("k", expiresAt)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await two.claim("k", expiresAt)).toBe(false);
    expect(await one.claim("old", Date.now() - 1)).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(await two.claim("k", Date.now() + 1000)).toBe(true);
  });
});
