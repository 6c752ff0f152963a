// A GatewayBus on Redis pub/sub (node-redis): MCPx gateways on one Redis share their topics, one
// channel per topic (`<prefix><topic>`). Pub/sub is fire-and-forget, as the hub expects: what a
// gateway misses while Redis is away comes back with the next roster heartbeat, and envelopes
// sent meanwhile are lost as over any dropped connection.

import { createClient, type RedisClientType } from "redis";
import type { GatewayBus } from "../../transports/mcpx-hub.js";

export interface RedisGatewayBusOptions {
  /** `redis://host:port`: the bus opens (and closes) its own two connections. */
  url: string;
  /** Channel name prefix (default "mcpx:topic:"). */
  prefix?: string | undefined;
}

/** A GatewayBus on Redis; resolves once both connections (publish, subscribe) are up. */
export async function createRedisGatewayBus(options: RedisGatewayBusOptions): Promise<GatewayBus> {
  const prefix = options.prefix ?? "mcpx:topic:";
  const publisher: RedisClientType = createClient({ url: options.url });
  // Connection errors are retried by the client; without a listener they would crash the process.
  publisher.on("error", () => undefined);
  const subscriber = publisher.duplicate();
  subscriber.on("error", () => undefined);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  let closed = false;
  return {
    async subscribe(topic, listener) {
      const channel = `${prefix}${topic}`;
      const onMessage = (message: string) => listener(message);
      await subscriber.subscribe(channel, onMessage);
      return async () => {
        if (!closed) await subscriber.unsubscribe(channel, onMessage);
      };
    },
    async publish(topic, message) {
      if (closed) throw new Error("the Redis gateway bus is closed");
      await publisher.publish(`${prefix}${topic}`, message);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([publisher.close(), subscriber.close()]);
    },
  };
}
