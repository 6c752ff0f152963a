// The generated runtime against the official SDK 1.x and 2.x. In memory, in one process, over the
// same linked transport (lib/transport.ts): throughput, a cancel storm, abort latency, heap growth
// and listener leaks, then the throughput again over a JSON pipe; each implementation on the
// revision it speaks best that has the row's methods. Over HTTP on loopback (lib/http/): our
// generated 2026-07-28 handler against SDK 2.x's createMcpHandler, each in its own server process
// behind the same node:http bridge, driven by fetch: tools/call with N concurrent clients, and a
// cancel storm of aborted streams. Wire validation on and off (lib/wire-validation.ts), in memory.
// Over HTTP with sessions (lib/http/session-*.ts): our generated
// 2025-11-25 session handler against SDK 1.x's and SDK 2.x's session transports, the same way:
// tools/call, a cancel storm by notifications/cancelled, memory per idle session. Every HTTP table
// has a no-MCP web floor (Request/Response). Against Node's floor (lib/http/floor-*.ts), with each
// HTTP part: tools/call of the raw node:http floor, the web floor, ours on the native and the web
// face of toNodeListener, and SDK 2.x, the load from a process of its own; its chart goes to
// benchmarks/figures/http-cpu.svg (a scaled run's to the temp folder). At the edge
// (lib/http/edge-*.ts), after the other HTTP parts: what unauthenticated bodies cost our servers
// behind an authenticate (200 of 4 MiB at once: the server's memory growth; nested ones: the time
// to refuse them). Prints machine info and Markdown tables of medians (docs/benchmarks.md explains
// the rows).
//
// Run with `npm run bench` (node --expose-gc --import tsx). Environment:
//   BENCH_RUNS   runs per measurement (default 5; latency uses at most 3, heap growth and listeners 1)
//   BENCH_SCALE  multiplies every workload size (default 1; e.g. 0.1 for a quick check)
//   BENCH_ONLY   "memory", "http" (2026-07-28), "sessions" (2025-11-25 over HTTP), "edge", "mcpx" or "redis" to run one part only
//                (edge: lib/http/edge-run.ts; mcpx: lib/mcpx.ts; redis: lib/redis.ts, the Redis add-on's rows)
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stormFloor } from "./lib/floor.js";
import { updateChart } from "./lib/http/chart-file.js";
import { edgeReport } from "./lib/http/edge-report.js";
import { runEdge, type EdgeSizes } from "./lib/http/edge-run.js";
import { floorReport } from "./lib/http/floor-report.js";
import { runFloor, type FloorSizes } from "./lib/http/floor-run.js";
import { httpReport } from "./lib/http/report.js";
import { runHttp, type HttpSizes } from "./lib/http/run.js";
import { sessionReport } from "./lib/http/session-report.js";
import { runSessionHttp, type SessionSizes } from "./lib/http/session-run.js";
import { describeMachine, machineInfo } from "./lib/machine.js";
import { mcpxReport, runMcpx } from "./lib/mcpx.js";
import { report, type Figure, type Results, type Sizes } from "./lib/report.js";
import { registrationsHttpReport, registrationsReport, runRegistrations, runRegistrationsHttp } from "./lib/registrations.js";
import { contenders, fewest, measure, medians, pick, type Measured } from "./lib/runner.js";
import { abortLatency, cancelStorm, concurrentCalls, heapGrowth, listenersLeft, sequentialPings } from "./lib/scenarios.js";
import { collect, median } from "./lib/stats.js";
import { redisReport, runRedis, type RedisSizes } from "./lib/redis.js";
import { runWireValidation, wireValidationReport } from "./lib/wire-validation.js";

const RUNS = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 5));
const LATENCY_RUNS = Math.min(RUNS, 3);
const SCALE = Number(process.env["BENCH_SCALE"] ?? 1) > 0 ? Number(process.env["BENCH_SCALE"] ?? 1) : 1;
const ONLY = process.env["BENCH_ONLY"];
const scaled = (n: number): number => Math.max(10, Math.round(n * SCALE));

const SIZES: Sizes = {
  pings: scaled(20_000),
  calls: scaled(20_000),
  storm: scaled(5_000),
  latency: scaled(10_000),
  heap: scaled(100_000),
  listeners: scaled(10_000),
};
const REDIS_SIZES: RedisSizes = { tasks: scaled(5_000), fanOut: scaled(500), calls: scaled(5_000) };
const HTTP_SIZES: HttpSizes = { calls: scaled(2_000), clients: [1, 16, 64], storm: scaled(1_000) };
/** At most 1,000 idle sessions: our handler's default maxSessions is 1,024. */
const SESSION_SIZES: SessionSizes = { calls: scaled(2_000), clients: [1, 16, 64], storm: scaled(1_000), idle: Math.min(1_000, scaled(1_000)) };
/** tools/call against Node's floor, per HTTP part: kept-alive connections from the load process. */
const FLOOR_SIZES: FloorSizes = { calls: scaled(5_000), connections: [1, 16, 64] };
/** The target speaks of 200 bodies of 4 MiB: fewer only when BENCH_SCALE < 1 asks (never more; each stays 4 MiB). */
const EDGE_SIZES: EdgeSizes = { bodies: Math.min(200, scaled(200)) };
/** Where the floor chart goes: committed with the docs from a full-size run, else a temp folder. */
const CHART_DIR = SCALE === 1 ? fileURLToPath(new URL("./figures/", import.meta.url)) : join(tmpdir(), "mcp-stubgen-bench");
/** Heap growth cancels in batches of this many at once. */
const HEAP_BATCH = Math.min(1_000, SIZES.heap);
/** Cancels on the same connection before the first heap reading (see heapGrowth). */
const HEAP_PRIME = scaled(10_000);

const started = performance.now();
/** Progress on stderr, with the seconds since start. */
function log(line: string): void {
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}\n`);
}

/** Every workload once, smaller, on every side: the JIT has settled before anything is timed. */
async function warmUp(): Promise<void> {
  const small = scaled(2_000);
  for (const codec of ["object", "json"] as const) {
    await measure(1, codec, ["ping"], (s) => sequentialPings(s, small));
    await measure(1, codec, ["tools/call"], (s) => concurrentCalls(s, small));
  }
  await measure(1, "object", ["tools/call"], (s, p) => cancelStorm(s, p, scaled(1_000)));
  await measure(1, "object", ["tools/call"], (s, p) => abortLatency(s, p, scaled(1_000)));
  await measure(1, "object", ["tools/call"], (s, p) => heapGrowth(s, p, scaled(10_000), HEAP_BATCH, small));
  await stormFloor(scaled(1_000));
}

async function floorMs(): Promise<number> {
  const runs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    collect();
    runs.push(await stormFloor(SIZES.storm));
  }
  return median(runs);
}

/** The medians of a measurement of one number per run. */
const figure = (m: Measured<number>): Figure => ({ values: medians(m.results), revisions: m.revisions });
/** The medians of one field of a measurement's results. */
const field = <T>(m: Measured<T>, f: (t: T) => number): Figure => ({ values: pick(m.results, f), revisions: m.revisions });

async function runMemory(): Promise<Results> {
  log("warming up…");
  await warmUp();
  log("sequential ping…");
  const pings = figure(await measure(RUNS, "object", ["ping"], (s) => sequentialPings(s, SIZES.pings)));
  log("concurrent tools/call…");
  const calls = figure(await measure(RUNS, "object", ["tools/call"], (s) => concurrentCalls(s, SIZES.calls)));
  log("cancel storm…");
  const storms = await measure(RUNS, "object", ["tools/call"], (s, p) => cancelStorm(s, p, SIZES.storm));
  // Right after the storms, so that both see the same machine load.
  log("cancel storm floor…");
  const stormFloorMs = await floorMs();
  log("abort latency…");
  const latencies = await measure(LATENCY_RUNS, "object", ["tools/call"], (s, p) => abortLatency(s, p, SIZES.latency));
  log("heap growth…");
  const heap = figure(await measure(1, "object", ["tools/call"], (s, p) => heapGrowth(s, p, SIZES.heap, HEAP_BATCH, HEAP_PRIME)));
  log("listeners…");
  const listeners = figure(await measure(1, "object", ["tools/call"], (s) => listenersLeft(s, SIZES.listeners)));
  log("JSON pipe…");
  const jsonPings = figure(await measure(RUNS, "json", ["ping"], (s) => sequentialPings(s, SIZES.pings)));
  const jsonCalls = figure(await measure(RUNS, "json", ["tools/call"], (s) => concurrentCalls(s, SIZES.calls)));
  return {
    pings,
    calls,
    jsonPings,
    jsonCalls,
    stormMs: field(storms, (r) => r.ms),
    // Every run must reach all of them: the fewest of any run is what counts.
    stormSawAbort: { values: fewest(storms.results, (r) => r.sawAbort), revisions: storms.revisions },
    p50: field(latencies, (r) => r.p50),
    p99: field(latencies, (r) => r.p99),
    heap,
    listeners,
    stormFloorMs,
  };
}

const machine = machineInfo();
const names = { ours: contenders.ours.name, sdk1: contenders.sdk1.name, sdk2: contenders.sdk2.name };
const runs = (part: "memory" | "http" | "sessions" | "edge" | "mcpx" | "redis"): boolean => ONLY === undefined || ONLY === part;
const memory = runs("memory") ? await runMemory() : undefined;
const http = runs("http") ? await runHttp(RUNS, HTTP_SIZES, log) : undefined;
// Against Node's floor, with each HTTP part (lib/http/floor-run.ts).
const httpFloor = runs("http") ? await runFloor("2026", RUNS, FLOOR_SIZES, log) : undefined;
const sessions = runs("sessions") ? await runSessionHttp(RUNS, SESSION_SIZES, log) : undefined;
const sessionFloor = runs("sessions") ? await runFloor("session", RUNS, FLOOR_SIZES, log) : undefined;
const MCPX_SIZES = { envelopes: scaled(20_000), aborts: scaled(500) };
const mcpx = runs("mcpx") ? await runMcpx(RUNS, MCPX_SIZES, log) : undefined;
const redis = runs("redis") ? await runRedis(RUNS, REDIS_SIZES, log) : undefined;
// tools/call through a registered tool, validation on and off (lib/registrations.ts); with the in-memory part.
const registrations = runs("memory") ? await runRegistrations(RUNS, scaled(5_000), log) : undefined;
// tools/call with wire validation on and off, against SDK 2.x and a raw JSON-RPC floor (lib/wire-validation.ts); with the in-memory part.
const validation = runs("memory") ? await runWireValidation(Math.max(RUNS, 7), scaled(10_000), log) : undefined;
// The same over HTTP (2026-07-28, a server process per side); with the HTTP part.
const registrationsHttp = runs("http") ? await runRegistrationsHttp(RUNS, Math.max(16, scaled(2_000)), log) : undefined;
// Unauthenticated bodies at our servers' edge, after every other HTTP run (lib/http/edge-run.ts).
const edge = runs("edge") ? await runEdge(EDGE_SIZES, log) : undefined;
console.log(describeMachine(machine));
console.log(
  `Medians of ${RUNS} runs (in memory: latency ${LATENCY_RUNS}, heap growth and listeners 1), after a warm-up; a fresh connection per run${SCALE === 1 ? "" : `; sizes × ${SCALE}`}.`,
);
if (memory !== undefined) console.log(`\n${report(names, SIZES, memory)}`);
if (http !== undefined) console.log(`\n${httpReport(names, HTTP_SIZES, http)}`);
if (registrations !== undefined) console.log(`\n${registrationsReport(registrations)}`);
if (validation !== undefined) console.log(`\n${wireValidationReport(validation)}`);
if (registrationsHttp !== undefined) console.log(`\n${registrationsHttpReport(registrationsHttp)}`);
if (httpFloor !== undefined) console.log(`\n${floorReport(names, FLOOR_SIZES, httpFloor, RUNS)}`);
if (sessions !== undefined) console.log(`\n${sessionReport(names, SESSION_SIZES, sessions)}`);
if (sessionFloor !== undefined) console.log(`\n${floorReport(names, FLOOR_SIZES, sessionFloor, RUNS)}`);
let chart: string | undefined;
for (const floor of [httpFloor, sessionFloor]) if (floor !== undefined) chart = updateChart(CHART_DIR, floor, { runs: RUNS, calls: FLOOR_SIZES.calls, sdk2: names.sdk2 });
if (chart !== undefined) console.log(`\nChart of the server CPU per call against Node's floor (both HTTP parts' latest figures): ${chart}`);
if (edge !== undefined) console.log(`\n${edgeReport(edge)}`);
if (mcpx !== undefined) console.log(`\n${mcpxReport(MCPX_SIZES, mcpx)}`);
if (redis !== undefined) console.log(`\n${redisReport(REDIS_SIZES, redis)}`);
console.log(`\nTotal benchmark time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
