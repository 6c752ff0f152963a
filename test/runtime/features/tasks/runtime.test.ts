/**
 * The Tasks extension in the runtime (templates/runtime/features/tasks.ts and its wiring in the generated
 * 2026-07-28 client and server, generated with --extension tasks), at the wire: a call that
 * became a task is cancelled with tasks/cancel, never notifications/cancelled, on the send path
 * and on the receive path; the task object polls, answers input, ends; the store is bounded.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import * as R from "../../../generated-tasks/2026-07-28/index.js";
import type { CancellationEvent, JsonRpcMessage, Transport } from "../../../generated-tasks/2026-07-28/index.js";
import { aborted, deferred, settle, TapTransport } from "../../../helpers/harness.js";

const CLIENT_INFO = { name: "tasks-test", version: "1.0.0" };
const DECLARES_TASKS = { extensions: { [R.TASKS_EXTENSION]: {} } };

type Request = { jsonrpc: "2.0"; id: string | number; method: string; params?: Record<string, unknown> };
const requests = (wire: TapTransport, method: string) => wire.sent.filter((m): m is Request => "method" in m && m.method === method && "id" in m);
const notifications = (wire: TapTransport, method: string) => wire.sent.filter((m) => "method" in m && m.method === method && !("id" in m));
const results = (wire: TapTransport) => wire.sent.filter((m): m is { jsonrpc: "2.0"; id: string | number; result: Record<string, unknown> } => "result" in m);

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Setup {
  work?: (task: R.TaskWork, params: R.CallToolRequestParams) => Promise<R.JsonObject> | R.JsonObject;
  client?: Partial<R.McpClientOptions>;
  manager?: R.TaskManager;
}

async function pair(setup: Setup = {}) {
  const [a, b] = R.createInMemoryTransportPair();
  const clientWire = new TapTransport(a as never);
  const serverWire = new TapTransport(b as never);
  const clientEvents: CancellationEvent[] = [];
  const serverEvents: CancellationEvent[] = [];
  const tasks = setup.manager ?? new R.TaskManager({ pollIntervalMs: 10 });
  const work = setup.work ?? (() => ({ content: [{ type: "text", text: "done" }] }));
  const server = new R.McpServer({
    logger: null,
    onCancellation: (e) => serverEvents.push(e),
    tasks,
    handlers: {
      "tools/call": (params, ctx) => (tasks.declared(ctx._meta) ? tasks.start((task) => work(task, params)) : { resultType: "complete", content: [{ type: "text", text: "sync" }] }),
    },
  });
  const client = new R.McpClient({ logger: null, onCancellation: (e) => clientEvents.push(e), clientInfo: CLIENT_INFO, capabilities: DECLARES_TASKS, ...setup.client });
  await server.connect(serverWire as unknown as Transport);
  await client.connect(clientWire as unknown as Transport, { initialize: false });
  return { client, server, tasks, clientWire, serverWire, clientEvents, serverEvents };
}

function asTask(value: unknown): R.ClientTask<R.CallToolResult> {
  expect(value).toBeInstanceOf(R.ClientTask);
  return value as R.ClientTask<R.CallToolResult>;
}

describe("a call that became a task", () => {
  it("resolves to a ClientTask from the server's flat handle; result() polls tasks/get and resolves to the tool's result", async () => {
    const { client, clientWire, serverWire } = await pair();
    const task = asTask(await client.callTool({ name: "slow" }));
    const [handle] = results(serverWire);
    expect(handle?.result).toMatchObject({ resultType: "task", taskId: task.taskId, status: "working", ttlMs: 3_600_000, pollIntervalMs: 10 });
    expect(Object.keys(handle!.result).sort()).toEqual(["_meta", "createdAt", "lastUpdatedAt", "pollIntervalMs", "resultType", "status", "taskId", "ttlMs"]);
    expect(await task.result()).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(requests(clientWire, "tasks/get").at(-1)?.params).toMatchObject({ taskId: task.taskId });
    expect(task.status).toBe("completed");
  });

  it("a client that did not declare the extension gets the plain result (the server decides per request)", async () => {
    const { client } = await pair({ client: { capabilities: {} } });
    expect(await client.callTool({ name: "slow" })).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "sync" }] });
  });

  it("a client that did not declare the extension never gets a task handle: a server that answers with one anyway makes the call reject with UndeclaredTaskError", async () => {
    const [a, b] = R.createInMemoryTransportPair();
    const clientWire = new TapTransport(a as never);
    const tasks = new R.TaskManager({ pollIntervalMs: 10 });
    // Breaks SEP-2663's MUST NOT: starts a task whatever the client declared.
    const careless = () => new R.McpServer({ logger: null, tasks, handlers: { "tools/call": () => tasks.start(() => ({ content: [] })) } });
    const server = careless();
    const client = new R.McpClient({ logger: null, clientInfo: CLIENT_INFO });
    await server.connect(b);
    await client.connect(clientWire as unknown as Transport);
    const error = await client.callTool({ name: "slow" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(R.UndeclaredTaskError);
    expect((error as R.UndeclaredTaskError).message).toBe(
      `the server answered with a task (${(error as R.UndeclaredTaskError).taskId}), but this client did not declare the io.modelcontextprotocol/tasks extension in its capabilities`,
    );
    // The client never treated it as a task: no tasks/get polling, nothing cancelled.
    await settle();
    expect(requests(clientWire, "tasks/get")).toEqual([]);
    expect(notifications(clientWire, "notifications/cancelled")).toEqual([]);
    // The same server and a client that declares the extension: a ClientTask.
    const [c, d] = R.createInMemoryTransportPair();
    const declaring = new R.McpClient({ logger: null, clientInfo: CLIENT_INFO, capabilities: DECLARES_TASKS });
    const second = careless();
    await second.connect(d);
    await declaring.connect(c);
    asTask(await declaring.callTool({ name: "slow" }));
    await Promise.all([client.close(), declaring.close(), server.close(), second.close()]);
  });

  it("aborting the call's signal afterwards sends one tasks/cancel and never notifications/cancelled; the work's signal aborts; the task ends cancelled", async () => {
    const started = deferred<AbortSignal>();
    const { client, clientWire, clientEvents, tasks } = await pair({
      work: async (task) => {
        started.resolve(task.signal);
        await aborted(task.signal);
        return { content: [] };
      },
    });
    const controller = new AbortController();
    const task = asTask(await client.callTool({ name: "slow" }, { signal: controller.signal }));
    const workSignal = await started.promise;
    controller.abort("user gave up");
    await until(() => requests(clientWire, "tasks/cancel").length === 1, "tasks/cancel");
    await aborted(workSignal);
    expect(workSignal.reason).toBe("task cancelled");
    expect(requests(clientWire, "tasks/cancel")[0]?.params).toMatchObject({ taskId: task.taskId });
    expect(notifications(clientWire, "notifications/cancelled")).toEqual([]);
    expect(clientEvents.filter((e) => e.type === "sent")).toEqual([]);
    await expect(task.result()).rejects.toBeInstanceOf(R.TaskCancelledError);
    expect((await tasks.store.get(task.taskId))?.status).toBe("cancelled");
    await settle();
    expect(requests(clientWire, "tasks/cancel")).toHaveLength(1);
  });

  it('afterTask: "detach": the abort sends nothing and the task runs on', async () => {
    const { client, clientWire } = await pair();
    const controller = new AbortController();
    const task = asTask(await client.callTool({ name: "slow" }, { signal: controller.signal, afterTask: "detach" }));
    controller.abort();
    await settle();
    expect(requests(clientWire, "tasks/cancel")).toEqual([]);
    expect(notifications(clientWire, "notifications/cancelled")).toEqual([]);
    expect(await task.result()).toEqual({ content: [{ type: "text", text: "done" }] });
  });

  it("the call's signal listener is released once the task is seen to end (no listener left on a long-lived signal)", async () => {
    const { client } = await pair();
    const controller = new AbortController();
    for (let i = 0; i < 5; i++) await asTask(await client.callTool({ name: "slow" }, { signal: controller.signal })).result();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("cancel() is tasks/cancel: acknowledged with an empty complete result, idempotent on a finished task", async () => {
    const { client, serverWire } = await pair();
    const task = asTask(await client.callTool({ name: "slow" }));
    await task.result();
    await task.cancel();
    const ack = results(serverWire).at(-1)?.result;
    expect(ack).toMatchObject({ resultType: "complete" });
    expect(Object.keys(ack!).filter((k) => k !== "_meta")).toEqual(["resultType"]);
    expect((await task.get())["status"]).toBe("completed");
  });
});

describe("the receive path: notifications/cancelled for a request that became a task", () => {
  it("is ignored and reported as became-task; the task is not touched", async () => {
    const { client, clientWire, serverEvents, tasks } = await pair({ work: (task) => aborted(task.signal).then(() => ({ content: [] })) });
    const task = asTask(await client.callTool({ name: "slow" }));
    const call = requests(clientWire, "tools/call")[0]!;
    await clientWire.inner.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: call.id, reason: "too late" } } as JsonRpcMessage);
    await settle();
    expect(serverEvents).toContainEqual({ type: "ignored", cause: "became-task", requestId: call.id, reason: "too late" });
    expect((await tasks.store.get(task.taskId))?.status).toBe("working");
    expect(tasks.running).toBe(1);
    await task.cancel();
  });
});

describe("the race: the call is aborted while its response, a task handle, is on its way", () => {
  it("the client sends notifications/cancelled (the request was in flight), then tasks/cancel for the late handle", async () => {
    // The test plays the server: it answers after the client cancelled, as if the two crossed.
    const [a, b] = R.createInMemoryTransportPair();
    const clientWire = new TapTransport(a as never);
    const received: JsonRpcMessage[] = [];
    b.onmessage = (m) => received.push(m);
    await b.start();
    const clientEvents: CancellationEvent[] = [];
    const client = new R.McpClient({ logger: null, onCancellation: (e) => clientEvents.push(e), clientInfo: CLIENT_INFO, capabilities: DECLARES_TASKS });
    await client.connect(clientWire as unknown as Transport, { initialize: false });
    const controller = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: controller.signal });
    await until(() => requests(clientWire, "tools/call").length === 1, "tools/call");
    const id = requests(clientWire, "tools/call")[0]!.id;
    controller.abort("changed my mind");
    await expect(call).rejects.toBeInstanceOf(R.RequestCancelledError);
    expect(notifications(clientWire, "notifications/cancelled")).toHaveLength(1);
    const at = new Date().toISOString();
    await b.send({ jsonrpc: "2.0", id, result: { resultType: "task", taskId: "late-1", status: "working", createdAt: at, lastUpdatedAt: at, ttlMs: null } } as JsonRpcMessage);
    await until(() => requests(clientWire, "tasks/cancel").length === 1, "tasks/cancel of the late task");
    expect(requests(clientWire, "tasks/cancel")[0]?.params).toMatchObject({ taskId: "late-1" });
    expect(clientEvents).toContainEqual({ type: "late-task", requestId: id, taskId: "late-1", method: "tasks/cancel" });
    // A late plain result is only ignored.
    const call2 = client.callTool({ name: "slow" }, { signal: AbortSignal.abort("at once") });
    await expect(call2).rejects.toBeInstanceOf(R.RequestCancelledError);
    await client.close();
  });
});

describe("input_required through the client's handlers", () => {
  it("the work asks; result() answers with the client's elicitation handler and tasks/update; the work resumes with the answers", async () => {
    const { client, clientWire } = await pair({
      work: async (task) => {
        const answers = await task.input({ name: { method: "elicitation/create", params: { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } });
        return { content: [{ type: "text", text: JSON.stringify(answers) }] };
      },
      client: { capabilities: { ...DECLARES_TASKS, elicitation: { form: {} } }, handlers: { "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }) } },
    });
    const task = asTask(await client.callTool({ name: "asks" }));
    const statuses: unknown[] = [];
    const result = await task.result({ onStatus: (t) => statuses.push(t["status"]) });
    expect(statuses).toContain("input_required");
    expect(requests(clientWire, "tasks/update")).toHaveLength(1);
    expect(requests(clientWire, "tasks/update")[0]?.params).toMatchObject({ taskId: task.taskId, inputResponses: { name: { action: "accept", content: { name: "Ada" } } } });
    expect(result).toEqual({ content: [{ type: "text", text: JSON.stringify({ name: { action: "accept", content: { name: "Ada" } } }) }] });
  });
});

describe("answers a few at a time (partial fulfillment)", () => {
  it("the task stays input_required with only the unanswered keys until all are answered; unasked keys are dropped", async () => {
    const ask = (message: string) => ({ method: "elicitation/create", params: { mode: "form", message, requestedSchema: { type: "object", properties: {} } } });
    const { client } = await pair({
      work: async (task) => ({ content: [{ type: "text", text: JSON.stringify(await task.input({ a: ask("A?"), b: ask("B?") })) }] }),
    });
    const task = asTask(await client.callTool({ name: "two" }));
    for (let i = 0; (await task.get())["status"] !== "input_required"; i++) if (i > 100) throw new Error("never input_required");
    await client.updateTask({ taskId: task.taskId, inputResponses: { a: { action: "accept", content: { v: 1 } }, zzz: { action: "decline" } } });
    const after = await task.get();
    expect(after["status"]).toBe("input_required");
    expect(Object.keys(after["inputRequests"] as object)).toEqual(["b"]);
    await client.updateTask({ taskId: task.taskId, inputResponses: { b: { action: "decline" } } });
    expect(await task.result()).toEqual({ content: [{ type: "text", text: JSON.stringify({ a: { action: "accept", content: { v: 1 } }, b: { action: "decline" } }) }] });
  });
});

describe("how a task ends", () => {
  it("a tool error completes the task with isError; an McpError fails it with that error; anything else fails it with -32603", async () => {
    const outcomes: Array<(task: R.TaskWork) => R.JsonObject | Promise<R.JsonObject>> = [
      () => ({ content: [{ type: "text", text: "bad input" }], isError: true }),
      () => {
        throw new R.McpError(-32001, "backend down", { retry: true });
      },
      () => {
        throw new TypeError("secret detail");
      },
    ];
    let next = 0;
    const { client } = await pair({ work: (task) => outcomes[next++]!(task) });
    expect(await asTask(await client.callTool({ name: "a" })).result()).toMatchObject({ isError: true });
    const failed = await asTask(await client.callTool({ name: "b" })).result().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(R.TaskFailedError);
    expect(failed).toMatchObject({ code: -32001, data: { retry: true } });
    const crashed = asTask(await client.callTool({ name: "c" }));
    await expect(crashed.result()).rejects.toMatchObject({ code: -32603 });
    expect(JSON.stringify(crashed.latest)).not.toContain("secret detail");
    expect(crashed.latest["error"]).toEqual({ code: -32603, message: "Internal error" });
  });
});

describe("tasks/* from a hostile or mistaken client", () => {
  it("a client that did not declare the extension: tasks/get, tasks/update, tasks/cancel are -32021 with data.requiredCapabilities", async () => {
    const { client } = await pair({ client: { capabilities: {} } });
    for (const call of [client.getTask({ taskId: "t" }), client.updateTask({ taskId: "t", inputResponses: {} }), client.cancelTask({ taskId: "t" })]) {
      await expect(call).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [R.TASKS_EXTENSION]: {} } } } });
    }
  });

  it("unknown task ids and malformed params are -32602; answers for a task that asks nothing change nothing", async () => {
    const { client, tasks } = await pair({ work: (task) => aborted(task.signal).then(() => ({ content: [] })) });
    await expect(client.getTask({ taskId: "nope" })).rejects.toMatchObject({ code: -32602 });
    await expect(client.cancelTask({ taskId: "nope" })).rejects.toMatchObject({ code: -32602 });
    for (const taskId of ["", "x".repeat(257), 7, null]) {
      await expect(client.request("tasks/get", { taskId } as never)).rejects.toMatchObject({ code: -32602 });
    }
    const task = asTask(await client.callTool({ name: "slow" }));
    await expect(client.request("tasks/update", { taskId: task.taskId, inputResponses: [] } as never)).rejects.toMatchObject({ code: -32602 });
    await client.updateTask({ taskId: task.taskId, inputResponses: { x: { action: "accept" } } });
    expect(await tasks.store.get(task.taskId)).not.toHaveProperty("inputResponses");
    expect((await tasks.store.get(task.taskId))?.status).toBe("working");
    await task.cancel();
  });
});

describe("the in-memory task store", () => {
  it("expires a task ttlMs after its creation", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const store = new R.InMemoryTaskStore({ now: () => now });
    store.create({ taskId: "t", status: "working", createdAt: new Date(now).toISOString(), lastUpdatedAt: new Date(now).toISOString(), ttlMs: 1_000 });
    now += 999;
    expect(store.get("t")?.status).toBe("working");
    now += 1;
    expect(store.get("t")).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("is bounded: finished tasks make room first; a store full of running tasks refuses a new one", () => {
    const store = new R.InMemoryTaskStore({ maxTasks: 2 });
    const at = new Date().toISOString();
    const task = (taskId: string, status: R.TaskStatus): R.StoredTask => ({ taskId, status, createdAt: at, lastUpdatedAt: at, ttlMs: null });
    store.create(task("a", "completed"));
    store.create(task("b", "working"));
    store.create(task("c", "working"));
    expect(store.get("a")).toBeUndefined();
    expect(store.size).toBe(2);
    expect(() => store.create(task("d", "working"))).toThrow(/the task store is full/);
  });

  it("a throwing watcher does not stop the update or the other watchers", () => {
    const store = new R.InMemoryTaskStore();
    const at = new Date().toISOString();
    store.create({ taskId: "t", status: "working", createdAt: at, lastUpdatedAt: at, ttlMs: null });
    const seen: string[] = [];
    store.watch("t", () => {
      throw new Error("boom");
    });
    const stop = store.watch("t", (t) => seen.push(t.status));
    expect(store.update("t", (t) => ({ ...t, status: "cancelled" }))?.status).toBe("cancelled");
    stop();
    store.update("t", (t) => ({ ...t, statusMessage: "x" }));
    expect(seen).toEqual(["cancelled"]);
  });
});

describe("TaskManager options", () => {
  it("ttlMs and pollIntervalMs are whole milliseconds (the wire's integers): anything else is a RangeError", async () => {
    expect(() => new R.TaskManager({ pollIntervalMs: 1.5 })).toThrow(RangeError);
    expect(() => new R.TaskManager({ ttlMs: -1 })).toThrow(/ttlMs must be an integer ≥ 0, got -1/);
    const tasks = new R.TaskManager({ ttlMs: null });
    await expect(tasks.start(() => ({}), { pollIntervalMs: Number.NaN })).rejects.toThrow(RangeError);
    const handle = await tasks.start(() => ({}), { ttlMs: 5_000, pollIntervalMs: 250 });
    expect(handle).toMatchObject({ ttlMs: 5_000, pollIntervalMs: 250 });
    expect((await tasks.start(() => ({}))).ttlMs).toBeNull();
  });
});

describe("capabilities", () => {
  it("a server with a task manager declares the extension in server/discover", async () => {
    const { client } = await pair();
    const discovered = await client.discover();
    expect(discovered.capabilities.extensions).toEqual({ [R.TASKS_EXTENSION]: {} });
  });
});
