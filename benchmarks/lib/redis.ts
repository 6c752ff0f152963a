// The Redis add-on (issue 31, item 6), on a redis-server of its own (started here on a free
// loopback port; the rows are skipped, with a note, when the binary is missing):
// - tasks created and polled per second: TaskManager.start() of a task whose work ends at once,
//   then one tasks/get's store read, 16 at a time, with a RedisTaskStore against the in-memory default;
// - listen fan-out latency: a list-changed published on one hub reaches a listen stream of
//   another hub on its own Redis connection (two instances), p50 and p99;
// - tools/call per second over an in-memory transport pair, with tasks, listen and single-use
//   requestState configured on Redis but none used by the call, against the same server on the
//   in-memory defaults: the add-on must cost nothing there.
// The first two rows have a floor (lib/floor-redis.ts: the same Redis round trips with raw
// node-redis and no runtime), measured in the same runs right after the row; the third's floor
// is the in-memory default it is already measured against.

import { McpClient, McpServer, Subscriptions, TaskManager, createInMemoryTransportPair, type McpServerOptions } from "../../out/2026-07-28/index.js";
import { connectRedis, type RedisConnection } from "../../out/runtime/addons/redis/connection.js";
import { RedisTaskStore } from "../../out/runtime/addons/redis/task-store.js";
import { RedisSubscriptionBus } from "../../out/runtime/addons/redis/bus.js";
import { RedisReplayGuard } from "../../out/runtime/addons/redis/replay-guard.js";
import { checkRedisServer, startRedisServer } from "../../test/helpers/redis-server.js";
import { ADDON_COMMAND_CLIENTS, fanOutFloor, openFloorClients, openTunedFloorClients, taskFloorPerSecond } from "./floor-redis.js";
import { median, percentile } from "./stats.js";
import { costVsFloor, fmt, renderTable } from "./table.js";

export interface RedisSizes {
  readonly tasks: number;
  readonly fanOut: number;
  readonly calls: number;
}

interface Percentiles {
  readonly p50: number;
  readonly p99: number;
}

export interface RedisResults {
  /** floor: SET … PXAT and GET per task, raw node-redis (lib/floor-redis.ts): one client with its defaults; tunedFloor: on clients opened as the add-on's. */
  readonly tasksPerSecond: { readonly memory: number; readonly redis: number; readonly floor: number; readonly tunedFloor: number };
  /** floor: raw PUBLISH on A → SUBSCRIBE callback on B. */
  readonly fanOutMs: { readonly redis: Percentiles; readonly floor: Percentiles };
  readonly callsPerSecond: { readonly memory: number; readonly redisUnused: number };
}

const CONCURRENCY = 16;
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

async function tasksPerSecond(manager: TaskManager, count: number): Promise<number> {
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        const handle = await manager.start(() => ({ content: [] }));
        await manager.store.get(handle.taskId);
      }
    }),
  );
  return (count / (performance.now() - started)) * 1000;
}

async function fanOut(a: RedisConnection, b: RedisConnection, count: number): Promise<number[]> {
  const busA = new RedisSubscriptionBus(a);
  const busB = new RedisSubscriptionBus(b);
  const hubA = new Subscriptions({ bus: busA });
  const hubB = new Subscriptions({ bus: busB });
  await Promise.all([busA.ready(), busB.ready()]);
  let delivered: (() => void) | undefined;
  const controller = new AbortController();
  const ctx = {
    requestId: "bench",
    signal: controller.signal,
    _meta: undefined,
    notify: (method: string) => {
      if (method === "notifications/tools/list_changed") delivered?.();
      return Promise.resolve();
    },
    end: () => Promise.resolve(),
  };
  // A listen stream on instance B, driven as the endpoint would (only notify and the signal are used).
  void hubB.listenHandler()({ notifications: { toolsListChanged: true } }, ctx as never);
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const arrived = new Promise<void>((resolve) => (delivered = resolve));
    const t0 = performance.now();
    hubA.publish("notifications/tools/list_changed");
    await arrived;
    latencies.push(performance.now() - t0);
  }
  controller.abort();
  hubA.leaveBus();
  hubB.leaveBus();
  await Promise.all([busA.close(), busB.close()]);
  return latencies;
}

async function callsPerSecond(options: McpServerOptions, count: number): Promise<number> {
  const server = new McpServer({ logger: null, ...options, handlers: { "tools/call": () => ({ resultType: "complete", content: [] }) } });
  const [clientSide, serverSide] = createInMemoryTransportPair();
  await server.connect(serverSide);
  const client = new McpClient({ logger: null });
  await client.connect(clientSide);
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await client.request("tools/call", { name: "t", arguments: {}, _meta: META });
    }),
  );
  const rate = (count / (performance.now() - started)) * 1000;
  await client.close();
  await server.close();
  return rate;
}

/** The third row's two servers' options: the same features with their state on Redis, and on the in-memory defaults. */
function configured(a: RedisConnection): { withRedis: McpServerOptions; inMemory: McpServerOptions; close(): Promise<void> } {
  const bus = new RedisSubscriptionBus(a);
  const key = new Uint8Array(32).fill(7);
  return {
    withRedis: { tasks: new TaskManager({ store: new RedisTaskStore(a) }), subscriptions: new Subscriptions({ bus }), requestState: { key, singleUse: new RedisReplayGuard(a) } },
    inMemory: { tasks: new TaskManager(), subscriptions: new Subscriptions(), requestState: { key, singleUse: true } },
    close: () => bus.close(),
  };
}

/** Runs the rows `runs` times each (medians); undefined when there is no redis-server here. */
export async function runRedis(runs: number, sizes: RedisSizes, log: (line: string) => void): Promise<RedisResults | undefined> {
  try {
    checkRedisServer();
  } catch (error) {
    log(`redis: skipped (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
  const redis = await startRedisServer();
  const a = await connectRedis({ url: redis.url, prefix: "bench:" });
  const b = await connectRedis({ url: redis.url, prefix: "bench:" });
  const raw = await openFloorClients(redis.url);
  const tuned = await openTunedFloorClients(redis.url);
  try {
    const memoryTasks: number[] = [];
    const redisTasks: number[] = [];
    const memoryCalls: number[] = [];
    const unusedCalls: number[] = [];
    const floorTasks: number[] = [];
    const tunedFloorTasks: number[] = [];
    const latencies: number[] = [];
    const floorLatencies: number[] = [];
    // Warm-up: every path once, smaller, unmeasured (each side of each row, floors included).
    await tasksPerSecond(new TaskManager({ ttlMs: 60_000 }), 200);
    const warmStore = new RedisTaskStore(a, { maxTasks: 400 });
    await tasksPerSecond(new TaskManager({ ttlMs: 60_000, store: warmStore }), 200);
    await warmStore.close();
    await taskFloorPerSecond(raw.a, 200, CONCURRENCY);
    await taskFloorPerSecond(tuned.clients, 200, CONCURRENCY);
    await fanOut(a, b, 20);
    await fanOutFloor(raw.a, raw.b, 20);
    const warm = configured(a);
    await callsPerSecond(warm.inMemory, 1_000);
    await callsPerSecond(warm.withRedis, 1_000);
    await warm.close();
    for (let run = 0; run < runs; run++) {
      log(`redis: run ${run + 1}/${runs}`);
      await a.command(["FLUSHDB"]);
      memoryTasks.push(await tasksPerSecond(new TaskManager({ ttlMs: 60_000 }), sizes.tasks));
      const store = new RedisTaskStore(a, { maxTasks: sizes.tasks * 2 });
      redisTasks.push(await tasksPerSecond(new TaskManager({ ttlMs: 60_000, store }), sizes.tasks));
      await store.close();
      // Right after the Redis row, so that both see the same machine load.
      floorTasks.push(await taskFloorPerSecond(raw.a, sizes.tasks, CONCURRENCY));
      tunedFloorTasks.push(await taskFloorPerSecond(tuned.clients, sizes.tasks, CONCURRENCY));
      latencies.push(...(await fanOut(a, b, sizes.fanOut)));
      floorLatencies.push(...(await fanOutFloor(raw.a, raw.b, sizes.fanOut)));
      // What differs between the two servers is only where the features' state is.
      const servers = configured(a);
      // Each run alternates which goes first, so that neither gets the warmer process.
      const order = run % 2 === 0 ? [false, true] : [true, false];
      for (const redisConfigured of order) {
        if (redisConfigured) unusedCalls.push(await callsPerSecond(servers.withRedis, sizes.calls));
        else memoryCalls.push(await callsPerSecond(servers.inMemory, sizes.calls));
      }
      await servers.close();
    }
    return {
      tasksPerSecond: { memory: median(memoryTasks), redis: median(redisTasks), floor: median(floorTasks), tunedFloor: median(tunedFloorTasks) },
      fanOutMs: {
        redis: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
        floor: { p50: percentile(floorLatencies, 50), p99: percentile(floorLatencies, 99) },
      },
      callsPerSecond: { memory: median(memoryCalls), redisUnused: median(unusedCalls) },
    };
  } finally {
    await Promise.all([a.close(), b.close(), raw.close(), tuned.close()]);
    await redis.stop();
  }
}

/** Issue 44, item 6: tasks created and polled through Redis cost at most this many times the raw floor. */
const TASKS_TARGET = 2;

/** "≤ 2.00×: yes" or "…: no", of a cost against its target. */
const within = (cost: number, target: number): string => `≤ ${target.toFixed(2)}×: ${Number.isFinite(cost) && cost <= target ? "yes" : "no"}`;

/** The Markdown table of the Redis rows. */
export function redisReport(sizes: RedisSizes, results: RedisResults): string {
  const { tasksPerSecond: t, fanOutMs: f, callsPerSecond: c } = results;
  const pair = (p: Percentiles): string => `${fmt.ms(p.p50, 2)} / ${fmt.ms(p.p99, 2)}`;
  return [
    `### Redis add-on (one local redis-server; ${CONCURRENCY} at a time)`,
    "",
    renderTable(
      ["Row", "In-memory default", "Redis", "floor (raw node-redis)", "cost vs floor", "target"],
      [
        [`tasks created + polled (${fmt.count(sizes.tasks)})`, fmt.rate(t.memory), fmt.rate(t.redis), fmt.rate(t.floor), costVsFloor(t.redis, t.floor, "higher"), within(t.floor / t.redis, TASKS_TARGET)],
        [
          `the same, against the floor on clients opened as the add-on's (${ADDON_COMMAND_CLIENTS} sockets in turn, no per-command timer)`,
          "—",
          fmt.rate(t.redis),
          fmt.rate(t.tunedFloor),
          costVsFloor(t.redis, t.tunedFloor, "higher"),
          "reported",
        ],
        [
          `listen fan-out, publish on A → stream on B (${fmt.count(sizes.fanOut)}), p50 / p99`,
          "—",
          pair(f.redis),
          pair(f.floor),
          `${costVsFloor(f.redis.p50, f.floor.p50, "lower")} / ${costVsFloor(f.redis.p99, f.floor.p99, "lower")}`,
          "reported (p99 with its floor)",
        ],
        [`tools/call, Redis configured but unused (${fmt.count(sizes.calls)})`, fmt.rate(c.memory), fmt.rate(c.redisUnused), "the in-memory default", costVsFloor(c.redisUnused, c.memory, "higher"), "—"],
      ],
    ),
    "",
    "floor (lib/floor-redis.ts): the same Redis round trips with raw node-redis and no runtime: per task one SET … PXAT of a task-sized JSON and one GET, " +
      "on one client with node-redis's defaults (the floor issues 33 and 44 measured; the target is against it), and on clients opened as the add-on opens its own (the least node-redis does; reported), " +
      `${CONCURRENCY} at a time; a raw PUBLISH on one connection until a SUBSCRIBE callback on another has it. ` +
      "tools/call with Redis unused: its floor is the same server on the in-memory defaults. cost vs floor: floor ÷ ours for throughput, ours ÷ floor for latency; 1.00× is the floor.",
  ].join("\n");
}
