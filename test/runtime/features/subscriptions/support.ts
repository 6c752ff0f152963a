/**
 * What the subscriptions tests share: a 2026-07-28 server with a Subscriptions hub over the
 * in-memory pair, whose far end is the test itself (raw messages in, every message out recorded),
 * and a server-side wire that can pause like a slow pipe (FIFO: what is sent while paused waits,
 * in order, until resume()).
 */
import * as R from "../../../generated/2026-07-28/index.js";
import type { JsonRpcMessage } from "../../../generated/2026-07-28/index.js";
import { BASIC_META, META_KEYS } from "../../../helpers/fixtures.js";
import { TapTransport as Wire } from "../../../helpers/transports.js";

export const META = BASIC_META;

export const SUB_ID = META_KEYS.subscriptionId;

export { settle } from "../../../helpers/async.js";
/** The server's side of the pair: records what it sends; pause() holds sends in order (test/helpers/transports.ts). */
export { TapTransport as Wire } from "../../../helpers/transports.js";

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
