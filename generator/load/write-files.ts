/**
 * Writes a few small files as one step: each atomically (a temporary file renamed over it), a file
 * that already holds the text left untouched (same mtime), and when one write fails the ones
 * before it are undone (old bytes put back, new files and the folders made for them removed), so
 * `schema pull` never leaves a cache that disagrees with its lockfile.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { StubgenError } from "../errors.js";
import { fsReason } from "../fs-reason.js";

export interface FileWrite {
  readonly path: string;
  readonly text: string;
  /** What the file is, for the error: `cache` → "cannot write the cache". */
  readonly what: string;
}

/** What a write replaced, to put it back. */
interface Undo {
  readonly path: string;
  /** The file's bytes before; null: there was no file. */
  readonly before: Buffer | null;
  /** The first folder made for it (mkdir -p), removed on undo; undefined: none was made. */
  readonly madeDir: string | undefined;
}

/** Writes every file whose text differs; resolves to the paths written. All or nothing. */
export function writeFiles(writes: readonly FileWrite[]): string[] {
  const done: Undo[] = [];
  try {
    for (const write of writes) {
      const before = existsSync(write.path) ? readFileSync(write.path) : null;
      if (before !== null && before.equals(Buffer.from(write.text))) continue;
      done.push({ path: write.path, before, madeDir: writeFileAtomic(write) });
    }
  } catch (err) {
    for (const undo of done.reverse()) {
      try {
        if (undo.before !== null) writeFileSync(undo.path, undo.before);
        else rmSync(undo.madeDir ?? undo.path, { recursive: true, force: true });
      } catch {
        // best effort: the error below names the write that failed
      }
    }
    throw err;
  }
  return done.map((d) => d.path);
}

/** One file, atomically; resolves to the first folder it had to make. */
function writeFileAtomic({ path, text, what }: FileWrite): string | undefined {
  const tmp = `${path}.tmp-${process.pid}`;
  let madeDir: string | undefined;
  try {
    madeDir = mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, path);
    return madeDir;
  } catch (err) {
    try {
      rmSync(madeDir ?? tmp, { recursive: true, force: true });
    } catch {
      // nothing was written there (ENOTDIR: the folder could not even be made)
    }
    // EEXIST from mkdir: the file's folder is a file.
    throw new StubgenError(`cannot write the ${what}: ${fsReason(err, path, { EEXIST: `${dirname(path)} is a file, not a folder`, EISDIR: "a folder is in the way", EACCES: "permission denied" })}`, { file: path });
  }
}
