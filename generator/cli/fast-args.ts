/**
 * The CLI's fast path: the plain command lines of `generate`, `catalog` and `diff` parsed with
 * node:util's parseArgs from the same option tables yargs uses, so a build step does not pay for
 * loading yargs. Anything this parser is not sure to read exactly as yargs does (an unknown or
 * camelCase option, a `--no-` form, a stray argument, `--`, a repeated boolean, a short flag with its value attached, a value that looks
 * like an option, --help) yields undefined, and the caller hands the line to yargs, whose
 * messages and help stay the only ones.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { FAST_COMMANDS, GLOBAL_OPTIONS, type OptionTable } from "./commands.js";

export interface FastArgs {
  readonly command: string;
  /** The values as yargs would give them to the command's handler (kebab-case keys). */
  readonly args: Record<string, unknown>;
}

export function fastArgs(argv: readonly string[]): FastArgs | undefined {
  const command = argv[0];
  if (command === undefined || !Object.hasOwn(FAST_COMMANDS, command)) return undefined;
  const table: OptionTable = { ...GLOBAL_OPTIONS, ...FAST_COMMANDS[command] };
  const options: NonNullable<ParseArgsConfig["options"]> = {};
  for (const [name, spec] of Object.entries(table)) {
    options[name] = { type: spec.type, multiple: true, ...(spec.alias === undefined ? {} : { short: spec.alias }) };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv.slice(1), options, strict: true, allowPositionals: true, tokens: true });
  } catch {
    return undefined;
  }
  if (parsed.positionals.length > 0) return undefined;
  // `--`, and a short flag with its value attached (`-r2025-06-18`, which yargs reads otherwise).
  if (parsed.tokens?.some((t) => t.kind === "option-terminator" || (t.kind === "option" && !t.rawName.startsWith("--") && t.inlineValue === true))) {
    return undefined;
  }
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    const spec = table[name];
    if (spec === undefined || !Array.isArray(value)) return undefined;
    if (spec.array) args[name] = value;
    else if (value.length === 1) args[name] = value[0];
    // yargs gathers a repeated string flag into an array (the handlers refuse it with their own message);
    // a repeated boolean is left to yargs.
    else if (spec.type === "string") args[name] = value;
    else return undefined;
  }
  return { command, args };
}
