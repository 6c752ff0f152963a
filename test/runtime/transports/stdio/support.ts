/**
 * Support for the stdio transport tests: a fake output to a peer that reads when the test says,
 * and notifications whose line is exactly 100 bytes.
 */
import { EventEmitter } from "node:events";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import type { StdioTransport } from "../../../generated/2025-11-25/stdio.js";

/** Notification number `i`: its line is exactly 100 bytes with the newline. */
export function message(i: number): JsonRpcMessage {
  const base = JSON.stringify({ jsonrpc: "2.0", method: "n", params: { d: "" } }).length + 1;
  const d = String(i).padStart(4, "0").padEnd(100 - base, ".");
  return { jsonrpc: "2.0", method: "n", params: { d } };
}
export const line = (i: number) => `${JSON.stringify(message(i))}\n`;

/**
 * A sink like a pipe to a peer: `write()` returns false once `room` writes have been taken,
 * and completes writes (their callbacks) only when the test calls `drain`.
 */
export class FakeSink extends EventEmitter {
  readonly writes: string[] = [];
  readonly #callbacks: Array<(error?: Error | null) => void> = [];
  room = 0;
  write(chunk: string, callback: (error?: Error | null) => void): boolean {
    this.writes.push(chunk);
    this.#callbacks.push(callback);
    return this.room-- > 0;
  }
  /** The peer read everything written so far; the next `room` writes fit. */
  drain(room: number): void {
    this.room = room;
    for (const callback of this.#callbacks.splice(0)) callback();
    this.emit("drain");
  }
}

/** Sends messages first..last-1 and tracks each outcome: "pending", "sent" or the rejection's message. */
export function sendAll(transport: StdioTransport, first: number, last: number, outcomes: string[]) {
  for (let i = first; i < last; i++) {
    outcomes[i] = "pending";
    transport.send(message(i)).then(
      () => (outcomes[i] = "sent"),
      (e: unknown) => (outcomes[i] = (e as Error).message),
    );
  }
}
