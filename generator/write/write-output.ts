import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { StubgenError } from "../errors.js";
import { fsReason } from "../fs-reason.js";
import { RUNTIME_DIR } from "../emit/output-options.js";
import type { FileSet } from "../emit/render.js";
import { isMarker, MARKER_FILE, ROOT_FOLDER } from "./module-marker.js";

/**
 * Output folder (a revision, or `runtime` for the shared runtime) → its generated files. An
 * empty file set removes the folder's files and the folder. The key ROOT_FOLDER (module-marker.ts)
 * holds the files directly in `outDir` (the ES module marker): only those files are compared,
 * written or removed there, and the folder itself is never removed.
 */
export type Output = ReadonlyMap<string, FileSet>;

const REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EEXIST: "a file is in the way of a folder",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EXDEV: "cannot move files across file systems",
};

/** Why it failed; ENOTDIR names the file that is in the way of a folder (fsReason). */
const reason = (err: unknown, outDir: string) => fsReason(err, (err as NodeJS.ErrnoException).path ?? outDir, REASONS);

/** What a write changed, as paths relative to outDir. */
export interface WriteReport {
  /** New files and files whose text changed. */
  readonly written: readonly string[];
  /** Files in a generated revision folder that the generator no longer writes. */
  readonly removed: readonly string[];
  /** Files left untouched (same text): same inode, same mtime. */
  readonly unchanged: readonly string[];
}

/** One revision's part of a write: what to write, what to remove, what to leave. Pure. */
export interface RevisionPlan {
  readonly write: ReadonlyArray<readonly [path: string, text: string]>;
  readonly remove: readonly string[];
  readonly unchanged: readonly string[];
}

/** Compares the files on disk (path → text) with the wanted ones. Pure. */
export function planRevision(existing: ReadonlyMap<string, string>, wanted: FileSet): RevisionPlan {
  const write: Array<readonly [string, string]> = [];
  const unchanged: string[] = [];
  for (const [path, text] of wanted) {
    if (existing.get(path) === text) unchanged.push(path);
    else write.push([path, text]);
  }
  const remove = [...existing.keys()].filter((path) => !wanted.has(path)).sort();
  return { write, remove, unchanged };
}

export interface WriteOptions {
  /** For tests: called before each step that changes the output folder; a throw there fails the write. */
  readonly beforeStep?: ((step: Step) => void) | undefined;
}

/** A change to the output folder, undone in reverse order when a later one fails. */
export type Step =
  | { readonly kind: "mkdir"; readonly path: string }
  | { readonly kind: "rmdir"; readonly path: string }
  | { readonly kind: "create"; readonly path: string }
  | { readonly kind: "replace"; readonly path: string; readonly backup: string }
  | { readonly kind: "remove"; readonly path: string; readonly backup: string };

/**
 * Writes each folder's files under `outDir/<folder>/` (a revision, or the shared runtime), touching only what changed: a file
 * whose text is the same keeps its inode and mtime, a new or changed file is written, and a
 * file the generator no longer writes is removed (other revision folders and files beside them
 * are left alone). New texts are first written to a temporary folder inside `outDir` (so the
 * renames never cross a file system); then each file is swapped in with one rename, the old
 * version kept aside. Should anything fail, every step done is undone, the temporary folder is
 * removed and `outDir` is left as it was. With nothing to change, nothing is touched at all.
 */
export function writeOutput(outDir: string, output: Output, options: WriteOptions = {}): WriteReport {
  const target = resolve(outDir);
  for (const revision of output.keys()) {
    if (revision === ROOT_FOLDER) {
      // The root holds the user's files too: nothing but the marker is ever written there.
      const other = [...(output.get(revision)?.keys() ?? [])].find((name) => name !== MARKER_FILE);
      if (other === undefined) continue;
      throw new StubgenError(`only ${MARKER_FILE} is written to the output folder itself, found ${JSON.stringify(other)}`);
    }
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(revision) || revision.includes("..")) {
      throw new StubgenError(`expected a revision label of letters, digits, ".", "_" and "-", found ${JSON.stringify(revision)}`);
    }
  }
  if (existsSync(target) && !statSync(target).isDirectory()) {
    throw new StubgenError("cannot write the output: expected a folder, found a file", { file: outDir });
  }
  const plans = new Map<string, RevisionPlan>();
  try {
    for (const [revision, files] of output) plans.set(revision, planRevision(revision === ROOT_FOLDER ? readRoot(target, files) : readTree(join(target, revision)), files));
  } catch (err) {
    throw new StubgenError(`cannot read the output folder: ${reason(err, outDir)}`, { file: outDir });
  }
  const report: WriteReport = {
    written: [...plans].flatMap(([rev, plan]) => plan.write.map(([path]) => join(rev, path))),
    removed: [...plans].flatMap(([rev, plan]) => plan.remove.map((path) => join(rev, path))),
    unchanged: [...plans].flatMap(([rev, plan]) => plan.unchanged.map((path) => join(rev, path))),
  };
  if (report.written.length === 0 && report.removed.length === 0) return report;

  const createdTarget = !existsSync(target);
  let staging: string;
  try {
    mkdirSync(target, { recursive: true });
    staging = mkdtempSync(join(target, ".mcp-stubgen-tmp-"));
  } catch (err) {
    if (createdTarget) removeQuietly(target);
    throw new StubgenError(`cannot write the output folder: ${reason(err, outDir)}`, { file: outDir });
  }
  const done: Step[] = [];
  const step = (s: Step, apply: () => void) => {
    options.beforeStep?.(s);
    apply();
    done.push(s);
  };
  try {
    // 1. Every new text into the staging folder: nothing in outDir changes yet.
    for (const [revision, plan] of plans) {
      for (const [path, text] of plan.write) {
        const file = join(staging, "new", revision, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
    }
    // 2. Swap in, one rename per file; old versions go to staging/old for the roll-back.
    for (const [revision, plan] of plans) {
      const dir = join(target, revision);
      for (const path of plan.remove) {
        const backup = join(staging, "old", revision, path);
        mkdirSync(dirname(backup), { recursive: true });
        step({ kind: "remove", path: join(dir, path), backup }, () => renameSync(join(dir, path), backup));
      }
      for (const emptied of emptiedFolders(dir, plan.remove)) {
        step({ kind: "rmdir", path: emptied }, () => rmdirSync(emptied));
      }
      // A folder that is to hold nothing (a shared runtime no longer used) goes with its files.
      if (revision !== ROOT_FOLDER && output.get(revision)?.size === 0 && existsSync(dir) && readdirSync(dir).length === 0) {
        step({ kind: "rmdir", path: dir }, () => rmdirSync(dir));
      }
      for (const [path] of plan.write) {
        const final = join(dir, path);
        for (const folder of missingFolders(target, final)) step({ kind: "mkdir", path: folder }, () => mkdirSync(folder));
        const staged = join(staging, "new", revision, path);
        if (existsSync(final)) {
          const backup = join(staging, "old", revision, path);
          mkdirSync(dirname(backup), { recursive: true });
          step({ kind: "replace", path: final, backup }, () => {
            keepAside(final, backup);
            renameSync(staged, final);
          });
        } else {
          step({ kind: "create", path: final }, () => renameSync(staged, final));
        }
      }
    }
  } catch (err) {
    rollBack(done);
    rmSync(staging, { recursive: true, force: true });
    if (createdTarget) removeQuietly(target);
    throw new StubgenError(`cannot write the output folder: ${reason(err, outDir)}`, { file: outDir });
  }
  rmSync(staging, { recursive: true, force: true });
  return report;
}

/**
 * The folders of `outDir`, other than the shared runtime's and those in `except`, whose files
 * import the shared runtime (`../runtime/`), sorted; empty when `outDir` does not exist.
 */
export function sharedRuntimeUsers(outDir: string, except: readonly string[]): string[] {
  const marker = `../${RUNTIME_DIR}/`;
  try {
    if (!existsSync(outDir) || !statSync(outDir).isDirectory()) return [];
    return readdirSync(outDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== RUNTIME_DIR && !e.name.startsWith(".") && !except.includes(e.name))
      .map((e) => e.name)
      .filter((name) => [...readTree(join(outDir, name)).values()].some((text) => text.includes(marker)))
      .sort();
  } catch (err) {
    throw new StubgenError(`cannot read the output folder: ${reason(err, outDir)}`, { file: outDir });
  }
}

/**
 * The root files a write manages (`wanted`'s and the marker) that exist in `dir`. A file of that
 * name that is not ours is refused rather than replaced (rootFiles in module-marker.ts refuses
 * first; this guards other callers), and left alone when not wanted.
 */
function readRoot(dir: string, wanted: FileSet): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of new Set([...wanted.keys(), MARKER_FILE])) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    if (isMarker(text)) found.set(name, text);
    else if (wanted.has(name)) throw new StubgenError(`${name} in the output folder is not mcp-stubgen's; not replacing it`, { file });
  }
  return found;
}

/** Every file below `dir` (path relative to it → text); empty when `dir` does not exist. */
function readTree(dir: string): Map<string, string> {
  if (!existsSync(dir)) return new Map();
  return new Map(listFiles(dir).map((path) => [path, readFileSync(join(dir, path), "utf8")]));
}

/** A hard link keeps the old file's inode for a roll-back; where links are refused, a copy. */
function keepAside(file: string, backup: string): void {
  try {
    linkSync(file, backup);
  } catch {
    copyFileSync(file, backup);
  }
}

/** The folders `path` needs below `root` that do not exist yet, outermost first. */
function missingFolders(root: string, path: string): string[] {
  const missing: string[] = [];
  for (let dir = dirname(path); dir !== root && dir.startsWith(root) && !existsSync(dir); dir = dirname(dir)) missing.unshift(dir);
  return missing;
}

/** Folders below `dir` (not `dir` itself) left empty by removing `removed`, innermost first. */
function emptiedFolders(dir: string, removed: readonly string[]): string[] {
  const candidates = new Set<string>();
  for (const path of removed) {
    for (let d = dirname(join(dir, path)); d !== dir && d.startsWith(dir); d = dirname(d)) candidates.add(d);
  }
  const emptied: string[] = [];
  for (const folder of [...candidates].sort((a, b) => b.length - a.length)) {
    if (existsSync(folder) && readdirSync(folder).every((name) => emptied.includes(join(folder, name)))) emptied.push(folder);
  }
  return emptied;
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // nothing was there to remove, or it cannot be: the original error is what matters
  }
}

/** Undoes the steps of a failed write, last first. */
function rollBack(done: readonly Step[]): void {
  for (const s of [...done].reverse()) {
    try {
      switch (s.kind) {
        case "mkdir":
          rmdirSync(s.path);
          break;
        case "rmdir":
          mkdirSync(s.path);
          break;
        case "create":
          rmSync(s.path, { force: true });
          break;
        case "replace":
        case "remove":
          renameSync(s.backup, s.path);
          break;
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
    if (revision === ROOT_FOLDER) {
      for (const name of readRoot(dir, new Map()).keys()) if (!files.has(name)) extra.push(name);
    } else if (existsSync(dir)) {
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
