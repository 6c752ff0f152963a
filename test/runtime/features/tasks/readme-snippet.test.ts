/**
 * The Tasks server block of docs/tasks.md ("```ts tasks-server"), run as written against the generated
 * 2026-07-28 client: a client that declares the extension gets a task, answers its input request
 * through its handler and reads the result; one that does not gets the plain result.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../../out/2026-07-28/index.js";
import type { McpServer, TaskManager } from "../../../../out/2026-07-28/index.js";
import { importCodeBlock } from "../../../helpers/readme-snippets.js";

describe("docs/tasks.md: Tasks server", () => {
  it("runs as written: task, input through the client's handler, result; a plain result for a client without the extension", async () => {
    const { server, tasks } = await importCodeBlock<{ server: McpServer; tasks: TaskManager }>("docs/tasks.md", "tasks-server");
    const connect = async (capabilities: R.McpClientOptions["capabilities"]) => {
      const [a, b] = R.createInMemoryTransportPair();
      const client = new R.McpClient({ logger: null, clientInfo: { name: "readme", version: "1" }, capabilities, handlers: { "elicitation/create": () => ({ action: "accept", content: {} }) } });
      await server.openConnection(b);
      await client.connect(a);
      return client;
    };
    const withTasks = await connect({ elicitation: { form: {} }, extensions: { [R.TASKS_EXTENSION]: {} } });
    const called = await withTasks.callTool({ name: "long-job" });
    expect(called).toBeInstanceOf(R.ClientTask);
    const result = await (called as R.ClientTask<R.CallToolResult>).result({ pollIntervalMs: 10 });
    expect(result).toEqual({ content: [{ type: "text", text: JSON.stringify({ ok: { action: "accept", content: {} } }) }] });
    expect(tasks.running).toBe(0);
    const without = await connect({});
    expect(await without.callTool({ name: "long-job" })).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "done at once" }] });
  });
});
