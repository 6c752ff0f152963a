// The floor rows: tools/call on one era's servers (the raw node:http floor, the web floor, ours on
// its native and its web face, SDK 2.x), each in its own process, driven by the load process
// (load.ts) over kept-alive connections; runs rotating between the sides (runner.ts alternate),
// medians. The server's CPU time per call is read from its process around each run, as the other
// HTTP rows read it.
import { loadavg } from "node:os";
import { alternate, pick, type Sides } from "../runner.js";
import type { LoadEra } from "./ipc.js";
import { LoadProcess } from "./load-remote.js";
import { oursHasHttp } from "./ours-http.js";
import { RemoteServer } from "./remote.js";
import type { ServerKey } from "./servers.js";

export type FloorSide = "rawFloor" | "webFloor" | "oursNative" | "oursWeb" | "sdk2";
export const FLOOR_SIDES: readonly FloorSide[] = ["rawFloor", "webFloor", "oursNative", "oursWeb", "sdk2"];

/** Each side's server process, per era (servers.ts, node-servers.ts). */
const SERVER_KEYS: Readonly<Record<LoadEra, Readonly<Record<FloorSide, ServerKey>>>> = {
  "2026": { rawFloor: "raw-floor", webFloor: "floor", oursNative: "ours-native", oursWeb: "ours-web", sdk2: "sdk2" },
  session: { rawFloor: "session-raw-floor", webFloor: "session-floor", oursNative: "session-ours-native", oursWeb: "session-ours-web", sdk2: "session-sdk2" },
};

export interface FloorSizes {
  /** Echo calls per run. */
  readonly calls: number;
  /** Kept-alive connections of each row. */
  readonly connections: readonly number[];
}

/** A figure per side; a side missing in this checkout (ours without createHttpHandler) has none. */
export type FloorFigure = Readonly<Partial<Record<FloorSide, number>>>;

export interface FloorRow {
  readonly connections: number;
  /** Requests per second. */
  readonly rate: FloorFigure;
  /** The server process's CPU time per call (µs). */
  readonly cpuUs: FloorFigure;
  /** The load process's CPU time per call (µs): how close the client was to being the bottleneck. */
  readonly clientCpuUs: FloorFigure;
}

export interface FloorResults {
  readonly era: LoadEra;
  readonly sides: readonly FloorSide[];
  readonly rows: readonly FloorRow[];
  /** The machine's 1-minute load average before the first run and after the last. */
  readonly load: { readonly before: number; readonly after: number };
}

interface Sample {
  readonly rate: number;
  readonly cpuUs: number;
  readonly clientCpuUs: number;
}

/** One run: connect (untimed), the server's CPU before, `total` calls, its CPU after, disconnect. */
async function once(load: LoadProcess, era: LoadEra, server: RemoteServer, connections: number, total: number): Promise<Sample> {
  await load.prepare(era, server.url, connections);
  try {
    const cpu0 = await server.cpuUs();
    const { seconds, cpuUs } = await load.run(total);
    const cpu1 = await server.cpuUs();
    return { rate: total / seconds, cpuUs: (cpu1 - cpu0) / total, clientCpuUs: cpuUs / total };
  } finally {
    await load.finish();
  }
}

export async function runFloor(era: LoadEra, runs: number, sizes: FloorSizes, log: (line: string) => void): Promise<FloorResults> {
  const sides = FLOOR_SIDES.filter((side) => era === "session" || oursHasHttp || (side !== "oursNative" && side !== "oursWeb"));
  const name = era === "2026" ? "HTTP floor" : "HTTP sessions floor";
  const [load, ...started] = await Promise.all([LoadProcess.start(), ...sides.map((side) => RemoteServer.start(SERVER_KEYS[era][side]))]);
  const servers = Object.fromEntries(sides.map((side, i) => [side, started[i] as RemoteServer])) as Record<FloorSide, RemoteServer>;
  const each = (n: number, connections: number, total: number): Promise<Sides<Sample[], FloorSide>> =>
    alternate(sides, n, (side) => once(load, era, servers[side], connections, total));
  const before = loadavg()[0] ?? 0;
  try {
    log(`${name}: warming up…`);
    for (const connections of sizes.connections) await each(1, connections, Math.ceil(sizes.calls / 5));
    const rows: FloorRow[] = [];
    for (const connections of sizes.connections) {
      log(`${name}: tools/call, ${connections} connection${connections === 1 ? "" : "s"}…`);
      const results = await each(runs, connections, sizes.calls);
      rows.push({ connections, rate: pick(results, (r) => r.rate), cpuUs: pick(results, (r) => r.cpuUs), clientCpuUs: pick(results, (r) => r.clientCpuUs) });
    }
    return { era, sides, rows, load: { before, after: loadavg()[0] ?? 0 } };
  } finally {
    await Promise.all([load.stop(), ...Object.values<RemoteServer>(servers).map((server) => server.stop())]);
  }
}
