// The Redis floors: the same work as the Redis add-on's rows (lib/redis.ts) with no runtime at
// all, raw node-redis (the client the add-on uses) on the same redis-server:
// - tasks created + polled: per task, the least a task store on Redis must do: one write of the
//   task's JSON that expires with it (SET key json PXAT at) and one read of it (GET, then
//   JSON.parse), the same number at a time. The value has the shape and size of a stored task
//   (about 210 bytes). No script, no index, no bound, no owner: no store keeps a task in Redis,
//   with its expiry, and reads it back in fewer round trips. Two floors: the one issues 33 and 44
//   measured (one node-redis client with its defaults, which arm a per-command AbortSignal
//   timeout), and the same round trips on clients opened as the add-on opens its own (two
//   sockets used in turn, no per-command timer of node-redis's): the least this client library
//   can do, which the add-on's row is also shown against;
// - listen fan-out: a raw PUBLISH of a bus-sized message on connection A, timed until a SUBSCRIBE
//   callback on connection B has it. Every cross-instance delivery is at least this one publish
//   and one pub/sub delivery.
// The third row (tools/call with Redis configured but unused) needs no new floor: its floor is
// the same server on the in-memory defaults, which the row already measures.
import { randomUUID } from "node:crypto";
import { createClient } from "redis";

/** A node-redis client on `url`, with the default modules and RESP version (as the add-on opens its own); `tuned`: no per-command timeout, as the add-on's. */
const rawClient = (url: string, tuned = false) => createClient({ url, ...(tuned ? { commandOptions: { timeout: 0 } } : {}) });
export type RawRedis = ReturnType<typeof rawClient>;

/** The add-on's default number of command clients (connectRedis's commandClients). */
export const ADDON_COMMAND_CLIENTS = 2;

/** Clients opened as the add-on opens its command clients: ADDON_COMMAND_CLIENTS of them, no per-command timer; used in turn by taskFloorPerSecond. */
export async function openTunedFloorClients(url: string): Promise<{ clients: RawRedis[]; close(): Promise<void> }> {
  const clients = Array.from({ length: ADDON_COMMAND_CLIENTS }, () => rawClient(url, true));
  for (const client of clients) client.on("error", () => undefined);
  await Promise.all(clients.map((client) => client.connect()));
  return { clients, close: async () => void (await Promise.allSettled(clients.map((client) => client.close()))) };
}

/** Two raw connections to `url` (a command client and its duplicate for SUBSCRIBE). */
export async function openFloorClients(url: string): Promise<{ a: RawRedis; b: RawRedis; close(): Promise<void> }> {
  const a = rawClient(url);
  // Connection errors are retried by the client; without a listener they would crash the process.
  a.on("error", () => undefined);
  const b = a.duplicate();
  b.on("error", () => undefined);
  await Promise.all([a.connect(), b.connect()]);
  return { a, b, close: async () => void (await Promise.allSettled([a.close(), b.close()])) };
}

/** A value of the shape and size RedisTaskStore stores for a task that completed at once. */
function taskJson(ttlMs: number): string {
  const now = new Date().toISOString();
  return JSON.stringify({ taskId: randomUUID(), status: "completed", createdAt: now, lastUpdatedAt: now, ttlMs, pollIntervalMs: 1000, result: { content: [] } });
}

/** Tasks written (SET … PXAT) and read back (GET) per second, `concurrency` at a time; several clients are used in turn, command by command. */
export async function taskFloorPerSecond(redis: RawRedis | readonly RawRedis[], count: number, concurrency: number): Promise<number> {
  const ttlMs = 60_000;
  const clients = Array.isArray(redis) ? redis : [redis as RawRedis];
  let turn = 0;
  const client = (): RawRedis => clients[turn++ % clients.length] as RawRedis;
  let left = count;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const key = `floor:task:${next++}`;
        await client().sendCommand(["SET", key, taskJson(ttlMs), "PXAT", String(Date.now() + ttlMs)]);
        const json = await client().sendCommand(["GET", key]);
        if (typeof json !== "string" || typeof (JSON.parse(json) as { taskId?: unknown }).taskId !== "string") throw new Error(`floor: task ${key} did not read back`);
      }
    }),
  );
  return (count / (performance.now() - started)) * 1000;
}

/** ms from a raw PUBLISH on `a` to the message at a SUBSCRIBE callback on `b`, `count` times in turn. */
export async function fanOutFloor(a: RawRedis, b: RawRedis, count: number): Promise<number[]> {
  const channel = "floor:bus";
  // The size of what RedisSubscriptionBus publishes for a list change.
  const message = JSON.stringify({ origin: randomUUID(), method: "notifications/tools/list_changed" });
  let delivered: (() => void) | undefined;
  const listener = (): void => delivered?.();
  await b.subscribe(channel, listener);
  const latencies: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const arrived = new Promise<void>((resolve) => (delivered = resolve));
      const t0 = performance.now();
      // Not awaited first: the clock stops at the delivery, whether or not PUBLISH's reply came before it (as the row's hub does not wait either).
      const sent = a.publish(channel, message);
      await arrived;
      latencies.push(performance.now() - t0);
      await sent;
    }
  } finally {
    await b.unsubscribe(channel, listener);
  }
  return latencies;
}
