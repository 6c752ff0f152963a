import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { StubgenError } from "../errors.js";
import { fsReason } from "../fs-reason.js";
import { defaultCacheDir, MANIFEST_PATH, PACKAGE_ROOT } from "../project.js";
import { defaultLockfilePath, readLockfile } from "./lockfile.js";
import { allRevisions, extensionPin, extensionUrlAt, upstreamUrlAt, isLocalPin, pinnedBy, requirePin, revisionPin, type ExpectedPin, type Pins } from "./pins.js";
import { readSchemaDocument, sha256Hex, type SchemaDocument } from "./schema-document.js";

/**
 * Where schemas come from: the revision manifest (the package's schema/revisions.json) and the
 * project's lockfile (lockfile.ts, pins.ts: its pins win), the git-ignored cache
 * (`.mcp-stubgen/schema/<revision>/schema.json` in the project by default), a local folder laid
 * out like the upstream repo or a single schema file, a download from the pinned upstream commit
 * (schema-pull.ts fills the cache), or any path or URL given with --schema.
 */
export interface RevisionInfo {
  readonly id: string;
  readonly dialect: string;
  readonly sha256: string;
}

/** What every known extension says (schema/revisions.json `extensions`), wherever its schema lives. */
interface ExtensionCommon {
  /** The short name used on the command line (`tasks`). */
  readonly id: string;
  /** The identifier servers advertise under `capabilities.extensions` (`io.modelcontextprotocol/tasks`). */
  readonly identifier: string;
  /** The extension's own version folder (`draft`): `--from DIR` reads DIR/extensions/<id>/<version>/schema.json. */
  readonly version: string;
  /** The core revisions it extends. */
  readonly revisions: readonly string[];
  /**
   * `apps`: a protocol of its own, generated into `<out>/apps/` beside the revisions
   * (generator/model/apps.ts) instead of merged into them. Absent: merged (Tasks, Skills).
   */
  readonly output?: "apps" | undefined;
  readonly sha256: string;
}

/**
 * A known extension whose schema its own repository publishes: pinned to a commit of that
 * repository, for the core revisions it extends (Tasks).
 */
export interface UpstreamExtensionInfo extends ExtensionCommon {
  readonly bundled?: undefined;
  readonly repository: string;
  readonly commit: string;
  /** The schema's path in that repository. */
  readonly path: string;
  /** The schema's path in the extension's npm package, if it ships one: `--from <package folder>` reads it. */
  readonly packagePath?: string | undefined;
}

/**
 * A known extension whose published specification has no JSON Schema (Skills, SEP-2640): the
 * project wrote one from the specification's text, and it ships in this package at `path`
 * (relative to the package folder). Nothing is downloaded or cached for it and no lockfile pins
 * it: the package's file is read where it is, checked against `sha256`.
 */
export interface BundledExtensionInfo extends ExtensionCommon {
  readonly bundled: true;
  /** The file in this package, relative to its folder (schema/extensions/<id>/<version>/schema.json). */
  readonly path: string;
  /** The published specification the schema was written from. */
  readonly specification: string;
}

export type ExtensionInfo = UpstreamExtensionInfo | BundledExtensionInfo;

/** The package's own schema file of a bundled extension. */
export const bundledExtensionPath = (info: BundledExtensionInfo): string => join(PACKAGE_ROOT, info.path);

export interface Manifest {
  readonly upstream: { readonly repository: string; readonly commit: string; readonly urlTemplate: string };
  readonly revisions: readonly RevisionInfo[];
  readonly extensions?: readonly ExtensionInfo[] | undefined;
}

export function readManifest(path: string = MANIFEST_PATH): Manifest {
  return JSON.parse(readFileSync(path, "utf8")) as Manifest;
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
export function extensionUrl(info: UpstreamExtensionInfo): string {
  return extensionUrlAt(info, info.commit);
}

/** The raw URL of a known revision at the manifest's pinned commit. */
export function upstreamUrl(manifest: Manifest, revision: string): string {
  return upstreamUrlAt(manifest, revision, manifest.upstream.commit);
}

/** The cache folder to use when none is given: `.mcp-stubgen/schema` in the working folder. */
export const cacheDirOf = (options: CacheOptions): string => options.cacheDir ?? defaultCacheDir(process.cwd());

export function cachePath(cacheDir: string, revision: string): string {
  return join(cacheDir, revision, "schema.json");
}

/** An extension's cache file: `<cache>/extensions/<id>/schema.json`, beside the revisions. */
export function extensionCachePath(cacheDir: string, id: string): string {
  return join(cacheDir, "extensions", id, "schema.json");
}

export const isUrl = (source: string) => /^https?:\/\//i.test(source);

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
  /**
   * The lockfile whose pins win over the manifest's (lockfile.ts): a path, or false for none
   * (only the package's manifest, and `schema pull` records nothing). Default:
   * `mcp-stubgen.lock.json` in the working folder (`process.cwd()`), read when it exists.
   */
  readonly lockfile?: string | false | undefined;
}

/** The lockfile an option names: the path, false (none), or the default in the working folder. */
export const lockfileOf = (options: CacheOptions): string | false => options.lockfile ?? defaultLockfilePath(process.cwd());

/** The manifest and the lockfile of a run, read once. */
export function readPins(options: CacheOptions): Pins {
  const lockfile = lockfileOf(options);
  return { manifest: options.manifest ?? readManifest(), lock: readLockfile(lockfile), lockfile };
}

/**
 * The flags a `schema pull` command printed in a message needs to reach the same cache and
 * lockfile as this run: `--cache DIR` and `--lockfile FILE` when they are not the defaults.
 */
export function pullFlags(cacheDir: string, lockfile: string | false): string {
  const cwd = process.cwd();
  const cache = resolve(cacheDir) === resolve(defaultCacheDir(cwd)) ? "" : ` --cache ${cacheDir}`;
  const lock = lockfile === false || resolve(lockfile) === resolve(defaultLockfilePath(cwd)) ? "" : ` --lockfile ${lockfile}`;
  return cache + lock;
}

type PathKind = "file" | "folder" | "missing";

export function pathKind(path: string): PathKind {
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
 * The file `schema pull --from FROM` reads for an extension: FROM itself when it is a file;
 * `FROM/<packagePath>` when FROM is the extension's npm package (apps:
 * node_modules/@modelcontextprotocol/ext-apps); else `FROM/extensions/<id>/<version>/schema.json`
 * (the layout of ../shared/mcp-schema).
 */
export function localExtensionSource(from: string, info: ExtensionInfo): string {
  // A project's own copy of the extension's npm package (node_modules/<package>): its schema file.
  if (info.bundled !== true && info.packagePath !== undefined && pathKind(from) === "folder" && pathKind(join(from, info.packagePath)) === "file") return join(from, info.packagePath);
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

/** A schema file's state; `bundled`: a bundled extension's file in this package, with its sha256. */
export type CacheState = "cached" | "bundled" | "missing" | "sha256 mismatch";

const cacheState = (path: string, sha256: string): CacheState =>
  !existsSync(path) ? "missing" : sha256Hex(readFileSync(path)) === sha256 ? "cached" : "sha256 mismatch";

/** A revision as `schema list` shows it: its pin (`by`: who set it), and the state of its cache file. */
export interface ListedRevision extends RevisionInfo {
  readonly state: CacheState;
  readonly path: string;
  readonly pinnedBy: ExpectedPin["by"];
}

/**
 * Every known revision and every revision the lockfile pins, each with the state of its cache
 * file checked against its pin. A revision only the lockfile knows shows the dialect its cached
 * schema declares (`-` while it is not cached).
 */
export function listSchemas(options: CacheOptions = {}): ListedRevision[] {
  const pins = readPins(options);
  const cacheDir = cacheDirOf(options);
  return allRevisions(pins).map((id) => {
    const pin = revisionPin(pins, id)!;
    const path = cachePath(cacheDir, id);
    const known = pins.manifest.revisions.find((r) => r.id === id);
    const state = cacheState(path, pin.sha256);
    return { id, dialect: known?.dialect ?? (state === "missing" ? "-" : declaredDialect(path)), sha256: pin.sha256, state, path, pinnedBy: pin.by };
  });
}

/** The dialect a schema file's `$schema` names (2020-12 or draft-07), or `?`. */
function declaredDialect(path: string): string {
  const $schema = /"\$schema"\s*:\s*"([^"]*)"/.exec(readFileSync(path, "utf8"))?.[1] ?? "";
  return $schema.includes("2020-12") ? "2020-12" : $schema.includes("draft-07") ? "draft-07" : "?";
}

/** The known extensions and whether each is cached (with the sha256 of its pin). */
export function listExtensions(options: CacheOptions = {}): Array<ExtensionInfo & { state: CacheState; path: string; pinnedBy: ExpectedPin["by"] }> {
  const pins = readPins(options);
  const cacheDir = cacheDirOf(options);
  return (pins.manifest.extensions ?? []).map((info) => {
    const pin = extensionPin(pins, info);
    const path = info.bundled === true ? bundledExtensionPath(info) : extensionCachePath(cacheDir, info.id);
    const state = cacheState(path, pin.sha256);
    return { ...info, sha256: pin.sha256, state: info.bundled === true && state === "cached" ? "bundled" : state, path, pinnedBy: pin.by };
  });
}

/** `(pinned in mcp-stubgen.lock.json)` after a sha256 the lockfile set; nothing after the manifest's. */
const pinNote = (pins: Pins, pin: ExpectedPin) => (pin.by === "lockfile" ? ` (pinned in ${pinnedBy(pins, pin)})` : "");

/** Loads a known extension's schema from the cache (checked against its pin's sha256). */
export function loadExtension(id: string, options: CacheOptions = {}): SchemaDocument {
  const { text, path } = readExtension(id, options);
  return readSchemaDocument(text, path);
}

/** A known extension's schema text from the cache (checked against its pin's sha256), and its path. */
export function readExtension(id: string, options: CacheOptions = {}): { readonly text: string; readonly path: string } {
  const pins = readPins(options);
  const info = extensionInfo(pins.manifest, id);
  if (info.bundled === true) return readBundledExtension(info);
  const pin = extensionPin(pins, info);
  const cacheDir = cacheDirOf(options);
  const path = extensionCachePath(cacheDir, id);
  const command = `mcp-stubgen schema pull ${id}${pullFlags(cacheDir, pins.lockfile)}${isLocalPin(pin) ? " --from DIR" : ""}`;
  if (!existsSync(path)) {
    throw new StubgenError(`the schema of extension ${id} is not cached; run: ${command}`, { file: path });
  }
  const text = readFileSync(path, "utf8");
  if (sha256Hex(text) !== pin.sha256) {
    throw new StubgenError(`the cached schema of extension ${id} does not match its sha256 ${pin.sha256}${pinNote(pins, pin)}; run: ${command}`, { file: path });
  }
  return { text, path };
}

/**
 * A bundled extension's schema, read from this package and checked against the manifest's
 * sha256 (another sha256 means the installed package was modified).
 */
export function readBundledExtension(info: BundledExtensionInfo): { readonly text: string; readonly path: string } {
  const path = bundledExtensionPath(info);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new StubgenError(`cannot read the schema of extension ${info.id} that ships with mcp-stubgen: ${fsReason(err, path)}; reinstall the package`, { file: path });
  }
  const sha256 = sha256Hex(text);
  if (sha256 !== info.sha256) {
    throw new StubgenError(`the schema of extension ${info.id} that ships with mcp-stubgen has sha256 ${sha256}, expected ${info.sha256} (schema/revisions.json); the installed package was modified, reinstall it`, { file: path });
  }
  return { text, path };
}

export interface LoadOptions extends CacheOptions {
  /** A schema path or URL that bypasses the cache. */
  readonly schema?: string | undefined;
  readonly fetchImpl?: typeof fetch | undefined;
}

/**
 * Loads the schema of a revision: from --schema when given, else from the cache, checked against
 * its pin (the lockfile's, else the manifest's). A revision neither known nor locked is an error.
 */
export async function loadSchema(revision: string, options: LoadOptions = {}): Promise<SchemaDocument> {
  if (options.schema !== undefined) {
    const source = isUrl(options.schema) ? options.schema : resolve(options.schema);
    return readSchemaDocument(await readSourceText(source, options.fetchImpl, options.schema), options.schema);
  }
  const pins = readPins(options);
  const pin = requirePin(pins, revision);
  const cacheDir = cacheDirOf(options);
  const path = cachePath(cacheDir, revision);
  const command = `mcp-stubgen schema pull ${revision}${pullFlags(cacheDir, pins.lockfile)}`;
  // A revision pinned to a local copy can only come back from one: say --from, not "add --from".
  const how = isLocalPin(pin) ? `${command} --from DIR (it is pinned to a local copy)` : command;
  if (!existsSync(path)) {
    throw new StubgenError(
      `the schema of revision ${revision} is not cached; run: ${isLocalPin(pin) ? how : `${command} (add --from DIR to copy it from a local folder)`}`,
      { file: path },
    );
  }
  const text = readFileSync(path, "utf8");
  if (sha256Hex(text) !== pin.sha256) {
    throw new StubgenError(`the cached schema of revision ${revision} does not match its sha256 ${pin.sha256}${pinNote(pins, pin)}; run: ${how}`, { file: path });
  }
  return readSchemaDocument(text, path);
}
