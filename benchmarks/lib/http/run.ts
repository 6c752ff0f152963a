// The HTTP rows: one server process per contender, the same fetch clients against each, runs
// rotating between the contenders, medians.
import { alternate, fewest, pick } from "../runner.js";
import { collect } from "../stats.js";
import { RemoteServer } from "./remote.js";
import { httpCancelStorm, echoThroughput } from "./scenarios.js";
import { availableHttpSides, type HttpSide } from "./servers.js";

export interface HttpSizes {
  /** Echo calls per throughput run. */
  readonly calls: number;
  /** Concurrent clients of each throughput row. */
  readonly clients: readonly number[];
  /** Slow calls in the storm. */
  readonly storm: number;
}

/**
 * The storm also runs on ours through toNodeListener's native face (node-servers.ts "ours-native"),
 * the face node:http users get: the sides above are web handlers behind the bench's bridge.
 */
export type StormSide = HttpSide | "ours-native";

/** A figure per side; a side without an HTTP server in this checkout has none. */
export type HttpFigure = Readonly<Partial<Record<StormSide, number>>>;

export interface HttpResults {
  readonly sides: readonly HttpSide[];
  /** Requests per second, one per entry of sizes.clients. */
  readonly throughput: readonly HttpFigure[];
  /** The server's CPU time per request (µs), one per entry of sizes.clients. */
  readonly cpuPerCall: readonly HttpFigure[];
  /** Median ms from the aborts to the last handler's abort. */
  readonly stormMs: HttpFigure;
  /** The fewest handlers that saw their abort in any run. */
  readonly stormSawAbort: HttpFigure;
  /** The server's CPU time per aborted stream (µs), from the aborts to the last handler's abort. */
  readonly stormCpu: HttpFigure;
}

export async function runHttp(runs: number, sizes: HttpSizes, log: (line: string) => void): Promise<HttpResults> {
  const sides = availableHttpSides();
  const stormSides: StormSide[] = sides.includes("ours") ? [...sides, "ours-native"] : sides;
  const servers = Object.fromEntries(await Promise.all(stormSides.map(async (side) => [side, await RemoteServer.start(side)] as const))) as Record<StormSide, RemoteServer>;
  const each = <T>(n: number, f: (server: RemoteServer) => Promise<T>, among: readonly StormSide[] = sides) =>
    alternate(among, n, (side) => {
      collect();
      return f(servers[side]);
    });
  try {
    log("HTTP: warming up…");
    for (const clients of sizes.clients) await each(1, (s) => echoThroughput(s, clients, Math.ceil(sizes.calls / 5)));
    await each(1, (s) => httpCancelStorm(s, Math.ceil(sizes.storm / 5)), stormSides);
    const throughput: HttpFigure[] = [];
    const cpuPerCall: HttpFigure[] = [];
    for (const clients of sizes.clients) {
      log(`HTTP: tools/call, ${clients} concurrent clients…`);
      const results = await each(runs, (s) => echoThroughput(s, clients, sizes.calls));
      throughput.push(pick(results, (r) => r.rate));
      cpuPerCall.push(pick(results, (r) => r.cpuUs));
    }
    log("HTTP: cancel storm…");
    const storms = await each(runs, (s) => httpCancelStorm(s, sizes.storm), stormSides);
    return { sides, throughput, cpuPerCall, stormMs: pick(storms, (r) => r.ms), stormSawAbort: fewest(storms, (r) => r.sawAbort), stormCpu: pick(storms, (r) => r.cpuUs) };
  } finally {
    await Promise.all(Object.values<RemoteServer>(servers).map((server) => server.stop()));
  }
}
