// The result table: one row per measurement, both figures, the ratio and the target.
import type { Pairwise } from "./runner.js";
import { fmt, ratio, renderTable, verdict, type Row } from "./table.js";

export interface Sizes {
  readonly pings: number;
  readonly calls: number;
  readonly storm: number;
  readonly latency: number;
  readonly heap: number;
  readonly listeners: number;
}

export interface Results {
  /** Requests per second. */
  readonly pings: Pairwise<number>;
  readonly calls: Pairwise<number>;
  readonly jsonPings: Pairwise<number>;
  readonly jsonCalls: Pairwise<number>;
  /** Milliseconds. */
  readonly stormMs: Pairwise<number>;
  /** The fewest handlers that saw their abort in any storm run. */
  readonly stormSawAbort: Pairwise<number>;
  readonly p50: Pairwise<number>;
  readonly p99: Pairwise<number>;
  /** MB. */
  readonly heap: Pairwise<number>;
  readonly listeners: Pairwise<number>;
  /** The storm's platform floor (lib/floor.ts), ms. */
  readonly stormFloorMs: number;
}

/**
 * Growth within ±0.5 MB is noise (a one-off large object or JIT code appears in some runs, never
 * again on the same connection), not a per-request cost: no ratio then.
 */
const HEAP_NOISE_MB = 0.5;

function throughputRow(measure: string, r: Pairwise<number>, goal: number | undefined): Row {
  return {
    measure,
    ours: fmt.rate(r.ours),
    sdk: fmt.rate(r.sdk),
    ratio: ratio(r.ours, r.sdk, "higher"),
    target: goal === undefined ? "" : verdict(`≥ ${goal}×`, r.ours >= goal * r.sdk),
  };
}

export function rows(sizes: Sizes, r: Results): Row[] {
  const k = fmt.count;
  return [
    throughputRow(`ping, sequential (${k(sizes.pings)})`, r.pings, 5),
    throughputRow(`tools/call, ${k(sizes.calls)} concurrent`, r.calls, 5),
    {
      measure: `cancel storm, ${k(sizes.storm)} calls: total`,
      ours: fmt.ms(r.stormMs.ours),
      sdk: fmt.ms(r.stormMs.sdk),
      ratio: ratio(r.stormMs.ours, r.stormMs.sdk, "lower"),
      target: verdict("≥ 5×", r.stormMs.sdk >= 5 * r.stormMs.ours),
    },
    {
      measure: "cancel storm: handlers that saw the abort",
      ours: `${k(r.stormSawAbort.ours)} / ${k(sizes.storm)}`,
      sdk: `${k(r.stormSawAbort.sdk)} / ${k(sizes.storm)}`,
      ratio: "—",
      target: verdict("all", r.stormSawAbort.ours === sizes.storm),
    },
    {
      measure: `abort → handler signal, p50 (${k(sizes.latency)})`,
      ours: fmt.ms(r.p50.ours, 3),
      sdk: fmt.ms(r.p50.sdk, 3),
      ratio: ratio(r.p50.ours, r.p50.sdk, "lower"),
      target: "",
    },
    {
      measure: `abort → handler signal, p99 (${k(sizes.latency)})`,
      ours: fmt.ms(r.p99.ours, 3),
      sdk: fmt.ms(r.p99.sdk, 3),
      ratio: ratio(r.p99.ours, r.p99.sdk, "lower"),
      target: verdict("< 1 ms", r.p99.ours < 1),
    },
    {
      measure: `heap growth after ${k(sizes.heap)} cancelled`,
      ours: fmt.mb(r.heap.ours),
      sdk: fmt.mb(r.heap.sdk),
      ratio: Math.max(Math.abs(r.heap.ours), Math.abs(r.heap.sdk)) < HEAP_NOISE_MB ? "— (both ≈ 0)" : ratio(r.heap.ours, r.heap.sdk, "lower"),
      target: verdict("< 1 MB", r.heap.ours < 1),
    },
    {
      measure: `abort listeners left on 1 signal (${k(sizes.listeners)} settled)`,
      ours: k(r.listeners.ours),
      sdk: k(r.listeners.sdk),
      ratio: "—",
      target: verdict("0", r.listeners.ours === 0),
    },
    throughputRow(`JSON pipe: ping, sequential (${k(sizes.pings)})`, r.jsonPings, undefined),
    throughputRow(`JSON pipe: tools/call, ${k(sizes.calls)} concurrent`, r.jsonCalls, undefined),
  ];
}

/** The table and the notes under it. */
export function report(names: Pairwise<string>, sizes: Sizes, r: Results): string {
  const floor = r.stormFloorMs;
  return [
    renderTable(names.ours, names.sdk, rows(sizes, r)),
    "",
    "Ratios: throughput rows are ours ÷ SDK, time and memory rows SDK ÷ ours; > 1 means mcp-stubgen is better.",
    `Cancel-storm floor (the same AbortSignal, DOMException and listener work with no protocol, lib/floor.ts): ${fmt.ms(floor)};` +
      ` no implementation can beat SDK ÷ floor = ${(r.stormMs.sdk / floor).toFixed(1)}× here.` +
      ` Above the floor: mcp-stubgen ${fmt.ms(r.stormMs.ours - floor)}, SDK ${fmt.ms(r.stormMs.sdk - floor)}` +
      ` (${ratio(r.stormMs.ours - floor, r.stormMs.sdk - floor, "lower")}).`,
  ].join("\n");
}
