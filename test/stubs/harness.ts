/**
 * Test harness for the generated runtime: a client and a server over an in-memory pair whose
 * every sent message is recorded ("the wire"), plus small helpers to wait for conditions.
 */
import * as R from "../generated/2025-11-25/index.js";
import type { CancellationEvent, JsonRpcMessage, Transport } from "../generated/2025-11-25/index.js";

export type Runtime = typeof R;
export { R };

/** A transport that records what it sends and can hold back or drop messages. */
export class TapTransport implements Transport {
  readonly sent: JsonRpcMessage[] = [];
  /** When set, decides whether a message goes out (false: dropped). */
  filter: ((message: JsonRpcMessage) => boolean) | undefined;
  constructor(readonly inner: Transport) {}
  get onmessage() {
    return this.inner.onmessage;
  }
  set onmessage(v) {
    this.inner.onmessage = v;
  }
  get onclose() {
    return this.inner.onclose;
  }
  set onclose(v) {
    this.inner.onclose = v;
  }
  get onerror() {
    return this.inner.onerror;
  }
  set onerror(v) {
    this.inner.onerror = v;
  }
  start() {
    return this.inner.start();
  }
  close() {
    return this.inner.close();
  }
  async send(message: JsonRpcMessage, options?: { relatedRequestId?: string | number | undefined }) {
    if (this.filter && !this.filter(message)) return;
    this.sent.push(structuredClone(message));
    return this.inner.send(message, options);
  }
  /** Cancellation notifications sent so far. */
  cancels() {
    return this.sent.filter((m) => "method" in m && m.method === "notifications/cancelled");
  }
  /** Responses (result or error) sent for an id. */
  responsesTo(id: string | number) {
    return this.sent.filter((m) => !("method" in m) && "id" in m && m.id === id);
  }
}

export interface PairOptions {
  client?: R.McpClientOptions;
  server?: R.McpServerOptions;
  runtime?: Runtime;
}

export interface Pair {
  client: R.McpClient;
  server: R.McpServer;
  /** What the client sent. */
  clientWire: TapTransport;
  /** What the server sent. */
  serverWire: TapTransport;
  clientEvents: CancellationEvent[];
  serverEvents: CancellationEvent[];
  /** Raw access: inject a message as if the client (or server) had sent it. */
  injectToServer(message: unknown): Promise<void>;
  injectToClient(message: unknown): Promise<void>;
}

export async function connectPair(options: PairOptions = {}): Promise<Pair> {
  const rt = options.runtime ?? R;
  const [a, b] = rt.createInMemoryTransportPair();
  const clientWire = new TapTransport(a);
  const serverWire = new TapTransport(b);
  const clientEvents: CancellationEvent[] = [];
  const serverEvents: CancellationEvent[] = [];
  const client = new rt.McpClient({ logger: null, onCancellation: (e) => clientEvents.push(e), ...options.client });
  const server = new rt.McpServer({ logger: null, onCancellation: (e) => serverEvents.push(e), ...options.server });
  await server.connect(serverWire);
  await client.connect(clientWire);
  return {
    client,
    server,
    clientWire,
    serverWire,
    clientEvents,
    serverEvents,
    injectToServer: (m) => clientWire.inner.send(m as JsonRpcMessage),
    injectToClient: (m) => serverWire.inner.send(m as JsonRpcMessage),
  };
}

/** Lets queued microtasks and timers of 0 ms run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}

/** A promise with its resolve function. */
export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Waits until an AbortSignal aborts (or forever). */
export function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener("abort", () => resolve(signal.reason), { once: true });
  });
}
