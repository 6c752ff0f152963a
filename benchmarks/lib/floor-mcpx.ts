// The MCPx floors: the same envelopes over the same paths with no MCPx at all. What the platform
// and the transport cost on their own, per path of lib/mcpx.ts:
// - in memory: each envelope pushed on a plain array and handed, in order, to the receiver's
//   callback from one microtask per burst. No roster, no routing rule, no check, no copy. Async,
//   as every MCPx gateway delivers (a send never re-enters the receiver), and no async in-order
//   delivery does less than one queue push and one call per envelope;
// - one WebSocket gateway: a plain `ws` relay on loopback. Participant A's frame goes to B's
//   socket as the same bytes: no token, no parse of the envelope, no check, no bound. The clients
//   are plain `ws` sockets; A stringifies each envelope and B parses each frame, as any MCPx
//   participant must (the envelope is JSON on the wire);
// - two gateways on Redis: two such relays joined by one Redis pub/sub channel. A's relay
//   PUBLISHes the raw frame; B's relay, subscribed in buffer mode, sends what it receives to B.
//   node-redis, as the add-on uses; one PUBLISH and one delivery per envelope, the least a
//   gateway bus on Redis can do.
// The abort-latency floor of each path is the one-way delivery time of one small envelope A → B
// (`deliveryLatency`): an abort is one envelope that the other side turns into an abort, so no
// implementation delivers one faster than this on the same path and machine.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "redis";
import { WebSocket, WebSocketServer } from "ws";
import type { McpxEnvelope } from "../../out/runtime/transports/mcpx.js";

/** The sending end of a path: what the bench loops use of an MCPx link. */
export interface Sender {
  readonly participantId: string;
  send(envelope: McpxEnvelope): void;
}

/** The receiving end of a path; returns the unsubscribe function. */
export interface Receiver {
  readonly participantId: string;
  subscribe(listener: (envelope: unknown) => void): () => void;
}

/** A floor path: `a` sends, `b` receives. */
export interface FloorPath {
  readonly name: string;
  readonly a: Sender;
  readonly b: Receiver;
  close(): Promise<void>;
}

const CHANNEL = "mcpx-floor";

/** In process: a plain queue drained in order on a microtask. */
export function inMemoryFloor(): FloorPath {
  const listeners = new Set<(envelope: unknown) => void>();
  const queue: McpxEnvelope[] = [];
  let scheduled = false;
  const drain = (): void => {
    scheduled = false;
    for (let i = 0; i < queue.length; i++) for (const listener of listeners) listener(queue[i]);
    queue.length = 0;
  };
  return {
    name: "in-memory floor",
    a: {
      participantId: "a",
      send(envelope) {
        queue.push(envelope);
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(drain);
        }
      },
    },
    b: {
      participantId: "b",
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    close: async () => listeners.clear(),
  };
}

/** What a relay does with a frame from A. */
type Forward = (frame: Buffer, isBinary: boolean) => void;

interface Relay {
  readonly url: string;
  /** B's socket on this relay, once it has connected. */
  b(): WebSocket | undefined;
  close(): Promise<void>;
}

/** A plain `ws` relay on loopback: a socket says who it is by `?id=`; A's frames go to `forward`. */
async function startRelay(forward: (relay: Relay) => Forward): Promise<Relay> {
  const http: Server = createServer();
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  const sockets = new Map<string, WebSocket>();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const relay: Relay = {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/`,
    b: () => sockets.get("b"),
    async close() {
      for (const socket of sockets.values()) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  const onFrame = forward(relay);
  wss.on("connection", (socket, request) => {
    const id = new URL(request.url ?? "/", "http://relay").searchParams.get("id") ?? "";
    sockets.set(id, socket);
    // Default binaryType ("nodebuffer"): every message is one Buffer.
    if (id === "a") socket.on("message", (data, isBinary) => onFrame(data as Buffer, isBinary));
  });
  return relay;
}

/** The same bytes to B's socket on this relay, as text unless they came as binary. */
const toB = (relay: Relay): Forward => (frame, isBinary) => relay.b()?.send(frame, { binary: isBinary });

async function connect(url: string, id: string): Promise<WebSocket> {
  const socket = new WebSocket(`${url}?id=${id}`, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  return socket;
}

/** Plain clients on the first and last relay: A stringifies each envelope, B parses each frame. */
async function ends(name: string, relays: readonly Relay[], close: () => Promise<void>): Promise<FloorPath> {
  const a = await connect(relays[0]!.url, "a");
  const b = await connect(relays[relays.length - 1]!.url, "b");
  // The relay files B under its id on "connection", which may come after the client's "open".
  while (relays[relays.length - 1]!.b() === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
  return {
    name,
    a: { participantId: "a", send: (envelope) => a.send(JSON.stringify(envelope)) },
    b: {
      participantId: "b",
      subscribe(listener) {
        const onMessage = (data: Buffer) => listener(JSON.parse(String(data)));
        b.on("message", onMessage);
        return () => b.off("message", onMessage);
      },
    },
    async close() {
      a.terminate();
      b.terminate();
      await close();
    },
  };
}

/** One plain `ws` relay: A → relay → B. */
export async function webSocketFloor(): Promise<FloorPath> {
  const relay = await startRelay(toB);
  return ends("one ws relay (floor)", [relay], () => relay.close());
}

/** Two plain `ws` relays joined by one Redis pub/sub channel: A → relay 1 → PUBLISH → relay 2 → B. */
export async function redisRelayFloor(url: string): Promise<FloorPath> {
  const publisher = createClient({ url });
  // Connection errors are retried by the client; without a listener they would crash the process.
  publisher.on("error", () => undefined);
  const subscriber = publisher.duplicate();
  subscriber.on("error", () => undefined);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const first = await startRelay(() => (frame) => void publisher.publish(CHANNEL, frame).catch(() => undefined));
  const last = await startRelay(() => () => undefined);
  // Buffer mode: the frame's bytes as published, not decoded to a string.
  await subscriber.subscribe(CHANNEL, (frame: Buffer) => last.b()?.send(frame, { binary: false }), true);
  return ends("two ws relays on Redis (floor)", [first, last], async () => {
    await Promise.all([first.close(), last.close()]);
    await Promise.allSettled([publisher.close(), subscriber.close()]);
  });
}

/** ms from A's send of one small envelope to its arrival at B's callback, `count` times in turn. */
export async function deliveryLatency(path: FloorPath, count: number): Promise<number[]> {
  let arrived: ((at: number) => void) | undefined;
  const unsubscribe = path.b.subscribe((envelope) => {
    if ((envelope as { kind?: string }).kind === "abort") arrived?.(performance.now());
  });
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Promise<number>((resolve) => (arrived = resolve));
    const t0 = performance.now();
    path.a.send({ protocol: "mcpx/v0.1", id: `x${i}`, from: path.a.participantId, to: [path.b.participantId], kind: "abort", payload: { requestId: i } });
    samples.push((await at) - t0);
  }
  unsubscribe();
  return samples;
}
