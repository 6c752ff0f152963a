import { StubgenError } from "../errors.js";

/**
 * How the generated files are written: the extension of their imports of each other and the
 * language of the files. Kept apart from the transforms (import-specifiers.ts, emit-js.ts),
 * which load TypeScript and are imported only when an option needs them.
 */
export type ImportExtension = ".js" | ".ts";
export type EmitKind = "ts" | "js";

export const IMPORT_EXTENSIONS: readonly ImportExtension[] = [".js", ".ts"];
export const EMIT_KINDS: readonly EmitKind[] = ["ts", "js"];
export const DEFAULT_IMPORT_EXTENSION: ImportExtension = ".js";
export const DEFAULT_EMIT: EmitKind = "ts";

export interface OutputOptions {
  readonly importExtension: ImportExtension;
  readonly emit: EmitKind;
}

/** Checks and completes the output options (from code, the CLI or a config file). Pure. */
export function outputOptions(options: { readonly importExtension?: string | undefined; readonly emit?: string | undefined }): OutputOptions {
  const importExtension = options.importExtension ?? DEFAULT_IMPORT_EXTENSION;
  const emit = options.emit ?? DEFAULT_EMIT;
  if (!isOneOf(importExtension, IMPORT_EXTENSIONS)) {
    throw new StubgenError(`expected importExtension ".js" or ".ts", found ${JSON.stringify(importExtension)}`);
  }
  if (!isOneOf(emit, EMIT_KINDS)) throw new StubgenError(`expected emit "ts" or "js", found ${JSON.stringify(emit)}`);
  if (emit === "js" && importExtension === ".ts") {
    throw new StubgenError('importExtension ".ts" applies to TypeScript output only; JavaScript output (emit "js") imports ".js" files');
  }
  return { importExtension, emit };
}

function isOneOf<T extends string>(value: string, allowed: readonly T[]): value is T {
  return (allowed as readonly string[]).includes(value);
}
