// Formatting of the result tables (Markdown, so they can be pasted into docs/benchmarks.md as is).

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export const fmt = {
  rate: (perSecond: number): string => `${grouped.format(perSecond)}/s`,
  ms: (ms: number, digits = 0): string => `${ms.toFixed(digits)} ms`,
  mb: (mb: number): string => `${mb.toFixed(2)} MB`,
  count: (n: number): string => grouped.format(n),
};

/**
 * How many times better we are, oriented so that > 1 means better: ours ÷ SDK where higher is
 * better (throughput), SDK ÷ ours where lower is better (time, memory). "—" when meaningless.
 */
export function ratio(ours: number, sdk: number, better: "higher" | "lower"): string {
  const [num, den] = better === "higher" ? [ours, sdk] : [sdk, ours];
  if (!(num > 0) || !(den > 0)) return "—";
  return `${(num / den).toFixed(1)}×`;
}

/**
 * Ours against a floor, as a cost: ours ÷ floor where lower is better (time, CPU, memory, latency),
 * floor ÷ ours where higher is better (throughput); 1.00× is the floor. "—" when meaningless.
 */
export function costVsFloor(ours: number | undefined, floor: number | undefined, better: "higher" | "lower"): string {
  if (ours === undefined || floor === undefined || !(ours > 0) || !(floor > 0)) return "—";
  return `${(better === "lower" ? ours / floor : floor / ours).toFixed(2)}×`;
}

/** "≥ 5×: met" style verdicts. */
export function verdict(goal: string, met: boolean): string {
  return `${goal}: ${met ? "met" : "MISSED"}`;
}

/** A Markdown table: the first column left-aligned, the others right-aligned, padded to width. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? "").length)));
  const line = (row: readonly string[]): string =>
    `| ${widths.map((w, i) => (i === 0 ? (row[i] ?? "").padEnd(w) : (row[i] ?? "").padStart(w))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `-${"-".repeat(w)}-` : `-${"-".repeat(w)}:`)).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}
