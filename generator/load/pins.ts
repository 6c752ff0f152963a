/**
 * Which bytes a schema must have: the project's lockfile pin when it has one, else the package's
 * schema/revisions.json. Also which revisions exist for a run: the known ones (the manifest's) and
 * those the lockfile pins that this version of mcp-stubgen does not know. Pure, over a manifest
 * and a lockfile already read.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { StubgenError } from "../errors.js";
import { LOCAL_SOURCE, type Lockfile, type Pin } from "./lockfile.js";
import type { ExtensionInfo, Manifest, UpstreamExtensionInfo } from "./schema-source.js";

/** The `source` of a bundled extension's pin: the schema file that ships in this package. */
export const BUNDLED_SOURCE = "package";

/** A manifest, the lockfile read beside it, and that lockfile's path (false: the run has none). */
export interface Pins {
  readonly manifest: Manifest;
  readonly lock: Lockfile;
  readonly lockfile: string | false;
}

/** A pin, and who set it. */
export interface ExpectedPin extends Pin {
  /** `lockfile`: the project's lockfile; `manifest`: the package's schema/revisions.json. */
  readonly by: "lockfile" | "manifest";
}

/** The manifest's URL of a revision at `commit`. */
export function upstreamUrlAt(manifest: Manifest, revision: string, commit: string): string {
  return manifest.upstream.urlTemplate.replace("{commit}", commit).replace("{revision}", revision);
}

/** The raw URL of an extension's schema at `commit` of its repository. */
export function extensionUrlAt(info: UpstreamExtensionInfo, commit: string): string {
  return `https://raw.githubusercontent.com/${info.repository}/${commit}/${info.path}`;
}

/** The pin of a revision: the lockfile's, else the manifest's; undefined: neither knows it. */
export function revisionPin({ manifest, lock }: Pins, revision: string): ExpectedPin | undefined {
  const locked = Object.hasOwn(lock.revisions, revision) ? lock.revisions[revision] : undefined;
  if (locked !== undefined) return { ...locked, by: "lockfile" };
  const known = manifest.revisions.find((r) => r.id === revision);
  if (known === undefined) return undefined;
  const commit = manifest.upstream.commit;
  return { source: upstreamUrlAt(manifest, revision, commit), commit, sha256: known.sha256, by: "manifest" };
}

/** The pin of a known extension: the lockfile's, else the manifest's. */
export function extensionPin({ lock }: Pins, info: ExtensionInfo): ExpectedPin {
  // A bundled extension's schema is this package's own file: the manifest's sha256 is its pin.
  if (info.bundled === true) return { source: BUNDLED_SOURCE, commit: null, sha256: info.sha256, by: "manifest" };
  const locked = Object.hasOwn(lock.extensions, info.id) ? lock.extensions[info.id] : undefined;
  if (locked !== undefined) return { ...locked, by: "lockfile" };
  return { source: extensionUrlAt(info, info.commit), commit: info.commit, sha256: info.sha256, by: "manifest" };
}

/** The revisions the lockfile pins that the manifest does not know, sorted. */
export function lockedOnly({ manifest, lock }: Pins): string[] {
  return Object.keys(lock.revisions)
    .filter((id) => !manifest.revisions.some((r) => r.id === id))
    .sort();
}

/** Every revision a run may use: the known ones in the manifest's order, then those only the lockfile pins. */
export function allRevisions(pins: Pins): string[] {
  return [...pins.manifest.revisions.map((r) => r.id), ...lockedOnly(pins)];
}

/** A path for messages: relative to the working folder when inside it, else as it is. */
export function shownPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, resolve(cwd, path));
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** Who set a pin, for messages: the lockfile's path, or the package's manifest. */
export function pinnedBy(pins: Pins, pin: ExpectedPin): string {
  return pin.by === "lockfile" && pins.lockfile !== false ? shownPath(pins.lockfile) : "the package's schema/revisions.json";
}

/** Whether a pin says the schema was copied from a local file (no download can fetch it). */
export const isLocalPin = (pin: Pin): boolean => pin.source === LOCAL_SOURCE || pin.commit === null;

/**
 * The pin of a revision a command names; a revision neither known nor locked is an error that
 * lists the known and locked ones, says how to pull a new one, and names the flag of the command
 * at hand for a schema of one's own (`schemaFlag`; null: none).
 */
export function requirePin(pins: Pins, revision: string, schemaFlag: string | null = "--schema"): ExpectedPin {
  const pin = revisionPin(pins, revision);
  if (pin !== undefined) return pin;
  const locked = lockedOnly(pins);
  const lockPart =
    pins.lockfile === false ? "" : `, or one pinned in ${shownPath(pins.lockfile)}${locked.length > 0 ? ` (${locked.join(", ")})` : " (none)"}`;
  throw new StubgenError(
    `unknown revision ${JSON.stringify(revision)}; expected one of ${pins.manifest.revisions.map((r) => r.id).join(", ")}${lockPart}` +
      (pins.lockfile === false ? "" : `; to add a new revision, pull it first: mcp-stubgen schema pull ${revision} --from DIR, or --commit SHA to download it`) +
      (schemaFlag === null ? "" : ` (or give ${schemaFlag} PATH_OR_URL for another schema)`),
  );
}
