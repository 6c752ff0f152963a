// A linked pair of in-memory transports that both contenders use, so the comparison is of the
// protocol runtimes and not of their transports. Each message is delivered on its own microtask,
// in order. "object" passes the message object itself (no copy, no JSON); "json" sends
// JSON.stringify(message) and the receiver JSON.parse()s it, as a pipe or socket would.
//
// The class implements the SDK's Transport interface; the generated runtime's Transport is
// structurally the same (test/runtime/core/protocol/sdk-transport.types.ts checks that), so one class serves both.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type Codec = "object" | "json";

type Wire = JSONRPCMessage | string;

class LinkedTransport implements Transport {
  peer: LinkedTransport | undefined;
  #started = false;
  #closed = false;
  readonly #backlog: Wire[] = [];
  onmessage?: Transport["onmessage"];
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;

  constructor(readonly codec: Codec) {}

  async start(): Promise<void> {
    this.#started = true;
    for (const wire of this.#backlog.splice(0)) this.#deliver(wire);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const peer = this.peer;
    if (this.#closed || peer === undefined) throw new Error("transport closed");
    peer.#receive(this.codec === "json" ? JSON.stringify(message) : message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const peer = this.peer;
    this.peer = undefined;
    this.onclose?.();
    await peer?.close();
  }

  #receive(wire: Wire): void {
    if (this.#started) this.#deliver(wire);
    else this.#backlog.push(wire);
  }

  #deliver(wire: Wire): void {
    queueMicrotask(() => {
      if (this.#closed) return;
      const message = typeof wire === "string" ? (JSON.parse(wire) as JSONRPCMessage) : wire;
      this.onmessage?.(message);
    });
  }
}

/** Two transports connected to each other: what one sends, the other receives. */
export function createLinkedPair(codec: Codec): [client: Transport, server: Transport] {
  const a = new LinkedTransport(codec);
  const b = new LinkedTransport(codec);
  a.peer = b;
  b.peer = a;
  return [a, b];
}
