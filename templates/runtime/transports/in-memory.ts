// Two linked transports in one process, for tests and single-process hosts. Messages pass as
// objects (no JSON), in order, each on its own microtask, like the SDK's InMemoryTransport.

import type { JsonRpcMessage, OutgoingMessage, Transport, TransportSendOptions } from "../core/protocol.js";

class InMemoryTransport implements Transport {
  peer: InMemoryTransport | undefined;
  #started = false;
  #closed = false;
  readonly #backlog: JsonRpcMessage[] = [];
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;

  async start(): Promise<void> {
    this.#started = true;
    for (const message of this.#backlog.splice(0)) this.#deliver(message);
  }

  async send(message: OutgoingMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#closed || this.peer === undefined) throw new Error("transport closed");
    // A null-id error is a valid JSON-RPC message; the receiver validates whatever arrives.
    this.peer.#receive(message as JsonRpcMessage);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const peer = this.peer;
    this.peer = undefined;
    this.onclose?.();
    await peer?.close();
  }

  #receive(message: JsonRpcMessage): void {
    if (this.#started) this.#deliver(message);
    else this.#backlog.push(message);
  }

  #deliver(message: JsonRpcMessage): void {
    queueMicrotask(() => {
      if (!this.#closed) this.onmessage?.(message);
    });
  }
}

/** Two transports connected to each other: what one sends, the other receives. */
export function createInMemoryTransportPair(): [Transport, Transport] {
  const a = new InMemoryTransport();
  const b = new InMemoryTransport();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
