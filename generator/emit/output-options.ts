import { StubgenError } from "../errors.js";

/**
 * How the generated files are written: the extension of their imports of each other, the
 * language of the files, and where the revision-independent runtime goes. Kept apart from the transforms (import-specifiers.ts, emit-js.ts),
 * which load TypeScript and are imported only when an option needs them.
 */
export type ImportExtension = ".js" | ".ts";
export type EmitKind = "ts" | "js";
/**
 * `shared`: the runtime is written once to `<out>/runtime/` and every revision folder imports
 * it (one `McpError`, one `Transport` for all revisions of a program); `inline`: each revision
 * folder holds its own copy and imports nothing outside itself.
 */
export type RuntimeLayout = "shared" | "inline";

export const IMPORT_EXTENSIONS: readonly ImportExtension[] = [".js", ".ts"];
export const EMIT_KINDS: readonly EmitKind[] = ["ts", "js"];
export const DEFAULT_IMPORT_EXTENSION: ImportExtension = ".js";
export const DEFAULT_EMIT: EmitKind = "ts";
/** The folder of the output folder the shared runtime is written to; no revision may take this label. */
export const RUNTIME_DIR = "runtime";

/** The folder of the cross-revision entry (<out>/every-era/index.ts): one server for every revision generated with the shared runtime. */
export const EVERY_ERA_DIR = "every-era";
export const RUNTIME_LAYOUTS: readonly RuntimeLayout[] = ["shared", "inline"];
export const DEFAULT_RUNTIME: RuntimeLayout = "shared";

export interface OutputOptions {
  readonly importExtension: ImportExtension;
  readonly emit: EmitKind;
  readonly runtime: RuntimeLayout;
}

/** Checks and completes the output options (from code, the CLI or a config file). Pure. */
export function outputOptions(options: {
  readonly importExtension?: string | undefined;
  readonly emit?: string | undefined;
  readonly runtime?: string | undefined;
}): OutputOptions {
  const importExtension = options.importExtension ?? DEFAULT_IMPORT_EXTENSION;
  const emit = options.emit ?? DEFAULT_EMIT;
  const runtime = options.runtime ?? DEFAULT_RUNTIME;
  if (!isOneOf(importExtension, IMPORT_EXTENSIONS)) {
    throw new StubgenError(`expected importExtension ".js" or ".ts", found ${JSON.stringify(importExtension)}`);
  }
  if (!isOneOf(emit, EMIT_KINDS)) throw new StubgenError(`expected emit "ts" or "js", found ${JSON.stringify(emit)}`);
  if (!isOneOf(runtime, RUNTIME_LAYOUTS)) throw new StubgenError(`expected runtime "shared" or "inline", found ${JSON.stringify(runtime)}`);
  if (emit === "js" && importExtension === ".ts") {
    throw new StubgenError('importExtension ".ts" applies to TypeScript output only; JavaScript output (emit "js") imports ".js" files');
  }
  return { importExtension, emit, runtime };
}

function isOneOf<T extends string>(value: string, allowed: readonly T[]): value is T {
  return (allowed as readonly string[]).includes(value);
}
