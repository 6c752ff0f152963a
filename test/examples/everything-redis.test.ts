/**
 * The everything server on Redis (issue 31, item 5): two of them, on two ports, started with the
 * same `--redis` and `--state-key`, behave as one server for the 2026-07-28 half: a task started
 * on one is read and cancelled on the other, a requestState sealed by one is accepted by the
 * other and only once. `--redis` without `--state-key` is refused at startup.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEverythingServer, type RunningEverythingServer } from "../helpers/everything-server.js";
import { startRedisServer, type RedisServer } from "../helpers/redis-server.js";
import { modern, type Answer } from "../integration/redis/support.js";

let redis: RedisServer;
let servers: RunningEverythingServer[];

beforeAll(async () => {
  redis = await startRedisServer();
  const flags = ["--redis", redis.url, "--state-key", randomBytes(32).toString("hex")];
  servers = await Promise.all([startEverythingServer(flags), startEverythingServer(flags)]);
}, 60_000);

afterAll(async () => {
  await Promise.all((servers ?? []).map((s) => s.stop()));
  await redis?.stop();
});

const origin = (server: RunningEverythingServer): string => server.url.replace(/\/mcp$/, "");
const result = (answer: Answer): Record<string, unknown> => {
  expect(answer.message?.["error"], JSON.stringify(answer.message)).toBeUndefined();
  return answer.message?.["result"] as Record<string, unknown>;
};

describe("everything-server --redis --state-key", () => {
  it("two servers on one Redis share tasks: started on one, read and cancelled on the other", async () => {
    const [one, two] = servers.map(origin) as [string, string];
    const handle = result(await modern(one, "tools/call", { name: "slow_compute", arguments: { seconds: 30 } }));
    expect(handle["resultType"]).toBe("task");
    const taskId = handle["taskId"] as string;
    expect(result(await modern(two, "tasks/get", { taskId }))["status"]).toBe("working");
    result(await modern(two, "tasks/cancel", { taskId }));
    expect(result(await modern(one, "tasks/get", { taskId }))["status"]).toBe("cancelled");
  });

  it("a requestState sealed by one is accepted by the other, once", async () => {
    const [one, two] = servers.map(origin) as [string, string];
    const name = "test_input_required_result_request_state";
    const asked = result(await modern(one, "tools/call", { name }));
    expect(asked["resultType"]).toBe("input_required");
    const retry = { name, inputResponses: { confirm: { action: "accept", content: { ok: true } } }, requestState: asked["requestState"] };
    expect(JSON.stringify(result(await modern(two, "tools/call", retry))["content"])).toContain("state-ok");
    expect((await modern(one, "tools/call", retry)).message?.["error"]).toMatchObject({ code: -32602, data: { reason: "replayed" } });
  });

  it("refuses --redis without --state-key at startup", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "examples/everything-server.ts", "--port", "0", "--redis", redis.url], { encoding: "utf8", timeout: 30_000, env: { ...process.env, MCP_STATE_KEY: "" } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--redis needs --state-key");
  });
});
