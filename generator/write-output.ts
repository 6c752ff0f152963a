import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { StubgenError } from "./errors.js";
import type { FileSet } from "./render.js";

/** Revision → its generated files. */
export type Output = ReadonlyMap<string, FileSet>;

const reason = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/**
 * Writes every revision's files into a temporary folder beside `outDir`, and only when all of
 * them are written swaps each `outDir/<revision>/` for its new version. On any failure the
 * temporary folder is removed and `outDir` is left as it was.
 */
export function writeOutput(outDir: string, output: Output): void {
  const target = resolve(outDir);
  if (existsSync(target) && !statSync(target).isDirectory()) {
    throw new StubgenError("cannot write the output: expected a folder, found a file", { file: outDir });
  }
  const parent = dirname(target);
  let staging: string;
  try {
    mkdirSync(parent, { recursive: true });
    staging = mkdtempSync(join(parent, `.${basename(target)}.tmp-`));
  } catch (err) {
    throw new StubgenError(`cannot write the output folder: ${reason(err)}`, { file: outDir });
  }
  const createdTarget = !existsSync(target);
  try {
    for (const [revision, files] of output) {
      for (const [path, text] of files) {
        const file = join(staging, revision, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
    }
    mkdirSync(target, { recursive: true });
    for (const revision of output.keys()) {
      const final = join(target, revision);
      const old = join(staging, `.old-${revision}`);
      if (existsSync(final)) renameSync(final, old);
      renameSync(join(staging, revision), final);
    }
  } catch (err) {
    if (createdTarget) rmSync(target, { recursive: true, force: true });
    throw new StubgenError(`cannot write the output folder: ${reason(err)}`, { file: outDir });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

export interface CheckReport {
  /** Paths (relative to outDir) whose text differs. */
  readonly stale: readonly string[];
  readonly missing: readonly string[];
  /** Files in a generated revision folder that the generator would not write. */
  readonly extra: readonly string[];
}

/** Compares what would be generated with what is on disk; writes nothing. */
export function checkOutput(outDir: string, output: Output): CheckReport {
  const stale: string[] = [];
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [revision, files] of output) {
    for (const [path, text] of files) {
      const rel = join(revision, path);
      const file = join(outDir, rel);
      if (!existsSync(file)) missing.push(rel);
      else if (readFileSync(file, "utf8") !== text) stale.push(rel);
    }
    const dir = join(outDir, revision);
    if (existsSync(dir)) {
      for (const entry of listFiles(dir)) if (!files.has(entry)) extra.push(join(revision, entry));
    }
  }
  return { stale, missing, extra };
}

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name), join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}
