/**
 * Support for the batch tests: the server's handlers, the batches they send and the exact bytes
 * they expect back, and two peers of a generated McpServer, one over a real stdio child process
 * (child.ts) and one in memory, each read one message at a time.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as R0326 from "../../../generated/2025-03-26/index.js";
import * as R0618 from "../../../generated/2025-06-18/index.js";
import { PACKAGE_ROOT } from "../../../../generator/project.js";

/** The server's tools: echo answers after a macrotask; slow answers only its abort (never: no response then). */
export function batchServerOptions() {
  return {
    logger: null,
    handlers: {
      "tools/call": async (params: { name: string; arguments?: { text?: string } }, ctx: { signal: AbortSignal }) => {
        if (params.name === "slow") await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted"))));
        await new Promise((resolve) => setTimeout(resolve, 1));
        return { content: [{ type: "text", text: params.arguments?.text ?? "" }] };
      },
    },
  };
}

export const request = (id: number | string, method: string, params?: object) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
export const notification = (method: string, params?: object) => ({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
export const call = (id: number | string, name: string, text?: string) => request(id, "tools/call", { name, ...(text === undefined ? {} : { arguments: { text } }) });
export const cancel = (requestId: number | string) => notification("notifications/cancelled", { requestId, reason: "test" });
export const INITIALIZE = request(0, "initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } });

/** One side of the conversation with a server: send any JSON value, read the next message as its exact JSON text. */
export interface Peer {
  send(value: unknown): void;
  /** The next message the server sent, as the JSON text on the wire (stdio: its line without the newline). */
  next(): Promise<string>;
  close(): Promise<void>;
}

/** Messages as they come, handed out in order to whoever waits. */
class Inbox {
  readonly #lines: string[] = [];
  readonly #waiting: ((line: string) => void)[] = [];
  push(line: string): void {
    const waiter = this.#waiting.shift();
    if (waiter !== undefined) waiter(line);
    else this.#lines.push(line);
  }
  next(): Promise<string> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no message from the server within 10 s")), 10_000);
      this.#waiting.push((l) => (clearTimeout(timer), resolve(l)));
    });
  }
}

/** The server of `revision` in a child process (child.ts), over its stdin and stdout. */
export async function stdioPeer(revision: "2025-03-26" | "2025-06-18"): Promise<Peer> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ["--import", "tsx", join(PACKAGE_ROOT, "test", "runtime", "core", "batch", "child.ts"), revision], { cwd: PACKAGE_ROOT });
  const inbox = new Inbox();
  createInterface({ input: child.stdout }).on("line", (line) => inbox.push(line));
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    send: (value) => child.stdin.write(`${JSON.stringify(value)}\n`),
    next: () => inbox.next().catch((error: Error) => Promise.reject(new Error(`${error.message}; child stderr: ${stderr}`))),
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/** The server of `revision` in this process, over the in-memory transport pair; messages pass as objects. */
export async function memoryPeer(revision: "2025-03-26" | "2025-06-18"): Promise<Peer> {
  const R = revision === "2025-03-26" ? R0326 : R0618;
  const [mine, theirs] = R.createInMemoryTransportPair();
  const server = new R.McpServer(batchServerOptions() as never);
  await server.connect(theirs);
  const inbox = new Inbox();
  mine.onmessage = (message) => inbox.push(JSON.stringify(message));
  await mine.start();
  return {
    send: (value) => void mine.send(value as never),
    next: () => inbox.next(),
    close: () => server.close(),
  };
}
