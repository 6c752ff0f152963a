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
export function typecheckFiles(files: readonly string[]): CheckedDiagnostic[] {
  const project = new Project({ compilerOptions: STRICT_OPTIONS, skipAddingFilesFromTsConfig: true });
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
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { ...STRICT_OPTIONS, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  });
  for (const [path, text] of Object.entries(files)) project.createSourceFile(path, text);
  return project.getPreEmitDiagnostics().map(describe);
}
