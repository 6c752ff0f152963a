// The floor rows' chart: each era's latest figures kept in http-cpu.json, and http-cpu.svg drawn
// from both (chart.ts), so that a run of one part (BENCH_ONLY=http or sessions) redraws its groups
// and keeps the other's. A group per era and connection count with a target (16, 64): server CPU
// per call of the raw floor, ours on both faces, and SDK 2.x.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { barChart, type Bar, type BarGroup } from "./chart.js";
import { TARGET_CONNECTIONS, TARGET_VS_RAW_FLOOR, TARGET_VS_SDK2 } from "./floor-report.js";
import type { FloorFigure, FloorResults, FloorSide } from "./floor-run.js";
import type { LoadEra } from "./ipc.js";
import { HTTP_REVISION } from "./client.js";
import { SESSION_REVISION } from "./session-client.js";

interface EraEntry {
  readonly date: string;
  readonly runs: number;
  readonly calls: number;
  readonly load: FloorResults["load"];
  readonly rows: readonly { readonly connections: number; readonly cpuUs: FloorFigure; readonly rate: FloorFigure }[];
}

type ChartData = Partial<Record<LoadEra, EraEntry>>;

const ERAS: readonly LoadEra[] = ["2026", "session"];
const ERA_LABEL: Readonly<Record<LoadEra, string>> = { "2026": HTTP_REVISION, session: `${SESSION_REVISION} sessions` };
/** The charted sides, with shorter names than the table's. */
const CHARTED: readonly { readonly side: FloorSide; readonly name: (sdk2: string) => string; readonly color: string }[] = [
  { side: "rawFloor", name: () => "raw node:http floor", color: "#8c8c8c" },
  { side: "oursNative", name: () => "mcp-stubgen, native face", color: "#1f6fb4" },
  { side: "oursWeb", name: () => "mcp-stubgen, web face", color: "#8fbfe3" },
  { side: "sdk2", name: (sdk2) => sdk2, color: "#e8842a" },
];

/** A figure rounded to tenths, for the kept file. */
function tenths(figure: FloorFigure): FloorFigure {
  return Object.fromEntries(Object.entries(figure).map(([side, x]) => [side, Math.round(x * 10) / 10]));
}

function read(path: string): ChartData {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as ChartData;
  } catch {
    return {};
  }
}

function groups(data: ChartData, sdk2: string): BarGroup[] {
  return ERAS.flatMap((era) =>
    TARGET_CONNECTIONS.map((connections): BarGroup => {
      const cpu = data[era]?.rows.find((row) => row.connections === connections)?.cpuUs ?? {};
      const bars = CHARTED.map(({ side, name }): Bar => {
        const value = cpu[side];
        const floor = cpu.rawFloor;
        const notes: string[] = [];
        if (value !== undefined && floor !== undefined && side !== "rawFloor") notes.push(`${(value / floor).toFixed(1)}× raw floor`);
        if (value !== undefined && cpu.sdk2 !== undefined && (side === "oursNative" || side === "oursWeb")) notes.push(`${(cpu.sdk2 / value).toFixed(1)}× less than SDK`);
        return { series: name(sdk2), value, ...(notes.length === 0 ? {} : { note: notes.join(", ") }) };
      });
      const label = `${ERA_LABEL[era]}, tools/call, ${connections} connections`;
      if (cpu.rawFloor === undefined) return { label, bars };
      return { label, bars, marker: { value: TARGET_VS_RAW_FLOOR * cpu.rawFloor, label: `target: ≤ ${TARGET_VS_RAW_FLOOR}× raw floor (${Math.round(TARGET_VS_RAW_FLOOR * cpu.rawFloor)} µs)` } };
    }),
  );
}

function measuredOn(era: LoadEra, entry: EraEntry | undefined): string {
  if (entry === undefined) return `${ERA_LABEL[era]}: not measured yet`;
  return `${ERA_LABEL[era]}: ${entry.date}, medians of ${entry.runs} runs of ${entry.calls.toLocaleString("en-US")} calls, load average ${entry.load.before.toFixed(2)} → ${entry.load.after.toFixed(2)}`;
}

/** Records `results` as its era's latest figures in `dir`, redraws the chart, and returns its path. */
export function updateChart(dir: string, results: FloorResults, meta: { readonly runs: number; readonly calls: number; readonly sdk2: string }): string {
  mkdirSync(dir, { recursive: true });
  const dataPath = join(dir, "http-cpu.json");
  const svgPath = join(dir, "http-cpu.svg");
  const entry: EraEntry = {
    date: new Date().toISOString().slice(0, 10),
    runs: meta.runs,
    calls: meta.calls,
    load: results.load,
    rows: results.rows.map(({ connections, cpuUs, rate }) => ({ connections, cpuUs, rate })),
  };
  const merged: ChartData = { ...read(dataPath), [results.era]: entry };
  const data = Object.fromEntries(
    Object.entries(merged).map(([era, e]) => [era, { ...e, rows: e.rows.map((row) => ({ ...row, cpuUs: tenths(row.cpuUs), rate: tenths(row.rate) })) }]),
  ) as ChartData;
  writeFileSync(dataPath, `${JSON.stringify(data, null, 2)}\n`);
  const svg = barChart({
    title: "Server CPU per tools/call over HTTP: Node's raw floor, mcp-stubgen, SDK 2.x",
    subtitle: [
      ...ERAS.map((era) => measuredOn(era, data[era])),
      "Each server in its own process on loopback; the load from a third process over kept-alive connections (npm run bench).",
      `Lower is better. Targets for the native face: ≤ ${TARGET_VS_RAW_FLOOR}× the raw floor, ≥ ${TARGET_VS_SDK2}× less than SDK 2.x.`,
    ],
    axis: "server CPU time (user + system) per call, µs",
    unit: "µs",
    series: CHARTED.map(({ name, color }) => ({ name: name(meta.sdk2), color })),
    groups: groups(data, meta.sdk2),
  });
  writeFileSync(svgPath, svg);
  return svgPath;
}
