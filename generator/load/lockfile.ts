/**
 * The lockfile a project commits (`mcp-stubgen.lock.json`): the pin of every schema it pulled,
 * revision → `{ source, commit, sha256 }` and the same for extensions, keyed by extension id.
 * `schema pull` writes it; the cache is checked against its sha256 where it pins a revision
 * (else against the package's schema/revisions.json), so a checkout with the lockfile
 * regenerates the same bytes with any later version of mcp-stubgen, and a revision this version
 * does not know can be pinned and used.
 *
 * Reading validates the whole shape (a hand-edited lockfile is input like any other: errors name
 * the file and the JSON pointer). Writing is deterministic: keys sorted, 2-space JSON, a final
 * newline, so the file diffs well.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { StubgenError } from "../errors.js";
import { fsReason } from "../fs-reason.js";
import { join as pointer } from "./json-pointer.js";
import { parseJson } from "./parse-json.js";
import { isSchemaNode } from "./schema-document-types.js";
import { LABEL_EXPECTED, revisionLabelProblem } from "./revision-label.js";

export const LOCKFILE_NAME = "mcp-stubgen.lock.json";
/** The format this version reads and writes (the lockfile's `format`). */
export const LOCKFILE_FORMAT = 1;
/** `source` of a schema copied from a local file or folder (`schema pull --from`): no machine path is recorded. */
export const LOCAL_SOURCE = "local";

const COMMENT = "Pins of the MCP schemas this project uses, written by `mcp-stubgen schema pull`. Commit this file. See docs/schema-cache.md of mcp-stubgen.";

/** Where one schema came from and the bytes it must have. */
export interface Pin {
  /** The URL it was downloaded from, or `local` (copied with --from). */
  readonly source: string;
  /** The upstream commit (40 hex digits) it was taken at; null for a local copy. */
  readonly commit: string | null;
  /** sha256 of the schema's bytes (64 hex digits). */
  readonly sha256: string;
}

export interface Lockfile {
  /** Revision label → pin. */
  readonly revisions: Readonly<Record<string, Pin>>;
  /** Extension id → pin. */
  readonly extensions: Readonly<Record<string, Pin>>;
}

export const EMPTY_LOCKFILE: Lockfile = { revisions: {}, extensions: {} };

/** The lockfile when none is given: beside the config file, else in the working folder (`projectDir`). */
export function defaultLockfilePath(projectDir: string): string {
  return join(projectDir, LOCKFILE_NAME);
}

export const SHA256 = /^[0-9a-f]{64}$/;
/** A full commit SHA (what --commit takes). */
export const COMMIT = /^[0-9a-f]{40}$/;
/** A commit as a lockfile may record it: hex digits, full or abbreviated (a manifest of one's own may pin a short one). */
const RECORDED_COMMIT = /^[0-9a-f]{4,40}$/;
/**
 * A release tag (`v2.0.4`): where the manifest pins an upstream by its tag (the MCP Apps schema,
 * modelcontextprotocol/ext-apps, published from tag v2.0.4). The sha256 pins the bytes all the
 * same, so a tag moved upstream is refused at pull, not taken.
 */
const RECORDED_TAG = /^v\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;
const URL_SOURCE = /^https?:\/\/\S+$/i;

const KEYS = ["$comment", "format", "revisions", "extensions"] as const;
const PIN_KEYS = ["source", "commit", "sha256"] as const;

/** Checks a parsed lockfile's shape, naming the file and the pointer of anything wrong. Pure. */
export function validateLockfile(value: unknown, file: string): Lockfile {
  const fail = (where: string, expected: string): never => {
    throw new StubgenError(`invalid lockfile: expected ${expected}`, { file, pointer: where });
  };
  if (!isSchemaNode(value)) return fail("", `a JSON object with the keys ${KEYS.join(", ")}`);
  for (const key of Object.keys(value)) {
    if (!(KEYS as readonly string[]).includes(key)) fail(pointer("", key), `one of the keys ${KEYS.join(", ")}`);
  }
  if (value["format"] !== LOCKFILE_FORMAT) {
    fail("/format", `${LOCKFILE_FORMAT} (the lockfile format this version of mcp-stubgen reads; a newer format needs a newer mcp-stubgen)`);
  }
  if (value["$comment"] !== undefined && typeof value["$comment"] !== "string") fail("/$comment", "a string");
  const table = (key: "revisions" | "extensions", what: string): Record<string, Pin> => {
    const node = value[key];
    if (node === undefined) return {};
    if (!isSchemaNode(node)) return fail(pointer("", key), `an object of ${what} → { "source", "commit", "sha256" }`);
    const out: Record<string, Pin> = {};
    for (const [name, pin] of Object.entries(node)) {
      const at = pointer("", key, name);
      if (revisionLabelProblem(name) !== undefined) fail(at, key === "revisions" ? `the key to be ${LABEL_EXPECTED}` : "the key to be an extension id (letters, digits, '.', '_', '-')");
      out[name] = validatePin(pin, at, fail);
    }
    return out;
  };
  return { revisions: table("revisions", "revision label"), extensions: table("extensions", "extension id") };
}

function validatePin(value: unknown, at: string, fail: (where: string, expected: string) => never): Pin {
  const shape = 'an object { "source": URL or "local", "commit": 40 hex digits or null, "sha256": 64 hex digits }';
  if (!isSchemaNode(value)) return fail(at, shape);
  for (const key of Object.keys(value)) {
    if (!(PIN_KEYS as readonly string[]).includes(key)) fail(pointer(at, key), `one of the keys ${PIN_KEYS.join(", ")}`);
  }
  for (const key of PIN_KEYS) if (!Object.hasOwn(value, key)) fail(at, `${shape}; "${key}" is missing`);
  const { source, commit, sha256 } = value;
  if (typeof source !== "string" || !(source === LOCAL_SOURCE || URL_SOURCE.test(source))) {
    fail(pointer(at, "source"), `"${LOCAL_SOURCE}" or the http(s) URL the schema was downloaded from`);
  }
  if (commit !== null && (typeof commit !== "string" || !(RECORDED_COMMIT.test(commit) || RECORDED_TAG.test(commit)))) {
    fail(pointer(at, "commit"), "a commit SHA (40 lowercase hex digits), a release tag (v1.2.3), or null for a local copy");
  }
  if (typeof sha256 !== "string" || !SHA256.test(sha256)) fail(pointer(at, "sha256"), "the schema's sha256, 64 lowercase hex digits");
  return { source: source as string, commit: commit as string | null, sha256: sha256 as string };
}

/** Parses and validates a lockfile's text (syntax errors name the line and column). */
export function parseLockfile(text: string, file: string): Lockfile {
  return validateLockfile(parseJson(text, file), file);
}

/** The lockfile at `file`: none there (or `false`: no lockfile) is the empty one; anything unreadable or malformed is an error naming it. */
export function readLockfile(file: string | false): Lockfile {
  if (file === false) return EMPTY_LOCKFILE;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return EMPTY_LOCKFILE;
    throw new StubgenError(`cannot read the lockfile: ${fsReason(err, file, { EISDIR: "it is a folder", EACCES: "permission denied" })}; expected a JSON file written by mcp-stubgen schema pull`, { file });
  }
  return parseLockfile(text, file);
}

/** The lockfile with `pins` set (added or replaced) in one table. Pure. */
export function withPins(lock: Lockfile, table: "revisions" | "extensions", pins: Readonly<Record<string, Pin>>): Lockfile {
  return { ...lock, [table]: { ...lock[table], ...pins } };
}

/** The lockfile's text: keys sorted at every level, 2-space indent, a final newline. Pure. */
export function formatLockfile(lock: Lockfile): string {
  return `${sortedJson({ $comment: COMMENT, extensions: lock.extensions, format: LOCKFILE_FORMAT, revisions: lock.revisions })}\n`;
}

/**
 * An object (of objects and scalars: the lockfile has no arrays) as `JSON.stringify(value, null, 2)` writes it, with the keys of every object sorted (by
 * code unit, also those that look like array indexes: a revision labelled `2027` stays among its
 * sorted peers).
 */
function sortedJson(value: unknown, indent = ""): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
  if (keys.length === 0) return "{}";
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${sortedJson(record[k], inner)}`).join(",\n")}\n${indent}}`;
}
