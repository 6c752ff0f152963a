/**
 * Helpers of the vendoring tests: the compiler flags a vendoring project may turn on, a
 * type-check with them in process (ts-morph's TypeScript) and with the repository's `tsc` CLI
 * (TypeScript 7, native), and the list of generated files per revision.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Project, ts } from "ts-morph";
import { PACKAGE_ROOT } from "../../generator/project.js";
import { REVISIONS, TEST_OUT_DIR } from "../helpers/schemas.js";
import { STRICT_OPTIONS, type CheckedDiagnostic } from "../helpers/typecheck.js";

/** STRICT_OPTIONS plus the flags of transpile-only and declaration-only tool chains. */
export const VENDOR_OPTIONS: ts.CompilerOptions = {
  ...STRICT_OPTIONS,
  noImplicitOverride: true,
  isolatedDeclarations: true,
  declaration: true,
  erasableSyntaxOnly: true,
  isolatedModules: true,
};

/** The same flags for the `tsc` CLI (no tsconfig.json is read). */
export const VENDOR_FLAGS: readonly string[] = [
  "--ignoreConfig",
  "--noEmit",
  "--target", "ES2022",
  "--module", "NodeNext",
  "--moduleResolution", "NodeNext",
  "--strict",
  "--exactOptionalPropertyTypes",
  "--noUncheckedIndexedAccess",
  "--noImplicitOverride",
  "--verbatimModuleSyntax",
  "--isolatedModules",
  "--isolatedDeclarations",
  "--declaration",
  "--erasableSyntaxOnly",
];

/**
 * Every file below `dir`, as paths relative to it, sorted: the runtime's files sit in folders
 * (`core/protocol.ts`, `http/sse.ts`, ...).
 */
export function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesBelow(join(dir, e.name)).map((f) => join(e.name, f)) : [e.name]))
    .sort();
}

/** The generated `.ts` files of every revision and of the shared runtime in test/generated/ (prepared by test/prepare.mjs). */
export function generatedFiles(dir: string = TEST_OUT_DIR): string[] {
  return [...REVISIONS, "runtime"].flatMap((revision) =>
    filesBelow(join(dir, revision))
      .filter((file) => file.endsWith(".ts"))
      .map((file) => join(dir, revision, file)),
  );
}

/** Type-checks files on disk with `options` (ts-morph's TypeScript); returns every diagnostic. */
export function typecheckWith(files: readonly string[], options: ts.CompilerOptions): CheckedDiagnostic[] {
  const project = new Project({ compilerOptions: options, skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([...files]);
  project.resolveSourceFileDependencies();
  return project.getPreEmitDiagnostics().map((d) => ({
    file: d.getSourceFile()?.getFilePath() ?? "",
    line: d.getLineNumber() ?? 0,
    code: d.getCode(),
    message: ts.flattenDiagnosticMessageText(d.compilerObject.messageText, "\n"),
  }));
}

export const TSC = join(PACKAGE_ROOT, "node_modules", ".bin", "tsc");

/** Runs the repository's `tsc` CLI; returns its exit code and output (the diagnostics). */
export function runTsc(args: readonly string[], cwd: string = PACKAGE_ROOT): { status: number | null; output: string } {
  const result = spawnSync(TSC, [...args], { cwd, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

/** The tsconfig.json of a strict consumer project that type-checks `files` against the emitted `.d.ts` files. */
export function consumerTsconfig(files: readonly string[]): string {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM"],
      types: [],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      noEmit: true,
    },
    files,
  });
}
