/**
 * The Redis add-on's connection against a real redis-server: commandTimeoutMs is kept by the
 * connection's own deadlines (one timer for all the commands in flight), with node-redis's own
 * per-command timeout off (it covers only a command not yet written, and costs an
 * AbortSignal.timeout per command). A paused Redis (CLIENT PAUSE from a second connection) answers nothing
 * until the pause ends, so each command's fate is decided by its deadline alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis, RedisUnavailableError, type RedisConnection } from "../../../../templates/runtime/addons/redis/connection.js";
import { startRedisServer, type RedisServer } from "../../../helpers/redis-server.js";

let redis: RedisServer;
let control: RedisConnection;
const opened: RedisConnection[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  control = await connectRedis({ url: redis.url, prefix: "control:" });
});

afterAll(async () => {
  await Promise.all([...opened, control].map((c) => c.close()));
  await redis.stop();
});

async function open(commandTimeoutMs: number, commandClients?: number): Promise<RedisConnection> {
  const connection = await connectRedis({ url: redis.url, prefix: "c:", commandTimeoutMs, commandClients });
  opened.push(connection);
  return connection;
}

/** Pauses every client but `control` for `ms` (CLIENT PAUSE ALL also holds control's later commands, so none is sent meanwhile). */
const pause = (ms: number): Promise<unknown> => control.command(["CLIENT", "PAUSE", String(ms), "ALL"]);

/** When `promise` settles, in ms from `from`, and how. */
function timed<T>(promise: Promise<T>, from: number): Promise<{ ms: number; value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ ms: performance.now() - from, value }),
    (error: unknown) => ({ ms: performance.now() - from, error }),
  );
}

describe("RedisConnection: commandTimeoutMs", () => {
  it("fails each command at its own deadline, never before it, naming the command and the bound", async () => {
    const connection = await open(300);
    await pause(1500);
    const t0 = performance.now();
    const first = timed(connection.command(["GET", "c:a"]), t0);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const t1 = performance.now();
    const second = timed(connection.command(["SET", "c:b", "1"]), t1);
    const [a, b] = await Promise.all([first, second]);
    expect(a.error).toBeInstanceOf(RedisUnavailableError);
    expect((a.error as Error).message).toBe("Redis did not answer GET within 300 ms (commandTimeoutMs)");
    expect((b.error as Error).message).toBe("Redis did not answer SET within 300 ms (commandTimeoutMs)");
    // Each at its own deadline: not early, and not held for the other's.
    expect(a.ms).toBeGreaterThanOrEqual(299);
    expect(b.ms).toBeGreaterThanOrEqual(299);
    expect(a.ms).toBeLessThan(1000);
    expect(b.ms).toBeLessThan(1000);
    expect(t1 + b.ms).toBeGreaterThan(t0 + a.ms + 60);
    // Once the pause ends the connection answers again.
    await expect.poll(() => connection.command<string>(["PING"]).catch(() => "down"), { timeout: 3000, interval: 100 }).toBe("PONG");
  });

  it("a reply within the bound is the answer, and its deadline, reached later, fails nothing", async () => {
    const connection = await open(400);
    await pause(150);
    const t0 = performance.now();
    const answer = await timed(connection.command<string>(["PING"]), t0);
    expect(answer.error).toBeUndefined();
    expect(answer.value).toBe("PONG");
    expect(answer.ms).toBeGreaterThanOrEqual(100);
    // Past the answered command's deadline, a new one still has its whole bound.
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await connection.command<string>(["PING"])).toBe("PONG");
  });
});

describe("RedisConnection: command clients", () => {
  it("sends commands on its clients in turn (two by default), one socket with commandClients 1", async () => {
    const ids = async (connection: RedisConnection): Promise<Set<number>> => new Set(await Promise.all(Array.from({ length: 6 }, () => connection.command<number>(["CLIENT", "ID"]))));
    expect((await ids(await open(2000))).size).toBe(2);
    expect((await ids(await open(2000, 3))).size).toBe(3);
    expect((await ids(await open(2000, 1))).size).toBe(1);
  });

  it("a client that dropped is passed over while it reconnects: the others answer", async () => {
    const connection = await open(2000);
    const [first] = await Promise.all([connection.command<number>(["CLIENT", "ID"]), connection.command<number>(["CLIENT", "ID"])]);
    await control.command(["CLIENT", "KILL", "ID", String(first)]);
    // A command already sent on it when it dropped fails ("Socket closed"); once the drop is seen
    // (at once on loopback; its reconnect waits 50 ms first), every command is answered by the
    // client still connected, or by the dropped one back under a new id.
    await new Promise((resolve) => setTimeout(resolve, 15));
    const answers = await Promise.all(Array.from({ length: 8 }, () => connection.command<number>(["CLIENT", "ID"])));
    expect(answers).not.toContain(first);
    expect(connection.ready).toBe(true);
  });

  it("commandClients is checked where it is read: 1 to 16 whole clients", async () => {
    for (const bad of [0, 17, 1.5, Number.NaN]) {
      await expect(connectRedis({ url: redis.url, commandClients: bad })).rejects.toThrow(RangeError);
    }
    await expect(connectRedis({ url: redis.url, commandClients: 17 })).rejects.toThrow("commandClients must be an integer from 1 to 16, got 17");
  });
});
