/**
 * The test helper that starts a real redis-server (test/helpers/redis-server.ts): it answers on
 * its port, goes away on kill, comes back empty on start, and is gone after stop. The Redis tests
 * of the runtime stand on it, so it is checked on its own, with the raw protocol.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer, type RedisServer } from "../helpers/redis-server.js";

/** Sends one RESP command as an inline command and resolves with the first reply line (or the error). */
function command(port: number, line: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    socket.setTimeout(3_000, () => socket.destroy(new Error("timeout")));
    socket.on("connect", () => socket.write(`${line}\r\n`));
    socket.on("data", (chunk) => {
      data += chunk.toString("utf8");
      const end = data.indexOf("\r\n");
      if (end >= 0) {
        socket.end();
        resolve(data.slice(0, end));
      }
    });
    socket.on("error", (err) => resolve(`error: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
  });
}

describe("test/helpers/redis-server.ts", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it("starts a real redis-server on a loopback port", async () => {
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await command(redis.port, "PING")).toBe("+PONG");
    expect(await command(redis.port, "SET k v")).toBe("+OK");
    expect(await command(redis.port, "GET k")).toBe("$1");
  });

  it("is gone after kill and back, empty, after start on the same port", async () => {
    await redis.kill();
    expect(await command(redis.port, "PING")).toBe("error: ECONNREFUSED");
    await redis.start();
    expect(await command(redis.port, "PING")).toBe("+PONG");
    expect(await command(redis.port, "GET k")).toBe("$-1");
  });
});
