// Type-level tests of the Redis add-on and the interfaces it implements, compiled by `npm test`
// (tsc -p tsconfig.json): each `@ts-expect-error` line must be an error.
import type { RedisConnection } from "../../../../templates/runtime/addons/redis/connection.js";
import { RedisTaskStore } from "../../../../templates/runtime/addons/redis/task-store.js";
import { RedisSubscriptionBus } from "../../../../templates/runtime/addons/redis/bus.js";
import { RedisEventStore } from "../../../../templates/runtime/addons/redis/event-store.js";
import { RedisSessionRegistry } from "../../../../templates/runtime/addons/redis/session-registry.js";
import { RedisReplayGuard } from "../../../../templates/runtime/addons/redis/replay-guard.js";
import * as Modern from "../../../generated-tasks/2026-07-28/index.js";
import * as Session from "../../../generated/2025-11-25/index.js";

declare const redis: RedisConnection;
declare const server: Session.McpServer;

export function storesFitTheRuntimesOptions(): void {
  new Modern.TaskManager({ store: new RedisTaskStore(redis) });
  new Modern.Subscriptions({ bus: new RedisSubscriptionBus(redis) });
  new Modern.McpServer({ requestState: { key: "k".repeat(32), singleUse: new RedisReplayGuard(redis) } });
  Session.createSessionHttpHandler(server, { sessionRegistry: new RedisSessionRegistry(redis), eventStore: new RedisEventStore(redis) });
  // @ts-expect-error a task store is not a bus
  new Modern.Subscriptions({ bus: new RedisTaskStore(redis) });
  // @ts-expect-error a registry has save, load and remove
  Session.createSessionHttpHandler(server, { sessionRegistry: { save: () => undefined } });
  // @ts-expect-error the stores take a connection (connectRedis), not a URL
  new RedisTaskStore("redis://127.0.0.1:6379");
  new Session.McpServer({ registrations: { resourceBus: new RedisSubscriptionBus(redis, { channel: "resources" }) } });
  // @ts-expect-error the resource bus is a SubscriptionBus, not a task store
  new Session.McpServer({ registrations: { resourceBus: new RedisTaskStore(redis) } });
  // @ts-expect-error a registry's remove takes the tombstone's expiry
  Session.createSessionHttpHandler(server, { sessionRegistry: { save: () => undefined, load: () => undefined, remove: (id: string, until: string) => void [id, until] } });
  // @ts-expect-error a bus message names its origin
  void new RedisSubscriptionBus(redis).publish({ method: "notifications/tools/list_changed" });
}
