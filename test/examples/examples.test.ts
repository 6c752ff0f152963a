/**
 * examples/stdio-server.ts as a real child process (`node --import tsx`), driven over its pipes
 * by the generated 2025-11-25 McpClient on StdioTransport: initialize, tools/list, echo, and a
 * `sleep` cancelled with notifications/cancelled. The example imports the runtime from out/,
 * which test/prepare.mjs generates (out/ is git-ignored).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../generator/project.js";
import { McpClient, RequestCancelledError, type CancellationEvent } from "../generated/2025-11-25/index.js";
import { StdioTransport } from "../generated/2025-11-25/stdio.js";
import { TapTransport } from "../helpers/harness.js";

const REASON = "test: user pressed stop";

let child: ChildProcessWithoutNullStreams | undefined;

afterAll(() => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill();
});

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("examples/stdio-server.ts over real pipes", () => {
  it("initializes, lists and calls tools, and honours a cancel: logged on stderr, no response, only JSON-RPC on stdout", async () => {
    const proc = spawn(process.execPath, ["--import", "tsx", "examples/stdio-server.ts"], { cwd: PACKAGE_ROOT, stdio: ["pipe", "pipe", "pipe"] });
    child = proc;
    const exited = once(proc, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    proc.stdin.on("error", () => {}); // EPIPE if the server dies: the assertions below report it
    // Tap everything the server writes, beside the transport's own listener.
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));

    const events: CancellationEvent[] = [];
    const errors: Error[] = [];
    const client = new McpClient({ logger: null, onCancellation: (e) => events.push(e), onError: (e) => errors.push(e) });
    const wire = new TapTransport(new StdioTransport({ input: proc.stdout, output: proc.stdin }));
    await client.connect(wire, { initialize: false });

    const init = await client.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "examples-test", version: "1.0.0" } });
    expect(init).toMatchObject({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "mcp-stubgen-example", version: "0.1.0" } });
    await client.notify("notifications/initialized");

    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.inputSchema.type, t.inputSchema.required])).toEqual([
      ["echo", "object", ["text"]],
      ["sleep", "object", ["ms"]],
    ]);
    expect(tools[1]?.inputSchema.properties?.["ms"]).toMatchObject({ type: "number" });

    const echoed = await client.callTool({ name: "echo", arguments: { text: "hello\nover stdio ✓" } });
    expect(echoed).toEqual({ content: [{ type: "text", text: "hello\nover stdio ✓" }] });

    const controller = new AbortController();
    const started = Date.now();
    const sleeping = client.callTool({ name: "sleep", arguments: { ms: 10_000 } }, { signal: controller.signal }).catch((e: unknown) => e);
    // Give the server time to start the handler (a cancel that arrives first means it never runs).
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort(REASON);
    const error = await sleeping;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect(error).toMatchObject({ name: "AbortError", reason: REASON, method: "tools/call" });
    const sleepId = wire.sent.find((m) => "method" in m && m.method === "tools/call" && m.params?.["name"] === "sleep" && "id" in m);
    const cancelledId = (sleepId as { id: number } | undefined)?.id;
    expect(cancelledId).toBe(4);
    expect((error as RequestCancelledError).requestId).toBe(cancelledId);
    expect(wire.cancels()).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: cancelledId, reason: REASON } }]);
    expect(events).toEqual([{ type: "sent", requestId: cancelledId, method: "tools/call", reason: REASON, cause: "abort" }]);

    await until(() => stderr.includes(`cancelled ${String(cancelledId)} ${REASON}\n`), "the server's stderr line");
    // The runtime's default logger wrote its own line, on stderr as well.
    expect(stderr).toContain(`[mcp server] peer cancelled tools/call (id ${String(cancelledId)}): ${REASON}\n`);

    // A round trip after the cancel: had the server answered the cancelled request, that
    // response would have been written before this one.
    expect(await client.ping()).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 50));

    // stdout: JSON-RPC lines only, and no response for the cancelled id.
    expect(stdout.endsWith("\n")).toBe(true);
    const lines = stdout.split("\n").slice(0, -1);
    const messages = lines.map((line) => JSON.parse(line) as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown });
    for (const m of messages) {
      expect(m.jsonrpc).toBe("2.0");
      expect("result" in m || "error" in m).toBe(true);
    }
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3, 5]); // initialize, tools/list, echo, ping: not 4
    expect(messages.filter((m) => m.id === cancelledId)).toEqual([]);
    expect(errors).toEqual([]);
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });

    // Ending the server's stdin ends the server, cleanly.
    await client.close();
    proc.stdin.end();
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr.split("\n").filter((l) => l !== "")).toEqual([
      `[mcp server] peer cancelled tools/call (id ${String(cancelledId)}): ${REASON}`,
      `cancelled ${String(cancelledId)} ${REASON}`,
    ]);
  });
});

describe("examples/mcpx-demo.ts", () => {
  it("runs to the end with exit 0 and shows one cancel envelope carrying the original request id", async () => {
    const proc = spawn(process.execPath, ["--import", "tsx", "examples/mcpx-demo.ts"], { cwd: PACKAGE_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    proc.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    proc.stderr.resume();
    const [code] = (await once(proc, "exit")) as [number | null];
    expect(code).toBe(0);
    const cancels = stdout.split("\n").filter((line) => line.includes("notifications/cancelled"));
    expect(cancels).toHaveLength(1);
    const [, id] = /requestId=(\S+)/.exec(cancels[0]!) ?? [];
    expect(stdout).toContain(`alice's slow call was request id ${id}, bob's was ${id}`);
    expect(stdout).toMatch(/^ok: /m);
  });
});
