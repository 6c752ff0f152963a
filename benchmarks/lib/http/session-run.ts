// The session-era HTTP rows: one server process per contender (ours, SDK 1.x, SDK 2.x, the floor),
// the same fetch clients against each, runs rotating between them, medians.
import { alternate, fewest, pick, type Sides } from "../runner.js";
import { collect } from "../stats.js";
import { RemoteServer } from "./remote.js";
import { idleSessionMemory, sessionCancelStorm, sessionEchoThroughput } from "./session-scenarios.js";
import { SESSION_SIDES, type SessionSide } from "./session-servers.js";

export interface SessionSizes {
  /** Echo calls per throughput run. */
  readonly calls: number;
  /** Concurrent clients (one session each) of each throughput row. */
  readonly clients: readonly number[];
  /** Slow calls in the storm. */
  readonly storm: number;
  /** Idle sessions of the memory row. */
  readonly idle: number;
}

export type SessionFigure = Sides<number, SessionSide>;

export interface SessionResults {
  readonly throughput: readonly SessionFigure[];
  readonly cpuPerCall: readonly SessionFigure[];
  readonly stormMs: SessionFigure;
  readonly stormCpu: SessionFigure;
  /** The fewest handlers that saw their abort in any run. */
  readonly stormSawAbort: SessionFigure;
  /** The most streams left open in any run. */
  readonly stormLeftOpen: SessionFigure;
  /** Bytes of server heap per idle session. */
  readonly idleBytes: SessionFigure;
}

/** The largest of each side's figures (a count no run may exceed). */
function most<T>(r: Sides<readonly T[], SessionSide>, f: (t: T) => number): SessionFigure {
  const least = fewest(r, (t) => -f(t));
  return Object.fromEntries(SESSION_SIDES.map((side) => [side, -least[side]])) as SessionFigure;
}

export async function runSessionHttp(runs: number, sizes: SessionSizes, log: (line: string) => void): Promise<SessionResults> {
  const entries = await Promise.all(SESSION_SIDES.map(async (side) => [side, await RemoteServer.start(`session-${side}`)] as const));
  const servers = Object.fromEntries(entries) as Record<SessionSide, RemoteServer>;
  const each = <T>(n: number, f: (server: RemoteServer) => Promise<T>) =>
    alternate(SESSION_SIDES, n, (side) => {
      collect();
      return f(servers[side]);
    });
  try {
    log("HTTP sessions: warming up…");
    for (const clients of sizes.clients) await each(1, (s) => sessionEchoThroughput(s, clients, Math.ceil(sizes.calls / 5)));
    await each(1, (s) => sessionCancelStorm(s, Math.ceil(sizes.storm / 5)));
    await each(1, (s) => idleSessionMemory(s, Math.ceil(sizes.idle / 5)));
    const throughput: SessionFigure[] = [];
    const cpuPerCall: SessionFigure[] = [];
    for (const clients of sizes.clients) {
      log(`HTTP sessions: tools/call, ${clients} concurrent clients…`);
      const results = await each(runs, (s) => sessionEchoThroughput(s, clients, sizes.calls));
      throughput.push(pick(results, (r) => r.rate));
      cpuPerCall.push(pick(results, (r) => r.cpuUs));
    }
    log("HTTP sessions: cancel storm…");
    const storms = await each(runs, (s) => sessionCancelStorm(s, sizes.storm));
    log("HTTP sessions: idle sessions…");
    const idle = await each(runs, (s) => idleSessionMemory(s, sizes.idle));
    return {
      throughput,
      cpuPerCall,
      stormMs: pick(storms, (r) => r.ms),
      stormCpu: pick(storms, (r) => r.cpuUs),
      stormSawAbort: fewest(storms, (r) => r.sawAbort),
      stormLeftOpen: most(storms, (r) => r.leftOpen),
      idleBytes: pick(idle, (x) => x),
    };
  } finally {
    await Promise.all(Object.values<RemoteServer>(servers).map((server) => server.stop()));
  }
}
