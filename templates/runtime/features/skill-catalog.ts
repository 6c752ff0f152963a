// The server side of the Skills extension (io.modelcontextprotocol/skills, SEP-2640,
// https://modelcontextprotocol.io/seps/2640-skills-extension): a skills directory served as
// resources, one per file, under `skill://<skill-path>/<file-path>` (Resource Mapping), with
// the handlers of skills/list, skills/get and resources/directory/read, and the capability
// declaration. Made once (SkillCatalog.create, async: the digests are Web Crypto's) from the
// directory's files (path → bytes; skill-files.ts reads them from disk): every `<dir>/SKILL.md` makes `<dir>` a skill, its frontmatter taken verbatim from
// the file (skill-frontmatter.ts), its entry listing every file under `<dir>` with its sha256
// digest and size, or "dynamic" for the skills named so.
//
// Incoming URIs are looked up as they are, never resolved: `skill://a/../b/SKILL.md` is no file
// of the table, so it is -32602 like any URI the catalog does not serve.

import { ErrorCode, McpError } from "../core/protocol.js";
import { numberOption } from "../core/options.js";
import { pageOf } from "./pagination.js";
import { FrontmatterError, parseFrontmatter } from "./skill-frontmatter.js";

/** The extension's identifier (Extension Identifier), the key of its capability settings. */
export const SKILLS_EXTENSION: "io.modelcontextprotocol/skills" = "io.modelcontextprotocol/skills";
/** The `mimeType` of a directory resource (Reading Directories, Directory Resources). */
export const DIRECTORY_MIME_TYPE: "inode/directory" = "inode/directory";
/** Per-skill limits (Limits): servers SHOULD NOT serve a skill over either; this catalog refuses to. */
export const SKILL_LIMITS: { readonly resources: number; readonly totalBytes: number } = { resources: 512, totalBytes: 16 * 1024 * 1024 };

/** The Agent Skills naming rule the final segment must meet: 1-64 of a-z, 0-9 and single inner hyphens. */
const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** A path segment the catalog accepts: no separators, no dot segments, no control characters. */
const SEGMENT = /^(?!\.{1,2}$)[^/\\\u0000-\u001f\u007f]+$/;

/** The mimeType of a file by its extension; others are application/octet-stream. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  md: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  sh: "text/x-shellscript",
  js: "text/javascript",
  ts: "text/x-typescript",
  html: "text/html",
  csv: "text/csv",
  xml: "application/xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  svg: "image/svg+xml",
  pdf: "application/pdf",
};

export interface SkillResource {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** A skill's entry (Skill Entries), the same in skills/list and skills/get. */
export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources: readonly SkillResource[] | "dynamic";
}

/** A resource's metadata as resources/list and resources/directory/read show it. */
export interface SkillResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType: string;
  readonly size?: number;
}

export interface SkillCatalogOptions {
  /**
   * The skills directory: path (`/`-separated, relative to the skill namespace's root, e.g.
   * `acme/billing/refunds/SKILL.md`) → the file's bytes or text (UTF-8).
   */
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  /** Skill paths (`reports/daily`) whose entry says `"resources": "dynamic"` (content generated, no stable digests). */
  readonly dynamic?: readonly string[] | undefined;
  /** The URI scheme (default `skill`; Resource Mapping: servers SHOULD use skill://). */
  readonly scheme?: string | undefined;
  /** Whether resources/directory/read is served and declared (`directoryRead`); default true. */
  readonly directoryRead?: boolean | undefined;
  /** Entries per skills/list page and children per resources/directory/read page (default 100). */
  readonly pageSize?: number | undefined;
  /** The CacheableResult hints of skills/list and skills/get (default 0 ms: re-ask every time). */
  readonly ttlMs?: number | undefined;
  /** Default `private` (the base protocol's default scope). */
  readonly cacheScope?: "public" | "private" | undefined;
}

interface File {
  readonly uri: string;
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  /** sha256:{hex} of `bytes`. */
  readonly digest: string;
}

const encoder = new TextEncoder();

/** A skills directory served as resources, with the extension's handlers (make one with SkillCatalog.create). */
export class SkillCatalog {
  readonly #files: ReadonlyMap<string, File>;
  readonly #skills: readonly SkillEntry[];
  readonly #byUri: ReadonlyMap<string, SkillEntry>;
  /** Directory URI → its direct children's URIs, sorted. */
  readonly #directories: ReadonlyMap<string, readonly string[]>;
  readonly #pageSize: number;
  readonly #cache: { readonly ttlMs: number; readonly cacheScope: "public" | "private" };
  readonly #directoryRead: boolean;

  /**
   * The catalog of `options.files`. Rejects (TypeError, RangeError naming the file or option)
   * what the specification forbids: paths with empty, `.` or `..` segments, a SKILL.md without
   * frontmatter, a name other than its folder's or against the naming rule, no description, a
   * skill over the per-skill limits.
   */
  static async create(options: SkillCatalogOptions): Promise<SkillCatalog> {
    const contents = new Map<string, { readonly bytes: Uint8Array; readonly digest: string }>();
    for (const [path, content] of Object.entries(options.files)) {
      const bytes = typeof content === "string" ? encoder.encode(content) : content;
      contents.set(path, { bytes, digest: await skillDigest(bytes) });
    }
    return new SkillCatalog(options, contents);
  }

  /** `contents`: each file's bytes and digest, by path (create() encodes and hashes each file once). */
  private constructor(options: SkillCatalogOptions, contents: ReadonlyMap<string, { readonly bytes: Uint8Array; readonly digest: string }>) {
    this.#pageSize = numberOption("SkillCatalogOptions.pageSize", options.pageSize, 100, { min: 1 });
    this.#cache = { ttlMs: numberOption("SkillCatalogOptions.ttlMs", options.ttlMs, 0, { min: 0 }), cacheScope: options.cacheScope ?? "private" };
    this.#directoryRead = options.directoryRead ?? true;
    const scheme = options.scheme ?? "skill";
    if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) throw new TypeError(`SkillCatalogOptions.scheme must be a URI scheme (RFC 3986), got ${JSON.stringify(scheme)}`);
    const files = new Map<string, File>();
    for (const path of Object.keys(options.files).sort()) {
      if (!path.split("/").every((segment) => SEGMENT.test(segment))) {
        throw new TypeError(`SkillCatalogOptions.files: ${JSON.stringify(path)} is not a relative path of non-empty segments without "." or ".."`);
      }
      const { bytes, digest } = contents.get(path)!;
      const uri = `${scheme}://${path}`;
      files.set(uri, { uri, path, bytes, mimeType: mimeTypeOf(path), digest });
    }
    this.#files = files;
    const dynamic = new Set(options.dynamic ?? []);
    this.#skills = [...files.values()].filter((f) => f.path.endsWith("/SKILL.md")).map((f) => entryOf(f, files, dynamic.has(dirOf(f.path))));
    for (const path of dynamic) {
      if (!files.has(`${scheme}://${path}/SKILL.md`)) throw new TypeError(`SkillCatalogOptions.dynamic names ${JSON.stringify(path)}, which has no SKILL.md in files`);
    }
    this.#byUri = new Map(this.#skills.map((skill) => [skill.uri, skill]));
    this.#directories = directoriesOf(scheme, [...files.values()]);
  }

  /** Every skill's entry, in URI order. */
  get skills(): readonly SkillEntry[] {
    return this.#skills;
  }

  /**
   * `capabilities` with the extension declared (`directoryRead` inline, no envelope) and the
   * `resources` capability the extension requires (Capability Negotiation: a server declaring
   * it MUST also declare resources).
   */
  declare<C extends object>(capabilities: C): C & { resources: object; extensions: { [id: string]: { directoryRead?: boolean } } } {
    const given = capabilities as { resources?: object; extensions?: { [id: string]: { directoryRead?: boolean } } };
    const settings = this.#directoryRead ? { directoryRead: true } : {};
    return { ...capabilities, resources: given.resources ?? {}, extensions: { ...given.extensions, [SKILLS_EXTENSION]: settings } };
  }

  /** The request handlers of the extension, for a server's `handlers` option. */
  handlers(): Record<string, (params: { readonly uri?: unknown; readonly cursor?: unknown } | undefined) => object> {
    const table: Record<string, (params: { readonly uri?: unknown; readonly cursor?: unknown } | undefined) => object> = {
      "skills/list": (params) => this.list(params?.cursor),
      "skills/get": (params) => this.get(params?.uri),
    };
    if (this.#directoryRead) table["resources/directory/read"] = (params) => this.readDirectory(params?.uri, params?.cursor);
    return table;
  }

  /** skills/list (Listing Skills): one page of entries; an entry is never split across pages. */
  list(cursor?: unknown): { resultType: "complete"; skills: SkillEntry[]; nextCursor?: string; ttlMs: number; cacheScope: "public" | "private" } {
    const page = pageOf(this.#skills, cursor, this.#pageSize);
    return { resultType: "complete", skills: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }), ...this.#cache };
  }

  /** skills/get (Getting a Skill): the entry of the skill whose SKILL.md is `uri`; -32602 for any other URI. */
  get(uri: unknown): { resultType: "complete"; skill: SkillEntry; ttlMs: number; cacheScope: "public" | "private" } {
    const skill = typeof uri === "string" ? this.#byUri.get(uri) : undefined;
    if (skill === undefined) throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${String(uri)}`, { uri });
    return { resultType: "complete", skill, ...this.#cache };
  }

  /**
   * resources/directory/read (Reading Directories): the direct children of a directory, files
   * with their Resource metadata and subdirectories as `inode/directory`; -32602 for a URI that
   * is not a directory of the catalog.
   */
  readDirectory(uri: unknown, cursor?: unknown): { resultType: "complete"; resources: SkillResourceInfo[]; nextCursor?: string; ttlMs: number; cacheScope: "public" | "private" } {
    const children = typeof uri === "string" ? this.#directories.get(uri) : undefined;
    if (children === undefined) throw new McpError(ErrorCode.InvalidParams, `${String(uri)} is not a directory resource`, { uri });
    const page = pageOf(children, cursor, this.#pageSize);
    // The caching hints too: the specification's result is a PaginatedResult, but the official
    // SDK v2 (2.4.0) refuses a 2026-07-28 directory read without them.
    return { resultType: "complete", resources: page.items.map((child) => this.#info(child)), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }), ...this.#cache };
  }

  /** Every file as a resource (Resource Metadata): a SKILL.md named and described by its frontmatter. */
  resources(): SkillResourceInfo[] {
    return [...this.#files.keys()].map((uri) => this.#info(uri));
  }

  /**
   * resources/read of a file: text when its bytes are UTF-8, else a base64 blob; -32602 (with the
   * URI in `data`) for a URI that is no file of the catalog.
   */
  read(uri: string): { contents: Array<{ uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string }> } {
    const file = this.#files.get(uri);
    if (file === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
    const text = utf8(file.bytes);
    return { contents: [text === undefined ? { uri, mimeType: file.mimeType, blob: toBase64(file.bytes) } : { uri, mimeType: file.mimeType, text }] };
  }

  /**
   * Registers every file as a resource of `server` (its registerResource), read from the catalog.
   * Directories are not registered: they need not appear in resources/list (Directory Resources).
   */
  register(server: SkillResourceRegistrar): void {
    for (const info of this.resources()) {
      const { uri, name, ...config } = info;
      server.registerResource(name, uri, config, (read: string) => this.read(read));
    }
  }

  #info(uri: string): SkillResourceInfo {
    const file = this.#files.get(uri);
    if (file === undefined) return { uri, name: uri.slice(uri.lastIndexOf("/") + 1), mimeType: DIRECTORY_MIME_TYPE };
    const skill = this.#byUri.get(uri);
    if (skill !== undefined) {
      return { uri, name: String(skill.frontmatter["name"]), description: String(skill.frontmatter["description"]), mimeType: "text/markdown", size: file.bytes.byteLength };
    }
    return { uri, name: file.path, mimeType: file.mimeType, size: file.bytes.byteLength };
  }
}

/** What SkillCatalog.register needs of a server: the generated McpServer's registerResource. */
export interface SkillResourceRegistrar {
  registerResource(name: string, uri: string, config: { readonly description?: string; readonly mimeType?: string; readonly size?: number }, read: (uri: string) => object): unknown;
}

const dirOf = (path: string): string => path.slice(0, path.lastIndexOf("/"));

function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  const ext = dot > path.lastIndexOf("/") ? path.slice(dot + 1).toLowerCase() : "";
  return Object.hasOwn(MIME_TYPES, ext) ? MIME_TYPES[ext]! : "application/octet-stream";
}

/** `sha256:{64 lowercase hex}` of the bytes (Integrity and Verification), by Web Crypto. */
export async function skillDigest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Base64 of the bytes (a resource's `blob`), a chunk at a time. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of a base64 `blob`; undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Strict UTF-8 (a malformed sequence throws), a leading BOM kept as text. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The file's text when its bytes are well-formed UTF-8; undefined otherwise. */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The entry of the skill whose SKILL.md is `manifest`: its frontmatter (whose name MUST equal the
 * final segment and meet the naming rule), and every file under its directory, nested skills'
 * included (Resources: "Completeness extends to nested skills"), SKILL.md first.
 */
function entryOf(manifest: File, files: ReadonlyMap<string, File>, dynamic: boolean): SkillEntry {
  const dir = dirOf(manifest.path);
  const name = dir.slice(dir.lastIndexOf("/") + 1);
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseFrontmatter(utf8(manifest.bytes) ?? "");
  } catch (error) {
    if (error instanceof FrontmatterError) throw new TypeError(`${manifest.uri}: ${error.message}`);
    throw error;
  }
  if (frontmatter["name"] !== name) throw new TypeError(`${manifest.uri}: frontmatter name ${JSON.stringify(frontmatter["name"])} must equal the skill's directory name ${JSON.stringify(name)}`);
  if (!SKILL_NAME.test(name)) throw new TypeError(`${manifest.uri}: ${JSON.stringify(name)} is not a skill name (1-64 of a-z, 0-9 and single inner hyphens)`);
  if (typeof frontmatter["description"] !== "string" || frontmatter["description"] === "") throw new TypeError(`${manifest.uri}: the frontmatter has no description`);
  // Agent Skills specification: `metadata` maps strings to strings (hosts refuse other entries).
  const metadata = frontmatter["metadata"];
  if (metadata !== undefined && (typeof metadata !== "object" || metadata === null || Array.isArray(metadata) || Object.values(metadata).some((v) => typeof v !== "string"))) {
    throw new TypeError(`${manifest.uri}: the frontmatter's metadata must map strings to strings (Agent Skills specification)`);
  }
  if (dynamic) return { uri: manifest.uri, frontmatter, resources: "dynamic" };
  const own = [...files.values()].filter((f) => f.path.startsWith(`${dir}/`) && f !== manifest);
  const resources = [manifest, ...own].map((f) => ({ uri: f.uri, digest: f.digest, size: f.bytes.byteLength }));
  const total = resources.reduce((sum, r) => sum + r.size, 0);
  if (resources.length > SKILL_LIMITS.resources || total > SKILL_LIMITS.totalBytes) {
    throw new RangeError(`${manifest.uri}: ${resources.length} files, ${total} bytes: over the per-skill limits (${SKILL_LIMITS.resources} files, ${SKILL_LIMITS.totalBytes} bytes) no host is bound to accept`);
  }
  return { uri: manifest.uri, frontmatter, resources };
}

/** Every directory of the files (each proper prefix of a path) → its direct children, sorted. */
function directoriesOf(scheme: string, files: readonly File[]): ReadonlyMap<string, readonly string[]> {
  const children = new Map<string, Set<string>>();
  for (const file of files) {
    const segments = file.path.split("/");
    for (let depth = 1; depth < segments.length; depth++) {
      const dir = `${scheme}://${segments.slice(0, depth).join("/")}`;
      const child = `${scheme}://${segments.slice(0, depth + 1).join("/")}`;
      let set = children.get(dir);
      if (set === undefined) children.set(dir, (set = new Set()));
      set.add(child);
    }
  }
  return new Map([...children].map(([dir, set]) => [dir, [...set].sort()]));
}
