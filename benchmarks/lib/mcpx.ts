// MCPx (issue 32): envelopes routed per second, and abort → remote ctx.signal latency, through
// the in-memory gateway, one WebSocket gateway on loopback, and two WebSocket gateways sharing
// the topic through a real redis-server (the sender on one, the receiver on the other). The
// gateways and participants share this process (each gateway on its own loopback port), so the
// figures compare the paths, not machines. The generated output's add-ons (out/runtime/addons/)
// are what is measured. Without redis-server on the PATH the Redis row says so.
// Each path has its floor (lib/floor-mcpx.ts): the same envelopes with no MCPx at all, measured
// by the same loops in the same runs (the throughput runs alternate ours and the floor).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as v2025 from "../../out/2025-11-25/index.js";
import { attachMcpxGateway, type McpxWsGateway } from "../../out/runtime/addons/mcpx-ws/gateway.js";
import { connectMcpxLink } from "../../out/runtime/addons/mcpx-ws/link.js";
import { createMcpxTokenVerifier, signMcpxToken } from "../../out/runtime/addons/mcpx-ws/token.js";
import { createRedisGatewayBus } from "../../out/runtime/addons/redis/gateway-bus.js";
import type { GatewayBus } from "../../out/runtime/transports/mcpx-hub.js";
import { startRedisServer, type RedisServer } from "../../test/helpers/redis-server.js";
import { deliveryLatency, inMemoryFloor, redisRelayFloor, webSocketFloor, type FloorPath, type Receiver, type Sender } from "./floor-mcpx.js";
import { median, percentile } from "./stats.js";
import { costVsFloor, renderTable } from "./table.js";

export interface McpxSizes {
  /** Envelopes sent sender → receiver per throughput run. */
  readonly envelopes: number;
  /** Aborted calls per latency run. */
  readonly aborts: number;
}

export interface McpxRow {
  readonly path: string;
  readonly envelopesPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** The same path's floor (lib/floor-mcpx.ts): envelopes/s, and one-way delivery p50/p99 in ms. */
  readonly floor: { readonly envelopesPerSecond: number; readonly p50: number; readonly p99: number };
}

export type McpxResults = { rows: McpxRow[]; note?: string | undefined };

const SECRET = "mcpx-bench-secret-0123456789abcdef0123";
const TOPIC = "bench";
/** Envelopes in flight at once: the sender waits for the receiver (no burst the gateway must buffer). */
const WINDOW = 512;

/** Two participants' links on some path: `a` sends, `b` receives. */
interface Path {
  readonly name: string;
  readonly a: v2025.McpxLink;
  readonly b: v2025.McpxLink;
  close(): Promise<void>;
}

function inMemoryPath(): Path {
  const gateway = v2025.createMcpxGateway();
  const a = gateway.join("a");
  const b = gateway.join("b");
  return { name: "in-memory gateway", a, b, close: async () => (a.close(), b.close()) };
}

async function listen(bus: GatewayBus | undefined): Promise<{ http: Server; gateway: McpxWsGateway; url: string }> {
  const http = createServer();
  // The bounds are raised: the bench measures routing, not the flood protection.
  const gateway = attachMcpxGateway(http, { verify: createMcpxTokenVerifier({ secret: SECRET }), bus, maxEnvelopesPerSecond: 1_000_000_000, maxQueuedBytes: 256 * 1024 * 1024 });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { http, gateway, url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws` };
}

const join = (url: string, id: string) =>
  connectMcpxLink({ url, topic: TOPIC, shape: "v0.1", token: () => signMcpxToken(SECRET, { participantId: id, topic: TOPIC, capabilities: ["*"] }) });

async function webSocketPath(name: string, buses: Array<GatewayBus | undefined>): Promise<Path> {
  const gateways = await Promise.all(buses.map((bus) => listen(bus)));
  const first = gateways[0]!;
  const last = gateways[gateways.length - 1]!;
  const a = await join(first.url, "a");
  const b = await join(last.url, "b");
  // Across gateways, a sees b only once the roster has crossed the bus.
  while (!a.participants().some((p) => p.id === "b")) await new Promise((resolve) => setTimeout(resolve, 10));
  return {
    name,
    a,
    b,
    async close() {
      a.close();
      b.close();
      for (const g of gateways) {
        await g.gateway.close();
        g.http.close();
      }
    },
  };
}

/** Envelopes a → b per second, `count` of them, at most WINDOW unanswered (ours and the floors alike). */
async function throughput(path: { readonly a: Sender; readonly b: Receiver }, count: number): Promise<number> {
  let received = 0;
  let wake: (() => void) | undefined;
  const unsubscribe = path.b.subscribe((envelope) => {
    if ((envelope as { kind?: string }).kind !== "chat") return;
    received++;
    wake?.();
  });
  const waitUntil = async (n: number) => {
    while (received < n) await new Promise<void>((resolve) => (wake = resolve));
  };
  const started = performance.now();
  for (let sent = 0; sent < count; sent++) {
    if (sent - received >= WINDOW) await waitUntil(sent - WINDOW / 2);
    path.a.send({ protocol: "mcpx/v0.1", id: `e${sent}`, from: path.a.participantId, to: [path.b.participantId], kind: "chat", payload: { text: "x" } });
  }
  await waitUntil(count);
  const seconds = (performance.now() - started) / 1000;
  unsubscribe();
  return count / seconds;
}

/** ms from the client's abort to the server handler's ctx.signal abort, `count` times. */
async function abortLatency(path: Path, count: number): Promise<number[]> {
  let started: (() => void) | undefined;
  let abortedAt: ((at: number) => void) | undefined;
  const server = new v2025.McpServer({
    logger: null,
    handlers: {
      "tools/call": (_params, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            abortedAt?.(performance.now());
            resolve({ content: [] });
          }, { once: true });
          started?.();
        }),
    },
  });
  await server.connect(v2025.createMcpxTransport({ participantId: path.b.participantId, peerId: path.a.participantId, link: path.b }));
  const client = new v2025.McpClient({ logger: null });
  await client.connect(v2025.createMcpxTransport({ participantId: path.a.participantId, peerId: path.b.participantId, link: path.a }));
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const controller = new AbortController();
    const running = new Promise<void>((resolve) => (started = resolve));
    const call = client.callTool({ name: "slow" }, { signal: controller.signal }).catch(() => undefined);
    await running;
    const remote = new Promise<number>((resolve) => (abortedAt = resolve));
    const t0 = performance.now();
    controller.abort("bench");
    samples.push((await remote) - t0);
    await call;
  }
  await client.close();
  await server.close();
  return samples;
}

/** Each path in turn, `runs` throughput runs (median) and one latency run of `aborts`. */
export async function runMcpx(runs: number, sizes: McpxSizes, log: (line: string) => void): Promise<McpxResults> {
  let redis: RedisServer | undefined;
  let note: string | undefined;
  try {
    redis = await startRedisServer();
  } catch (error) {
    note = `no Redis row: ${error instanceof Error ? error.message : String(error)}`;
  }
  const buses: GatewayBus[] = [];
  /** Each path of ours with its floor. */
  const makers: Array<{ ours: () => Promise<Path>; floor: () => Promise<FloorPath> }> = [
    { ours: async () => inMemoryPath(), floor: async () => inMemoryFloor() },
    { ours: () => webSocketPath("one WebSocket gateway", [undefined]), floor: webSocketFloor },
  ];
  if (redis !== undefined) {
    const url = redis.url;
    makers.push({
      ours: async () => {
        const two = [await createRedisGatewayBus({ url }), await createRedisGatewayBus({ url })];
        buses.push(...two);
        return webSocketPath("two WebSocket gateways on Redis", two);
      },
      floor: () => redisRelayFloor(url),
    });
  }
  const rows: McpxRow[] = [];
  try {
    for (const make of makers) {
      const path = await make.ours();
      let floor: FloorPath | undefined;
      try {
        floor = await make.floor();
        log(`MCPx: ${path.name} and its floor…`);
        const warm = Math.min(2_000, sizes.envelopes);
        await throughput(path, warm);
        await throughput(floor, warm);
        const rates: number[] = [];
        const floorRates: number[] = [];
        for (let run = 0; run < runs; run++) {
          // Alternate which goes first, so that neither gets the warmer process.
          const order = run % 2 === 0 ? [false, true] : [true, false];
          for (const isFloor of order) {
            if (isFloor) floorRates.push(await throughput(floor, sizes.envelopes));
            else rates.push(await throughput(path, sizes.envelopes));
          }
        }
        const warmAborts = Math.min(50, sizes.aborts);
        await abortLatency(path, warmAborts);
        const latencies = await abortLatency(path, sizes.aborts);
        await deliveryLatency(floor, warmAborts);
        const floorLatencies = await deliveryLatency(floor, sizes.aborts);
        rows.push({
          path: path.name,
          envelopesPerSecond: median(rates),
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          floor: { envelopesPerSecond: median(floorRates), p50: percentile(floorLatencies, 50), p99: percentile(floorLatencies, 99) },
        });
      } finally {
        await path.close();
        await floor?.close();
      }
    }
  } finally {
    for (const bus of buses) await bus.close();
    await redis?.stop();
  }
  return { rows, note };
}

export function mcpxReport(sizes: McpxSizes, results: McpxResults): string {
  const rate = (perSecond: number): string => Math.round(perSecond).toLocaleString("en-US");
  const lines = [
    `### MCPx: ${sizes.envelopes} directed envelopes (median of runs, 512 in flight), ${sizes.aborts} aborted tools/call`,
    "",
    renderTable(
      ["path", "envelopes/s", "abort → remote ctx.signal p50 (ms)", "p99 (ms)", "floor envelopes/s", "floor A → B p50 (ms)", "floor p99 (ms)", "cost vs floor (envelopes/s, p50, p99)"],
      results.rows.map((r) => [
        r.path,
        rate(r.envelopesPerSecond),
        r.p50.toFixed(3),
        r.p99.toFixed(3),
        rate(r.floor.envelopesPerSecond),
        r.floor.p50.toFixed(3),
        r.floor.p99.toFixed(3),
        [costVsFloor(r.envelopesPerSecond, r.floor.envelopesPerSecond, "higher"), costVsFloor(r.p50, r.floor.p50, "lower"), costVsFloor(r.p99, r.floor.p99, "lower")].join(" / "),
      ]),
    ),
    "",
    "floor (lib/floor-mcpx.ts): the same envelopes with no MCPx, per path: a plain in-process queue; a plain ws relay (same bytes A → B, no token, parse or check); two such relays joined by one Redis PUBLISH/SUBSCRIBE channel. " +
      "Its latency is the one-way delivery of one small envelope A → B, since an abort is one envelope. cost vs floor: floor ÷ ours for envelopes/s, ours ÷ floor for latency; 1.00× is the floor.",
  ];
  if (results.note !== undefined) lines.push("", results.note);
  return lines.join("\n");
}
