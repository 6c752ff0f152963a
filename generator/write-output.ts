import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { StubgenError } from "./errors.js";
import type { FileSet } from "./render.js";

/** Revision → its generated files. */
export type Output = ReadonlyMap<string, FileSet>;

const REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EEXIST: "a file is in the way of a folder",
  ENOTDIR: "part of the path is a file, not a folder",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EXDEV: "cannot move files across file systems",
};

const reason = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === undefined ? (err as Error).message : `${REASONS[code] ?? "failed"} (${code})`;
};

/**
 * Writes every revision's files into a temporary folder inside `outDir` (so the final renames
 * never cross a file system, even when `outDir` is a mount point or a link to one), and only
 * when all of them are written swaps each `outDir/<revision>/` for its new version. Should a
 * swap fail, the ones done are rolled back. On any failure the temporary folder is removed and
 * `outDir` is left as it was.
 */
export function writeOutput(outDir: string, output: Output): void {
  const target = resolve(outDir);
  for (const revision of output.keys()) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(revision) || revision.includes("..")) {
      throw new StubgenError(`expected a revision label of letters, digits, ".", "_" and "-", found ${JSON.stringify(revision)}`);
    }
  }
  if (existsSync(target) && !statSync(target).isDirectory()) {
    throw new StubgenError("cannot write the output: expected a folder, found a file", { file: outDir });
  }
  const createdTarget = !existsSync(target);
  let staging: string;
  try {
    mkdirSync(target, { recursive: true });
    staging = mkdtempSync(join(target, ".mcp-stubgen-tmp-"));
  } catch (err) {
    if (createdTarget) removeQuietly(target);
    throw new StubgenError(`cannot write the output folder: ${reason(err)}`, { file: outDir });
  }
  const swapped: string[] = [];
  try {
    for (const [revision, files] of output) {
      for (const [path, text] of files) {
        const file = join(staging, "new", revision, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
    }
    mkdirSync(join(staging, "old"));
    for (const revision of output.keys()) {
      const final = join(target, revision);
      if (existsSync(final)) renameSync(final, join(staging, "old", revision));
      swapped.push(revision);
      renameSync(join(staging, "new", revision), final);
    }
  } catch (err) {
    rollBack(target, staging, swapped);
    if (createdTarget) removeQuietly(target);
    throw new StubgenError(`cannot write the output folder: ${reason(err)}`, { file: outDir });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // nothing was there to remove, or it cannot be: the original error is what matters
  }
}

/** Puts back the revision folders a failed write had already swapped. */
function rollBack(target: string, staging: string, swapped: readonly string[]): void {
  for (const revision of [...swapped].reverse()) {
    const final = join(target, revision);
    const old = join(staging, "old", revision);
    try {
      if (existsSync(old)) {
        rmSync(final, { recursive: true, force: true });
        renameSync(old, final);
      } else {
        rmSync(final, { recursive: true, force: true });
      }
    } catch {
      // Best effort: the error that started the roll-back is the one reported.
    }
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
