import type { JsonValue } from "./shape.js";
import type { DefinitionChange, Direction, MethodChange, MethodPresence, PolicyChange, RevisionDiff } from "./types.js";

const DIRECTION_TITLES: ReadonlyArray<readonly [Direction, string]> = [
  ["ClientRequest", "Client → server requests"],
  ["ServerRequest", "Server → client requests"],
  ["ClientNotification", "Client → server notifications"],
  ["ServerNotification", "Server → client notifications"],
];

const BREAKING = " — **breaking**";
const mark = (breaking: boolean) => (breaking ? BREAKING : "");

/** `text` as a Markdown code span, fenced with enough backticks for what it contains. */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one-line summary: counts per section and the number of breaking changes. */
export function formatDiffSummary(diff: RevisionDiff): string {
  const s = diff.summary;
  return [
    `${plural(s.methodsAdded, "method")} added, ${s.methodsRemoved} removed, ${s.methodsChanged} changed`,
    `${plural(s.definitionsAdded, "definition")} added, ${s.definitionsRemoved} removed, ${s.definitionsChanged} changed`,
    `${plural(s.policyKeysChanged, "policy key")} and ${plural(s.cancellableChanged, "cancellable flag")} changed`,
    `**${plural(s.breaking, "breaking change")}**`,
  ].join("; ");
}

type Subsection = readonly [title: string, lines: readonly string[]];

/**
 * The diff as Markdown: a title, the summary line, then the sections Methods (per direction,
 * then changed methods), Definitions (added, removed, changed) and Cancellation (policy keys,
 * cancellable flags), in the diff's order. Empty subsections are left out and an empty
 * section says "No changes."; breaking entries end with "— **breaking**".
 */
export function formatDiffMarkdown(diff: RevisionDiff): string {
  const out: string[] = [`# MCP schema ${diff.from} → ${diff.to}`, "", `Summary: ${formatDiffSummary(diff)}.`];
  const section = (title: string, subsections: readonly Subsection[]) => {
    out.push("", `## ${title}`);
    const filled = subsections.filter(([, lines]) => lines.length > 0);
    if (filled.length === 0) out.push("", "No changes.");
    for (const [subtitle, lines] of filled) out.push("", `### ${subtitle}`, "", ...lines);
  };
  section("Methods", [
    ...DIRECTION_TITLES.map(([direction, title]): Subsection => [
      `${title} (${code(direction)})`,
      [
        ...diff.methods.added.filter((m) => m.direction === direction).map((m) => presenceLine("added", m)),
        ...diff.methods.removed.filter((m) => m.direction === direction).map((m) => presenceLine("removed", m)),
      ],
    ]),
    ["Changed methods", diff.methods.changed.map(methodChangeLine)],
  ]);
  section("Definitions", [
    ["Added", diff.definitions.added.map((d) => `- ${code(d.definition)}${mark(d.breaking)}`)],
    ["Removed", diff.definitions.removed.map((d) => `- ${code(d.definition)}${mark(d.breaking)}`)],
    ["Changed", definitionLines(diff.definitions.changed)],
  ]);
  section("Cancellation", [
    ["Revision policy", diff.cancellation.policy.map(policyLine)],
    [
      "Cancellable requests",
      diff.cancellation.methods.map((m) => `- ${code(m.method)}: ${m.after ? "now cancellable" : "no longer cancellable"}${mark(m.breaking)}`),
    ],
  ]);
  return `${out.join("\n")}\n`;
}

function presenceLine(what: "added" | "removed", m: MethodPresence): string {
  return `- ${what} ${code(m.method)}${mark(m.breaking)}`;
}

const typeOrNone = (type: string | null) => (type === null ? "none" : code(type));

function methodChangeLine(c: MethodChange): string {
  const head = `- ${code(c.method)} (${c.kind}): `;
  switch (c.change) {
    case "params":
      return `${head}params ${typeOrNone(c.before)} → ${typeOrNone(c.after)}${mark(c.breaking)}`;
    case "result": {
      const how = [
        ...(c.widened ? ["widened: callers must handle more"] : []),
        ...(c.narrowed ? ["narrowed: handlers may return less"] : []),
      ];
      return `${head}result ${code(c.before)} → ${code(c.after)}${how.length > 0 ? ` (${how.join("; ")})` : ""}${mark(c.breaking)}`;
    }
    case "paramsRequired":
      return `${head}params ${c.after ? "now required" : "now optional"}${mark(c.breaking)}`;
    case "taskAugmentable":
      return `${head}${c.after ? "now task-augmentable" : "no longer task-augmentable"}${mark(c.breaking)}`;
  }
}

/** One bullet per changed definition, its changes nested below. */
function definitionLines(changes: readonly DefinitionChange[]): string[] {
  const lines: string[] = [];
  let current: string | null = null;
  for (const c of changes) {
    if (c.definition !== current) {
      current = c.definition;
      lines.push(`- ${code(c.definition)}`);
    }
    lines.push(`  - ${definitionChangeText(c)}${mark(c.breaking)}`);
  }
  return lines;
}

/**
 * One definition change in words, for the report and for `--migrate` (its group titles and other
 * lines): `style` "title" leaves out the word "type" before a property's old and new types, which
 * the guide's one-line titles repeat for every group.
 */
export function definitionChangeText(c: DefinitionChange, style: "report" | "title" = "report"): string {
  switch (c.change) {
    case "property-added":
      return `property ${code(c.property)} added (${c.required ? "required" : "optional"}): ${code(c.type)}`;
    case "property-removed":
      return `property ${code(c.property)} removed (was ${code(c.type)})`;
    case "property-required":
      return `property ${code(c.property)} now required`;
    case "property-optional":
      return `property ${code(c.property)} now optional`;
    case "property-type":
      return `property ${code(c.property)}: ${style === "report" ? "type " : ""}${code(c.before)} → ${code(c.after)}`;
    case "additional-properties":
      return `additional properties: ${typeOrNone(c.before)} → ${typeOrNone(c.after)}`;
    case "type":
      return `type ${code(c.before)} → ${code(c.after)}`;
  }
}

const json = (value: JsonValue) => code(JSON.stringify(value));

function policyLine(c: PolicyChange): string {
  const entries = [
    ...c.added.map((v) => `added ${json(v)}`),
    ...c.removed.map((v) => `removed ${json(v)}`),
  ];
  const detail = entries.length > 0 ? ` (${entries.join(", ")})` : "";
  return `- ${code(c.key)}: ${json(c.before)} → ${json(c.after)}${detail}${mark(c.breaking)}`;
}

/** The diff as `mcp-stubgen diff --json` prints it (the data's own, fixed key order). */
export function formatDiffJson(diff: RevisionDiff): string {
  return `${JSON.stringify(diff, null, 2)}\n`;
}
