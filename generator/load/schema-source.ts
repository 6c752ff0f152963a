import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { StubgenError } from "../errors.js";
import { defaultCacheDir, MANIFEST_PATH } from "../project.js";
import { readSchemaDocument, sha256Hex, type SchemaDocument } from "./schema-document.js";

/**
 * Where schemas come from: the revision manifest (the package's schema/revisions.json), the
 * git-ignored cache (`.mcp-stubgen/schema/<revision>/schema.json` in the project by default), a
 * local folder laid out like the upstream repo or a single schema file, a download from the
 * pinned upstream commit, or any path or URL given with --schema.
 */
export interface RevisionInfo {
  readonly id: string;
  readonly dialect: string;
  readonly sha256: string;
}

export interface Manifest {
  readonly upstream: { readonly repository: string; readonly commit: string; readonly urlTemplate: string };
  readonly revisions: readonly RevisionInfo[];
}

export function readManifest(path: string = MANIFEST_PATH): Manifest {
  return JSON.parse(readFileSync(path, "utf8")) as Manifest;
}

export function revisionInfo(manifest: Manifest, id: string): RevisionInfo {
  const info = manifest.revisions.find((r) => r.id === id);
  if (!info) {
    throw new StubgenError(
      `unknown revision ${JSON.stringify(id)}; expected one of ${manifest.revisions.map((r) => r.id).join(", ")} ` +
        `(or give --schema PATH_OR_URL for another schema)`,
    );
  }
  return info;
}

export function upstreamUrl(manifest: Manifest, revision: string): string {
  return manifest.upstream.urlTemplate.replace("{commit}", manifest.upstream.commit).replace("{revision}", revision);
}

/** The cache folder to use when none is given: `.mcp-stubgen/schema` in the working folder. */
const cacheDirOf = (options: CacheOptions): string => options.cacheDir ?? defaultCacheDir(process.cwd());

export function cachePath(cacheDir: string, revision: string): string {
  return join(cacheDir, revision, "schema.json");
}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** Reads a schema's text from a file path or an http(s) URL; errors name `label` (the path as given). */
export async function readSourceText(source: string, fetchImpl: typeof fetch = fetch, label: string = source): Promise<string> {
  if (isUrl(source)) {
    let response: Response;
    try {
      response = await fetchImpl(source);
    } catch (err) {
      // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND, …).
      const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message;
      throw new StubgenError(`cannot download the schema: ${(err as Error).message}${why ? ` (${why})` : ""}`, { file: source });
    }
    if (!response.ok) throw new StubgenError(`cannot download the schema: HTTP ${response.status}`, { file: source });
    return await response.text();
  }
  try {
    return readFileSync(source, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file (ENOENT)" : (code ?? (err as Error).message);
    throw new StubgenError(`cannot read the schema: ${why}`, { file: label });
  }
}

export interface CacheOptions {
  readonly cacheDir?: string | undefined;
  readonly manifest?: Manifest | undefined;
}

export interface PullOptions extends CacheOptions {
  /**
   * A local folder holding `<revision>/schema.json` (e.g. ../shared/mcp-schema), or a single
   * schema file (then exactly one revision must be named).
   */
  readonly from?: string | undefined;
  /** Download URL of a revision; defaults to the pinned upstream URL. */
  readonly urlFor?: ((revision: string) => string) | undefined;
  readonly fetchImpl?: typeof fetch | undefined;
}

export interface PullResult {
  readonly revision: string;
  readonly source: string;
  readonly path: string;
}

/**
 * Fills the cache for the given revisions (all known ones when none is given). Every file is
 * checked against the manifest's sha256 before anything is written; a mismatch is an error and
 * leaves the cache as it was.
 */
export async function pullSchemas(revisions: readonly string[], options: PullOptions = {}): Promise<PullResult[]> {
  const manifest = options.manifest ?? readManifest();
  const cacheDir = cacheDirOf(options);
  const from = options.from;
  if (from !== undefined && revisions.length !== 1 && pathKind(from) === "file") {
    throw new StubgenError(
      `--from names a single schema file, so name the one revision it holds: mcp-stubgen schema pull REV --from ${from} ` +
        `(got ${revisions.length === 0 ? "none" : revisions.join(", ")})`,
      { file: from },
    );
  }
  const wanted = (revisions.length > 0 ? revisions : manifest.revisions.map((r) => r.id)).map((id) =>
    revisionInfo(manifest, id),
  );
  const fetched: Array<{ info: RevisionInfo; source: string; text: string }> = [];
  for (const info of wanted) {
    const source =
      from !== undefined ? localSource(from, info.id) : (options.urlFor ?? ((rev: string) => upstreamUrl(manifest, rev)))(info.id);
    const text = await readSourceText(source, options.fetchImpl);
    const actual = sha256Hex(text);
    if (actual !== info.sha256) {
      throw new StubgenError(
        `sha256 mismatch for revision ${info.id}: expected ${info.sha256}, got ${actual}; the cache was not changed`,
        { file: source },
      );
    }
    fetched.push({ info, source, text });
  }
  return fetched.map(({ info, source, text }) => {
    const path = cachePath(cacheDir, info.id);
    // Already cached with the right bytes: left as it is (same mtime), so a prebuild that pulls
    // every time does not wake file watchers.
    if (!(existsSync(path) && sha256Hex(readFileSync(path)) === info.sha256)) writeFileAtomic(path, text);
    return { revision: info.id, source, path };
  });
}

type PathKind = "file" | "folder" | "missing";

function pathKind(path: string): PathKind {
  try {
    return statSync(path).isDirectory() ? "folder" : "file";
  } catch {
    return "missing";
  }
}

/**
 * The file `schema pull --from FROM` reads for a revision: FROM itself when it is a file, else
 * `FROM/<revision>/schema.json`. Anything else is an error naming the path and the layout.
 */
export function localSource(from: string, revision: string): string {
  const layout = `a schema file (with one revision named) or a folder laid out as ${join(from, "<revision>", "schema.json")}`;
  switch (pathKind(from)) {
    case "file":
      return from;
    case "missing":
      throw new StubgenError(`--from: no such file or folder; expected ${layout}`, { file: from });
    case "folder": {
      const file = join(from, revision, "schema.json");
      if (pathKind(file) !== "file") {
        throw new StubgenError(`--from: no schema for revision ${revision} in this folder; expected ${layout}`, { file });
      }
      return file;
    }
  }
}

function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new StubgenError(`cannot write the cache: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
      file: path,
    });
  }
}

export type CacheState = "cached" | "missing" | "sha256 mismatch";

export function listSchemas(options: CacheOptions = {}): Array<RevisionInfo & { state: CacheState; path: string }> {
  const manifest = options.manifest ?? readManifest();
  const cacheDir = cacheDirOf(options);
  return manifest.revisions.map((info) => {
    const path = cachePath(cacheDir, info.id);
    const state: CacheState = !existsSync(path)
      ? "missing"
      : sha256Hex(readFileSync(path)) === info.sha256
        ? "cached"
        : "sha256 mismatch";
    return { ...info, state, path };
  });
}

export interface LoadOptions extends CacheOptions {
  /** A schema path or URL that bypasses the cache. */
  readonly schema?: string | undefined;
  readonly fetchImpl?: typeof fetch | undefined;
}

/** Loads the schema of a revision: from --schema when given, else from the cache (checked). */
export async function loadSchema(revision: string, options: LoadOptions = {}): Promise<SchemaDocument> {
  if (options.schema !== undefined) {
    const source = isUrl(options.schema) ? options.schema : resolve(options.schema);
    return readSchemaDocument(await readSourceText(source, options.fetchImpl, options.schema), options.schema);
  }
  const manifest = options.manifest ?? readManifest();
  const info = revisionInfo(manifest, revision);
  const cacheDir = cacheDirOf(options);
  const path = cachePath(cacheDir, revision);
  const cacheFlag = resolve(cacheDir) === resolve(defaultCacheDir(process.cwd())) ? "" : ` --cache ${cacheDir}`;
  if (!existsSync(path)) {
    throw new StubgenError(
      `the schema of revision ${revision} is not cached; run: mcp-stubgen schema pull ${revision}${cacheFlag} ` +
        `(add --from DIR to copy it from a local folder)`,
      { file: path },
    );
  }
  const text = readFileSync(path, "utf8");
  if (sha256Hex(text) !== info.sha256) {
    throw new StubgenError(
      `the cached schema of revision ${revision} does not match its sha256 ${info.sha256}; ` +
        `run: mcp-stubgen schema pull ${revision}${cacheFlag}`,
      { file: path },
    );
  }
  return readSchemaDocument(text, path);
}
