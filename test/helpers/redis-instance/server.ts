/**
 * One instance of a server that keeps its state in Redis, for the multi-instance and fault tests
 * (test/integration/redis-*.test.ts): each instance is its own process, and two of them given
 * the same Redis behave as one server. It serves, on one port:
 * - `/mcp`: a generated 2026-07-28 McpServer (out/2026-07-28, with the Tasks extension) behind
 *   createHttpHandler, with a RedisTaskStore, a SubscriptionHub on a RedisSubscriptionBus, and
 *   requestState under the shared key, single use through a RedisReplayGuard;
 * - `/mcp-2025`: a generated 2025-11-25 McpServer behind createSessionHttpHandler, with a
 *   RedisSessionRegistry and a RedisEventStore.
 * Both handlers are served on one face (`--face`, test/helpers/faces.ts): "native" (toNodeListener
 * takes their core: no web object per request) or "web" (the handlers as plain web functions,
 * through toNodeListener's bridge of a foreign web handler).
 * What the tests need to see of the work that runs here goes to stdout, one line each
 * ("work <id> got input …", "work <id> saw cancel: …"); every response says which instance
 * served it (`x-instance`).
 *
 *   node --import tsx test/helpers/redis-instance/server.ts --name A --face native --redis redis://127.0.0.1:6379 --state-key HEX
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import * as Modern from "../../../out/2026-07-28/index.js";
import * as Legacy from "../../../out/2025-11-25/index.js";
import { connectRedis } from "../../../out/runtime/addons/redis/connection.js";
import { RedisTaskStore } from "../../../out/runtime/addons/redis/task-store.js";
import { RedisSubscriptionBus } from "../../../out/runtime/addons/redis/bus.js";
import { RedisEventStore } from "../../../out/runtime/addons/redis/event-store.js";
import { RedisSessionRegistry } from "../../../out/runtime/addons/redis/session-registry.js";
import { RedisReplayGuard } from "../../../out/runtime/addons/redis/replay-guard.js";

const { values } = parseArgs({ options: { name: { type: "string", default: "A" }, face: { type: "string", default: "native" }, redis: { type: "string" }, "state-key": { type: "string" }, port: { type: "string", default: "0" } } });
const NAME = values.name;
const FACE = values.face;
if (FACE !== "native" && FACE !== "web") throw new Error(`--face must be native or web, got ${FACE}`);
const say = (line: string): void => void process.stdout.write(`${line}\n`);

const redis = await connectRedis({
  url: values.redis,
  prefix: "fixture:",
  commandTimeoutMs: 500,
  connectTimeoutMs: 2000,
  onError: (error) => say(`redis-error ${error.message}`),
});
const onError = (error: unknown): void => say(`error ${error instanceof Error ? error.message : String(error)}`);

// ---- 2026-07-28
const tasks = new Modern.TaskManager({ store: new RedisTaskStore(redis, { onError }), pollIntervalMs: 20, onError });
const bus = new RedisSubscriptionBus(redis, { onError });
await bus.ready();
const subscriptions = new Modern.Subscriptions({ bus, onError });
const text = (value: string) => ({ resultType: "complete" as const, content: [{ type: "text" as const, text: value }] });
const ASK = {
  confirm: { method: "elicitation/create", params: { message: "Confirm?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } } },
} satisfies Modern.InputRequests;

const modern = new Modern.McpServer({
  logger: null,
  serverInfo: { name: "redis-instance", version: NAME },
  capabilities: { tools: { listChanged: true } },
  subscriptions,
  tasks,
  requestState: { key: Buffer.from(values["state-key"] ?? "", "hex"), singleUse: new RedisReplayGuard(redis) },
  handlers: {
    // The HTTP handler lists the tools once (their Mcp-Param headers); none of these has any.
    "tools/list": () => ({
      resultType: "complete",
      tools: ["whoami", "publish", "input_task", "wait_task", "confirm"].map((name) => ({ name, inputSchema: { type: "object" as const } })),
      ttlMs: 60_000,
      cacheScope: "public" as const,
    }),
    "tools/call": (params, ctx) => {
      switch (params.name) {
        // Needs no Redis: what a slow Redis must not hold up.
        case "whoami":
          return text(NAME);
        case "publish":
          subscriptions.publish("notifications/tools/list_changed");
          return text(`published on ${NAME}`);
        case "input_task":
          return tasks.start(
            async (task) => {
              say(`work ${task.taskId} started on ${NAME}`);
              const answers = await task.input(ASK, "waiting for a confirmation");
              say(`work ${task.taskId} got input ${JSON.stringify(answers)} on ${NAME}`);
              return { content: [{ type: "text", text: `confirmed on ${NAME}` }] };
            },
            { principal: ctx.principal },
          );
        case "wait_task":
          return tasks.start(
            (task) =>
              new Promise((_resolve, reject) => {
                say(`work ${task.taskId} started on ${NAME}`);
                task.signal.addEventListener("abort", () => {
                  say(`work ${task.taskId} saw cancel: ${String(task.signal.reason)} on ${NAME}`);
                  reject(new Modern.McpError(-32800, String(task.signal.reason)));
                });
              }),
            { principal: ctx.principal },
          );
        case "confirm": {
          const got = ctx.input.responses(ASK);
          if (got === undefined || ctx.input.state<{ tool: string }>()?.tool !== "confirm") return ctx.input.required(ASK, { state: { tool: "confirm" } });
          return text(`confirmed on ${NAME}`);
        }
        default:
          throw new Modern.McpError(-32602, `unknown tool ${params.name}`);
      }
    },
  },
});
const modernHandler = Modern.createHttpHandler(modern, { onError });

// ---- 2025-11-25 sessions
const legacy = new Legacy.McpServer({
  logger: null,
  serverInfo: { name: "redis-instance", version: NAME },
  capabilities: { tools: {} },
  handlers: {
    "tools/call": async (params, ctx) => {
      const sessionId = ctx.http?.headers.get("mcp-session-id") ?? "";
      switch (params.name) {
        case "whoami":
          return { content: [{ type: "text", text: NAME }] };
        case "emit": {
          // Notifications outside any request: on the session's GET stream, each stored in the event store.
          const { from = 0, count = 1 } = (params.arguments ?? {}) as { from?: number; count?: number };
          for (let i = from; i < from + count; i++) sessionHandler.notify(sessionId, "notifications/message", { level: "info", data: `${NAME} ${i}` });
          return { content: [{ type: "text", text: `emitted ${count} on ${NAME}` }] };
        }
        case "hang":
          say(`hang started on ${NAME}`);
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
          return { content: [] };
        default:
          throw new Legacy.McpError(-32602, `unknown tool ${params.name}`);
      }
    },
  },
});
const sessionHandler = Legacy.createSessionHttpHandler(legacy, {
  sessionRegistry: new RedisSessionRegistry(redis),
  eventStore: new RedisEventStore(redis),
  keepAliveMs: 0,
  onError,
});

/** The node:http listener of a handler on this instance's face (the web face: the function alone, bridged). */
const listenerOf = (handler: Modern.ServedHandler) => Modern.toNodeListener(FACE === "native" ? handler : (request, info) => handler(request, info));
const modernListener = listenerOf(modernHandler);
const legacyListener = listenerOf(sessionHandler);
const http = createServer((req, res) => {
  res.setHeader("x-instance", NAME);
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  if (path === "/mcp") return void modernListener(req, res);
  if (path === "/mcp-2025") return void legacyListener(req, res);
  res.writeHead(404).end();
});
http.listen(Number(values.port), "127.0.0.1", () => say(`listening on http://127.0.0.1:${(http.address() as AddressInfo).port}`));

const shutdown = async (): Promise<void> => {
  http.closeAllConnections();
  http.close();
  await Promise.allSettled([sessionHandler.close(), bus.close()]);
  await redis.close();
  process.exit(0);
};
process.once("SIGTERM", () => void shutdown());
process.once("SIGINT", () => void shutdown());
