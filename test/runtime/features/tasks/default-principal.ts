/**
 * The scenario of a task started without `{ principal }` (issue 41, finding 7: such a task could
 * be read by nobody, its creator included), run against any task store: principals.test.ts with
 * the in-memory store, addons/redis/task-store.test.ts with RedisTaskStore on a real redis-server.
 *
 * A 2026-07-28 server with --extension tasks behind createHttpHandler's `authenticate` on a real
 * node:http server on 127.0.0.1, its tools starting tasks with `tasks.start(work)` alone: in the
 * handler's synchronous part (a handler of `handlers`, and a registered tool without input
 * schema), after the validation's await (a registered tool with an input schema), and after an
 * await of its own (refused: the request fails, the task is cancelled).
 */
import { expect, it } from "vitest";
import * as R from "../../../generated-tasks/2026-07-28/index.js";
import { listen, type Face } from "../../../helpers/faces.js";
import { call, type Answer } from "../../http/stateless/support.js";

const DECLARED = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [R.TASKS_EXTENSION]: {} } } };

/** Bearer tokens: `<name>-token` is principal `<name>`. */
const authenticate: R.Authenticate = (request) => {
  const token = /^Bearer ([a-z]+)-token$/.exec(request.headers.get("authorization") ?? "")?.[1];
  return token === undefined ? new Response(null, { status: 401 }) : { id: token };
};

/** A task's work that waits until its signal aborts (the task stays open to be read). */
const waiting = (task: R.TaskWork): Promise<R.JsonObject> =>
  new Promise((resolve) => task.signal.addEventListener("abort", () => resolve({ content: [] }), { once: true }));

/** Registers the scenario's tests; `store()` gives a fresh store for each (and is closed by the caller). */
export function defaultPrincipalScenario(face: Face, store: () => Promise<R.TaskStore>): void {
  async function serve() {
    const tasks = new R.TaskManager({ store: await store(), pollIntervalMs: 10 });
    // A handler of `handlers`: tasks.start(work) in its synchronous part.
    const raw = new R.McpServer({ logger: null, tasks, handlers: { "tools/call": () => tasks.start(waiting) } });
    // Registered tools: without input schema, with one (the handler runs after the validation's await), and one that awaits first.
    const registered = new R.McpServer({ logger: null, tasks });
    registered.registerTool("plain", {}, () => tasks.start(waiting));
    registered.registerTool("checked", { inputSchema: { type: "object", properties: { n: { type: "number" } } } }, () => tasks.start(waiting));
    registered.registerTool("late", {}, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return tasks.start(waiting);
    });
    const [rawUrl, registeredUrl] = await Promise.all([listen(face, R.createHttpHandler(raw, { authenticate })), listen(face, R.createHttpHandler(registered, { authenticate }))]);
    const as = (who: string) => ({ authorization: `Bearer ${who}-token` });
    const start = (who: string, url: string, name: string): Promise<Answer> => call(url, 1, "tools/call", { name, arguments: {}, _meta: DECLARED }, as(who));
    const get = (who: string, taskId: string): Promise<Answer> => call(rawUrl.url, 7, "tasks/get", { taskId, _meta: DECLARED }, { ...as(who), "mcp-name": taskId });
    const close = async () => {
      await Promise.all([rawUrl.close(), registeredUrl.close()]);
      await Promise.all([raw.close(), registered.close()]);
    };
    return { tasks, start, get, close, rawUrl: rawUrl.url, registeredUrl: registeredUrl.url };
  }

  const taskIdOf = (answer: Answer): string => {
    const taskId = (answer.json as { result?: { taskId?: unknown } }).result?.taskId;
    expect(typeof taskId, JSON.stringify(answer.json)).toBe("string");
    return taskId as string;
  };

  it("a task started without { principal } is its creator's: alice reads it (handler, registered tool, after the validation's await); bob gets Unknown task", async () => {
    const { tasks, start, get, close, rawUrl, registeredUrl } = await serve();
    try {
      const ids = [taskIdOf(await start("alice", rawUrl, "any")), taskIdOf(await start("alice", registeredUrl, "plain")), taskIdOf(await start("alice", registeredUrl, "checked"))];
      for (const taskId of ids) {
        expect((await get("alice", taskId)).json, taskId).toMatchObject({ result: { taskId, status: "working" } });
        expect((await get("bob", taskId)).json).toMatchObject({ error: { code: -32602, message: `Unknown task: "${taskId}"` } });
        expect((await tasks.store.get(taskId))?.owner).toBe("alice");
      }
      expect(tasks.running).toBe(3);
    } finally {
      await close();
    }
  });

  it("one started after the handler's own await, still without { principal }, fails the request (-32603 saying why) and is cancelled: no task is left that nobody can read", async () => {
    const { tasks, start, close, registeredUrl } = await serve();
    try {
      const answer = await start("alice", registeredUrl, "late");
      expect((answer.json as { error?: unknown }).error).toEqual({
        code: -32603,
        message: "task started without its request's principal: tasks.start() ran after the handler's first await without { principal: ctx.principal }, so nobody could read the task; it was cancelled",
      });
      for (let i = 0; i < 200 && tasks.running > 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(tasks.running).toBe(0);
    } finally {
      await close();
    }
  });
}
