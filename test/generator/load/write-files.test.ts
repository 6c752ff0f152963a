/**
 * generator/load/write-files.ts: the cache files and the lockfile of a pull are written as one
 * step; a file already holding its text is not touched; when a write fails, those before it are
 * undone, so the cache never disagrees with the lockfile.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFiles } from "../../../generator/load/write-files.js";
import { catchStubgenError } from "../support.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-stubgen-write-files-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("writeFiles", () => {
  it("writes each file (making its folders) and returns the paths written", () => {
    const a = join(dir, "cache", "r1", "schema.json");
    const b = join(dir, "mcp-stubgen.lock.json");
    expect(writeFiles([{ path: a, text: "A", what: "cache" }, { path: b, text: "B", what: "lockfile" }])).toEqual([a, b]);
    expect(readFileSync(a, "utf8")).toBe("A");
    expect(readFileSync(b, "utf8")).toBe("B");
    expect(readdirSync(join(dir, "cache", "r1"))).toEqual(["schema.json"]);
  });

  it("leaves a file that already holds the text as it is (same mtime)", async () => {
    const a = join(dir, "a.json");
    writeFileSync(a, "same");
    const before = statSync(a).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writeFiles([{ path: a, text: "same", what: "cache" }])).toEqual([]);
    expect(statSync(a).mtimeMs).toBe(before);
  });

  it("a failing write undoes the ones before it: old bytes back, new files and their folders gone", () => {
    const old = join(dir, "old.json");
    writeFileSync(old, "old bytes");
    const fresh = join(dir, "cache", "r2", "schema.json");
    writeFileSync(join(dir, "a-file"), "in the way");
    const blocked = join(dir, "a-file", "mcp-stubgen.lock.json");
    const e = catchStubgenError(() =>
      writeFiles([
        { path: old, text: "new bytes", what: "cache" },
        { path: fresh, text: "new file", what: "cache" },
        { path: blocked, text: "lock", what: "lockfile" },
      ]),
    );
    expect(e.location).toEqual({ file: blocked });
    expect(e.message).toBe(`cannot write the lockfile: ${join(dir, "a-file")} is a file, not a folder (EEXIST)`);
    expect(readFileSync(old, "utf8")).toBe("old bytes");
    expect(existsSync(join(dir, "cache"))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(["a-file", "old.json"]);
  });

  it("undoing a new file in a folder that was already there removes the file alone", () => {
    mkdirSync(join(dir, "cache"));
    const fresh = join(dir, "cache", "schema.json");
    writeFileSync(join(dir, "a-file"), "");
    expect(() =>
      writeFiles([
        { path: fresh, text: "x", what: "cache" },
        { path: join(dir, "a-file", "sub", "x"), text: "y", what: "cache" },
      ]),
    ).toThrow(/cannot write the cache: .*a-file is a file, not a folder \(ENOTDIR\)$/);
    expect(readdirSync(join(dir, "cache"))).toEqual([]);
  });
});
