// The in-memory result table: one row per measurement, the three implementations, the revision
// each ran on, ours against each SDK, and the targets of issue 33 (set against SDK 2.x and the
// platform floor: ≥ 10× SDK 2.x on every throughput row, the cancel storm within 1.5× its floor).
import type { Revision } from "./contender.js";
import type { Side, Sides } from "./runner.js";
import { fmt, ratio, renderTable, verdict } from "./table.js";

export interface Sizes {
  readonly pings: number;
  readonly calls: number;
  readonly storm: number;
  readonly latency: number;
  readonly heap: number;
  readonly listeners: number;
}

/** One measurement: a figure per side and the revision each side ran it on. */
export interface Figure {
  readonly values: Sides<number>;
  readonly revisions: Sides<Revision>;
}

export interface Results {
  /** Requests per second. */
  readonly pings: Figure;
  readonly calls: Figure;
  readonly jsonPings: Figure;
  readonly jsonCalls: Figure;
  /** Milliseconds. */
  readonly stormMs: Figure;
  /** The fewest handlers that saw their abort in any storm run. */
  readonly stormSawAbort: Figure;
  readonly p50: Figure;
  readonly p99: Figure;
  /** MB. */
  readonly heap: Figure;
  readonly listeners: Figure;
  /** The storm's platform floor (lib/floor.ts), ms. */
  readonly stormFloorMs: number;
}

/** Issue 33's targets: every in-memory throughput row at least this many times SDK 2.x… */
export const TARGET_VS_SDK2 = 10;
/** …and the cancel storm within this many times its platform floor (lib/floor.ts). */
export const TARGET_STORM_VS_FLOOR = 1.5;

/**
 * Growth within ±0.5 MB is noise (a one-off large object or JIT code appears in some runs, never
 * again on the same connection), not a per-request cost: no ratio then.
 */
const HEAP_NOISE_MB = 0.5;

/** "higher"/"lower": which is better; "none": no ratio; "heap": lower is better, no ratio within the noise. */
type Better = "higher" | "lower" | "none" | "heap";

interface RowSpec {
  readonly measure: string;
  readonly figure: Figure;
  readonly format: (value: number) => string;
  readonly better: Better;
  readonly target?: string;
}

function revisions(r: Sides<Revision>): string {
  return `${r.ours} / ${r.sdk1} / ${r.sdk2}`;
}

function versus(spec: RowSpec, sdk: Exclude<Side, "ours">): string {
  const ours = spec.figure.values.ours;
  const theirs = spec.figure.values[sdk];
  if (spec.better === "none") return "—";
  if (spec.better === "heap") return Math.max(Math.abs(ours), Math.abs(theirs)) < HEAP_NOISE_MB ? "— (both ≈ 0)" : ratio(ours, theirs, "lower");
  return ratio(ours, theirs, spec.better);
}

function row(spec: RowSpec): string[] {
  const v = spec.figure.values;
  return [spec.measure, revisions(spec.figure.revisions), spec.format(v.ours), spec.format(v.sdk1), spec.format(v.sdk2), versus(spec, "sdk1"), versus(spec, "sdk2"), spec.target ?? ""];
}

export function rows(sizes: Sizes, r: Results): string[][] {
  const k = fmt.count;
  const ms3 = (x: number): string => fmt.ms(x, 3);
  const v = (f: Figure): Sides<number> => f.values;
  /** Throughput rows: at least TARGET_VS_SDK2 times SDK 2.x. */
  const tenfold = (f: Figure): string => verdict(`≥ ${TARGET_VS_SDK2}× 2.x`, v(f).ours >= TARGET_VS_SDK2 * v(f).sdk2);
  const specs: RowSpec[] = [
    { measure: `ping, sequential (${k(sizes.pings)})`, figure: r.pings, format: fmt.rate, better: "higher", target: tenfold(r.pings) },
    { measure: `tools/call, ${k(sizes.calls)} concurrent`, figure: r.calls, format: fmt.rate, better: "higher", target: tenfold(r.calls) },
    {
      measure: `cancel storm, ${k(sizes.storm)} calls: total`,
      figure: r.stormMs,
      format: fmt.ms,
      better: "lower",
      target: verdict(`≤ ${TARGET_STORM_VS_FLOOR}× floor`, v(r.stormMs).ours <= TARGET_STORM_VS_FLOOR * r.stormFloorMs),
    },
    { measure: "cancel storm: handlers that saw the abort", figure: r.stormSawAbort, format: (x) => `${k(x)} / ${k(sizes.storm)}`, better: "none", target: verdict("all", v(r.stormSawAbort).ours === sizes.storm) },
    { measure: `abort → handler signal, p50 (${k(sizes.latency)})`, figure: r.p50, format: ms3, better: "lower" },
    { measure: `abort → handler signal, p99 (${k(sizes.latency)})`, figure: r.p99, format: ms3, better: "lower", target: verdict("< 1 ms", v(r.p99).ours < 1) },
    { measure: `heap growth after ${k(sizes.heap)} cancelled`, figure: r.heap, format: fmt.mb, better: "heap", target: verdict("< 1 MB", v(r.heap).ours < 1) },
    { measure: `abort listeners left on 1 signal (${k(sizes.listeners)} settled)`, figure: r.listeners, format: k, better: "none", target: verdict("0", v(r.listeners).ours === 0) },
    { measure: `JSON pipe: ping, sequential (${k(sizes.pings)})`, figure: r.jsonPings, format: fmt.rate, better: "higher", target: tenfold(r.jsonPings) },
    { measure: `JSON pipe: tools/call, ${k(sizes.calls)} concurrent`, figure: r.jsonCalls, format: fmt.rate, better: "higher", target: tenfold(r.jsonCalls) },
  ];
  return specs.map(row);
}

/** The table and the notes under it. */
export function report(names: Sides<string>, sizes: Sizes, r: Results): string {
  const floor = r.stormFloorMs;
  const storm = r.stormMs.values;
  const above = (side: Side): string => fmt.ms(storm[side] - floor);
  const header = ["Measurement", "Revisions (ours / 1.x / 2.x)", names.ours, names.sdk1, names.sdk2, `vs ${names.sdk1}`, `vs ${names.sdk2}`, "Target (vs 2.x, floor)"];
  return [
    renderTable(header, rows(sizes, r)),
    "",
    "vs columns: > 1 means mcp-stubgen is better (throughput: ours ÷ SDK; time and memory: SDK ÷ ours); — where a ratio means nothing.",
    `Cancel-storm floor (the same AbortSignal, DOMException and listener work with no protocol, lib/floor.ts): ${fmt.ms(floor)};` +
      ` mcp-stubgen ÷ floor = ${(storm.ours / floor).toFixed(2)}× (target ≤ ${TARGET_STORM_VS_FLOOR}×);` +
      ` no implementation can beat ${names.sdk1} ÷ floor = ${(storm.sdk1 / floor).toFixed(1)}×, ${names.sdk2} ÷ floor = ${(storm.sdk2 / floor).toFixed(1)}× here.` +
      ` Above the floor: mcp-stubgen ${above("ours")}, ${names.sdk1} ${above("sdk1")}, ${names.sdk2} ${above("sdk2")}` +
      ` (${ratio(storm.ours - floor, storm.sdk1 - floor, "lower")} and ${ratio(storm.ours - floor, storm.sdk2 - floor, "lower")}).` +
      (Math.min(...Object.values(storm)) <= floor ? " A storm at or under the floor means the machine's load changed between the two measurements." : ""),
  ].join("\n");
}
