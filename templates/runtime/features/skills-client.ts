// The client side of the Skills extension (io.modelcontextprotocol/skills, SEP-2640): skills/list
// and skills/get, and loading a skill with the verification the specification requires of a host
// (Integrity and Verification):
// - nothing is read ahead of need (Lazy Retrieval): listing reads no file; load() reads the
//   SKILL.md and nothing else; a supporting file is read when read() asks for it;
// - every file read is checked against the held entry's size and sha256 digest, and a SKILL.md's
//   frontmatter field by field against the entry's (Frontmatter Verification); a mismatch is a
//   SkillVerificationError and the content is not returned ("MUST NOT use unverified content");
// - while acting on a skill, only URIs the held entry lists are read ("The Acting Window").
// An entry whose `resources` is neither an array nor "dynamic" is refused (Resources: hosts MUST NOT load it).

import { numberOption } from "../core/options.js";
import { equal } from "../core/validation.js";
import { parseFrontmatter } from "./skill-frontmatter.js";
import { fromBase64, skillDigest, type SkillEntry, type SkillResource } from "./skill-catalog.js";

/** What SkillsClient needs of a connection: the generated McpClient's methods of the extension. */
export interface SkillsRequester {
  listSkills(params: { cursor?: string }): Promise<{ skills: readonly unknown[]; nextCursor?: string | undefined }>;
  getSkill(params: { uri: string }): Promise<{ skill: unknown }>;
  readResource(params: { uri: string }): Promise<{ contents: readonly unknown[] }>;
}

export interface SkillsClientOptions {
  /** Pages of skills/list followed before giving up (a server whose cursors never end); default 100. */
  readonly maxPages?: number | undefined;
  /** Bytes read of a "dynamic" skill, summed over its files (Limits); default 16 MiB. */
  readonly maxDynamicBytes?: number | undefined;
}

/** Content that is not what the held entry describes, or an entry no host may load. */
export class SkillVerificationError extends Error {
  /** The file (or skill) the failure is about. */
  readonly uri: string;
  constructor(uri: string, message: string) {
    super(`${uri}: ${message}`);
    this.name = "SkillVerificationError";
    this.uri = uri;
  }
}

/** A verified file of a skill: its bytes, and its text when it came as text. */
export interface SkillFile {
  readonly uri: string;
  readonly bytes: Uint8Array;
  readonly text: string | undefined;
}

/** The extension's requests, and loading skills with verification. */
export class SkillsClient {
  readonly #requester: SkillsRequester;
  readonly #maxPages: number;
  readonly #maxDynamicBytes: number;

  constructor(requester: SkillsRequester, options: SkillsClientOptions = {}) {
    this.#requester = requester;
    this.#maxPages = numberOption("SkillsClientOptions.maxPages", options.maxPages, 100, { min: 1 });
    this.#maxDynamicBytes = numberOption("SkillsClientOptions.maxDynamicBytes", options.maxDynamicBytes, 16 * 1024 * 1024, { min: 1 });
  }

  /** Every entry of skills/list, page after page; reads no file. */
  async list(): Promise<SkillEntry[]> {
    const entries: SkillEntry[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < this.#maxPages; page++) {
      const result = await this.#requester.listSkills(cursor === undefined ? {} : { cursor });
      entries.push(...(result.skills as SkillEntry[]));
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === "") return entries;
    }
    throw new Error(`skills/list: still a nextCursor after ${this.#maxPages} pages (SkillsClientOptions.maxPages)`);
  }

  /** skills/get: the current entry of the skill whose SKILL.md is `uri`. */
  async get(uri: string): Promise<SkillEntry> {
    return (await this.#requester.getSkill({ uri })).skill as SkillEntry;
  }

  /**
   * Loads a skill from its entry: reads its SKILL.md, verifies size, digest and frontmatter, and
   * returns the loaded skill holding the entry. Throws SkillVerificationError on any mismatch
   * (refresh the entry with get() and load again, with the user's approval anew).
   */
  async load(entry: SkillEntry): Promise<LoadedSkill> {
    checkEntry(entry);
    const skill = new LoadedSkill(this.#requester, entry, this.#maxDynamicBytes);
    const manifest = await skill.read(entry.uri);
    let frontmatter: Record<string, unknown>;
    try {
      frontmatter = parseFrontmatter(manifest.text ?? "");
    } catch (error) {
      throw new SkillVerificationError(entry.uri, `its frontmatter cannot be read: ${(error as Error).message}`);
    }
    const fields = new Set([...Object.keys(frontmatter), ...Object.keys(entry.frontmatter)]);
    const differ = [...fields].filter((field) => !equal(frontmatter[field] ?? null, entry.frontmatter[field] ?? null));
    if (differ.length > 0) throw new SkillVerificationError(entry.uri, `the frontmatter differs from the entry's in ${differ.join(", ")}`);
    return skill;
  }
}

/** A loaded skill: the entry it was loaded from, and reads of its files verified against it. */
export class LoadedSkill {
  readonly entry: SkillEntry;
  readonly #requester: SkillsRequester;
  readonly #maxDynamicBytes: number;
  #dynamicBytes = 0;

  constructor(requester: SkillsRequester, entry: SkillEntry, maxDynamicBytes: number) {
    this.#requester = requester;
    this.entry = entry;
    this.#maxDynamicBytes = maxDynamicBytes;
  }

  /** The skill's root directory URI (its SKILL.md's without `/SKILL.md`). */
  get root(): string {
    return this.entry.uri.slice(0, this.entry.uri.lastIndexOf("/"));
  }

  /**
   * Reads a file of the skill (a URI, or a path relative to its root) and verifies it: a URI the
   * entry does not list, another size or another digest is a SkillVerificationError. A "dynamic"
   * skill's files are read unverified, within its directory and its byte bound.
   */
  async read(file: string): Promise<SkillFile> {
    const uri = file.includes("://") ? file : `${this.root}/${file}`;
    const listed = this.#listed(uri);
    const result = await this.#requester.readResource({ uri });
    const content = result.contents.find((c): c is { uri?: unknown; text?: unknown; blob?: unknown } => typeof c === "object" && c !== null);
    const text = typeof content?.text === "string" ? content.text : undefined;
    const bytes = text !== undefined ? new TextEncoder().encode(text) : typeof content?.blob === "string" ? fromBase64(content.blob) : undefined;
    if (bytes === undefined) throw new SkillVerificationError(uri, "resources/read returned no text or blob content");
    if (listed === undefined) {
      this.#dynamicBytes += bytes.byteLength;
      if (this.#dynamicBytes > this.#maxDynamicBytes) throw new SkillVerificationError(uri, `over ${this.#maxDynamicBytes} bytes read of a dynamic skill (SkillsClientOptions.maxDynamicBytes)`);
      return { uri, bytes, text };
    }
    // Size first: a read of another length fails whether or not the digest is computed (Resources).
    if (bytes.byteLength !== listed.size) throw new SkillVerificationError(uri, `${bytes.byteLength} bytes, the entry says ${listed.size}`);
    const digest = await skillDigest(bytes);
    if (digest !== listed.digest) throw new SkillVerificationError(uri, `digest ${digest}, the entry says ${listed.digest}`);
    return { uri, bytes, text };
  }

  /** The entry's record of `uri`; undefined for a dynamic skill's file (within its directory). */
  #listed(uri: string): SkillResource | undefined {
    const { resources } = this.entry;
    if (resources === "dynamic") {
      if (uri !== this.entry.uri && !uri.startsWith(`${this.root}/`)) throw new SkillVerificationError(uri, `not within the skill's directory ${this.root}`);
      return undefined;
    }
    const listed = resources.find((r) => r.uri === uri);
    if (listed === undefined) throw new SkillVerificationError(uri, "not listed in the held entry's resources (an unlisted file is a change to the skill: refresh it with skills/get)");
    return listed;
  }
}

/** An entry no host may load (Resources): `resources` neither an array of {uri, digest, size} nor "dynamic". */
function checkEntry(entry: SkillEntry): void {
  const { resources } = entry as { resources?: unknown };
  if (resources === "dynamic") return;
  const valid =
    Array.isArray(resources) &&
    resources.every((r: { uri?: unknown; digest?: unknown; size?: unknown } | null) => typeof r?.uri === "string" && typeof r.digest === "string" && Number.isSafeInteger(r.size));
  if (!valid) throw new SkillVerificationError(String(entry.uri), `resources is ${JSON.stringify(resources)}: neither an array of {uri, digest, size} nor "dynamic"; hosts MUST NOT load it`);
}
