/**
 * The lockfile (generator/load/lockfile.ts): its text is deterministic (keys sorted, 2-space JSON,
 * final newline) and reads back as written; a hand-edited one with a wrong shape is an error naming
 * the file and the JSON pointer of what is wrong, and what was expected there.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  defaultLockfilePath,
  EMPTY_LOCKFILE,
  formatLockfile,
  parseLockfile,
  readLockfile,
  validateLockfile,
  withPins,
  type Lockfile,
  type Pin,
} from "../../../generator/load/lockfile.js";
import { catchStubgenError } from "../support.js";

const SHA_A = "a".repeat(64);
const SHA_B = "b".repeat(64);
const COMMIT = "0123456789abcdef0123456789abcdef01234567";
const LOCAL: Pin = { source: "local", commit: null, sha256: SHA_A };
const UPSTREAM: Pin = { source: `https://raw.githubusercontent.com/o/r/${COMMIT}/schema/2025-11-25/schema.json`, commit: COMMIT, sha256: SHA_B };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-stubgen-lockfile-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("formatLockfile", () => {
  it("sorts the keys of every object (labels that look like numbers too), indents by 2 and ends with a newline", () => {
    const lock: Lockfile = { revisions: { "2027-01-01": LOCAL, draft: UPSTREAM, "2027": LOCAL }, extensions: { tasks: UPSTREAM } };
    const text = formatLockfile(lock);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).not.toMatch(/\n\n/);
    const keysInOrder = [...text.matchAll(/^\s*"([^"]+)":/gm)].map((m) => m[1]);
    expect(keysInOrder).toEqual([
      "$comment",
      "extensions",
      "tasks",
      "commit",
      "sha256",
      "source",
      "format",
      "revisions",
      "2027",
      "commit",
      "sha256",
      "source",
      "2027-01-01",
      "commit",
      "sha256",
      "source",
      "draft",
      "commit",
      "sha256",
      "source",
    ]);
    // The text JSON.stringify writes for the sorted object: 2-space indent throughout.
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(text).toContain(`  "format": 1,\n`);
    expect(text).toContain(`    "2027-01-01": {\n      "commit": null,\n      "sha256": "${SHA_A}",\n      "source": "local"\n    },\n`);
  });

  it("is the same text whatever order the pins were added in, and reads back as written", () => {
    const one = withPins(withPins(EMPTY_LOCKFILE, "revisions", { b: LOCAL }), "revisions", { a: UPSTREAM });
    const two = withPins(withPins(EMPTY_LOCKFILE, "revisions", { a: UPSTREAM }), "revisions", { b: LOCAL });
    expect(formatLockfile(one)).toBe(formatLockfile(two));
    expect(parseLockfile(formatLockfile(one), "x")).toEqual(one);
    expect(formatLockfile(EMPTY_LOCKFILE)).toContain(`  "extensions": {},\n`);
  });
});

describe("withPins", () => {
  it("adds or replaces pins in one table and leaves its input as it was", () => {
    const before: Lockfile = { revisions: { a: LOCAL }, extensions: {} };
    const after = withPins(before, "revisions", { a: UPSTREAM, b: LOCAL });
    expect(after).toEqual({ revisions: { a: UPSTREAM, b: LOCAL }, extensions: {} });
    expect(before.revisions).toEqual({ a: LOCAL });
    expect(withPins(before, "extensions", { tasks: UPSTREAM }).extensions).toEqual({ tasks: UPSTREAM });
  });
});

describe("validateLockfile: a wrong shape names the file, the pointer and what was expected", () => {
  const FILE = "app/mcp-stubgen.lock.json";
  const good = () => ({ format: 1, revisions: { "2027-01-01": { ...LOCAL } }, extensions: { tasks: { ...UPSTREAM } } });
  const cases: ReadonlyArray<readonly [what: string, value: unknown, pointer: string, expected: string]> = [
    ["not an object", [], "", "a JSON object with the keys $comment, format, revisions, extensions"],
    ["an unknown key", { ...good(), pins: {} }, "/pins", "one of the keys $comment, format, revisions, extensions"],
    ["no format", { revisions: {} }, "/format", "1 (the lockfile format this version of mcp-stubgen reads; a newer format needs a newer mcp-stubgen)"],
    ["a newer format", { ...good(), format: 2 }, "/format", "1 (the lockfile format"],
    ["$comment not a string", { ...good(), $comment: 1 }, "/$comment", "a string"],
    ["revisions not an object", { ...good(), revisions: [] }, "/revisions", 'an object of revision label → { "source", "commit", "sha256" }'],
    ["a label with a path separator", { ...good(), revisions: { "../x": LOCAL } }, "/revisions/..~1x", "the key to be a revision label of letters"],
    ["the reserved label runtime", { ...good(), revisions: { runtime: LOCAL } }, "/revisions/runtime", "the key to be a revision label"],
    ["an empty label", { ...good(), revisions: { "": LOCAL } }, "/revisions/", "the key to be a revision label"],
    ["an extension id that is no folder name", { ...good(), extensions: { "a/b": UPSTREAM } }, "/extensions/a~1b", "the key to be an extension id"],
    ["a pin that is not an object", { ...good(), revisions: { r: "sha" } }, "/revisions/r", 'an object { "source": URL or "local"'],
    ["a pin without sha256", { ...good(), revisions: { r: { source: "local", commit: null } } }, "/revisions/r", 'an object { "source": URL or "local", "commit": 40 hex digits or null, "sha256": 64 hex digits }; "sha256" is missing'],
    ["a pin with another key", { ...good(), revisions: { r: { ...LOCAL, path: "/home/me/x.json" } } }, "/revisions/r/path", "one of the keys source, commit, sha256"],
    ["a machine path as source", { ...good(), revisions: { r: { ...LOCAL, source: "/home/me/specs/r/schema.json" } } }, "/revisions/r/source", '"local" or the http(s) URL the schema was downloaded from'],
    ["a commit that is not hex", { ...good(), extensions: { tasks: { ...UPSTREAM, commit: "main" } } }, "/extensions/tasks/commit", "a commit SHA (40 lowercase hex digits), a release tag (v1.2.3), or null for a local copy"],
    ["a tag that is not a release tag", { ...good(), extensions: { apps: { ...UPSTREAM, commit: "v2" } } }, "/extensions/apps/commit", "a commit SHA (40 lowercase hex digits), a release tag (v1.2.3), or null for a local copy"],
    ["an uppercase sha256", { ...good(), revisions: { r: { ...LOCAL, sha256: SHA_A.toUpperCase() } } }, "/revisions/r/sha256", "the schema's sha256, 64 lowercase hex digits"],
    ["a short sha256", { ...good(), revisions: { r: { ...LOCAL, sha256: "abc" } } }, "/revisions/r/sha256", "the schema's sha256"],
  ];
  for (const [what, value, pointer, expected] of cases) {
    it(what, () => {
      const e = catchStubgenError(() => validateLockfile(value, FILE));
      expect(e.location).toEqual({ file: FILE, pointer });
      expect(e.message).toContain(`invalid lockfile: expected ${expected}`);
    });
  }

  it("a good one: pins as written; missing tables are empty; $comment is allowed", () => {
    expect(validateLockfile(good(), FILE)).toEqual({ revisions: { "2027-01-01": LOCAL }, extensions: { tasks: UPSTREAM } });
    expect(validateLockfile({ format: 1, $comment: "mine" }, FILE)).toEqual(EMPTY_LOCKFILE);
    // An abbreviated commit (a manifest of one's own may pin one) is read as written.
    expect(validateLockfile({ format: 1, revisions: { r: { ...UPSTREAM, commit: "c0ffee" } } }, FILE).revisions["r"]?.commit).toBe("c0ffee");
    // A release tag (the MCP Apps schema is pinned to ext-apps' tag v2.0.4) is read as written.
    expect(validateLockfile({ format: 1, extensions: { apps: { ...UPSTREAM, commit: "v2.0.4" } } }, FILE).extensions["apps"]?.commit).toBe("v2.0.4");
  });
});

describe("parseLockfile and readLockfile", () => {
  it("invalid JSON: the file, line and column", () => {
    const e = catchStubgenError(() => parseLockfile('{\n  "format": 1,\n  "revisions": {,\n}', "x.lock.json"));
    expect(e.location).toMatchObject({ file: "x.lock.json", line: 3 });
    expect(e.message).toMatch(/^invalid JSON: expected /);
  });

  it("no file, or false: the empty lockfile", () => {
    expect(readLockfile(join(dir, "none.json"))).toEqual(EMPTY_LOCKFILE);
    expect(readLockfile(false)).toEqual(EMPTY_LOCKFILE);
  });

  it("a folder where the lockfile should be: an error naming it", () => {
    mkdirSync(join(dir, "lock"));
    const e = catchStubgenError(() => readLockfile(join(dir, "lock")));
    expect(e.location).toEqual({ file: join(dir, "lock") });
    expect(e.message).toBe("cannot read the lockfile: it is a folder (EISDIR); expected a JSON file written by mcp-stubgen schema pull");
  });

  it("reads and validates the file", () => {
    const file = join(dir, "mcp-stubgen.lock.json");
    writeFileSync(file, formatLockfile({ revisions: { r: LOCAL }, extensions: {} }));
    expect(readLockfile(file)).toEqual({ revisions: { r: LOCAL }, extensions: {} });
    writeFileSync(file, JSON.stringify({ format: 1, revisions: { r: { ...LOCAL, commit: 7 } } }));
    expect(catchStubgenError(() => readLockfile(file)).location).toEqual({ file, pointer: "/revisions/r/commit" });
  });

  it("defaultLockfilePath: mcp-stubgen.lock.json in the project folder", () => {
    expect(defaultLockfilePath("/app")).toBe(join("/app", "mcp-stubgen.lock.json"));
  });
});
