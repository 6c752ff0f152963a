/**
 * Issue 31, item 3: two instances of one server that share nothing but Redis, each its own
 * process (test/helpers/redis-instance/server.ts), behind a round-robin proxy, on a real
 * redis-server. A step that must reach "the other" instance is sent when the proxy's turn is
 * there (a cheap request moves it on), and every answer says which instance served it. A serves
 * its HTTP handlers on the native face, B on the web face (test/helpers/faces.ts): each test
 * crosses both, and a session, a task or a requestState made on one face goes on on the other.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, within } from "../../helpers/async.js";
import { startRedisInstance, type RedisInstance } from "../../helpers/redis-instance.js";
import { startRedisServer, type RedisServer } from "../../helpers/redis-server.js";
import { startRoundRobinProxy, type RoundRobinProxy } from "../../helpers/round-robin-proxy.js";
import { legacy, legacyRequest, modern, modernHeaders, modernMeta, sseEvents, type Answer } from "./support.js";

let redis: RedisServer;
let instances: RedisInstance[];
let proxy: RoundRobinProxy;

beforeAll(async () => {
  redis = await startRedisServer();
  const key = randomBytes(32).toString("hex");
  instances = await Promise.all([startRedisInstance("A", "native", redis.url, key), startRedisInstance("B", "web", redis.url, key)]);
  proxy = await startRoundRobinProxy(instances.map((i) => i.origin));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await redis?.stop();
});

/** The next SSE event, or a clear failure after 15 s (a bound for a loaded machine, not a timing claim). */
const next = <T>(events: AsyncGenerator<T>) => within("an SSE event", events.next(), 15_000);

const name = (index: number): string => instances[index]!.name;
const other = (instance: string | null): number => (instance === "A" ? 1 : 0);

/** Sends `step` through the proxy when its turn is at `index` (cheap 2026 requests move the turn on). */
async function on(index: number, step: () => Promise<Answer>): Promise<Answer> {
  while (proxy.nextIndex !== index) await modern(proxy.origin, "tools/call", { name: "whoami" });
  const answer = await step();
  expect(answer.instance).toBe(name(index));
  return answer;
}

const result = (answer: Answer): Record<string, unknown> => {
  expect(answer.message?.["error"], JSON.stringify(answer.message)).toBeUndefined();
  return answer.message?.["result"] as Record<string, unknown>;
};

describe("two instances on one Redis behind a round-robin proxy", () => {
  it("a task started through one is polled, answered and seen through the other; its work, on the first, gets the input", async () => {
    const started = await modern(proxy.origin, "tools/call", { name: "input_task" });
    const handle = result(started);
    expect(handle).toMatchObject({ resultType: "task", status: "working" });
    const taskId = handle["taskId"] as string;
    const first = instances.findIndex((i) => i.name === started.instance);
    const second = other(started.instance);
    await instances[first]!.line(new RegExp(`^work ${taskId} started on ${name(first)}$`));
    const asked = await waitFor("the task to ask for input", async () => {
      const task = result(await on(second, () => modern(proxy.origin, "tasks/get", { taskId })));
      return task["status"] === "input_required" ? task : undefined;
    });
    expect(asked["inputRequests"]).toMatchObject({ confirm: { method: "elicitation/create" } });
    expect(result(await on(second, () => modern(proxy.origin, "tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: { ok: true } } } })))).toMatchObject({ resultType: "complete" });
    await instances[first]!.line(new RegExp(`^work ${taskId} got input \\{"confirm":\\{"action":"accept","content":\\{"ok":true\\}\\}\\} on ${name(first)}$`));
    const done = await waitFor("the task to complete", async () => {
      const task = result(await on(second, () => modern(proxy.origin, "tasks/get", { taskId })));
      return task["status"] === "completed" ? task : undefined;
    });
    expect(done["result"]).toEqual({ content: [{ type: "text", text: `confirmed on ${name(first)}` }] });
    // nothing about this task ran on the second instance
    expect(instances[second]!.lines.filter((l) => l.includes(taskId))).toEqual([]);
  });

  it("a task cancelled through the other instance: the work on the first sees the cancel, and the task reads cancelled everywhere", async () => {
    const started = await modern(proxy.origin, "tools/call", { name: "wait_task" });
    const taskId = result(started)["taskId"] as string;
    const first = instances.findIndex((i) => i.name === started.instance);
    const second = other(started.instance);
    await instances[first]!.line(new RegExp(`^work ${taskId} started on`));
    expect(result(await on(second, () => modern(proxy.origin, "tasks/cancel", { taskId })))).toMatchObject({ resultType: "complete" });
    await instances[first]!.line(new RegExp(`^work ${taskId} saw cancel: task cancelled on ${name(first)}$`));
    for (const index of [first, second]) {
      expect(result(await on(index, () => modern(proxy.origin, "tasks/get", { taskId })))["status"]).toBe("cancelled");
    }
  });

  it("a listen stream on one instance receives a list-changed published on the other", async () => {
    const listenParams = { notifications: { toolsListChanged: true } };
    const listenOn = proxy.nextIndex;
    const controller = new AbortController();
    const response = await fetch(`${proxy.origin}/mcp`, {
      method: "POST",
      headers: modernHeaders("subscriptions/listen", listenParams),
      body: JSON.stringify({ jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { ...listenParams, _meta: modernMeta() } }),
      signal: controller.signal,
    });
    expect(response.headers.get("x-instance")).toBe(name(listenOn));
    const events = sseEvents(response.body!);
    const ack = await next(events);
    expect(ack.value?.data).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true } } });
    const published = await on(1 - listenOn, () => modern(proxy.origin, "tools/call", { name: "publish" }));
    expect(result(published)["content"]).toEqual([{ type: "text", text: `published on ${name(1 - listenOn)}` }]);
    const heard = await next(events);
    expect(heard.value?.data).toMatchObject({ method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" } } });
    controller.abort();
  });

  it("a requestState minted on one instance is accepted on the other, and refused when replayed (single use over both)", async () => {
    const asked = result(await on(0, () => modern(proxy.origin, "tools/call", { name: "confirm" })));
    expect(asked["resultType"]).toBe("input_required");
    const requestState = asked["requestState"] as string;
    expect(typeof requestState).toBe("string");
    const retry = { name: "confirm", inputResponses: { confirm: { action: "accept", content: { ok: true } } }, requestState };
    expect(result(await on(1, () => modern(proxy.origin, "tools/call", retry)))["content"]).toEqual([{ type: "text", text: "confirmed on B" }]);
    for (const index of [0, 1]) {
      const replayed = await on(index, () => modern(proxy.origin, "tools/call", retry));
      expect(replayed.message?.["error"]).toMatchObject({ code: -32602, data: { reason: "replayed" } });
    }
  });

  it("a 2025 session opened on one instance continues on the other after the first stops: new requests work, its in-flight one fails cleanly, its GET stream resumes from the event store", async () => {
    // Opened on A, so that A is the one that stops.
    while (proxy.nextIndex !== 0) await modern(proxy.origin, "tools/call", { name: "whoami" });
    const opened = await legacy(proxy.origin, undefined, legacyRequest("initialize", { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "t", version: "1" } }));
    expect(opened.instance).toBe("A");
    const sessionId = opened.headers.get("mcp-session-id")!;
    expect(result(opened)["protocolVersion"]).toBe("2025-11-25");
    // The next message goes to B, which continues the session from the registry.
    const initialized = await legacy(proxy.origin, sessionId, { method: "notifications/initialized" });
    expect([initialized.status, initialized.instance]).toEqual([202, "B"]);
    expect(result(await legacy(proxy.origin, sessionId, legacyRequest("tools/call", { name: "whoami" })))["content"]).toEqual([{ type: "text", text: "A" }]);

    // The GET stream, opened on A directly; A emits two notifications on it, the client reads them, then the stream breaks.
    const a = instances[0]!;
    const controller = new AbortController();
    const get = await fetch(`${a.origin}/mcp-2025`, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" }, signal: controller.signal });
    expect(get.status).toBe(200);
    const stream = sseEvents(get.body!);
    const priming = await next(stream);
    expect(priming.value?.data).toBeUndefined();
    await legacy(a.origin, sessionId, legacyRequest("tools/call", { name: "emit", arguments: { count: 2 } }));
    const seen: { id: string | undefined; data: unknown }[] = [];
    for (let i = 0; i < 2; i++) seen.push((await next(stream)).value!);
    expect(seen.map((e) => (e.data as { params: { data: string } }).params.data)).toEqual(["A 0", "A 1"]);
    controller.abort();
    // More while the client is away: stored in Redis for its resumption.
    await legacy(a.origin, sessionId, legacyRequest("tools/call", { name: "emit", arguments: { from: 2, count: 2 } }));

    // A request in flight on A, then A crashes.
    const hanging = legacy(a.origin, sessionId, legacyRequest("tools/call", { name: "hang" })).then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    );
    await a.line(/^hang started on A$/);
    await a.stop("SIGKILL");
    const failed = await hanging;
    expect("error" in failed, "the in-flight request fails (its connection broke) rather than hangs").toBe(true);

    // New requests of the session work (the proxy skips A).
    const after = await legacy(proxy.origin, sessionId, legacyRequest("tools/call", { name: "whoami" }));
    expect([after.status, after.instance]).toEqual([200, "B"]);
    expect(result(after)["content"]).toEqual([{ type: "text", text: "B" }]);
    // The GET stream resumes on B from the last event the client saw: the two it missed.
    const resumed = await fetch(`${proxy.origin}/mcp-2025`, {
      headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25", "last-event-id": seen[1]!.id! },
    });
    expect([resumed.status, resumed.headers.get("x-instance")]).toEqual([200, "B"]);
    const replay = sseEvents(resumed.body!);
    const missed = [(await next(replay)).value!, (await next(replay)).value!];
    expect(missed.map((e) => (e.data as { params: { data: string } }).params.data)).toEqual(["A 2", "A 3"]);
    await replay.return(undefined);
  });
});
