/**
 * Tasks belong to the principal that created them (features/tasks.ts, StoredTask.owner), at the
 * wire: a 2026-07-28 server with --extension tasks behind createHttpHandler's `authenticate`, on
 * a real node:http server on 127.0.0.1, on both faces of the handler (native node:http and
 * web-standard, test/helpers/faces.ts). tasks/get, tasks/update and tasks/cancel of another
 * principal's task answer exactly as for a task id nobody ever had, and change nothing; a
 * principal over its task quota is refused with an error naming it, and nobody else is.
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated-tasks/2026-07-28/index.js";
import { describeFaces, listen, type Face } from "../../../helpers/faces.js";
import { call, type Answer } from "../../http/stateless/support.js";
import { defaultPrincipalScenario } from "./default-principal.js";

const DECLARED = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [R.TASKS_EXTENSION]: {} } } };

/** Bearer tokens: `<name>-token` is principal `<name>`. */
const authenticate: R.Authenticate = (request) => {
  const token = /^Bearer ([a-z]+)-token$/.exec(request.headers.get("authorization") ?? "")?.[1];
  return token === undefined ? new Response(null, { status: 401 }) : { id: token };
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serveTasks(face: Face, store?: R.InMemoryTaskStore) {
  const tasks = new R.TaskManager({ pollIntervalMs: 10, ...(store === undefined ? {} : { store }) });
  const server = new R.McpServer({
    logger: null,
    tasks,
    handlers: {
      // The work asks for input and waits: the task stays open for the other principals to try.
      "tools/call": (_params, ctx) => tasks.start(async (task) => ({ content: [{ type: "text", text: JSON.stringify(await task.input({ q: { method: "elicitation/create", params: { message: "ok?", requestedSchema: { type: "object", properties: {} } } } })) }] }), { principal: ctx.principal }),
    },
  });
  const { url, close: stop } = await listen(face, R.createHttpHandler(server, { authenticate }));
  close = stop;
  /** A tasks/* request of `who` for `taskId`, declaring the extension, with Mcp-Name = taskId. */
  const taskCall = (who: string, method: string, params: Record<string, unknown>): Promise<Answer> =>
    call(url, 7, method, { ...params, _meta: DECLARED }, { authorization: `Bearer ${who}-token`, "mcp-name": String(params["taskId"]) });
  const start = async (who: string): Promise<string> => {
    const answer = await call(url, 1, "tools/call", { name: "ask", arguments: {}, _meta: DECLARED }, { authorization: `Bearer ${who}-token` });
    const taskId = (answer.json as { result?: { taskId?: unknown } }).result?.taskId;
    expect(typeof taskId).toBe("string");
    return taskId as string;
  };
  const callTool = (who: string): Promise<Answer> => call(url, 1, "tools/call", { name: "ask", arguments: {}, _meta: DECLARED }, { authorization: `Bearer ${who}-token` });
  return { tasks, taskCall, start, callTool };
}

/** The error of a JSON-RPC answer, without the id (the same for every request here). */
const errorOf = (answer: Answer): unknown => (answer.json as { error?: unknown }).error;

describeFaces("a task is its creator's", (face) => {
  it("tasks/get, tasks/update and tasks/cancel of another principal's task answer as for an unknown task, and change nothing", async () => {
    const { tasks, taskCall, start } = await serveTasks(face);
    const taskId = await start("alice");
    // Wait until the work asked for input (the store's state, through alice's own tasks/get).
    for (let i = 0; i < 200 && (await tasks.store.get(taskId))?.status !== "input_required"; i++) await new Promise((r) => setTimeout(r, 5));
    const stranger = "0f0e0d0c-0b0a-4909-8807-060504030201";
    for (const [method, extra] of [
      ["tasks/get", {}],
      ["tasks/update", { inputResponses: { q: { action: "accept", content: {} } } }],
      ["tasks/cancel", {}],
    ] as const) {
      const foreign = await taskCall("mallory", method, { taskId, ...extra });
      const unknown = await taskCall("mallory", method, { taskId: stranger, ...extra });
      expect(foreign.status).toBe(unknown.status);
      expect(errorOf(foreign)).toEqual({ code: -32602, message: `Unknown task: "${taskId}"` });
      expect(errorOf(unknown)).toEqual({ code: -32602, message: `Unknown task: "${stranger}"` });
    }
    // Nothing changed: alice still sees her task waiting for her answer, and can answer it.
    const mine = await taskCall("alice", "tasks/get", { taskId });
    expect(mine.json).toMatchObject({ result: { taskId, status: "input_required", inputRequests: { q: { method: "elicitation/create" } } } });
    expect(errorOf(await taskCall("alice", "tasks/update", { taskId, inputResponses: { q: { action: "accept", content: {} } } }))).toBeUndefined();
    let done: Answer | undefined;
    for (let i = 0; i < 200; i++) {
      done = await taskCall("alice", "tasks/get", { taskId });
      if ((done.json as { result?: { status?: string } }).result?.status !== "working") break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(done?.json).toMatchObject({ result: { status: "completed", result: { content: [{ type: "text", text: '{"q":{"action":"accept","content":{}}}' }] } } });
  });

  it("a principal cannot cancel another's task: the work's signal stays unaborted; its owner's cancel aborts it", async () => {
    const { tasks, taskCall, start } = await serveTasks(face);
    const taskId = await start("alice");
    expect(errorOf(await taskCall("bob", "tasks/cancel", { taskId }))).toMatchObject({ code: -32602 });
    expect((await tasks.store.get(taskId))?.status).not.toBe("cancelled");
    expect(tasks.running).toBe(1);
    expect(errorOf(await taskCall("alice", "tasks/cancel", { taskId }))).toBeUndefined();
    expect((await tasks.store.get(taskId))?.status).toBe("cancelled");
  });

  it("a principal over its quota of unfinished tasks gets an error naming it; another principal's call still becomes a task", async () => {
    const { callTool } = await serveTasks(face, new R.InMemoryTaskStore({ maxActiveTasksPerPrincipal: 2 }));
    for (let i = 0; i < 2; i++) expect((await callTool("bob")).json).toMatchObject({ result: { resultType: "task", status: "working" } });
    const over = await callTool("bob");
    expect(errorOf(over)).toEqual({ code: -32603, message: 'task quota exceeded: principal "bob" already has 2 unfinished tasks (maxActiveTasksPerPrincipal)', data: { quota: "maxActiveTasksPerPrincipal", limit: 2 } });
    expect((await callTool("alice")).json).toMatchObject({ result: { resultType: "task", status: "working" } });
  });
});

// Issue 41: a task started without { principal } is its creator's (defaultPrincipalScenario; the Redis store's run is in addons/redis/task-store.test.ts).
describeFaces("a task started without { principal }, in-memory store", (face) => defaultPrincipalScenario(face, async () => new R.InMemoryTaskStore()));
