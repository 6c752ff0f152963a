import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { StubgenError } from "../errors.js";
import { fsReason } from "../fs-reason.js";
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

/**
 * A known extension of the protocol (schema/revisions.json `extensions`): its own schema, pinned
 * to a commit of its own repository, for the core revisions it extends.
 */
export interface ExtensionInfo {
  /** The short name used on the command line (`tasks`). */
  readonly id: string;
  /** The identifier servers advertise under `capabilities.extensions` (`io.modelcontextprotocol/tasks`). */
  readonly identifier: string;
  /** The extension's own version folder (`draft`): `--from DIR` reads DIR/extensions/<id>/<version>/schema.json. */
  readonly version: string;
  /** The core revisions it extends. */
  readonly revisions: readonly string[];
  readonly repository: string;
  readonly commit: string;
  /** The schema's path in that repository. */
  readonly path: string;
  readonly sha256: string;
}

export interface Manifest {
  readonly upstream: { readonly repository: string; readonly commit: string; readonly urlTemplate: string };
  readonly revisions: readonly RevisionInfo[];
  readonly extensions?: readonly ExtensionInfo[] | undefined;
}

export function readManifest(path: string = MANIFEST_PATH): Manifest {
  return JSON.parse(readFileSync(path, "utf8")) as Manifest;
}

/**
 * The known revision `id`; an unknown one is an error listing the known ones and naming the
 * flag of the command at hand that takes a schema of one's own (`schemaFlag`, e.g.
 * `--from-schema` for diff; null: the command has none).
 */
export function revisionInfo(manifest: Manifest, id: string, schemaFlag: string | null = "--schema"): RevisionInfo {
  const info = manifest.revisions.find((r) => r.id === id);
  if (!info) {
    throw new StubgenError(
      `unknown revision ${JSON.stringify(id)}; expected one of ${manifest.revisions.map((r) => r.id).join(", ")}` +
        (schemaFlag === null ? "" : ` (or give ${schemaFlag} PATH_OR_URL for another schema)`),
    );
  }
  return info;
}

/** The known extension `id`; an unknown one is an error listing the known ones. */
export function extensionInfo(manifest: Manifest, id: string): ExtensionInfo {
  const known = manifest.extensions ?? [];
  const info = known.find((e) => e.id === id);
  if (!info) {
    throw new StubgenError(`unknown extension ${JSON.stringify(id)}; expected one of ${known.map((e) => e.id).join(", ") || "(none known)"}`);
  }
  return info;
}

/** The pinned raw URL of an extension's schema. */
export function extensionUrl(info: ExtensionInfo): string {
  return `https://raw.githubusercontent.com/${info.repository}/${info.commit}/${info.path}`;
}

export function upstreamUrl(manifest: Manifest, revision: string): string {
  return manifest.upstream.urlTemplate.replace("{commit}", manifest.upstream.commit).replace("{revision}", revision);
}

/** The cache folder to use when none is given: `.mcp-stubgen/schema` in the working folder. */
const cacheDirOf = (options: CacheOptions): string => options.cacheDir ?? defaultCacheDir(process.cwd());

export function cachePath(cacheDir: string, revision: string): string {
  return join(cacheDir, revision, "schema.json");
}

/** An extension's cache file: `<cache>/extensions/<id>/schema.json`, beside the revisions. */
export function extensionCachePath(cacheDir: string, id: string): string {
  return join(cacheDir, "extensions", id, "schema.json");
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
    throw new StubgenError(`cannot read the schema: ${fsReason(err, source, { ENOENT: "no such file" })}`, { file: label });
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
  /** Download URL of an extension; defaults to its pinned URL (extensionUrl). */
  readonly extensionUrlFor?: ((info: ExtensionInfo) => string) | undefined;
  readonly fetchImpl?: typeof fetch | undefined;
}

export interface PullResult {
  /** What was pulled: a revision's schema or an extension's. */
  readonly kind: "revision" | "extension";
  /** The revision id, or the extension's id. */
  readonly revision: string;
  readonly source: string;
  readonly path: string;
}

/**
 * Fills the cache for the given names, each a revision or a known extension's id (when none is
 * given: every known revision and extension; with --from naming one file, exactly one name).
 * Every file is checked against the manifest's sha256 before anything is written; a mismatch is
 * an error and leaves the cache as it was.
 */
export async function pullSchemas(names: readonly string[], options: PullOptions = {}): Promise<PullResult[]> {
  const manifest = options.manifest ?? readManifest();
  const cacheDir = cacheDirOf(options);
  const from = options.from;
  if (from !== undefined && names.length !== 1 && pathKind(from) === "file") {
    throw new StubgenError(
      `--from names a single schema file, so name the one revision it holds: mcp-stubgen schema pull REV --from ${from} ` +
        `(got ${names.length === 0 ? "none" : names.join(", ")})`,
      { file: from },
    );
  }
  const extensions = manifest.extensions ?? [];
  const wanted = names.length > 0 ? names.map((name) => pullTarget(manifest, name)) : [
    ...manifest.revisions.map((info): PullTarget => ({ kind: "revision", info })),
    ...extensions.map((info): PullTarget => ({ kind: "extension", info })),
  ];
  const fetched: Array<{ target: PullTarget; source: string; text: string }> = [];
  for (const target of wanted) {
    const source = targetSource(target, manifest, options);
    const text = await readSourceText(source, options.fetchImpl).catch((err: unknown) => {
      // Offline, or GitHub out of reach: the way that needs no network is --from.
      if (options.from !== undefined || !isUrl(source) || !(err instanceof StubgenError)) throw err;
      throw new StubgenError(`${err.message}; without network, copy the schemas from a local folder: mcp-stubgen schema pull --from DIR (DIR/<revision>/schema.json)`, err.location);
    });
    const actual = sha256Hex(text);
    if (actual !== target.info.sha256) {
      throw new StubgenError(
        `sha256 mismatch for ${target.kind} ${target.info.id}: expected ${target.info.sha256}, got ${actual}; the cache was not changed`,
        { file: source },
      );
    }
    fetched.push({ target, source, text });
  }
  return fetched.map(({ target, source, text }) => {
    const path = target.kind === "revision" ? cachePath(cacheDir, target.info.id) : extensionCachePath(cacheDir, target.info.id);
    // Already cached with the right bytes: left as it is (same mtime), so a prebuild that pulls
    // every time does not wake file watchers.
    if (!(existsSync(path) && sha256Hex(readFileSync(path)) === target.info.sha256)) writeFileAtomic(path, text);
    return { kind: target.kind, revision: target.info.id, source, path };
  });
}

type PullTarget = { readonly kind: "revision"; readonly info: RevisionInfo } | { readonly kind: "extension"; readonly info: ExtensionInfo };

/** A name given to schema pull: a known revision, else a known extension, else an error listing both. */
function pullTarget(manifest: Manifest, name: string): PullTarget {
  const revision = manifest.revisions.find((r) => r.id === name);
  if (revision) return { kind: "revision", info: revision };
  const extension = manifest.extensions?.find((e) => e.id === name);
  if (extension) return { kind: "extension", info: extension };
  const extensions = (manifest.extensions ?? []).map((e) => e.id);
  throw new StubgenError(
    `unknown revision ${JSON.stringify(name)}; expected one of ${manifest.revisions.map((r) => r.id).join(", ")}` +
      (extensions.length > 0 ? ` or an extension: ${extensions.join(", ")}` : "") +
      // pull takes no --schema: a schema of one's own is not cached, generate reads it where it is.
      ` (a schema of your own needs no pull: give it to generate or catalog with --schema PATH_OR_URL)`,
  );
}

function targetSource(target: PullTarget, manifest: Manifest, options: PullOptions): string {
  const from = options.from;
  if (target.kind === "revision") {
    return from !== undefined ? localSource(from, target.info.id) : (options.urlFor ?? ((rev: string) => upstreamUrl(manifest, rev)))(target.info.id);
  }
  return from !== undefined ? localExtensionSource(from, target.info) : (options.extensionUrlFor ?? extensionUrl)(target.info);
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

/**
 * The file `schema pull --from FROM` reads for an extension: FROM itself when it is a file, else
 * `FROM/extensions/<id>/<version>/schema.json` (the layout of ../shared/mcp-schema).
 */
export function localExtensionSource(from: string, info: ExtensionInfo): string {
  const file = join(from, "extensions", info.id, info.version, "schema.json");
  const layout = `a schema file (with the extension named) or a folder laid out as ${join(from, "extensions", "<id>", "<version>", "schema.json")}`;
  switch (pathKind(from)) {
    case "file":
      return from;
    case "missing":
      throw new StubgenError(`--from: no such file or folder; expected ${layout}`, { file: from });
    case "folder":
      if (pathKind(file) !== "file") throw new StubgenError(`--from: no schema for extension ${info.id} in this folder; expected ${layout}`, { file });
      return file;
  }
}

function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written there (ENOTDIR: the folder could not even be made)
    }
    throw new StubgenError(`cannot write the cache: ${fsReason(err, path)}`, {
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

/** The known extensions and whether each is cached (with the right sha256). */
export function listExtensions(options: CacheOptions = {}): Array<ExtensionInfo & { state: CacheState; path: string }> {
  const manifest = options.manifest ?? readManifest();
  const cacheDir = cacheDirOf(options);
  return (manifest.extensions ?? []).map((info) => {
    const path = extensionCachePath(cacheDir, info.id);
    const state: CacheState = !existsSync(path) ? "missing" : sha256Hex(readFileSync(path)) === info.sha256 ? "cached" : "sha256 mismatch";
    return { ...info, state, path };
  });
}

/** Loads a known extension's schema from the cache (checked against its sha256). */
export function loadExtension(id: string, options: CacheOptions = {}): SchemaDocument {
  const manifest = options.manifest ?? readManifest();
  const info = extensionInfo(manifest, id);
  const cacheDir = cacheDirOf(options);
  const path = extensionCachePath(cacheDir, id);
  const cacheFlag = resolve(cacheDir) === resolve(defaultCacheDir(process.cwd())) ? "" : ` --cache ${cacheDir}`;
  if (!existsSync(path)) {
    throw new StubgenError(`the schema of extension ${id} is not cached; run: mcp-stubgen schema pull ${id}${cacheFlag}`, { file: path });
  }
  const text = readFileSync(path, "utf8");
  if (sha256Hex(text) !== info.sha256) {
    throw new StubgenError(`the cached schema of extension ${id} does not match its sha256 ${info.sha256}; run: mcp-stubgen schema pull ${id}${cacheFlag}`, { file: path });
  }
  return readSchemaDocument(text, path);
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
