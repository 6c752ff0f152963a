/**
 * Cancellation end to end over stdio (run `npm run generate` first, then `npm run example:cancel`).
 *
 * Spawns examples/stdio-server.ts as a child process, talks to it with the generated
 * 2025-11-25 McpClient over its stdin/stdout, starts a 10 s `sleep` and aborts it after
 * ~200 ms: the client rejects at once with an AbortError carrying the caller's reason and sends
 * notifications/cancelled; the server aborts the handler, sends no response, and logs the
 * cancellation on its stderr. Prints what each side saw.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describeCancellation, McpClient, RequestCancelledError, type CallToolResult } from "../out/2025-11-25/index.js";
import { StdioTransport } from "../out/2025-11-25/stdio.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CANCEL_AFTER_MS = 200;
const REASON = "demo: the user pressed stop";

const firstText = (result: CallToolResult) => {
  const block = result.content[0];
  return block?.type === "text" ? block.text : JSON.stringify(block);
};

// The server: the same command as `npm run example:server`, with tsx loaded into node.
const child = spawn(process.execPath, ["--import", "tsx", "examples/stdio-server.ts"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
const childExit = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
// A write to a child that died fails with EPIPE, emitted as an "error" on its stdin.
child.stdin.on("error", (error) => console.log(`client: write to the server failed: ${error.message}`));

const serverLines: string[] = [];
const waiters: Array<() => void> = [];
createInterface({ input: child.stderr }).on("line", (line) => {
  serverLines.push(line);
  console.log(`server stderr: ${line}`);
  waiters.splice(0).forEach((wake) => wake());
});
/** Waits until the server wrote a stderr line that starts with `prefix`. */
async function serverLine(prefix: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = serverLines.find((l) => l.startsWith(prefix));
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`the server wrote no "${prefix}" line to stderr`);
    await new Promise<void>((wake) => {
      waiters.push(wake);
      setTimeout(wake, 50);
    });
  }
}

const client = new McpClient({
  clientInfo: { name: "cancel-demo", version: "0.1.0" },
  logger: null, // printed below instead, with the event itself
  onCancellation: (event) => {
    console.log(`client: cancellation event ${JSON.stringify(event)}`);
    console.log(`client: log line: ${describeCancellation("client", event)}`);
  },
});

try {
  // connect() negotiates: initialize (the clientInfo below), then notifications/initialized.
  await client.connect(new StdioTransport({ input: child.stdout, output: child.stdin }));
  const info = client.serverVersion;
  console.log(`client: initialized ${info?.name} ${info?.version}, protocol ${client.protocolVersion}, capabilities ${JSON.stringify(client.serverCapabilities)}`);

  const { tools } = await client.listTools();
  console.log(`client: tools ${tools.map((t) => t.name).join(", ")}`);

  const echoed = await client.callTool({ name: "echo", arguments: { text: "hello over stdio" } });
  console.log(`client: echo returned "${firstText(echoed)}"`);

  const controller = new AbortController();
  const started = Date.now();
  const sleeping = client.callTool({ name: "sleep", arguments: { ms: 10_000 } }, { signal: controller.signal });
  setTimeout(() => controller.abort(REASON), CANCEL_AFTER_MS);
  try {
    const result = await sleeping;
    console.log(`client: sleep was NOT cancelled: ${firstText(result)}`);
    process.exitCode = 1;
  } catch (error) {
    if (!(error instanceof RequestCancelledError)) throw error;
    console.log(`client: sleep rejected after ${Date.now() - started} ms with ${error.name}, reason ${JSON.stringify(error.reason)} (request id ${String(error.requestId)})`);
  }

  const line = await serverLine("cancelled ");
  console.log(`client: the server confirmed on its stderr: "${line}"`);
  await client.ping();
  console.log("client: ping answered; the server is still serving");
} catch (error) {
  console.log(`client: failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
} finally {
  await client.close();
  child.stdin.end(); // the server ends when its stdin ends
  const timer = setTimeout(() => child.kill(), 5000);
  const [code, signal] = await childExit;
  clearTimeout(timer);
  console.log(`server: exited with ${signal ?? `code ${String(code)}`}`);
  if (code !== 0) process.exitCode = 1;
}
