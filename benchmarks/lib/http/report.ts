// The HTTP result table: ours and SDK 2.x on 2026-07-28 behind the same node:http bridge, the
// no-MCP web floor, and the targets of issue 33: server CPU per call within 1.1× the web floor at
// every concurrency, and ahead of SDK 2.x on every row, the cancel storm included; and of "Measure
// against Node's floor": the storm's server CPU per aborted stream at least 2× less than SDK 2.x's.
// (The raw node:http floor has its own table, floor-report.ts.)
import { costVsFloor, fmt, ratio, renderTable, verdict } from "../table.js";
import type { HttpFigure, HttpResults, HttpSizes } from "./run.js";
import { HTTP_REVISION } from "./client.js";

const MISSING = "n/a";
/** Server CPU per tools/call at most this many times the web floor's. */
export const TARGET_CPU_VS_FLOOR = 1.1;
/** The cancel storm's server CPU per aborted stream at least this many times less than SDK 2.x's. */
export const TARGET_STORM_CPU_VS_SDK2 = 2;

function cell(value: number | undefined, format: (x: number) => string): string {
  return value === undefined ? MISSING : format(value);
}

type Better = "higher" | "lower" | "none";

/** Ours against the floor, as a cost (table.ts costVsFloor); "—" for rows without a direction. */
function overFloor(figure: HttpFigure, better: Better): string {
  return better === "none" ? "—" : costVsFloor(figure.ours, figure.floor, better);
}

/** Ahead of SDK 2.x: higher throughput, or less time or CPU. */
function ahead(figure: HttpFigure, better: "higher" | "lower"): boolean {
  const { ours, sdk2 } = figure;
  if (ours === undefined || sdk2 === undefined) return false;
  return better === "higher" ? ours > sdk2 : ours < sdk2;
}

interface Spec {
  readonly measure: string;
  readonly figure: HttpFigure;
  readonly format: (x: number) => string;
  readonly better: Better;
  readonly target: string;
}

function row({ measure, figure, format, better, target }: Spec): string[] {
  const { ours, sdk2, floor } = figure;
  const versus = better === "none" || ours === undefined || sdk2 === undefined ? "—" : ratio(ours, sdk2, better);
  return [measure, cell(ours, format), cell(sdk2, format), versus, cell(floor, format), overFloor(figure, better), target];
}

/** A figure with ours on the native face in the ours column (the SDK's and the floor's as they were). */
function native(figure: HttpFigure): HttpFigure {
  const { "ours-native": ours, sdk2, floor } = figure;
  return { ...(ours === undefined ? {} : { ours }), ...(sdk2 === undefined ? {} : { sdk2 }), ...(floor === undefined ? {} : { floor }) };
}

function stormCpuTarget(ours: number | undefined, sdk2: number | undefined): string {
  return verdict(`≥ ${TARGET_STORM_CPU_VS_SDK2}× less than 2.x`, ours !== undefined && sdk2 !== undefined && TARGET_STORM_CPU_VS_SDK2 * ours <= sdk2);
}

export function httpReport(names: { readonly ours: string; readonly sdk2: string }, sizes: HttpSizes, r: HttpResults): string {
  const k = fmt.count;
  const us = (x: number): string => `${x.toFixed(0)} µs`;
  const beats = (f: HttpFigure, better: "higher" | "lower"): string => verdict("ahead of 2.x", ahead(f, better));
  const specs: Spec[] = [
    ...sizes.clients.flatMap((clients, i): Spec[] => {
      const rate = r.throughput[i] ?? {};
      const cpu = r.cpuPerCall[i] ?? {};
      const nearFloor = cpu.ours !== undefined && cpu.floor !== undefined && cpu.ours <= TARGET_CPU_VS_FLOOR * cpu.floor;
      return [
        { measure: `tools/call, ${clients} concurrent client${clients === 1 ? "" : "s"} (${k(sizes.calls)} calls)`, figure: rate, format: fmt.rate, better: "higher", target: beats(rate, "higher") },
        {
          measure: `tools/call, ${clients} client${clients === 1 ? "" : "s"}: server CPU per call`,
          figure: cpu,
          format: us,
          better: "lower",
          target: `${verdict(`≤ ${TARGET_CPU_VS_FLOOR}× web floor`, nearFloor)}; ${beats(cpu, "lower")}`,
        },
      ];
    }),
    { measure: `cancel storm, ${k(sizes.storm)} streams: abort → last handler abort`, figure: r.stormMs, format: fmt.ms, better: "lower", target: beats(r.stormMs, "lower") },
    {
      measure: "cancel storm: server CPU per aborted stream",
      figure: r.stormCpu,
      format: us,
      better: "lower",
      target: stormCpuTarget(r.stormCpu.ours, r.stormCpu.sdk2),
    },
    // The same storm on the native face of toNodeListener (no bridge): ours in the mcp-stubgen column.
    { measure: "cancel storm, native face: abort → last handler abort", figure: native(r.stormMs), format: fmt.ms, better: "lower", target: beats(native(r.stormMs), "lower") },
    {
      measure: "cancel storm, native face: server CPU per aborted stream",
      figure: native(r.stormCpu),
      format: us,
      better: "lower",
      target: stormCpuTarget(r.stormCpu["ours-native"], r.stormCpu.sdk2),
    },
    {
      measure: "cancel storm: handlers that saw the abort",
      figure: r.stormSawAbort,
      format: (x) => `${k(x)} / ${k(sizes.storm)}`,
      better: "none",
      target: verdict("all", r.stormSawAbort.ours === sizes.storm),
    },
    {
      measure: "cancel storm, native face: handlers that saw the abort",
      figure: native(r.stormSawAbort),
      format: (x) => `${k(x)} / ${k(sizes.storm)}`,
      better: "none",
      target: verdict("all", r.stormSawAbort["ours-native"] === sizes.storm),
    },
  ];
  const notes = [
    `All rows on ${HTTP_REVISION}; each server in its own process behind the same node:http bridge (lib/http/node-bridge.ts) on 127.0.0.1, except the "native face" rows: ours through toNodeListener's native face, no bridge (its SDK and floor cells are the bridged rows'); clients are fetch (undici) in the bench process.`,
    `vs column: > 1 means mcp-stubgen is better (throughput: ours ÷ SDK; time and CPU: SDK ÷ ours). cost vs web floor: ours ÷ web floor for time and CPU, web floor ÷ ours for throughput; 1.00× is the web floor.`,
    "Server CPU per call: user + system time of the server process over the run ÷ calls; the server's own cost even where the fetch clients are the bottleneck.",
    "web floor: the same requests and streams answered with no MCP at all, on Request/Response (lib/http/floor-http.ts): what fetch, node:http and the bridge cost. No server on this bridge beats it by more than the noise; the storm's wall time is mostly connection teardown, so there the noise can reorder the three. The raw node:http floor: the table against Node's floor below.",
  ];
  if (!r.sides.includes("ours")) notes.push(`${MISSING}: out/2026-07-28 has no createHttpHandler (regenerate with the HTTP server templates).`);
  const header = ["HTTP (loopback)", names.ours, names.sdk2, `vs ${names.sdk2}`, "web floor (no MCP)", "cost vs web floor", "Target"];
  return [renderTable(header, specs.map(row)), "", ...notes].join("\n");
}
