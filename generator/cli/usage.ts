/**
 * Usage errors of the CLI in our own words: yargs' strict mode says "Unknown argument: generat"
 * whether a command or a flag was mistyped; this says which it was, in which command, and
 * suggests the nearest known name.
 */

/** Where on the command line a usage error happened, and what was known there. */
export interface UsageContext {
  /** The arguments as typed (without `node` and the script). */
  readonly argv: readonly string[];
  /** The command the error is in ("" at the top, "schema", "schema pull", …). */
  readonly command: string;
  /** Subcommands known at that level (empty for a leaf command). */
  readonly commands: readonly string[];
  /** Long option names known in that command (without dashes). */
  readonly options: readonly string[];
}

/** A usage error message and the command whose --help to point at. */
export interface Usage {
  readonly message: string;
  readonly command: string;
}

/** Edit distance: insertions, deletions, substitutions and swaps of two neighbours ("form" → "from" is 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      const up = d[i - 1]!;
      row[j] = Math.min(up[j]! + 1, row[j - 1]! + 1, up[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name nearest to `word`, when it is a near miss (one edit for short words, else two). */
export function nearest(word: string, known: readonly string[]): string | undefined {
  const limit = word.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

const UNKNOWN = /^Unknown arguments?: (.+)$/;

/** The argv token that introduced option `name` (`--name`, `-n`, `--name=x`), if any. */
function optionToken(argv: readonly string[], name: string): string | undefined {
  const dashed = name.length === 1 ? `-${name}` : `--${name}`;
  return argv.find((t) => t === dashed || t.startsWith(`${dashed}=`) || t === `--${name}`)?.split("=")[0];
}

/**
 * Rewrites a yargs failure message. Unknown names become "unknown command X" (with a
 * suggestion, else the list of commands), "unknown option --x" (with a suggestion) or
 * "unexpected argument X"; any other message is kept. Pure.
 */
export function usageError(yargsMessage: string, ctx: UsageContext): Usage {
  const command = ctx.command;
  const match = UNKNOWN.exec(yargsMessage);
  if (!match) return { message: yargsMessage, command };
  const names = match[1]!.split(", ");
  // The first unknown name in the order it was typed.
  const position = (name: string) => {
    const i = ctx.argv.findIndex((t) => t === name || t.replace(/^-+/, "").split("=")[0] === name);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const name = [...names].sort((a, b) => position(a) - position(b))[0]!;
  const token = optionToken(ctx.argv, name);
  const path = (word: string) => (command === "" ? word : `${command} ${word}`);
  if (token !== undefined) {
    const suggestion = token.startsWith("--") ? nearest(name, ctx.options.filter((o) => o.length > 1)) : undefined;
    return { message: `unknown option ${token}${suggestion ? `; did you mean --${suggestion}?` : ""}`, command };
  }
  if (ctx.commands.length > 0) {
    const suggestion = nearest(name, ctx.commands);
    const hint = suggestion ? `; did you mean ${path(suggestion)}?` : `; expected one of ${ctx.commands.join(", ")}`;
    return { message: `unknown command ${path(name)}${hint}`, command };
  }
  return { message: `unexpected argument ${name}`, command };
}

/** What yargs' usage object (the third argument of its `fail` callback) offers us. */
interface YargsUsage {
  getCommands(): ReadonlyArray<readonly [string, ...unknown[]]>;
  getDescriptions(): Record<string, unknown>;
  getUsage(): ReadonlyArray<readonly [string, ...unknown[]]>;
}

function isYargsUsage(value: unknown): value is YargsUsage {
  const v = value as Partial<Record<keyof YargsUsage, unknown>> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.getCommands === "function" &&
    typeof v.getDescriptions === "function" &&
    typeof v.getUsage === "function"
  );
}

/** Reads the usage context from yargs' `fail` callback; an empty context if yargs changed shape. */
export function usageContext(argv: readonly string[], usage: unknown): UsageContext {
  if (!isYargsUsage(usage)) return { argv, command: "", commands: [], options: [] };
  const first = (cmd: string) => cmd.split(" ")[0]!;
  // "$0 schema pull [revisions..]" → "schema pull"; the top level's "$0 <command> [options]\n\n…" → ""
  const words = (usage.getUsage()[0]?.[0] ?? "").split("\n")[0]!.split(" ");
  const end = words.findIndex((w) => /^[[<]/.test(w));
  const command = words
    .slice(0, end === -1 ? words.length : end)
    .filter((w) => w !== "$0")
    .join(" ");
  return {
    argv,
    command,
    commands: usage.getCommands().map(([cmd]) => first(cmd)),
    options: Object.keys(usage.getDescriptions()),
  };
}
