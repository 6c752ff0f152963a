/**
 * generator/load/pins.ts: the lockfile's pin of a revision or extension wins over the package
 * manifest's; the revisions of a run are the known ones, then those only the lockfile pins; a
 * revision neither knows is an error that says how to pull it.
 */
import { describe, expect, it } from "vitest";
import { EMPTY_LOCKFILE, type Lockfile } from "../../../generator/load/lockfile.js";
import { allRevisions, extensionPin, isLocalPin, lockedOnly, pinnedBy, requirePin, revisionPin, shownPath, type Pins } from "../../../generator/load/pins.js";
import type { ExtensionInfo, Manifest } from "../../../generator/load/schema-source.js";
import { catchStubgenError } from "../support.js";

const A = "a".repeat(64);
const B = "b".repeat(64);
const C = "c".repeat(64);
const EXT: ExtensionInfo = { id: "ext", identifier: "example.com/ext", version: "v1", revisions: ["r1"], repository: "example/ext", commit: "c0ffee", path: "schema.json", sha256: C };
const manifest: Manifest = {
  upstream: { repository: "example/repo", commit: "abc123", urlTemplate: "https://example.invalid/{commit}/{revision}.json" },
  revisions: [
    { id: "r2", dialect: "2020-12", sha256: A },
    { id: "r1", dialect: "2020-12", sha256: A },
  ],
  extensions: [EXT],
};
const lock: Lockfile = {
  revisions: {
    r1: { source: "local", commit: null, sha256: B },
    "2027-01-01": { source: "https://example.invalid/ffff/2027-01-01.json", commit: "ffff", sha256: B },
    "2026-12-01": { source: "local", commit: null, sha256: C },
  },
  extensions: { ext: { source: "local", commit: null, sha256: A } },
};
const withLock: Pins = { manifest, lock, lockfile: "/app/mcp-stubgen.lock.json" };
const manifestOnly: Pins = { manifest, lock: EMPTY_LOCKFILE, lockfile: false };

describe("revisionPin and extensionPin", () => {
  it("the lockfile's pin wins over the manifest's", () => {
    expect(revisionPin(withLock, "r1")).toEqual({ source: "local", commit: null, sha256: B, by: "lockfile" });
    expect(extensionPin(withLock, EXT)).toEqual({ source: "local", commit: null, sha256: A, by: "lockfile" });
  });

  it("else the manifest's, with the upstream URL at its commit", () => {
    expect(revisionPin(withLock, "r2")).toEqual({ source: "https://example.invalid/abc123/r2.json", commit: "abc123", sha256: A, by: "manifest" });
    expect(revisionPin(manifestOnly, "r1")?.sha256).toBe(A);
    expect(extensionPin(manifestOnly, EXT)).toEqual({ source: "https://raw.githubusercontent.com/example/ext/c0ffee/schema.json", commit: "c0ffee", sha256: C, by: "manifest" });
  });

  it("a revision neither knows has none; a name of Object.prototype is no pin", () => {
    expect(revisionPin(withLock, "2099-01-01")).toBeUndefined();
    expect(revisionPin(withLock, "constructor")).toBeUndefined();
    expect(revisionPin(manifestOnly, "2027-01-01")).toBeUndefined();
  });
});

describe("the revisions of a run", () => {
  it("known ones in the manifest's order, then those only the lockfile pins, sorted", () => {
    expect(lockedOnly(withLock)).toEqual(["2026-12-01", "2027-01-01"]);
    expect(allRevisions(withLock)).toEqual(["r2", "r1", "2026-12-01", "2027-01-01"]);
    expect(allRevisions(manifestOnly)).toEqual(["r2", "r1"]);
  });
});

describe("requirePin", () => {
  it("a known or locked revision: its pin", () => {
    expect(requirePin(withLock, "2027-01-01").commit).toBe("ffff");
    expect(requirePin(withLock, "r2").by).toBe("manifest");
  });

  it("neither: the known and locked ones, how to pull a new one, and the command's flag for a schema of one's own", () => {
    expect(catchStubgenError(() => requirePin(withLock, "2099-01-01", "--to-schema")).message).toBe(
      'unknown revision "2099-01-01"; expected one of r2, r1, or one pinned in /app/mcp-stubgen.lock.json (2026-12-01, 2027-01-01); ' +
        "to add a new revision, pull it first: mcp-stubgen schema pull 2099-01-01 --from DIR, or --commit SHA to download it (or give --to-schema PATH_OR_URL for another schema)",
    );
    // No lockfile: nothing can be pinned, so no pull is suggested.
    expect(catchStubgenError(() => requirePin(manifestOnly, "2099-01-01", null)).message).toBe('unknown revision "2099-01-01"; expected one of r2, r1');
  });
});

describe("for messages", () => {
  it("pinnedBy names the lockfile (relative to the working folder when inside it) or the manifest", () => {
    expect(pinnedBy(withLock, revisionPin(withLock, "r1")!)).toBe("/app/mcp-stubgen.lock.json");
    expect(pinnedBy(withLock, revisionPin(withLock, "r2")!)).toBe("the package's schema/revisions.json");
    expect(shownPath("/app/x/mcp-stubgen.lock.json", "/app")).toBe("x/mcp-stubgen.lock.json");
    expect(shownPath("/elsewhere/mcp-stubgen.lock.json", "/app")).toBe("/elsewhere/mcp-stubgen.lock.json");
  });

  it("isLocalPin: copied with --from (no commit to download)", () => {
    expect(isLocalPin(revisionPin(withLock, "r1")!)).toBe(true);
    expect(isLocalPin(revisionPin(withLock, "2027-01-01")!)).toBe(false);
  });
});
