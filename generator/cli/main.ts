#!/usr/bin/env node
import { realpathSync } from "node:fs";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { findConfig, parseResultOverrides, type StubgenConfig } from "./config.js";
import { usageContext, usageError } from "./usage.js";
import { isStubgenError } from "../errors.js";
import { diff } from "../diff/load.js";
import { hasBreakingChanges } from "../diff/diff.js";
import { formatDiffJson, formatDiffMarkdown } from "../diff/format.js";
import { catalog, CUSTOM_REVISION, generate, type GenerateOptions } from "../generate.js";
import { defaultCacheDir, TOOL_VERSION } from "../project.js";
import { RUNTIME_DIR } from "../emit/output-options.js";
import { quietPipeWriter } from "./quiet-pipe.js";
import { listExtensions, listSchemas, pullSchemas } from "../load/schema-source.js";

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
}

/**
 * The config (--config, else found in the working folder) and the schema cache: --cache, else
 * the config's `cache`, else `.mcp-stubgen/schema` beside the config file, else in the working
 * folder.
 */
function project(args: CommonArgs, cwd: string): { config: StubgenConfig; cacheDir: string } {
  const { config, file } = findConfig(cwd, args.config);
  return { config, cacheDir: args.cache ?? config.cache ?? defaultCacheDir(file === null ? cwd : dirname(file)) };
}

/**
 * CLI flags over config-file values. What to generate (--revision, --all, --schema) is taken
 * as a whole: any of them on the command line replaces the config's selection.
 */
function options(args: CommonArgs & Record<string, unknown>, { config, cacheDir }: ReturnType<typeof project>): GenerateOptions {
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
    check: args["check"] as boolean | undefined,
    fragment: (args["fragment"] as boolean | undefined) ?? config.fragment,
    resultOverrides: overrides,
    importExtension: oneOf(args, "import-ext", ["js", "ts"] as const, (ext) => `.${ext}` as const) ?? config.importExtension,
    emit: oneOf(args, "emit", ["ts", "js"] as const, (emit) => emit) ?? config.emit,
    runtime: oneOf(args, "runtime", ["shared", "inline"] as const, (runtime) => runtime) ?? config.runtime,
    strictObjects: (args["strict-objects"] as boolean | undefined) ?? config.strictObjects,
    extensions: args["extension"] !== undefined ? ([args["extension"]].flat() as string[]) : config.extensions,
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

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  let exitCode = 0;
  const show = (path: string) => relative(io.cwd, path) || ".";
  const parser = yargs([...argv])
    .scriptName("mcp-stubgen")
    .usage("$0 <command> [options]\n\nGenerate typed, cancellation-aware TypeScript stubs from an MCP schema revision.")
    .version(TOOL_VERSION)
    .locale("en")
    .strict()
    .demandCommand(1, "expected a command: generate, catalog, diff or schema")
    .option("config", { type: "string", describe: "Config file (default: mcp-stubgen.config.json, or the \"mcp-stubgen\" key of package.json)" })
    .option("cache", { type: "string", describe: "Schema cache folder (default: .mcp-stubgen/schema beside the config file, else in the working folder)" })
    .command(
      "generate",
      "Generate out/<revision>/ for the selected revisions",
      (y) =>
        y
          .option("revision", { alias: "r", type: "string", array: true, describe: "Revision to generate (repeatable)" })
          .option("all", { type: "boolean", describe: "Generate every known revision" })
          .option("schema", { type: "string", describe: "Schema path or URL (bypasses the cache; one revision, labelled by --revision or 'custom')" })
          .option("extension", { alias: "x", type: "string", array: true, describe: "Merge a known extension into each revision (repeatable; e.g. tasks; see schema list)" })
          .option("out", { alias: "o", type: "string", describe: "Output folder (default: out)" })
          .option("check", { type: "boolean", describe: "Write nothing; list stale or missing files and exit 1 if any" })
          .option("fragment", { type: "boolean", describe: "The schema is a fragment: no ClientRequest/ServerRequest/… unions is not an error" })
          .option("result-override", { type: "string", array: true, describe: "method=TypeName, for a result the derivation gets wrong" })
          .option("import-ext", { type: "string", describe: "Extension of the generated files' imports of each other (default: js; ts for Node type stripping and Deno)" })
          .option("emit", { type: "string", describe: "ts (default): TypeScript sources; js: a .js and a .d.ts file for each" })
          .option("runtime", {
            type: "string",
            describe: "shared (default): the runtime once in <out>/runtime/, imported by every revision; inline: a copy in each revision folder",
          })
          .option("strict-objects", {
            type: "boolean",
            describe:
              "Index signatures only where a definition itself allows extra properties: misspelt properties in results become errors, but the types no longer accept values of the spec's own TypeScript types (default: off)",
          })
          .example("$0 generate --all", "every known revision into out/")
          .example("$0 generate -r 2025-11-25 --check", "exit 1 when out/2025-11-25 is stale")
          .example("$0 generate -r 2026-07-28 --extension tasks", "2026-07-28 with the Tasks extension merged in"),
      async (args) => {
        const result = await generate(options(args, project(args, io.cwd)));
        if (result.check) {
          const { stale, missing, extra } = result.check;
          for (const f of missing) io.stdout(`missing: ${show(`${result.outDir}/${f}`)}\n`);
          for (const f of stale) io.stdout(`stale: ${show(`${result.outDir}/${f}`)}\n`);
          for (const f of extra) io.stdout(`not generated: ${show(`${result.outDir}/${f}`)}\n`);
          const bad = missing.length + stale.length + extra.length;
          io.stdout(bad === 0 ? "up to date\n" : `${bad} file(s) out of date: run mcp-stubgen generate\n`);
          exitCode = bad === 0 ? 0 : 1;
          return;
        }
        if (result.runtime.length > 0) io.stdout(`wrote ${show(`${result.outDir}/${RUNTIME_DIR}`)}/ (${result.runtime.join(", ")})\n`);
        for (const { revision, files, extensions } of result.revisions) {
          const withExtensions = extensions.length > 0 ? ` with ${extensions.join(", ")}` : "";
          io.stdout(`wrote ${show(`${result.outDir}/${revision}`)}/${withExtensions} (${files.join(", ")})\n`);
        }
      },
    )
    .command(
      "catalog",
      "Print the method catalog of a revision",
      (y) =>
        y
          .option("revision", { alias: "r", type: "string", describe: "Revision (or the label of --schema)" })
          .option("schema", { type: "string", describe: "Schema path or URL (bypasses the cache)" })
          .option("extension", { alias: "x", type: "string", array: true, describe: "Merge a known extension into the revision (repeatable; e.g. tasks)" })
          .option("json", { type: "boolean", describe: "Print JSON instead of a table" })
          .option("fragment", { type: "boolean", describe: "The schema is a fragment: no direction unions is not an error" })
          .option("result-override", { type: "string", array: true, describe: "method=TypeName" }),
      async (args) => {
        const given = [args.revision ?? []].flat();
        if (given.length > 1) throw new UsageError(`catalog takes one --revision, got ${given.join(", ")}`);
        const opts = options(args, project(args, io.cwd));
        const revision = opts.revisions?.[0] ?? (opts.schema === undefined ? undefined : CUSTOM_REVISION);
        if (revision === undefined) throw new UsageError("catalog needs --revision REV (or --schema PATH_OR_URL)");
        const json = await catalog({ ...opts, revisions: undefined, all: false, revision });
        if (args.json) {
          io.stdout(`${JSON.stringify(json, null, 2)}\n`);
          return;
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
      },
    )
    .command(
      "diff",
      "What changes between two revisions, breaking changes marked",
      (y) =>
        y
          .option("from", { type: "string", describe: "Old revision (or the label of --from-schema)" })
          .option("to", { type: "string", describe: "New revision (or the label of --to-schema)" })
          .option("from-schema", { type: "string", describe: "Old schema path or URL (bypasses the cache)" })
          .option("to-schema", { type: "string", describe: "New schema path or URL (bypasses the cache)" })
          .option("from-extension", { type: "string", array: true, describe: "Merge a known extension into the old side (repeatable)" })
          .option("to-extension", { type: "string", array: true, describe: "Merge a known extension into the new side (repeatable)" })
          .option("json", { type: "boolean", describe: "Print JSON instead of Markdown" })
          .option("fail-on", { type: "string", describe: 'Exit 1 when the diff has a change of this kind (one kind: "breaking")' })
          .example("$0 diff --from 2025-11-25 --to 2026-07-28", "Markdown report")
          .example("$0 diff --from 2025-11-25 --to 2026-07-28 --fail-on breaking", "exit 1 on a breaking change")
          .example("$0 diff --from 2026-07-28 --to 2026-07-28 --to-extension tasks", "what the Tasks extension adds"),
      async (args) => {
        const { cacheDir } = project(args, io.cwd);
        const one = (name: string, value: unknown): string | undefined => {
          const given = [value ?? []].flat() as string[];
          if (given.length > 1) throw new UsageError(`diff takes one --${name}, got ${given.join(", ")}`);
          return given[0];
        };
        const from = one("from", args.from);
        const to = one("to", args.to);
        const fromSchema = one("from-schema", args["from-schema"]);
        const toSchema = one("to-schema", args["to-schema"]);
        const failOn = one("fail-on", args["fail-on"]);
        if (failOn !== undefined && failOn !== "breaking") throw new UsageError(`--fail-on takes "breaking", got ${JSON.stringify(failOn)}`);
        if (from === undefined && fromSchema === undefined) throw new UsageError("diff needs --from REV (or --from-schema PATH_OR_URL)");
        if (to === undefined && toSchema === undefined) throw new UsageError("diff needs --to REV (or --to-schema PATH_OR_URL)");
        const fromExtensions = [args["from-extension"] ?? []].flat() as string[];
        const toExtensions = [args["to-extension"] ?? []].flat() as string[];
        const result = await diff({ from, to, fromSchema, toSchema, cacheDir, fromExtensions, toExtensions });
        io.stdout(args.json ? formatDiffJson(result) : formatDiffMarkdown(result));
        exitCode = failOn === "breaking" && hasBreakingChanges(result) ? 1 : 0;
      },
    )
    .command("schema", "Manage the schema cache", (y) =>
      y
        .command(
          "list",
          "List the known revisions and extensions and whether each is cached",
          () => {},
          (args) => {
            const { cacheDir } = project(args, io.cwd);
            const rows = listSchemas({ cacheDir }).map((r) => [r.id, r.dialect, r.state, show(r.path)]);
            io.stdout(table(["revision", "dialect", "cache", "path"], rows));
            const extensions = listExtensions({ cacheDir }).map((e) => [e.id, e.identifier, e.revisions.join(", "), e.state, show(e.path)]);
            if (extensions.length > 0) io.stdout(`\n${table(["extension", "identifier", "extends", "cache", "path"], extensions)}`);
          },
        )
        .command(
          "pull [revisions..]",
          "Fill the cache (when nothing is named: the config's revisions, else all known revisions and extensions), checking each sha256",
          (p) =>
            p
              .positional("revisions", { type: "string", array: true, describe: "Revisions or extensions (e.g. tasks) to pull (default: the config's revisions, else all)" })
              .option("revision", { alias: "r", type: "string", array: true, describe: "Revision to pull (repeatable; same as the positional)" })
              .option("from", {
                type: "string",
                describe: "Copy from a local folder of <revision>/schema.json and extensions/<id>/<version>/schema.json, or one schema file (name its revision), instead of downloading",
              }),
          async (args) => {
            const { config, cacheDir } = project(args, io.cwd);
            const named = [...(args.revisions ?? []), ...(args.revision ?? [])];
            const revisions = named.length > 0 ? named : config.all ? [] : (config.revisions ?? []);
            const pulled = await pullSchemas(revisions, { from: args.from, cacheDir });
            for (const p of pulled) io.stdout(`${p.kind === "extension" ? `extension ${p.revision}` : p.revision}: ${show(p.path)} (sha256 ok, from ${p.source})\n`);
          },
        )
        .demandCommand(1, "expected a schema command: list or pull"),
    )
    .help()
    .alias("help", "h")
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .exitProcess(false)
    .fail((message, error, usage) => {
      if (error) throw error;
      const { message: text, command } = usageError(message, usageContext(argv, usage));
      throw new UsageError(text, command);
    });
  try {
    let helpOrVersion = "";
    await parser.parseAsync(hideBin(["node", "mcp-stubgen", ...argv]), {}, (_err, _argv, output) => {
      helpOrVersion = output;
    });
    if (helpOrVersion && exitCode === 0) io.stdout(`${helpOrVersion}\n`);
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
  return exitCode;
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
