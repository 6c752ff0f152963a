/**
 * What the Redis add-on's store tests share: one real redis-server for the file (started before
 * its tests, stopped after them, with every connection made), and `pair()`, two connections under
 * a fresh key prefix that stand for two instances of one server.
 */
import { afterAll, beforeAll } from "vitest";
import { connectRedis, type RedisConnection } from "../../../../templates/runtime/addons/redis/connection.js";
import { startRedisServer, type RedisServer } from "../../../helpers/redis-server.js";

/** Registers the file's redis-server hooks; `pair()` gives two connections under a new prefix starting with `tag`. */
export function redisPairs(tag: string): { pair(): Promise<[RedisConnection, RedisConnection]> } {
  let redis: RedisServer;
  const connections: RedisConnection[] = [];
  let prefixes = 0;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await redis.stop();
  });
  return {
    async pair() {
      const prefix = `${tag}${++prefixes}:`;
      const a = await connectRedis({ url: redis.url, prefix });
      const b = await connectRedis({ url: redis.url, prefix });
      connections.push(a, b);
      return [a, b];
    },
  };
}
