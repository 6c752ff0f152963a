/**
 * Skip-work for `generate`: a stamp records, for one output folder, what the last run was made of
 * (the schema bytes, the options, the generator's own files) and the sha256 of every file it
 * wrote. When the next run has the same inputs and every recorded file is on disk unchanged (and
 * no other file is in those folders), rendering and writing are skipped.
 *
 * The stamp lives in the schema cache (`<cache>/.stamps/<hash of the output path>.json`), not in
 * the output, so the output folder holds only generated files. It is read as untrusted input: a
 * stamp that is too large, malformed or does not match simply means "generate".
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { MANIFEST_PATH, TEMPLATES_DIR, TOOL_VERSION } from "../project.js";
import { cachePath, extensionCachePath } from "../load/schema-source.js";
import { defaultCacheDir } from "../project.js";
import { ROOT_FOLDER } from "./module-marker.js";

/** A stamp larger than this is not read (it is rewritten by the next run that generates). */
export const MAX_STAMP_BYTES = 4 * 1024 * 1024;
/** Selections remembered per output folder (e.g. `-r A` and `-r B` runs alternating). */
export const MAX_STAMP_ENTRIES = 16;
/** Output folders remembered per cache: the least recently written stamps beyond this are removed. */
export const MAX_STAMP_FILES = 64;
const FORMAT = 1;

/** What a run that was skipped reports: the same as the run that wrote the files. */
export interface StampedResult {
  readonly runtime: readonly string[];
  readonly revisions: ReadonlyArray<{ readonly revision: string; readonly files: readonly string[]; readonly extensions: readonly string[]; readonly rulesOf?: string | undefined }>;
}

interface Entry {
  readonly key: string;
  readonly result: StampedResult;
  /** Output folder → file (relative to it) → sha256 of its text. An empty record: the folder must be absent or empty. */
  readonly folders: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** What the key is made of; anything a stamp cannot vouch for (a URL, custom policies) makes it undefined. */
export interface StampInputs {
  readonly selected: readonly string[];
  readonly cacheDir: string | undefined;
  readonly schema: string | undefined;
  readonly extensions: readonly string[];
  /** The options that shape the output, already defaulted (JSON-serialisable). */
  readonly options: Readonly<Record<string, unknown>>;
  /** A manifest passed by a caller (else the package's schema/revisions.json). */
  readonly manifest: unknown;
  /** JavaScript output: the digest of `<out>/package.json` before the run (null: none, or not JavaScript output). */
  readonly rootPackageJson: string | null;
}

const sha256 = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

/**
 * The key of a run: tool version, a fingerprint of the generator's files and templates (path,
 * size, mtime: a rebuild or an edited template changes it), the manifest, the options, and the
 * sha256 of every schema file read. Undefined when a schema comes from a URL or a file is missing
 * (the run then generates as usual and reports the error).
 */
export function stampKey(inputs: StampInputs): string | undefined {
  try {
    const cacheDir = inputs.cacheDir ?? defaultCacheDir(process.cwd());
    const schemas: string[] = [];
    if (inputs.schema !== undefined) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(inputs.schema)) return undefined;
      schemas.push(sha256(readFileSync(resolve(inputs.schema))));
    } else {
      for (const revision of inputs.selected) schemas.push(sha256(readFileSync(cachePath(cacheDir, revision))));
    }
    for (const id of inputs.extensions) schemas.push(`${id}:${sha256(readFileSync(extensionCachePath(cacheDir, id)))}`);
    const manifest = inputs.manifest === undefined ? sha256(readFileSync(MANIFEST_PATH)) : sha256(JSON.stringify(inputs.manifest));
    return sha256(
      JSON.stringify({ format: FORMAT, version: TOOL_VERSION, generator: generatorFingerprint(), manifest, selected: inputs.selected, schemas, options: inputs.options, root: inputs.rootPackageJson }),
    );
  } catch {
    return undefined;
  }
}

let fingerprint: string | undefined;

/** path, size and mtime of every file of the generator's modules and of templates/, and of the package lock when there is one. */
function generatorFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const generatorDir = dirname(dirname(fileURLToPath(import.meta.url)));
  const hash = createHash("sha256");
  for (const root of [generatorDir, TEMPLATES_DIR]) {
    for (const file of listFiles(root)) {
      const st = statSync(join(root, file));
      hash.update(`${root}\0${file}\0${st.size}\0${st.mtimeMs}\n`);
    }
  }
  // The dependencies that render (handlebars, json-schema-to-typescript, ts-morph) as a checkout pins them.
  const lock = join(dirname(TEMPLATES_DIR), "package-lock.json");
  if (existsSync(lock)) {
    const st = statSync(lock);
    hash.update(`${lock}\0${st.size}\0${st.mtimeMs}\n`);
  }
  fingerprint = hash.digest("hex");
  return fingerprint;
}

/** Where the stamp of `outDir` is kept. */
export function stampPath(cacheDir: string | undefined, outDir: string): string {
  return join(cacheDir ?? defaultCacheDir(process.cwd()), ".stamps", `${sha256(resolve(outDir)).slice(0, 32)}.json`);
}

/** The recorded result when `key` matches an entry and every recorded folder is on disk as recorded; else undefined. */
export function upToDate(stampFile: string, outDir: string, key: string): StampedResult | undefined {
  const entry = readEntries(stampFile).find((e) => e.key === key);
  if (entry === undefined) return undefined;
  try {
    for (const [folder, files] of Object.entries(entry.folders)) {
      const dir = join(outDir, folder);
      const wanted = Object.keys(files).sort();
      // The output's root (--emit js: its package.json marker) holds the user's files too (a
      // README): only the files recorded there must be as written. A generated folder must hold
      // exactly what was written.
      const onDisk = folder === ROOT_FOLDER ? wanted.filter((f) => existsSync(join(dir, f))) : existsSync(dir) ? listFiles(dir) : [];
      if (onDisk.length !== wanted.length || onDisk.some((f, i) => f !== wanted[i])) return undefined;
      for (const file of wanted) if (sha256(readFileSync(join(dir, file))) !== files[file]) return undefined;
    }
  } catch {
    return undefined;
  }
  return entry.result;
}

/** Records a run that wrote `output` (folder → file → text). Best effort: a stamp that cannot be written only costs the next run its skip. */
export function writeStamp(
  stampFile: string,
  key: string,
  output: ReadonlyMap<string, ReadonlyMap<string, string>>,
  result: StampedResult,
): void {
  const folders: Record<string, Record<string, string>> = {};
  for (const [folder, files] of output) {
    folders[folder] = Object.fromEntries([...files].map(([path, text]) => [path.split("\\").join("/"), sha256(text)]));
  }
  const entry: Entry = { key, result: { runtime: [...result.runtime], revisions: result.revisions.map((r) => ({ ...r })) }, folders };
  const entries = [entry, ...readEntries(stampFile).filter((e) => e.key !== key)].slice(0, MAX_STAMP_ENTRIES);
  try {
    mkdirSync(dirname(stampFile), { recursive: true });
    const temp = `${stampFile}.tmp-${process.pid}`;
    writeFileSync(temp, JSON.stringify({ format: FORMAT, entries }));
    renameSync(temp, stampFile);
    pruneStamps(dirname(stampFile));
  } catch {
    // a read-only cache: no skip next time, nothing else lost
  }
}

/** Keeps the MAX_STAMP_FILES most recently written stamps of a cache (throw-away output folders leave theirs behind). */
function pruneStamps(dir: string): void {
  const stamps = readdirSync(dir)
    .filter((name) => /^[0-9a-f]{32}\.json$/.test(name))
    .map((name) => ({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of stamps.slice(MAX_STAMP_FILES)) rmSync(path, { force: true });
}

/** Clears the in-process fingerprint (tests that edit the generator's files in between). */
export function forgetFingerprint(): void {
  fingerprint = undefined;
}

function readEntries(stampFile: string): Entry[] {
  try {
    if (statSync(stampFile).size > MAX_STAMP_BYTES) return [];
    const parsed: unknown = JSON.parse(readFileSync(stampFile, "utf8"));
    if (!isRecord(parsed) || parsed["format"] !== FORMAT || !Array.isArray(parsed["entries"])) return [];
    return parsed["entries"].filter(isEntry).slice(0, MAX_STAMP_ENTRIES);
  } catch {
    return [];
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isSafeRelative = (p: string): boolean => p !== "" && !p.startsWith("/") && !relative(".", p).startsWith("..") && !p.split("/").includes("..");

function isEntry(v: unknown): v is Entry {
  if (!isRecord(v) || typeof v["key"] !== "string" || !isRecord(v["result"]) || !isRecord(v["folders"])) return false;
  const result = v["result"];
  if (!isStringArray(result["runtime"]) || !Array.isArray(result["revisions"])) return false;
  const revisionsOk = result["revisions"].every(
    (r: unknown) => isRecord(r) && typeof r["revision"] === "string" && isStringArray(r["files"]) && isStringArray(r["extensions"]) && (r["rulesOf"] === undefined || typeof r["rulesOf"] === "string"),
  );
  const foldersOk = Object.entries(v["folders"]).every(
    ([folder, files]) => (folder === ROOT_FOLDER || isSafeRelative(folder)) && isRecord(files) && Object.entries(files).every(([f, h]) => isSafeRelative(f) && typeof h === "string"),
  );
  return revisionsOk && foldersOk;
}

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name), prefix === "" ? e.name : `${prefix}/${e.name}`) : [prefix === "" ? e.name : `${prefix}/${e.name}`]))
    .sort();
}
