#!/usr/bin/env node
import { realpathSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findConfig, parseResultOverrides, type StubgenConfig } from "./config.js";
import { usageContext, usageError } from "./usage.js";
import { isStubgenError } from "../errors.js";
import type { GenerateOptions } from "../generate.js";
import type { PullResult } from "../load/schema-pull.js";
import { defaultCacheDir, TOOL_VERSION } from "../project.js";
import { defaultLockfilePath } from "../load/lockfile.js";
import { RUNTIME_DIR } from "../emit/output-options.js";
import { quietPipeWriter } from "./quiet-pipe.js";
import { CATALOG_OPTIONS, DIFF_OPTIONS, GENERATE_OPTIONS, GLOBAL_OPTIONS } from "./commands.js";
import { fastArgs } from "./fast-args.js";
import { TOP_HELP, TOP_HELP_WIDTH } from "./top-help.js";

// Each command imports what it needs when it runs (yargs, the generator, the differ): `--help`
// and `--version` load none of it, `catalog` and `diff` never load the emitters.

/** Streams the CLI writes to (tests pass their own). */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

let stdoutWriter: ((text: string) => void) | undefined;

const processIo: Io = {
  // `mcp-stubgen generate --all | head`: output stops quietly once head has gone (EPIPE).
  stdout: (text) => (stdoutWriter ??= quietPipeWriter(process.stdout))(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
};

/** A command-line mistake found by yargs (unknown flag, missing command, …); `command` is whose --help to see. */
class UsageError extends Error {
  readonly command: string;

  constructor(message: string, command = "") {
    super(message);
    this.command = command;
  }
}

interface CommonArgs {
  config?: string | undefined;
  cache?: string | undefined;
  lockfile?: string | undefined;
}

/**
 * The config (--config, else found in the working folder), the schema cache (--cache, else the
 * config's `cache`, else `.mcp-stubgen/schema` beside the config file, else in the working
 * folder) and the lockfile (--lockfile, else the config's `lockfile`, false: none, else
 * `mcp-stubgen.lock.json` beside the config file, else in the working folder).
 */
function project(args: CommonArgs, cwd: string): { config: StubgenConfig; cacheDir: string; lockfile: string | false } {
  const { config, file } = findConfig(cwd, args.config);
  const projectDir = file === null ? cwd : dirname(file);
  const lockfile = args.lockfile !== undefined ? resolve(cwd, args.lockfile) : (config.lockfile ?? defaultLockfilePath(projectDir));
  return { config, cacheDir: args.cache ?? config.cache ?? defaultCacheDir(projectDir), lockfile };
}

/**
 * CLI flags over config-file values. What to generate (--revision, --all, --schema) is taken
 * as a whole: any of them on the command line replaces the config's selection.
 */
function options(args: Args, { config, cacheDir, lockfile }: ReturnType<typeof project>): GenerateOptions {
  const overrides = { ...config.resultOverrides, ...parseResultOverrides((args["result-override"] as string[]) ?? []) };
  const revisions = [args["revision"] ?? []].flat() as string[];
  const cliSelects = revisions.length > 0 || args["all"] !== undefined || args["schema"] !== undefined;
  const selection = cliSelects
    ? { revisions, all: args["all"] as boolean | undefined, schema: args["schema"] as string | undefined }
    : { revisions: config.revisions, all: config.all, schema: config.schema };
  return {
    ...selection,
    out: (args["out"] as string | undefined) ?? config.out,
    cacheDir,
    lockfile,
    check: args["check"] as boolean | undefined,
    fragment: (args["fragment"] as boolean | undefined) ?? config.fragment,
    resultOverrides: overrides,
    importExtension: oneOf(args, "import-ext", ["js", "ts"] as const, (ext) => `.${ext}` as const) ?? config.importExtension,
    emit: oneOf(args, "emit", ["ts", "js"] as const, (emit) => emit) ?? config.emit,
    runtime: oneOf(args, "runtime", ["shared", "inline"] as const, (runtime) => runtime) ?? config.runtime,
    strictObjects: (args["strict-objects"] as boolean | undefined) ?? config.strictObjects,
    extensions: args["extension"] !== undefined ? ([args["extension"]].flat() as string[]) : config.extensions,
    addons: args["addon"] !== undefined ? ([args["addon"]].flat() as string[]) : config.addons,
    rulesOf: config.rulesOf,
  };
}

/** The value of a flag that takes one of `allowed` (mapped), or undefined when absent; else a usage error on one line. */
function oneOf<T extends string, U>(args: Record<string, unknown>, flag: string, allowed: readonly T[], map: (value: T) => U): U | undefined {
  const value = args[flag];
  if (value === undefined) return undefined;
  const given = allowed.find((a) => a === value);
  if (given === undefined) throw new UsageError(`--${flag} takes ${allowed.join(" or ")}, got ${JSON.stringify(value)}`);
  return map(given);
}

type Args = CommonArgs & Record<string, unknown>;
type Show = (path: string) => string;

/** `generate`: resolves to the exit code. */
async function runGenerate(args: Args, io: Io, show: Show): Promise<number> {
  const { generate } = await import("../generate.js");
  const result = await generate({ ...options(args, project(args, io.cwd)), force: args["force"] as boolean | undefined });
  if (result.check) {
    const { stale, missing, extra } = result.check;
    for (const f of missing) io.stdout(`missing: ${show(`${result.outDir}/${f}`)}\n`);
    for (const f of stale) io.stdout(`stale: ${show(`${result.outDir}/${f}`)}\n`);
    for (const f of extra) io.stdout(`not generated: ${show(`${result.outDir}/${f}`)}\n`);
    const bad = missing.length + stale.length + extra.length;
    io.stdout(bad === 0 ? "up to date\n" : `${bad} file(s) out of date: run mcp-stubgen generate\n`);
    return bad === 0 ? 0 : 1;
  }
  // A revision the generator does not know by name follows a known one's prose rules: one line each.
  const { inheritanceNote } = await import("../model/policy.js");
  for (const { revision, rulesOf } of result.revisions) if (rulesOf !== undefined) io.stdout(`${inheritanceNote(revision, rulesOf)}\n`);
  if (result.upToDate) {
    const folders = [...(result.runtime.length > 0 ? [RUNTIME_DIR] : []), ...result.revisions.map((r) => r.revision)];
    const named = folders.map((f) => `${show(`${result.outDir}/${f}`)}/`).join(", ");
    io.stdout(`up to date: ${named} (schema, options and generator unchanged; nothing written; --force to generate anyway)\n`);
    return 0;
  }
  // A folder whose files were all already as generated was not touched: say so, not "wrote".
  const touched = (folder: string) => result.changed === undefined || result.changed.some((path) => path.startsWith(`${folder}/`));
  const report = (folder: string, files: readonly string[], extra = "") => {
    const where = `${show(`${result.outDir}/${folder}`)}/${extra}`;
    io.stdout(touched(folder) ? `wrote ${where} (${files.join(", ")})\n` : `unchanged: ${where} (${files.length} files already as generated; nothing written)\n`);
  };
  if (result.runtime.length > 0) report(RUNTIME_DIR, result.runtime);
  for (const { revision, files, extensions } of result.revisions) report(revision, files, extensions.length > 0 ? ` with ${extensions.join(", ")}` : "");
  for (const { folder, files } of result.protocols ?? []) report(folder, files);
  printAddonPackages(result.packages ?? {}, io);
  return 0;
}

/** The npm packages the chosen add-ons import: the output needs them installed. */
function printAddonPackages(packages: Readonly<Record<string, string>>, io: Io): void {
  const entries = Object.entries(packages);
  if (entries.length === 0) return;
  io.stdout(`the add-ons import ${entries.map(([name, range]) => `${name}@${range}`).join(", ")}: npm install ${entries.map(([name, range]) => `'${name}@${range}'`).join(" ")}\n`);
}

/** `catalog`: resolves to the exit code. */
async function runCatalog(args: Args, io: Io): Promise<number> {
  const given = [args["revision"] ?? []].flat();
  if (given.length > 1) throw new UsageError(`catalog takes one --revision, got ${given.join(", ")}`);
  const opts = options(args, project(args, io.cwd));
  const { catalog, CUSTOM_REVISION } = await import("../generate.js");
  const revision = opts.revisions?.[0] ?? (opts.schema === undefined ? undefined : CUSTOM_REVISION);
  if (revision === undefined) throw new UsageError("catalog needs --revision REV (or --schema PATH_OR_URL)");
  const json = await catalog({ ...opts, revisions: undefined, all: false, revision });
  if (args["json"]) {
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    return 0;
  }
  const rows = json.methods.map((m) => [
    m.method,
    m.kind,
    m.from.join("+"),
    m.params ?? "-",
    m.result ?? "-",
    m.cancellable ? "yes" : "no",
    m.taskAugmentable ? "yes" : "no",
  ]);
  io.stdout(table(["method", "kind", "from", "params", "result", "cancellable", "task"], rows));
  return 0;
}

/** `diff`: resolves to the exit code. */
async function runDiff(args: Args, io: Io): Promise<number> {
  const { cacheDir, lockfile } = project(args, io.cwd);
  const one = (name: string, value: unknown): string | undefined => {
    const given = [value ?? []].flat() as string[];
    if (given.length > 1) throw new UsageError(`diff takes one --${name}, got ${given.join(", ")}`);
    return given[0];
  };
  const from = one("from", args["from"]);
  const to = one("to", args["to"]);
  const fromSchema = one("from-schema", args["from-schema"]);
  const toSchema = one("to-schema", args["to-schema"]);
  const failOn = one("fail-on", args["fail-on"]);
  if (failOn !== undefined && failOn !== "breaking") throw new UsageError(`--fail-on takes "breaking", got ${JSON.stringify(failOn)}`);
  if (from === undefined && fromSchema === undefined) throw new UsageError("diff needs --from REV (or --from-schema PATH_OR_URL)");
  if (to === undefined && toSchema === undefined) throw new UsageError("diff needs --to REV (or --to-schema PATH_OR_URL)");
  const fromExtensions = [args["from-extension"] ?? []].flat() as string[];
  const toExtensions = [args["to-extension"] ?? []].flat() as string[];
  if (args["migrate"] && args["json"]) throw new UsageError("--migrate prints Markdown: leave out --json (whose data the guide is made from)", "diff");
  const [{ diffSides }, { diffRevisions, hasBreakingChanges }, { formatDiffJson, formatDiffMarkdown }] = await Promise.all([
    import("../diff/load.js"),
    import("../diff/diff.js"),
    import("../diff/format.js"),
  ]);
  const sides = await diffSides({ from, to, fromSchema, toSchema, cacheDir, lockfile, fromExtensions, toExtensions });
  const result = diffRevisions(sides.from, sides.to);
  if (args["migrate"]) {
    const { formatMigration, migrationGuide } = await import("../diff/migrate.js");
    io.stdout(formatMigration(migrationGuide(sides.from, sides.to, result)));
  } else {
    io.stdout(args["json"] ? formatDiffJson(result) : formatDiffMarkdown(result));
  }
  return failOn === "breaking" && hasBreakingChanges(result) ? 1 : 0;
}

const FAST_HANDLERS: Readonly<Record<string, (args: Args, io: Io, show: Show) => Promise<number>>> = {
  generate: runGenerate,
  catalog: (args, io) => runCatalog(args, io),
  diff: (args, io) => runDiff(args, io),
};

/** How `main` may answer without yargs (tests turn it off to compare both routes). */
export interface MainOptions {
  /** Top-level --help/--version and plain generate/catalog/diff lines without yargs (default true). */
  readonly fastPath?: boolean;
  /** Help width (default: the terminal's, at most 110). */
  readonly columns?: number;
}

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io = processIo, mainOptions: MainOptions = {}): Promise<number> {
  const show = (path: string) => relative(io.cwd, path) || ".";
  const width = Math.min(110, mainOptions.columns ?? process.stdout.columns ?? 110);
  try {
    if (mainOptions.fastPath !== false) {
      if (argv.length === 1 && argv[0] === "--version") {
        io.stdout(`${TOOL_VERSION}\n`);
        return 0;
      }
      if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h") && width === TOP_HELP_WIDTH) {
        io.stdout(`${TOP_HELP}\n`);
        return 0;
      }
      const fast = fastArgs(argv);
      const handler = fast === undefined ? undefined : FAST_HANDLERS[fast.command];
      if (fast !== undefined && handler !== undefined) return await handler(fast.args, io, show);
    }
    return await withYargs(argv, io, show, width);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`mcp-stubgen: error: ${err.message} (see mcp-stubgen ${err.command ? `${err.command} ` : ""}--help)\n`);
    } else if (isStubgenError(err)) {
      io.stderr(`mcp-stubgen: error: ${err.format()}\n`);
    } else {
      io.stderr(`mcp-stubgen: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    return 1;
  }
}

/** The full parser: help, usage errors, `schema`, and every line the fast path leaves to it. */
async function withYargs(argv: readonly string[], io: Io, show: Show, width: number): Promise<number> {
  const [{ default: yargs }, { hideBin }] = await Promise.all([import("yargs"), import("yargs/helpers")]);
  let exitCode = 0;
  const parser = yargs([...argv])
    .scriptName("mcp-stubgen")
    .usage("$0 <command> [options]\n\nGenerate typed, cancellation-aware TypeScript stubs from an MCP schema revision.")
    .version(TOOL_VERSION)
    .locale("en")
    .strict()
    .demandCommand(1, "expected a command: generate, catalog, diff or schema")
    .options(GLOBAL_OPTIONS)
    .command(
      "generate",
      "Generate out/<revision>/ for the selected revisions",
      (y) =>
        y
          .options(GENERATE_OPTIONS)
          .example("$0 generate --all", "every known revision into out/")
          .example("$0 generate -r 2025-11-25 --check", "exit 1 when out/2025-11-25 is stale")
          .example("$0 generate -r 2026-07-28 --extension tasks", "2026-07-28 with the Tasks extension merged in"),
      async (args) => {
        exitCode = await runGenerate(args, io, show);
      },
    )
    .command(
      "catalog",
      "Print the method catalog of a revision",
      (y) => y.options(CATALOG_OPTIONS),
      async (args) => {
        exitCode = await runCatalog(args, io);
      },
    )
    .command(
      "diff",
      "What changes between two revisions, breaking changes marked",
      (y) =>
        y
          .options(DIFF_OPTIONS)
          .example("$0 diff --from 2025-11-25 --to 2026-07-28", "Markdown report")
          .example("$0 diff --from 2025-11-25 --to 2026-07-28 --fail-on breaking", "exit 1 on a breaking change")
          .example("$0 diff --from 2026-07-28 --to 2026-07-28 --to-extension tasks", "what the Tasks extension adds"),
      async (args) => {
        exitCode = await runDiff(args, io);
      },
    )
    .command("schema", "Manage the schema cache", (y) =>
      y
        .command(
          "list",
          "List the known revisions and extensions and whether each is cached",
          () => {},
          async (args) => {
            const { listExtensions, listSchemas } = await import("../load/schema-source.js");
            const { cacheDir, lockfile } = project(args as Args, io.cwd);
            const revisions = listSchemas({ cacheDir, lockfile });
            const rows = revisions.map((r) => [r.id, r.dialect, r.state, show(r.path)]);
            io.stdout(table(["revision", "dialect", "cache", "path"], rows));
            const listed = listExtensions({ cacheDir, lockfile });
            const extensions = listed.map((e) => [e.id, e.identifier, e.revisions.join(", "), e.state, show(e.path)]);
            if (extensions.length > 0) io.stdout(`\n${table(["extension", "identifier", "extends", "cache", "path"], extensions)}`);
            // Which pins the lockfile sets (the others are the package's): only when it sets any.
            const locked = [...revisions.filter((r) => r.pinnedBy === "lockfile").map((r) => r.id), ...listed.filter((e) => e.pinnedBy === "lockfile").map((e) => `extension ${e.id}`)];
            if (locked.length > 0 && lockfile !== false) io.stdout(`\npinned by ${show(lockfile)}: ${locked.join(", ")} (the others by the package's schema/revisions.json)\n`);
          },
        )
        .command(
          "pull [revisions..]",
          "Fill the cache and pin what it pulled in the lockfile (when nothing is named: the config's revisions, else all known and locked revisions and extensions), checking each sha256",
          (p) =>
            p
              .positional("revisions", { type: "string", array: true, describe: "Revisions or extensions (e.g. tasks) to pull (default: the config's revisions, else all)" })
              .option("revision", { alias: "r", type: "string", array: true, describe: "Revision to pull (repeatable; same as the positional)" })
              .option("from", {
                type: "string",
                describe: "Copy from a local folder of <revision>/schema.json and extensions/<id>/<version>/schema.json, or one schema file (name its revision), instead of downloading",
              })
              .option("commit", {
                type: "string",
                describe: "Download the named revisions (or extension) at this upstream commit (40 hex digits) and pin them to it in the lockfile",
              })
              .option("accept", {
                type: "boolean",
                describe: "Accept a schema whose bytes differ from its pin (changed upstream) and re-pin it in the lockfile",
              })
              .example("$0 schema pull 2027-01-01 --from ../specs", "pin a revision this version does not know, from ../specs/2027-01-01/schema.json")
              .example("$0 schema pull 2025-11-25 --commit 0123456789abcdef0123456789abcdef01234567", "download at that upstream commit and pin it"),
          async (args) => {
            const { pullSchemas } = await import("../load/schema-pull.js");
            const { config, cacheDir, lockfile } = project(args as Args, io.cwd);
            const list = (value: unknown) => [value ?? []].flat() as string[];
            const named = [...list(args["revisions"]), ...list(args["revision"])];
            const revisions = named.length > 0 ? named : config.all ? [] : (config.revisions ?? []);
            const one = (flag: string): string | undefined => {
              const given = list(args[flag]);
              if (given.length > 1) throw new UsageError(`schema pull takes one --${flag}, got ${given.join(", ")}`, "schema pull");
              return given[0];
            };
            const pulled = await pullSchemas(revisions, {
              from: one("from"),
              commit: one("commit"),
              accept: args["accept"] as boolean | undefined,
              cacheDir,
              lockfile,
            });
            const lock = lockfile === false ? "" : show(lockfile);
            for (const p of pulled) io.stdout(`${p.kind === "extension" ? `extension ${p.revision}` : p.revision}: ${show(p.path)} (${pullNote(p, lock)})\n`);
          },
        )
        .demandCommand(1, "expected a schema command: list or pull"),
    )
    .help()
    .alias("help", "h")
    .wrap(width)
    .exitProcess(false)
    .fail((message, error, usage) => {
      if (error) throw error;
      const { message: text, command } = usageError(message, usageContext(argv, usage));
      throw new UsageError(text, command);
    });
  let helpOrVersion = "";
  await parser.parseAsync(hideBin(["node", "mcp-stubgen", ...argv]), {}, (_err, _argv, output) => {
    helpOrVersion = output;
  });
  if (helpOrVersion && exitCode === 0) io.stdout(`${helpOrVersion}\n`);
  return exitCode;
}

/** What `schema pull` says of one schema, in the parentheses after its cache path. */
function pullNote(p: PullResult, lock: string): string {
  const from = p.source === "cache" ? "already cached; it is pinned to a local copy" : `from ${p.source}`;
  const sha = `sha256 ${p.sha256.slice(0, 12)}…`;
  switch (p.pin) {
    case "kept":
      return `sha256 ok, ${from}`;
    case "new":
      return `new revision, pinned in ${lock}: ${sha}${p.commit === null ? "" : ` at commit ${p.commit}`}, ${from}`;
    case "moved":
      return `sha256 ok, re-pinned in ${lock} to commit ${p.commit}, ${from}`;
    case "changed":
      return `changed upstream: ${p.change}; re-pinned in ${lock}: ${sha}${p.commit === null ? "" : ` at commit ${p.commit}`}, ${from}`;
  }
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n") + "\n";
}

const invokedDirectly = (() => {
  try {
    return realpathSync(process.argv[1] ?? "") === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  process.exitCode = await main(process.argv.slice(2));
}
