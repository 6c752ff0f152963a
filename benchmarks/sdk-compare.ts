// The generated 2025-11-25 runtime against the official SDK 1.x (Client + McpServer), in one
// process, over the same linked in-memory transport (lib/transport.ts): throughput, a cancel
// storm, abort latency, heap growth and listener leaks, then the throughput again over a JSON
// pipe. Prints machine info and a Markdown table of medians (BENCHMARKS.md explains the rows).
// Run with `npm run bench` (node --expose-gc --import tsx). BENCH_RUNS sets the runs per
// measurement (default 5; latency uses at most 3, heap growth and listeners 1).
import { stormFloor } from "./lib/floor.js";
import { describeMachine, machineInfo } from "./lib/machine.js";
import { report, type Results, type Sizes } from "./lib/report.js";
import { contenders, measure, medians, pick } from "./lib/runner.js";
import { abortLatency, cancelStorm, concurrentCalls, heapGrowth, listenersLeft, sequentialPings } from "./lib/scenarios.js";
import { collect, median } from "./lib/stats.js";

const SIZES: Sizes = { pings: 20_000, calls: 20_000, storm: 5_000, latency: 10_000, heap: 100_000, listeners: 10_000 };
/** Heap growth cancels in batches of this many at once. */
const HEAP_BATCH = 1_000;
/** Cancels on the same connection before the first heap reading (see heapGrowth). */
const HEAP_PRIME = 10_000;
const RUNS = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 5));
const LATENCY_RUNS = Math.min(RUNS, 3);

const started = performance.now();
/** Progress on stderr, with the seconds since start. */
function log(line: string): void {
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}\n`);
}

/** Every workload once, smaller, on both sides: the JIT has settled before anything is timed. */
async function warmUp(): Promise<void> {
  for (const codec of ["object", "json"] as const) {
    await measure(1, codec, (s) => sequentialPings(s, 2_000));
    await measure(1, codec, (s) => concurrentCalls(s, 2_000));
  }
  await measure(1, "object", (s, p) => cancelStorm(s, p, 1_000));
  await measure(1, "object", (s, p) => abortLatency(s, p, 1_000));
  await measure(1, "object", (s, p) => heapGrowth(s, p, 10_000, HEAP_BATCH, 2_000));
  await stormFloor(1_000);
}

async function floorMs(): Promise<number> {
  const runs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    collect();
    runs.push(await stormFloor(SIZES.storm));
  }
  return median(runs);
}

async function run(): Promise<Results> {
  log("sequential ping…");
  const pings = medians(await measure(RUNS, "object", (s) => sequentialPings(s, SIZES.pings)));
  log("concurrent tools/call…");
  const calls = medians(await measure(RUNS, "object", (s) => concurrentCalls(s, SIZES.calls)));
  log("cancel storm…");
  const storms = await measure(RUNS, "object", (s, p) => cancelStorm(s, p, SIZES.storm));
  log("abort latency…");
  const latencies = await measure(LATENCY_RUNS, "object", (s, p) => abortLatency(s, p, SIZES.latency));
  log("heap growth…");
  const heap = medians(await measure(1, "object", (s, p) => heapGrowth(s, p, SIZES.heap, HEAP_BATCH, HEAP_PRIME)));
  log("listeners…");
  const listeners = medians(await measure(1, "object", (s) => listenersLeft(s, SIZES.listeners)));
  log("JSON pipe…");
  const jsonPings = medians(await measure(RUNS, "json", (s) => sequentialPings(s, SIZES.pings)));
  const jsonCalls = medians(await measure(RUNS, "json", (s) => concurrentCalls(s, SIZES.calls)));
  log("cancel storm floor…");
  const stormFloorMs = await floorMs();
  return {
    pings,
    calls,
    jsonPings,
    jsonCalls,
    stormMs: pick(storms, (r) => r.ms),
    // Every run must reach all of them: the fewest of any run is what counts.
    stormSawAbort: { ours: Math.min(...storms.ours.map((r) => r.sawAbort)), sdk: Math.min(...storms.sdk.map((r) => r.sawAbort)) },
    p50: pick(latencies, (r) => r.p50),
    p99: pick(latencies, (r) => r.p99),
    heap,
    listeners,
    stormFloorMs,
  };
}

const machine = machineInfo();
log("warming up…");
await warmUp();
const results = await run();
console.log(describeMachine(machine));
console.log(`Medians of ${RUNS} runs (latency: ${LATENCY_RUNS}; heap growth and listeners: 1), after a warm-up; a fresh connection per run.`);
console.log("");
console.log(report({ ours: contenders.ours.name, sdk: contenders.sdk.name }, SIZES, results));
console.log(`Total benchmark time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
