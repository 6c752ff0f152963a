/**
 * Tasks over Streamable HTTP (2026-07-28 with --extension tasks): the generated client over the
 * HTTP client transport against the generated server behind the HTTP handler (fetch goes straight
 * to the handler). After the call became a task the request is over: aborting its signal POSTs one
 * tasks/cancel with `Mcp-Name: <taskId>` (SEP-2663, Streamable HTTP: Routing Headers) and never a
 * notifications/cancelled; the server's work stops and the task ends cancelled.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated-tasks/2026-07-28/index.js";
import { aborted, deferred } from "../../../helpers/harness.js";

interface Posted {
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

async function setup() {
  const started = deferred<AbortSignal>();
  const tasks = new R.TaskManager({ pollIntervalMs: 10 });
  const server = new R.McpServer({
    logger: null,
    tasks,
    handlers: {
      "tools/call": (_params, ctx) =>
        tasks.start(async (task) => {
          started.resolve(task.signal);
          await aborted(task.signal);
          return { content: [] };
        }),
    },
  });
  void server;
  const handler = R.createHttpHandler(server);
  const posted: Posted[] = [];
  const fetch: R.FetchLike = (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    posted.push({ headers, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    return handler(new Request(input, init));
  };
  const client = new R.McpClient({ logger: null, clientInfo: { name: "http-tasks", version: "1" }, capabilities: { extensions: { [R.TASKS_EXTENSION]: {} } } });
  await client.connect(R.createHttpClientTransport({ url: "http://127.0.0.1/mcp", fetch }));
  return { client, tasks, posted, started };
}

describe("tasks over Streamable HTTP", () => {
  it("abort after the call became a task: one tasks/cancel POST with Mcp-Name = taskId, no notifications/cancelled; the work stops", async () => {
    const { client, tasks, posted, started } = await setup();
    const controller = new AbortController();
    const task = (await client.callTool({ name: "slow" }, { signal: controller.signal })) as R.ClientTask<R.CallToolResult>;
    expect(task).toBeInstanceOf(R.ClientTask);
    const workSignal = await started.promise;
    controller.abort("stop");
    await aborted(workSignal);
    for (let i = 0; i < 100 && !posted.some((p) => p.body["method"] === "tasks/cancel"); i++) await new Promise((r) => setTimeout(r, 5));
    const cancels = posted.filter((p) => p.body["method"] === "tasks/cancel");
    expect(cancels).toHaveLength(1);
    expect(cancels[0]?.headers).toMatchObject({ "mcp-method": "tasks/cancel", "mcp-name": task.taskId });
    expect(posted.filter((p) => p.body["method"] === "notifications/cancelled")).toEqual([]);
    await expect(task.result()).rejects.toBeInstanceOf(R.TaskCancelledError);
    expect(posted.filter((p) => p.body["method"] === "tasks/get").every((p) => p.headers["mcp-name"] === task.taskId)).toBe(true);
    expect((await tasks.store.get(task.taskId))?.status).toBe("cancelled");
  });

  it("a tasks/get whose Mcp-Name disagrees with params.taskId is refused with HeaderMismatch (-32020)", async () => {
    const { client } = await setup();
    const task = (await client.callTool({ name: "slow" })) as R.ClientTask<R.CallToolResult>;
    const server = new R.McpServer({ logger: null, tasks: new R.TaskManager() });
    const handler = R.createHttpHandler(server);
    const response = await handler(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get", "mcp-name": "other" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: task.taskId, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { extensions: { [R.TASKS_EXTENSION]: {} } } } } }),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32020);
    await task.cancel();
  });
});
