// What validation at the wire costs (issue 39): tools/call in memory on 2026-07-28, the same
// messages through the same linked transport (lib/transport.ts), both codecs:
//   ours, validation on    the generated McpClient and McpServer as shipped (validators.ts);
//   ours, validation off   the same with `validate: false` on both sides;
//   SDK 2.x                its client and server (zod checks every message), as lib/sdk2.ts;
//   floor                  a raw JSON-RPC echo over the same transport: an id table, one result
//                          object per call, nothing of MCP (no implementation can beat it).
// The runs are interleaved (every side once per round, a fresh connection each), so a load that
// comes and goes on the machine falls on every side alike. Targets: validation on costs at most
// 1.15× off; ours with validation on is at least 3× SDK 2.x's throughput.
//
// Also printed: the lines generated per revision (out/<revision>/, the shared runtime aside) and
// how many of them are validators.ts.
//
// Part of `npm run bench` (with the memory part), or alone:
//   node --expose-gc --import tsx benchmarks/lib/wire-validation.ts   (BENCH_RUNS, BENCH_SCALE as there)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as ours from "../../out/2026-07-28/index.js";
import { MAX_IN_FLIGHT } from "./ours.js";
import { sdk2 } from "./sdk2.js";
import { ECHO_RESULT_COMPLETE, Probe } from "./probe.js";
import { concurrentCalls } from "./scenarios.js";
import { collect, median } from "./stats.js";
import { costVsFloor, fmt, ratio, renderTable, verdict } from "./table.js";
import { createLinkedPair, type Codec } from "./transport.js";

type Side = "on" | "off" | "sdk" | "floor";
const SIDES: readonly Side[] = ["on", "off", "sdk", "floor"];
const CODECS: readonly Codec[] = ["object", "json"];
/** Pairs (validation on, then off, or the other way round) the cost is the median of. */
const COST_PAIRS = 21;

interface Session {
  callTool(): Promise<unknown>;
  close(): Promise<void>;
}

async function oursSession(codec: Codec, validate: boolean): Promise<Session> {
  const [clientSide, serverSide] = createLinkedPair(codec);
  const server = new ours.McpServer({ logger: null, validate, maxRequestsInFlight: MAX_IN_FLIGHT, handlers: { "tools/call": () => ECHO_RESULT_COMPLETE } });
  const client = new ours.McpClient({ logger: null, validate, clientInfo: { name: "bench-client", version: "1.0.0" } });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { callTool: () => client.callTool({ name: "echo" }), close: () => client.close() };
}

/** The floor: JSON-RPC request and response over the same transport, with nothing of MCP. */
async function floorSession(codec: Codec): Promise<Session> {
  const [clientSide, serverSide] = createLinkedPair(codec);
  const pending = new Map<number, (result: unknown) => void>();
  let next = 0;
  serverSide.onmessage = (message) => {
    const request = (typeof message === "string" ? JSON.parse(message) : message) as { id: number };
    void serverSide.send({ jsonrpc: "2.0", id: request.id, result: ECHO_RESULT_COMPLETE });
  };
  clientSide.onmessage = (message) => {
    const response = (typeof message === "string" ? JSON.parse(message) : message) as { id: number; result: unknown };
    const resolve = pending.get(response.id);
    pending.delete(response.id);
    resolve?.(response.result);
  };
  await serverSide.start();
  await clientSide.start();
  return {
    callTool: () =>
      new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        void clientSide.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo" } });
      }),
    close: () => clientSide.close(),
  };
}

async function open(side: Side, codec: Codec): Promise<Session> {
  switch (side) {
    case "on":
      return oursSession(codec, true);
    case "off":
      return oursSession(codec, false);
    case "sdk": {
      const session = await sdk2.connect("2026-07-28", codec, new Probe());
      return { callTool: () => session.callTool("echo"), close: () => session.close() };
    }
    case "floor":
      return floorSession(codec);
  }
}

export interface ValidationFigures {
  readonly calls: number;
  readonly runs: number;
  /** Side → codec → median calls per second. */
  readonly rates: Readonly<Record<Side, Readonly<Record<Codec, number>>>>;
  /**
   * Codec → the median of on ÷ off in CPU time per call over COST_PAIRS pairs of short runs (the
   * cost of validation): on and off back to back (in turns first), so a load that drifts over the
   * whole run cancels out; CPU time, not wall time, so that what the scheduler does to the process
   * between two calls is not counted as either side's.
   */
  readonly cost: Readonly<Record<Codec, number>>;
  /** Revision → lines of out/<revision>/ (all files) and of its validators.ts. */
  readonly lines: ReadonlyArray<{ readonly revision: string; readonly total: number; readonly validators: number }>;
}

export async function runWireValidation(runs: number, calls: number, log: (line: string) => void = () => {}): Promise<ValidationFigures> {
  for (const codec of CODECS) for (const side of SIDES) await rateOf(side, codec, Math.max(10, Math.round(calls / 5)));
  const samples = new Map<string, number[]>();
  const record = (side: Side, codec: Codec, rate: number) => samples.set(`${side} ${codec}`, [...(samples.get(`${side} ${codec}`) ?? []), rate]);
  for (let run = 0; run < runs; run++) {
    log(`tools/call with and without wire validation, round ${run + 1} of ${runs}…`);
    for (const codec of CODECS) for (const side of SIDES) record(side, codec, (await rateOf(side, codec, calls)).rate);
  }
  // The cost: many short pairs, on and off back to back, in turns first.
  const costs: Record<Codec, number[]> = { object: [], json: [] };
  const pairCalls = Math.max(10, Math.round(calls / 5));
  log(`the cost of validation: ${COST_PAIRS} pairs of ${pairCalls} calls per codec…`);
  for (let pair = 0; pair < COST_PAIRS; pair++) {
    for (const codec of CODECS) {
      const order: Side[] = pair % 2 === 0 ? ["on", "off"] : ["off", "on"];
      const cpu: Partial<Record<Side, number>> = {};
      for (const side of order) cpu[side] = (await rateOf(side, codec, pairCalls)).cpuPerCall;
      costs[codec].push(cpu.on! / cpu.off!);
    }
  }
  const rates = Object.fromEntries(SIDES.map((side) => [side, Object.fromEntries(CODECS.map((codec) => [codec, median(samples.get(`${side} ${codec}`)!)]))])) as ValidationFigures["rates"];
  return { calls, runs, rates, cost: { object: median(costs.object), json: median(costs.json) }, lines: generatedLines() };
}

/** Calls per second, and CPU time (user and system, µs) per call, of `calls` concurrent calls on a fresh connection. */
async function rateOf(side: Side, codec: Codec, calls: number): Promise<{ rate: number; cpuPerCall: number }> {
  const session = await open(side, codec);
  // Every side's answer is checked once: a side that fails is no figure.
  const first = (await session.callTool()) as { content?: unknown };
  if (!Array.isArray(first.content)) throw new Error(`${side}: tools/call failed: ${JSON.stringify(first)}`);
  collect();
  const before = process.cpuUsage();
  const rate = await concurrentCalls({ ping: () => Promise.reject(new Error("no ping")), callTool: () => session.callTool(), close: () => session.close() }, calls);
  const used = process.cpuUsage(before);
  await session.close();
  return { rate, cpuPerCall: (used.user + used.system) / calls };
}

/** Lines of each out/<revision>/ folder (the files generate writes there) and of its validators.ts. */
export function generatedLines(outDir: string = fileURLToPath(new URL("../../out/", import.meta.url))): ValidationFigures["lines"] {
  const count = (file: string) => readFileSync(file, "utf8").split("\n").length - 1;
  return readdirSync(outDir, { withFileTypes: true })
    // A revision folder is one with a catalog (out/ may hold other folders: a test's, a user's).
    .filter((entry) => entry.isDirectory() && readdirSync(join(outDir, entry.name)).includes("catalog.ts"))
    .map((entry) => {
      const folder = join(outDir, entry.name);
      const files = readdirSync(folder).filter((name) => name.endsWith(".ts"));
      return { revision: entry.name, total: files.reduce((sum, name) => sum + count(join(folder, name)), 0), validators: files.includes("validators.ts") ? count(join(folder, "validators.ts")) : 0 };
    })
    .sort((a, b) => (a.revision < b.revision ? -1 : 1));
}

export function wireValidationReport(figures: ValidationFigures): string {
  const { rates } = figures;
  const names: Record<Side, string> = { on: "mcp-stubgen, validation on", off: "mcp-stubgen, validation off", sdk: sdk2.name, floor: "floor (raw JSON-RPC echo)" };
  const cost = (codec: Codec) => figures.cost[codec];
  const speedup = (codec: Codec) => rates.on[codec] / rates.sdk[codec];
  const rows = SIDES.map((side) => [
    names[side],
    fmt.rate(rates[side].object),
    fmt.rate(rates[side].json),
    side === "floor" ? "1.00×" : costVsFloor(rates[side].json, rates.floor.json, "higher"),
    side === "on" ? ratio(rates.on.json, rates.sdk.json, "higher") : "—",
    side === "on"
      ? `${verdict("on ≤ 1.15× off", cost("object") <= 1.15 && cost("json") <= 1.15)} (object ${cost("object").toFixed(2)}×, JSON ${cost("json").toFixed(2)}×); ${verdict("≥ 3× SDK", speedup("object") >= 3 && speedup("json") >= 3)} (${speedup("object").toFixed(1)}×, ${speedup("json").toFixed(1)}×)`
      : "",
  ]);
  const lines = renderTable(
    ["revision", "lines generated", "of which validators.ts"],
    figures.lines.map((l) => [l.revision, fmt.count(l.total), `${fmt.count(l.validators)} (${((100 * l.validators) / Math.max(1, l.total)).toFixed(0)} %)`]),
  );
  return [
    `### Validation at the wire: concurrent tools/call in memory, 2026-07-28 (${fmt.count(figures.calls)} calls, median of ${figures.runs} interleaved rounds; the cost of validation: the median of on ÷ off in CPU time per call over ${COST_PAIRS} back-to-back pairs of ${fmt.count(Math.max(10, Math.round(figures.calls / 5)))} calls)`,
    "",
    renderTable(["side", "object codec", "JSON codec", "cost vs floor (JSON)", "vs SDK (JSON)", "Target"], rows),
    "",
    "Lines generated per revision (out/<revision>/, the shared runtime aside):",
    "",
    lines,
  ].join("\n");
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 5));
  const scale = Number(process.env["BENCH_SCALE"] ?? 1) > 0 ? Number(process.env["BENCH_SCALE"] ?? 1) : 1;
  const figures = await runWireValidation(Math.max(runs, 7), Math.max(10, Math.round(10_000 * scale)), (line) => process.stderr.write(`${line}\n`));
  console.log(wireValidationReport(figures));
}
