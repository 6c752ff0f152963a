/**
 * What the subscriptions tests share: a 2026-07-28 server with a Subscriptions hub over the
 * in-memory pair, whose far end is the test itself (raw messages in, every message out recorded),
 * and a server-side wire that can pause like a slow pipe (FIFO: what is sent while paused waits,
 * in order, until resume()).
 */
import * as R from "../generated/2026-07-28/index.js";
import type { JsonRpcMessage, Transport, TransportSendOptions } from "../generated/2026-07-28/index.js";

export const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
} as const;

export const SUB_ID = "io.modelcontextprotocol/subscriptionId";

/** Lets queued microtasks and timers of 0 ms run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}

/** The server's side of the pair: records what it sends; pause() holds sends in order. */
export class Wire implements Transport {
  readonly sent: JsonRpcMessage[] = [];
  #paused = false;
  readonly #held: Array<() => void> = [];
  /** When set, the next send whose message it accepts rejects (and is not sent). */
  failNext: ((message: JsonRpcMessage) => boolean) | undefined;
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
  onrequeststreamclose?: ((requestId: string | number) => void) | undefined;
  start() {
    return this.inner.start();
  }
  close() {
    return this.inner.close();
  }
  pause() {
    this.#paused = true;
  }
  /** Lets the held sends go, in order, and stops holding. */
  resume() {
    this.#paused = false;
    for (const go of this.#held.splice(0)) go();
  }
  get heldCount() {
    return this.#held.length;
  }
  async send(message: JsonRpcMessage, options?: TransportSendOptions) {
    if (this.failNext?.(message)) {
      this.failNext = undefined;
      throw new Error("the pipe broke");
    }
    if (this.#paused) await new Promise<void>((resolve) => this.#held.push(resolve));
    this.sent.push(structuredClone(message));
    return this.inner.send(message, options);
  }
}

/** Handlers of a server that offers tools and resources (so tools and resource kinds are declared), no prompts. */
export const TOOLS_AND_RESOURCES: R.McpServerOptions["handlers"] = {
  "tools/list": () => ({ resultType: "complete", cacheScope: "public", ttlMs: 0, tools: [] }),
  "resources/list": () => ({ resultType: "complete", cacheScope: "public", ttlMs: 0, resources: [] }),
};

export interface Connection {
  server: R.McpServer;
  wire: Wire;
  /** What the test (the client end) received, in order. */
  received: JsonRpcMessage[];
  send(message: unknown): Promise<void>;
  /** A listen request with this id and filter, as a client sends it. */
  listen(id: string | number, notifications: unknown): Promise<void>;
  close(): Promise<void>;
}

/** A McpServer serving `hub` over a fresh in-memory pair, the test at the far end. */
export async function connect(hub: R.Subscriptions, options: R.McpServerOptions = {}): Promise<Connection> {
  const [a, b] = R.createInMemoryTransportPair();
  const wire = new Wire(a);
  const server = new R.McpServer({ logger: null, handlers: TOOLS_AND_RESOURCES, subscriptions: hub, ...options });
  await server.connect(wire);
  const received: JsonRpcMessage[] = [];
  b.onmessage = (m) => received.push(structuredClone(m));
  await b.start();
  const send = (m: unknown) => b.send(m as JsonRpcMessage);
  return {
    server,
    wire,
    received,
    send,
    listen: (id, notifications) => send({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: META, notifications } }),
    close: () => b.close(),
  };
}

export const ack = (id: string | number, notifications: object) => ({
  jsonrpc: "2.0",
  method: "notifications/subscriptions/acknowledged",
  params: { _meta: { [SUB_ID]: id }, notifications },
});

export const note = (id: string | number, method: string, params: object = {}) => ({
  jsonrpc: "2.0",
  method,
  params: { _meta: { [SUB_ID]: id }, ...params },
});
