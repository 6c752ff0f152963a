// A horizontal bar chart as hand-written SVG (no chart library): groups of bars on one shared
// linear axis from 0, each bar with its value (and a note) at its end, a legend, grid lines and tick
// labels. Used for the floor rows' server CPU per call (chart-file.ts).

export interface Bar {
  readonly series: string;
  /** undefined: not measured (drawn as a note, no bar). */
  readonly value: number | undefined;
  /** Text after the value, e.g. "7.7× raw floor". */
  readonly note?: string;
}

export interface BarGroup {
  readonly label: string;
  readonly bars: readonly Bar[];
  /** A dashed line across the group's bars at `value` (a target); its label follows the group's. */
  readonly marker?: { readonly value: number; readonly label: string };
}

export interface ChartSpec {
  readonly title: string;
  /** Lines under the title. */
  readonly subtitle: readonly string[];
  /** The axis label. */
  readonly axis: string;
  readonly unit: string;
  /** Each series' fill, in legend order. */
  readonly series: readonly { readonly name: string; readonly color: string }[];
  readonly groups: readonly BarGroup[];
}

const WIDTH = 860;
const LEFT = 190;
const RIGHT = 210;
const BAR = 16;
const GAP = 5;
const GROUP_GAP = 18;
const GROUP_LABEL = 24;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A round tick step that gives about `ticks` ticks up to `max`. */
function tickStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return step ?? 10 * power;
}

/** Whole numbers from 10 up, one decimal below. */
const round = (x: number): string => (x >= 10 ? Math.round(x) : Math.round(x * 10) / 10).toString();

export function barChart(spec: ChartSpec): string {
  const values = spec.groups.flatMap((g) => [...g.bars.map((b) => b.value ?? 0), g.marker?.value ?? 0]);
  const step = tickStep(Math.max(1, ...values), 6);
  const axisMax = Math.ceil(Math.max(1, ...values) / step) * step;
  const plot = WIDTH - LEFT - RIGHT;
  const x = (value: number): number => LEFT + (value / axisMax) * plot;
  const top = 48 + spec.subtitle.length * 16 + 28;
  const out: string[] = [];
  // Title, subtitle, legend.
  out.push(`<text x="16" y="28" font-size="17" font-weight="600">${escape(spec.title)}</text>`);
  spec.subtitle.forEach((line, i) => out.push(`<text x="16" y="${50 + i * 16}" font-size="12" fill="#555">${escape(line)}</text>`));
  let legendX = 16;
  const legendY = 48 + spec.subtitle.length * 16 + 6;
  for (const { name, color } of spec.series) {
    out.push(`<rect x="${legendX}" y="${legendY - 10}" width="12" height="12" fill="${color}"/>`);
    out.push(`<text x="${legendX + 17}" y="${legendY}" font-size="12">${escape(name)}</text>`);
    legendX += 34 + name.length * 7;
  }
  // Groups of bars.
  let y = top;
  const bars: string[] = [];
  const marks: string[] = [];
  for (const group of spec.groups) {
    const marker = group.marker === undefined ? "" : `<tspan dx="12" font-weight="400" fill="#c0392b">- - ${escape(group.marker.label)}</tspan>`;
    bars.push(`<text x="16" y="${y + 14}" font-size="13" font-weight="600">${escape(group.label)}${marker}</text>`);
    y += GROUP_LABEL;
    const groupTop = y;
    for (const bar of group.bars) {
      const color = spec.series.find((s) => s.name === bar.series)?.color ?? "#999";
      bars.push(`<text x="${LEFT - 8}" y="${y + BAR - 4}" font-size="12" text-anchor="end">${escape(bar.series)}</text>`);
      if (bar.value === undefined) {
        bars.push(`<text x="${LEFT + 4}" y="${y + BAR - 4}" font-size="12" fill="#888">not measured</text>`);
      } else {
        const width = Math.max(1, x(bar.value) - LEFT);
        const label = `${round(bar.value)} ${spec.unit}${bar.note === undefined ? "" : ` (${bar.note})`}`;
        bars.push(`<rect x="${LEFT}" y="${y}" width="${width.toFixed(1)}" height="${BAR}" fill="${color}"><title>${escape(`${group.label}, ${bar.series}: ${label}`)}</title></rect>`);
        bars.push(`<text x="${(LEFT + width + 6).toFixed(1)}" y="${y + BAR - 4}" font-size="12">${escape(label)}</text>`);
      }
      y += BAR + GAP;
    }
    if (group.marker !== undefined) {
      // Under the bars and their labels; its label follows the group's.
      const mx = x(group.marker.value).toFixed(1);
      marks.push(`<line x1="${mx}" y1="${groupTop - 3}" x2="${mx}" y2="${y - GAP + 3}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="4 3"/>`);
    }
    y += GROUP_GAP;
  }
  const bottom = y - GROUP_GAP + 4;
  // Grid and axis, under the bars.
  const grid: string[] = [];
  for (let tick = 0; tick <= axisMax + step / 1e6; tick += step) {
    const tx = x(tick).toFixed(1);
    grid.push(`<line x1="${tx}" y1="${top - 4}" x2="${tx}" y2="${bottom}" stroke="${tick === 0 ? "#333" : "#e3e3e3"}"/>`);
    grid.push(`<text x="${tx}" y="${bottom + 16}" font-size="11" text-anchor="middle" fill="#444">${round(tick)}</text>`);
  }
  grid.push(`<line x1="${LEFT}" y1="${bottom}" x2="${x(axisMax).toFixed(1)}" y2="${bottom}" stroke="#333"/>`);
  grid.push(`<text x="${(LEFT + plot / 2).toFixed(1)}" y="${bottom + 36}" font-size="12" text-anchor="middle">${escape(spec.axis)}</text>`);
  const height = bottom + 50;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ${FONT}>`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    ...grid,
    ...marks,
    ...out,
    ...bars,
    "</svg>",
    "",
  ].join("\n");
}
