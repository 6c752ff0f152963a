/**
 * Issue 31, item 4: Redis faults under two instance processes (test/helpers/redis-instance), A
 * serving its HTTP handlers on the native face and B on the web face (test/helpers/faces.ts).
 * - Redis killed mid-run: a request that needs it fails at once with a clear error (no crash,
 *   no hang: each wait is bounded, `within`), a request that does not still works; Redis started
 *   again: both instances recover without a restart, and the task stored before the outage is
 *   still there and still reachable: cancelled through the other instance, its work (on the
 *   first) sees the cancel. This Redis keeps its data across the kill (the helper's `persistent`:
 *   an append-only file synced at every write), as a production Redis with persistence would;
 *   a Redis that comes back empty has lost the tasks with it, which no server can prevent.
 * - Redis slow (CLIENT PAUSE: every command waits): requests that need it fail after the
 *   instance's commandTimeoutMs (500 ms) with a message naming it; requests that do not are
 *   answered meanwhile.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis } from "../../../templates/runtime/addons/redis/connection.js";
import { waitFor, within } from "../../helpers/async.js";
import { startRedisInstance, type RedisInstance } from "../../helpers/redis-instance.js";
import { startRedisServer, type RedisServer } from "../../helpers/redis-server.js";
import { modern, type Answer } from "./support.js";

let redis: RedisServer;
let a: RedisInstance;
let b: RedisInstance;

beforeAll(async () => {
  redis = await startRedisServer({ persistent: true });
  const key = randomBytes(32).toString("hex");
  [a, b] = await Promise.all([startRedisInstance("A", "native", redis.url, key), startRedisInstance("B", "web", redis.url, key)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
});

const result = (answer: Answer): Record<string, unknown> => {
  expect(answer.message?.["error"], JSON.stringify(answer.message)).toBeUndefined();
  return answer.message?.["result"] as Record<string, unknown>;
};
const whoami = async (instance: RedisInstance) => result(await within(`whoami on ${instance.name}`, modern(instance.origin, "tools/call", { name: "whoami" }), 2000))["content"];

describe("Redis faults", () => {
  it("Redis killed mid-run: clear errors at once, no crash; started again: recovery without a restart, and the stored task is neither lost nor cut off from its work", async () => {
    const started = result(await modern(a.origin, "tools/call", { name: "wait_task" }));
    const taskId = started["taskId"] as string;
    await a.line(new RegExp(`^work ${taskId} started on A$`));
    expect(result(await modern(b.origin, "tasks/get", { taskId }))["status"]).toBe("working");

    await redis.kill();
    // Needs Redis: an error naming it, at once (no offline queue), on either instance.
    for (const instance of [a, b]) {
      const failed = await waitFor("the instance to notice Redis is gone", async () => {
        const answer = await within("tasks/get while Redis is down", modern(instance.origin, "tasks/get", { taskId }), 3000);
        return answer.message?.["error"] === undefined ? undefined : answer;
      });
      expect(failed.message?.["error"]).toMatchObject({ code: -32603, message: expect.stringMatching(/^Redis (is unavailable|did not answer)/) });
      const refused = await within("a new task while Redis is down", modern(instance.origin, "tools/call", { name: "wait_task" }), 3000);
      expect(refused.message?.["error"]).toMatchObject({ code: -32603, message: expect.stringMatching(/^Redis /) });
    }
    // Needs nothing of Redis: served as usual.
    expect(await whoami(a)).toEqual([{ type: "text", text: "A" }]);
    expect(await whoami(b)).toEqual([{ type: "text", text: "B" }]);

    await redis.start();
    const back = await waitFor(
      "B to reach Redis again",
      async () => {
        const answer = await modern(b.origin, "tasks/get", { taskId });
        return answer.message?.["error"] === undefined ? answer : undefined;
      },
      10_000,
    );
    // The task stored before the outage is still there...
    expect(result(back)).toMatchObject({ taskId, status: "working" });
    // ...and its work on A still hears of it: cancelled through B, at once, whether or not A is
    // back on the channel yet (if not, A re-reads its watched tasks when it is: RedisTaskStore resync).
    expect(result(await modern(b.origin, "tasks/cancel", { taskId }))).toMatchObject({ resultType: "complete" });
    await a.line(new RegExp(`^work ${taskId} saw cancel: task cancelled on A$`), 10_000);
    expect(result(await modern(a.origin, "tasks/get", { taskId }))["status"]).toBe("cancelled");
    // New work on both instances again.
    for (const instance of [a, b]) expect(result(await modern(instance.origin, "tools/call", { name: "wait_task" }))["resultType"]).toBe("task");
    // What went wrong meanwhile reached the instance's onError, each failure naming Redis.
    for (const line of [...a.lines, ...b.lines].filter((l) => l.startsWith("error "))) expect(line).toMatch(/Redis|Socket closed|ECONNREFUSED/);
  });

  it("a slow Redis: what needs it fails after commandTimeoutMs with a message naming it; what does not is answered meanwhile", async () => {
    const control = await connectRedis({ url: redis.url, prefix: "control:" });
    try {
      const started = result(await modern(a.origin, "tools/call", { name: "wait_task" }));
      const taskId = started["taskId"] as string;
      await control.command(["CLIENT", "PAUSE", "1500", "ALL"]);
      const slow = within("tasks/get on a paused Redis", modern(b.origin, "tasks/get", { taskId }), 1400);
      // While it waits for Redis, a request that does not need it is answered on the same instance.
      expect(await whoami(b)).toEqual([{ type: "text", text: "B" }]);
      const failed = await slow;
      expect(failed.message?.["error"]).toMatchObject({ code: -32603, message: "Redis did not answer GET within 500 ms (commandTimeoutMs)" });
      await control.command(["CLIENT", "UNPAUSE"]).catch(() => undefined);
      const back = await waitFor("Redis to answer again", async () => {
        const answer = await modern(b.origin, "tasks/get", { taskId });
        return answer.message?.["error"] === undefined ? answer : undefined;
      });
      expect(result(back)["status"]).toBe("working");
    } finally {
      await control.close();
    }
  });
});
