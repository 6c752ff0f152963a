import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Project, ts, type Diagnostic } from "ts-morph";

/** The strictest settings users vendor the output under. */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  noEmit: true,
  types: [],
};

export interface CheckedDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly code: number;
  readonly message: string;
}

/** Type-checks the given files (and what they import) on disk; returns every diagnostic. */
export function typecheckFiles(files: readonly string[], extraOptions: ts.CompilerOptions = {}): CheckedDiagnostic[] {
  const project = new Project({ compilerOptions: { ...STRICT_OPTIONS, ...extraOptions }, skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([...files]);
  project.resolveSourceFileDependencies();
  return project.getPreEmitDiagnostics().map(describe);
}

function describe(d: Diagnostic): CheckedDiagnostic {
  return {
    file: d.getSourceFile()?.getFilePath() ?? "",
    line: d.getLineNumber() ?? 0,
    code: d.getCode(),
    message: ts.flattenDiagnosticMessageText(d.compilerObject.messageText, "\n"),
  };
}

/**
 * Type-checks files held in memory (path → text) with the same strict options; modules resolve
 * as a bundler would, since an in-memory file system has no package.json to make them ESM.
 */
export function typecheckInMemory(files: Readonly<Record<string, string>>): CheckedDiagnostic[] {
  return memoised(files, compileInMemory);
}

function compileInMemory(files: Readonly<Record<string, string>>): CheckedDiagnostic[] {
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { ...STRICT_OPTIONS, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  });
  for (const [path, text] of Object.entries(files)) project.createSourceFile(path, text);
  return project.getPreEmitDiagnostics().map(describe);
}

/**
 * Mutation runs only (`MCP_STUBGEN_TYPECHECK_CACHE`, set by vitest.mutate.config.ts): most
 * generator mutants leave the emitted text unchanged, and compiling it again costs seconds per
 * test. The result is a pure function of the files' text and the compiler version, so it is
 * kept under a key of exactly those; a mutant whose output differs is compiled as usual.
 */
function memoised(
  files: Readonly<Record<string, string>>,
  compile: (files: Readonly<Record<string, string>>) => CheckedDiagnostic[],
): CheckedDiagnostic[] {
  const dir = process.env["MCP_STUBGEN_TYPECHECK_CACHE"];
  if (dir === undefined || dir === "") return compile(files);
  const hash = createHash("sha256").update(ts.version).update("\0");
  for (const path of Object.keys(files).sort()) hash.update(path).update("\0").update(files[path] ?? "").update("\0");
  const file = join(dir, `${hash.digest("hex")}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as CheckedDiagnostic[];
  } catch {
    const diagnostics = compile(files);
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(diagnostics));
    renameSync(temporary, file);
    return diagnostics;
  }
}
