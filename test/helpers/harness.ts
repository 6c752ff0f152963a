/**
 * Test harness for the generated runtime: a client and a server over an in-memory pair whose
 * every sent message is recorded ("the wire"), plus small helpers to wait for conditions.
 */
import type { PassThrough } from "node:stream";
import * as R from "../generated/2025-11-25/index.js";
import type { CancellationEvent, JsonRpcMessage, McpxEnvelope, McpxLink, Transport } from "../generated/2025-11-25/index.js";
import { TapTransport } from "./transports.js";

export { TapTransport } from "./transports.js";
export { aborted, deferred, settle } from "./async.js";
export { cancelled, INITIALIZE_PARAMS } from "./fixtures.js";


export interface PairOptions {
  client?: R.McpClientOptions;
  server?: R.McpServerOptions;
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
  const [a, b] = R.createInMemoryTransportPair();
  const clientWire = new TapTransport(a);
  const serverWire = new TapTransport(b);
  const clientEvents: CancellationEvent[] = [];
  const serverEvents: CancellationEvent[] = [];
  const client = new R.McpClient({ logger: null, onCancellation: (e) => clientEvents.push(e), ...options.client });
  const server = new R.McpServer({ logger: null, onCancellation: (e) => serverEvents.push(e), ...options.server });
  await server.connect(serverWire);
  await client.connect(clientWire, { initialize: false });
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

export interface WireRequest {
  jsonrpc: "2.0";
  id: string | number;
  method: string;
  params?: { [key: string]: unknown } | undefined;
}

/** The `_meta` of a request on the wire. */
export const metaOf = (request: WireRequest | undefined) =>
  request?.params?.["_meta"] as { progressToken?: string | number; [key: string]: unknown } | undefined;

/** The far end of a connection, driven by the test: records what arrives, sends raw messages. */
export interface RawPeer {
  readonly received: JsonRpcMessage[];
  send(message: unknown): Promise<void>;
  /** Requests received so far with this method. */
  requests(method: string): WireRequest[];
  close(): Promise<void>;
}

async function rawPeer(end: Transport): Promise<RawPeer> {
  const received: JsonRpcMessage[] = [];
  end.onmessage = (m) => received.push(structuredClone(m));
  await end.start();
  return {
    received,
    send: (m) => end.send(m as JsonRpcMessage),
    requests: (method) => received.filter((m): m is WireRequest => "method" in m && m.method === method && "id" in m),
    close: () => end.close(),
  };
}

/** A generated client whose peer is the test itself. */
export async function clientWithRawPeer(options: R.McpClientOptions = {}) {
  const [a, b] = R.createInMemoryTransportPair();
  const wire = new TapTransport(a);
  const events: CancellationEvent[] = [];
  const client = new R.McpClient({ logger: null, onCancellation: (e) => events.push(e), ...options });
  const peer = await rawPeer(b);
  await client.connect(wire, { initialize: false });
  return { client, wire, peer, events };
}

/** A generated server whose peer is the test itself. */
export async function serverWithRawPeer(options: R.McpServerOptions = {}) {
  const [a, b] = R.createInMemoryTransportPair();
  const wire = new TapTransport(a);
  const events: CancellationEvent[] = [];
  const server = new R.McpServer({ logger: null, onCancellation: (e) => events.push(e), ...options });
  const peer = await rawPeer(b);
  await server.connect(wire);
  return { server, wire, peer, events };
}

/** Everything written to a stream, as text. */
export function collect(stream: PassThrough) {
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return {
    get text() {
      return text;
    },
    lines: () => text.split("\n").filter((l) => l !== ""),
    messages: () =>
      text
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as unknown),
  };
}

/** An MCPx link driven by the test: what the transport sends, and a way to deliver envelopes to it. */
export function testLink(participantId: string) {
  const sent: McpxEnvelope[] = [];
  let deliver: (envelope: unknown) => void = () => {};
  const link: McpxLink = {
    participantId,
    send: (e) => void sent.push(e),
    subscribe: (listener) => ((deliver = listener), () => (deliver = () => {})),
    close: () => {},
  };
  return { link, sent, deliver: (e: unknown) => deliver(e) };
}
