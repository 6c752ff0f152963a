/**
 * The generated McpClient over StdioClientTransport against examples/stdio-server.ts, spawned
 * for real (`node --import tsx`): initialize, a tool call, a cancelled call whose server-side
 * line arrives through the stderr callback, and close() ending the server through its stdin.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../../generated/2025-11-25/index.js";
import { StdioClientTransport } from "../../../generated/2025-11-25/stdio-spawn.js";
import { waitFor } from "../../../helpers/async.js";
import { PACKAGE_ROOT } from "../../../../generator/project.js";

describe("StdioClientTransport against the stdio example server", () => {
  it("initializes, calls echo, cancels sleep (the server's stderr line about it arrives), and close() lets the server exit 0", async () => {
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "examples/stdio-server.ts"],
      cwd: PACKAGE_ROOT,
      stderr: (line) => stderr.push(line),
    });
    const client = new McpClient({ logger: null });
    await client.connect(transport, { initialize: false });
    const init = await client.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "spawn-test", version: "1" } });
    expect(init.serverInfo.name).toBe("mcp-stubgen-example");
    expect(await client.callTool({ name: "echo", arguments: { text: "hi" } })).toEqual({ content: [{ type: "text", text: "hi" }] });
    const stop = new AbortController();
    const call = client.callTool({ name: "sleep", arguments: { ms: 60_000 } }, { signal: stop.signal });
    stop.abort("enough");
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    // the server runtime's default logger writes its cancellation line to stderr (the handler's
    // own line comes only when the cancel found it running, which the test cannot tell)
    const line = await waitFor("the server's cancellation line", () => stderr.find((l) => l.includes("peer cancelled tools/call")), 10_000, () => stderr.join("\n"));
    expect(line).toMatch(/^\[mcp server\] peer cancelled tools\/call \(id \d+\): enough$/);
    await client.close();
    expect(transport.exit).toEqual({ code: 0, signal: null, requested: true });
  }, 30_000);
});
