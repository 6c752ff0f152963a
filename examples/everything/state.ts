/**
 * Where the everything server keeps what outlives a request, by its flags:
 *
 *   --redis redis://HOST:PORT   (or MCP_REDIS_URL)   tasks, listen fan-out and used requestStates in
 *                                                     that Redis (the generated redis add-on), so
 *                                                     several instances on it behave as one server
 *   --state-key HEX             (or MCP_STATE_KEY)    the requestState HMAC key, at least 32 bytes
 *                                                     (64 hex digits); every instance needs the same
 *
 * Without --redis everything stays in this process (the runtime's in-memory defaults). With it,
 * --state-key is required: a state sealed by one instance must verify on the others.
 */
import type { RequestStateOptions, SubscriptionBus, TaskStore } from "../../out/2026-07-28/index.js";
import type { EventStore, SessionRegistry } from "../../out/2025-11-25/index.js";
import { connectRedis } from "../../out/runtime/addons/redis/connection.js";
import { RedisTaskStore } from "../../out/runtime/addons/redis/task-store.js";
import { RedisSubscriptionBus } from "../../out/runtime/addons/redis/bus.js";
import { RedisReplayGuard } from "../../out/runtime/addons/redis/replay-guard.js";
import { RedisEventStore } from "../../out/runtime/addons/redis/event-store.js";
import { RedisSessionRegistry } from "../../out/runtime/addons/redis/session-registry.js";

/** The flags, for node:util parseArgs. */
export const STATE_FLAGS = { redis: { type: "string" }, "state-key": { type: "string" } } as const;

/** What the servers are given; every field undefined: the in-memory defaults. */
export interface SharedState {
  readonly taskStore?: TaskStore | undefined;
  readonly bus?: SubscriptionBus | undefined;
  /** resources/subscribe and resources/updated across instances (RegistryOptions.resourceBus): a channel of its own. */
  readonly resourceBus?: SubscriptionBus | undefined;
  readonly requestState?: RequestStateOptions | undefined;
  /** For a 2025-era session server (createSessionHttpHandler): sessions and their events, for every instance. */
  readonly sessionRegistry?: SessionRegistry | undefined;
  readonly eventStore?: EventStore | undefined;
  /** Where the state is, for the startup line. */
  readonly describe: string;
  close(): Promise<void>;
}

/** The flags' values, the environment's where a flag is absent. */
export function stateArgs(values: { readonly redis?: string | undefined; readonly "state-key"?: string | undefined }, env = process.env): { redis?: string; stateKey?: string } {
  const redis = values.redis ?? env["MCP_REDIS_URL"];
  const stateKey = values["state-key"] ?? env["MCP_STATE_KEY"];
  return { ...(redis === undefined || redis === "" ? {} : { redis }), ...(stateKey === undefined || stateKey === "" ? {} : { stateKey }) };
}

/** The requestState key from hex; throws with what is wrong. */
function keyFromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2}){32,}$/.test(hex)) throw new Error("--state-key must be at least 32 bytes as hex (64 hex digits or more)");
  return Buffer.from(hex, "hex");
}

/** Opens the state the flags ask for; throws (with advice) when they are wrong or Redis cannot be reached. */
export async function openSharedState(args: { redis?: string; stateKey?: string }, onError: (error: Error) => void): Promise<SharedState> {
  const key = args.stateKey === undefined ? undefined : keyFromHex(args.stateKey);
  if (args.redis === undefined) {
    return { requestState: key === undefined ? undefined : { key }, describe: "in this process", close: () => Promise.resolve() };
  }
  if (key === undefined) throw new Error("--redis needs --state-key (or MCP_STATE_KEY): every instance must verify the others' requestState");
  const redis = await connectRedis({ url: args.redis, prefix: "everything:", onError });
  const bus = new RedisSubscriptionBus(redis, { onError });
  const resourceBus = new RedisSubscriptionBus(redis, { channel: "resources", onError });
  await Promise.all([bus.ready(), resourceBus.ready()]);
  const taskStore = new RedisTaskStore(redis, { onError: (error) => onError(error instanceof Error ? error : new Error(String(error))) });
  return {
    taskStore,
    bus,
    resourceBus,
    requestState: { key, singleUse: new RedisReplayGuard(redis) },
    sessionRegistry: new RedisSessionRegistry(redis),
    eventStore: new RedisEventStore(redis),
    describe: `in Redis at ${args.redis}`,
    async close() {
      await Promise.allSettled([taskStore.close(), bus.close(), resourceBus.close()]);
      await redis.close();
    },
  };
}
