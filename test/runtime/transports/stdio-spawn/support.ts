/** Support for the spawning stdio transport's tests: the fixture server and a transport that records what happened. */
import { fileURLToPath } from "node:url";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { StdioClientTransport, type StdioClientTransportOptions } from "../../../generated/2025-11-25/stdio-spawn.js";
import { deferred } from "../../../helpers/async.js";

export const FIXTURE = fileURLToPath(new URL("./fixture-server.mjs", import.meta.url));

/** A transport running the fixture with `flags`, its messages, errors and closes recorded. */
export function fixture(flags: readonly string[] = [], options: Partial<StdioClientTransportOptions> = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE, ...flags], stderr: "ignore", ...options });
  const messages: JsonRpcMessage[] = [];
  const errors: string[] = [];
  const closed = deferred();
  let closes = 0;
  transport.onmessage = (message) => {
    messages.push(message);
    const waiter = waiters.get((message as { id?: unknown }).id);
    waiter?.(message);
  };
  transport.onerror = (error) => errors.push(error.message);
  transport.onclose = () => {
    closes++;
    closed.resolve();
  };
  const waiters = new Map<unknown, (message: JsonRpcMessage) => void>();
  /** Sends a request and resolves with its response. */
  const request = (id: number, method: string): Promise<{ result: { method: string; env: Record<string, string>; cwd: string } }> =>
    new Promise((resolve, reject) => {
      waiters.set(id, (message) => resolve(message as never));
      transport.send({ jsonrpc: "2.0", id, method }).catch(reject);
    });
  return { transport, messages, errors, closed: closed.promise, closes: () => closes, request };
}

/** Whether a process with this pid still runs. */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
