// Formatting of the result table (Markdown, so it can be pasted into BENCHMARKS.md as is).

export interface Row {
  readonly measure: string;
  readonly ours: string;
  readonly sdk: string;
  readonly ratio: string;
  readonly target: string;
}

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
  const [num, den, label] = better === "higher" ? [ours, sdk, "ours/SDK"] : [sdk, ours, "SDK/ours"];
  if (!(num > 0) || !(den > 0)) return "—";
  return `${(num / den).toFixed(1)}× (${label})`;
}

/** "≥ 5×: met" style verdicts. */
export function verdict(goal: string, met: boolean): string {
  return `${goal}: ${met ? "met" : "MISSED"}`;
}

export function renderTable(oursName: string, sdkName: string, rows: readonly Row[]): string {
  const header: Row = { measure: "Measurement", ours: oursName, sdk: sdkName, ratio: "Ratio (>1: ours better)", target: "Target" };
  const cells = (r: Row): string[] => [r.measure, r.ours, r.sdk, r.ratio, r.target];
  const all = [header, ...rows].map(cells);
  const widths = cells(header).map((_, i) => Math.max(...all.map((row) => (row[i] ?? "").length)));
  const line = (row: readonly string[]): string =>
    `| ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `-${"-".repeat(w)}-` : `-${"-".repeat(w)}:`)).join("|")}|`;
  const [head, ...body] = all;
  return [line(head ?? []), rule, ...body.map(line)].join("\n");
}
