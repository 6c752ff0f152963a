/**
 * `schema pull`: fills the schema cache and records what it pulled in the lockfile.
 *
 * Each schema is read (a local copy with `from`, a download at `commit`, else a download from its
 * pin's source) and checked against its pin, the lockfile's, else the package manifest's:
 * - the pinned bytes: cached, and the pin recorded in the lockfile as it is;
 * - a revision neither known nor locked (with `from` or `commit` only): cached and pinned;
 * - other bytes: refused with what changed and the command that accepts it, unless `accept`
 *   (or `commit`, which asks for a new pin) re-pins it.
 * Everything is read and checked before anything is written; then the cache files and the
 * lockfile are written as one step (write-files.ts), so an error leaves both as they were.
 */
import { existsSync, readFileSync } from "node:fs";
import { StubgenError } from "../errors.js";
import { COMMIT, formatLockfile, LOCAL_SOURCE, withPins, type Pin } from "./lockfile.js";
import { BUNDLED_SOURCE, extensionPin, extensionUrlAt, isLocalPin, lockedOnly, pinnedBy, revisionPin, shownPath, upstreamUrlAt, type ExpectedPin, type Pins } from "./pins.js";
import { LABEL_EXPECTED, revisionLabelProblem } from "./revision-label.js";
import { sha256Hex } from "./schema-document.js";
import {
  cacheDirOf,
  cachePath,
  extensionCachePath,
  isUrl,
  localExtensionSource,
  localSource,
  pathKind,
  pullFlags,
  readPins,
  readSourceText,
  type CacheOptions,
  readBundledExtension,
  type BundledExtensionInfo,
  type UpstreamExtensionInfo,
} from "./schema-source.js";
import { writeFiles, type FileWrite } from "./write-files.js";

export interface PullOptions extends CacheOptions {
  /**
   * A local folder holding `<revision>/schema.json` (e.g. ../shared/mcp-schema), or a single
   * schema file (then exactly one revision must be named).
   */
  readonly from?: string | undefined;
  /** Download URL of a revision at a commit; defaults to the manifest's `upstream.urlTemplate`, or the URL its lockfile pin records. */
  readonly urlFor?: ((revision: string, commit: string) => string) | undefined;
  /** Download URL of an extension at a commit; defaults to its repository's raw URL, or the URL its lockfile pin records. */
  readonly extensionUrlFor?: ((info: UpstreamExtensionInfo, commit: string) => string) | undefined;
  readonly fetchImpl?: typeof fetch | undefined;
  /** Re-pin a schema whose bytes differ from its pin (default false: such a pull is refused and writes nothing). */
  readonly accept?: boolean | undefined;
  /** Download the named schemas at this commit (40 hex digits) of their upstream repository, and pin them to it. */
  readonly commit?: string | undefined;
}

/**
 * What a pull did to a schema's pin. kept: the bytes are the pinned ones; new: a revision neither
 * known nor locked, pinned now; changed: other bytes than the pin's, re-pinned (accept, commit);
 * moved: the same bytes, pinned to another commit (commit).
 */
export type PinChange = "kept" | "new" | "changed" | "moved";

export interface PullResult {
  /** What was pulled: a revision's schema or an extension's. */
  readonly kind: "revision" | "extension";
  /** The revision label, or the extension's id. */
  readonly revision: string;
  /** Where the bytes came from: a path, a URL, or `cache` (a local copy already cached, with no --from to read it again). */
  readonly source: string;
  readonly path: string;
  readonly sha256: string;
  /** The commit of the pin now recorded; null: a local copy. */
  readonly commit: string | null;
  readonly pin: PinChange;
  /** For `changed`: what changed, in one clause ("2 definitions changed (A, B), 1 method added (x/y)"). */
  readonly change?: string;
}

/** A full commit SHA, lowercased; anything else is an error saying what is expected. Pure. */
export function checkCommit(commit: string): string {
  const sha = commit.toLowerCase();
  if (!COMMIT.test(sha)) {
    throw new StubgenError(`--commit ${JSON.stringify(commit)}: expected a full commit SHA, 40 hex digits (e.g. b0f60ba5409db7a6582440a7b473cc0398890f15)`);
  }
  return sha;
}

type Target = { readonly kind: "revision"; readonly id: string } | { readonly kind: "extension"; readonly id: string; readonly info: UpstreamExtensionInfo };

/** A schema read and checked, and what to do with it. */
interface Planned {
  readonly target: Target;
  readonly path: string;
  readonly source: string;
  /** The bytes to cache; null: already cached (a local pin without --from). */
  readonly text: string | null;
  readonly pin: ExpectedPin | undefined;
  /** The pin to record. */
  readonly record: Pin;
  readonly change: PinChange | "refused";
  readonly summary?: string;
}

/**
 * Fills the cache for the given names, each a revision (known, locked, or with `from` or
 * `commit` a new one) or a known extension's id. When none is given: every known revision, every
 * revision the lockfile pins, and every known extension. With `from` naming one file, exactly one
 * name. Nothing is written unless every schema passed.
 */
export async function pullSchemas(names: readonly string[], options: PullOptions = {}): Promise<PullResult[]> {
  const pins = readPins(options);
  const cacheDir = cacheDirOf(options);
  const from = options.from;
  const commit = options.commit === undefined ? undefined : checkCommit(options.commit);
  if (commit !== undefined && from !== undefined) {
    throw new StubgenError("--commit downloads from the upstream repository and --from copies a local file or folder: give one of them");
  }
  if (commit !== undefined && names.length === 0) {
    throw new StubgenError(`--commit needs the revisions to pin at that commit, e.g. mcp-stubgen schema pull 2025-11-25 --commit ${commit}`);
  }
  if (from !== undefined && names.length !== 1 && pathKind(from) === "file") {
    throw new StubgenError(
      `--from names a single schema file, so name the one revision it holds: mcp-stubgen schema pull REV --from ${from} ` +
        `(got ${names.length === 0 ? "none" : names.join(", ")})`,
      { file: from },
    );
  }
  const canAdd = from !== undefined || commit !== undefined;
  // A bundled extension ships in this package: nothing to pull, only its file to check.
  const bundled = (pins.manifest.extensions ?? []).filter((info): info is BundledExtensionInfo => info.bundled === true);
  const bundledNamed = bundled.filter((info) => names.includes(info.id));
  const wanted: Target[] =
    names.length > 0
      ? [...new Set(names)].filter((name) => !bundledNamed.some((info) => info.id === name)).map((name) => pullTarget(pins, name, canAdd))
      : [
          ...pins.manifest.revisions.map((r): Target => ({ kind: "revision", id: r.id })),
          ...lockedOnly(pins).map((id): Target => ({ kind: "revision", id })),
          ...(pins.manifest.extensions ?? []).flatMap((info): Target[] => (info.bundled === true ? [] : [{ kind: "extension", id: info.id, info }])),
        ];
  const shipped = (names.length > 0 ? bundledNamed : bundled).map(bundledResult);
  const planned: Planned[] = [];
  for (const target of wanted) planned.push(await plan(target, pins, cacheDir, options, commit));

  const refused = planned.filter((p) => p.change === "refused");
  if (refused.length > 0) throw refusal(refused, names, pins, cacheDir, options);
  const repinned = planned.filter((p) => p.change !== "kept");
  if (pins.lockfile === false && repinned.length > 0) {
    throw new StubgenError(
      `${repinned.map((p) => p.target.id).join(", ")}: a new pin must be recorded in a lockfile, and this run has none (lockfile: false); nothing was pulled`,
    );
  }

  const writes: FileWrite[] = planned.flatMap((p) => (p.text === null ? [] : [{ path: p.path, text: p.text, what: "cache" }]));
  if (pins.lockfile !== false) {
    let lock = pins.lock;
    for (const p of planned) lock = withPins(lock, p.target.kind === "revision" ? "revisions" : "extensions", { [p.target.id]: p.record });
    const text = formatLockfile(lock);
    if (!existsSync(pins.lockfile) || text !== formatLockfile(pins.lock)) writes.push({ path: pins.lockfile, text, what: "lockfile" });
  }
  writeFiles(writes);
  const pulled = planned.map((p): PullResult => ({
    kind: p.target.kind,
    revision: p.target.id,
    source: p.source,
    path: p.path,
    sha256: p.record.sha256,
    commit: p.record.commit,
    pin: p.change as PinChange,
    ...(p.summary === undefined ? {} : { change: p.summary }),
  }));
  return [...pulled, ...shipped];
}

/**
 * A bundled extension as a pull reports it: its file in this package, checked against the
 * manifest's sha256 (readBundledExtension throws otherwise); never cached, never in the lockfile.
 */
function bundledResult(info: BundledExtensionInfo): PullResult {
  const { path } = readBundledExtension(info);
  return { kind: "extension", revision: info.id, source: BUNDLED_SOURCE, path, sha256: info.sha256, commit: null, pin: "kept" };
}

/**
 * A name given to schema pull: a known revision, else a known extension, else a revision the
 * lockfile pins, else (with --from or --commit, and a lockfile to pin it in) a new revision, whose
 * label must be a safe folder name; else an error listing what is known and how to add it.
 */
function pullTarget(pins: Pins, name: string, canAdd: boolean): Target {
  const { manifest } = pins;
  if (manifest.revisions.some((r) => r.id === name)) return { kind: "revision", id: name };
  const extension = manifest.extensions?.find((e) => e.id === name);
  // (a bundled extension never gets here: pullSchemas answers for it)
  if (extension !== undefined && extension.bundled !== true) return { kind: "extension", id: name, info: extension };
  if (revisionPin(pins, name) !== undefined) return { kind: "revision", id: name };
  if (canAdd && pins.lockfile !== false) {
    const problem = revisionLabelProblem(name);
    if (problem !== undefined) throw new StubgenError(`invalid revision label ${JSON.stringify(name)}: ${problem}; expected ${LABEL_EXPECTED}`);
    return { kind: "revision", id: name };
  }
  const extensions = (manifest.extensions ?? []).map((e) => e.id);
  const locked = lockedOnly(pins);
  throw new StubgenError(
    `unknown revision ${JSON.stringify(name)}; expected one of ${manifest.revisions.map((r) => r.id).join(", ")}` +
      (extensions.length > 0 ? ` or an extension: ${extensions.join(", ")}` : "") +
      (pins.lockfile !== false && locked.length > 0 ? `, or one pinned in ${shownPath(pins.lockfile)}: ${locked.join(", ")}` : "") +
      (pins.lockfile !== false
        ? `; a revision this version does not know is pinned from a local copy or an upstream commit: mcp-stubgen schema pull ${name} --from DIR, or --commit SHA`
        : "") +
      // pull takes no --schema: a schema of one's own is not cached, generate reads it where it is.
      ` (a schema of your own needs no pull: give it to generate or catalog with --schema PATH_OR_URL)`,
  );
}

/** The download URL of a target at a commit. */
function urlAt(target: Target, pins: Pins, options: PullOptions, commit: string): string {
  return target.kind === "revision"
    ? (options.urlFor ?? ((rev: string, at: string) => upstreamUrlAt(pins.manifest, rev, at)))(target.id, commit)
    : (options.extensionUrlFor ?? extensionUrlAt)(target.info, commit);
}

/** Reads one schema and decides: keep, pin, re-pin or refuse. Writes nothing. */
async function plan(target: Target, pins: Pins, cacheDir: string, options: PullOptions, commit: string | undefined): Promise<Planned> {
  const pin = target.kind === "revision" ? revisionPin(pins, target.id) : extensionPin(pins, target.info);
  const path = target.kind === "revision" ? cachePath(cacheDir, target.id) : extensionCachePath(cacheDir, target.id);
  const from = options.from;
  let source: string;
  let at: string | null;
  if (from !== undefined) {
    source = target.kind === "revision" ? localSource(from, target.id) : localExtensionSource(from, target.info);
    at = null;
  } else if (commit !== undefined) {
    source = urlAt(target, pins, options, commit);
    at = commit;
  } else if (pin !== undefined && !isLocalPin(pin)) {
    // The pin's own source (the URL it was downloaded from), unless the caller maps URLs.
    const custom = target.kind === "revision" ? options.urlFor !== undefined : options.extensionUrlFor !== undefined;
    source = custom ? urlAt(target, pins, options, pin.commit!) : pin.source;
    at = pin.commit;
  } else {
    // Pinned to a local copy, and no --from: nothing to download; the cache must hold it already.
    if (pin !== undefined && existsSync(path) && sha256Hex(readFileSync(path)) === pin.sha256) {
      return { target, path, source: "cache", text: null, pin, record: recorded(pin), change: "kept" };
    }
    throw new StubgenError(
      `${target.kind} ${target.id} is pinned to a local copy (source "${LOCAL_SOURCE}") and is not in the cache; ` +
        `copy it again: mcp-stubgen schema pull ${target.id} --from DIR${pullFlags(cacheDir, pins.lockfile)}, or download it at an upstream commit: --commit SHA`,
      { file: pins.lockfile === false ? path : pins.lockfile },
    );
  }
  const text = await readSourceText(source, options.fetchImpl).catch((err: unknown) => {
    // Offline, or GitHub out of reach: the way that needs no network is --from.
    if (from !== undefined || !isUrl(source) || !(err instanceof StubgenError)) throw err;
    throw new StubgenError(`${err.message}; without network, copy the schemas from a local folder: mcp-stubgen schema pull --from DIR (DIR/<revision>/schema.json)`, err.location);
  });
  const sha256 = sha256Hex(text);
  const fresh: Pin = { source: from !== undefined ? LOCAL_SOURCE : source, commit: at, sha256 };
  if (pin === undefined) return { target, path, source, text, pin, record: fresh, change: "new" };
  if (pin.sha256 === sha256) {
    const moved = commit !== undefined && pin.commit !== commit;
    return { target, path, source, text, pin, record: moved ? fresh : recorded(pin), change: moved ? "moved" : "kept" };
  }
  const summary = await changeOf(target, pin, path, text, source);
  const accepted = options.accept === true || commit !== undefined;
  return { target, path, source, text, pin, record: accepted ? fresh : recorded(pin), change: accepted ? "changed" : "refused", summary };
}

const recorded = ({ source, commit, sha256 }: Pin): Pin => ({ source, commit, sha256 });

/** What changed from the pinned bytes (when the cache holds them) to `text`. */
async function changeOf(target: Target, pin: ExpectedPin, path: string, text: string, source: string): Promise<string> {
  const cached = existsSync(path) ? readFileSync(path, "utf8") : null;
  const before = cached !== null && sha256Hex(cached) === pin.sha256 ? cached : null;
  const { schemaChange } = await import("../diff/change-summary.js");
  return schemaChange(target.id, before, text, source);
}

/** A word a shell reads as itself, quoted when it is not. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The error of a pull whose bytes differ from their pins: what changed, and the command that accepts it. */
function refusal(refused: readonly Planned[], names: readonly string[], pins: Pins, cacheDir: string, options: PullOptions): StubgenError {
  const what = refused.map(
    (p) =>
      `sha256 mismatch for ${p.target.kind} ${p.target.id}: expected ${p.pin!.sha256} (pinned by ${pinnedBy(pins, p.pin!)}), got ${sha256Hex(p.text!)}; ` +
      `${p.target.id} changed upstream: ${p.summary}`,
  );
  if (pins.lockfile === false) return new StubgenError(`${what.join("; ")}; the cache was not changed`, { file: refused[0]!.source });
  const command = [
    "mcp-stubgen schema pull",
    ...names.map(shellWord),
    ...(options.from === undefined ? [] : [`--from ${shellWord(options.from)}`]),
  ].join(" ");
  return new StubgenError(
    `${what.join("; ")}; the cache and ${shownPath(pins.lockfile)} were not changed; to accept it: ${command}${pullFlags(cacheDir, pins.lockfile)} --accept`,
    { file: refused[0]!.source },
  );
}
