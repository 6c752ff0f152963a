import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StubgenError } from "../../../generator/errors.js";
import { MARKER_FILE, MARKER_TEXT, ROOT_FOLDER } from "../../../generator/write/module-marker.js";
import { checkOutput, writeOutput, type Output } from "../../../generator/write/write-output.js";
import { catchStubgenError } from "../support.js";

let tmp: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "mcp-stubgen-write-"));
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const output = (revisions: Record<string, Record<string, string>>): Output =>
  new Map(Object.entries(revisions).map(([rev, files]) => [rev, new Map(Object.entries(files))]));

/** Every file under `dir` (relative, `/`-separated) → its text. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string, prefix: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(join(at, entry.name), rel);
      else out[rel] = readFileSync(join(at, entry.name), "utf8");
    }
  };
  walk(dir, "");
  return out;
}

const stagingLeft = (dir: string) => readdirSync(dir).filter((name) => /\.tmp-/.test(name));

describe("writeOutput", () => {
  it("writes each revision's files under outDir/<revision>/", () => {
    const out = join(tmp, "out");
    writeOutput(out, output({ "2025-11-25": { "types.ts": "// types\n", "sub/x.ts": "x" }, draft: { "index.ts": "i" } }));
    expect(tree(out)).toEqual({ "2025-11-25/types.ts": "// types\n", "2025-11-25/sub/x.ts": "x", "draft/index.ts": "i" });
  });

  it("creates missing parent folders of outDir", () => {
    const out = join(tmp, "a", "b", "out");
    writeOutput(out, output({ r: { "f.ts": "f" } }));
    expect(tree(out)).toEqual({ "r/f.ts": "f" });
  });

  it("replaces an existing revision folder as a whole and leaves other folders alone", () => {
    const out = join(tmp, "out");
    writeOutput(out, output({ r1: { "old.ts": "old", "keep.ts": "v1" }, r2: { "two.ts": "2" } }));
    writeFileSync(join(out, "README.md"), "mine");
    writeOutput(out, output({ r1: { "keep.ts": "v2", "new.ts": "new" } }));
    expect(tree(out)).toEqual({ "r1/keep.ts": "v2", "r1/new.ts": "new", "r2/two.ts": "2", "README.md": "mine" });
  });

  it("leaves no .out.tmp-* staging folder behind after success", () => {
    const out = join(tmp, "out");
    writeOutput(out, output({ r: { "a.ts": "a" } }));
    writeOutput(out, output({ r: { "a.ts": "b" } }));
    expect(readdirSync(tmp)).toEqual(["out"]);
    expect(stagingLeft(tmp)).toEqual([]);
  });

  describe("when outDir is an existing file", () => {
    it("throws a StubgenError naming it and leaves everything unchanged", () => {
      const out = join(tmp, "out");
      writeFileSync(out, "not a folder");
      const err = catchStubgenError(() => writeOutput(out, output({ r: { "a.ts": "a" } })));
      expect(err.location.file).toBe(out);
      expect(err.message).toContain("file");
      expect(statSync(out).isFile()).toBe(true);
      expect(readFileSync(out, "utf8")).toBe("not a folder");
      expect(readdirSync(tmp)).toEqual(["out"]);
    });
  });

  describe("when writing fails", () => {
    // "x" as a file and "x/y.ts" cannot both be written: the write fails after staging began.
    const broken = () => output({ r: { "ok.ts": "new", x: "file", "x/y.ts": "under a file" } });

    it("throws a StubgenError and keeps an existing revision as it was", () => {
      const out = join(tmp, "out");
      writeOutput(out, output({ r: { "ok.ts": "old" } }));
      expect(() => writeOutput(out, broken())).toThrow(StubgenError);
      expect(tree(out)).toEqual({ "r/ok.ts": "old" });
    });

    it("removes the staging folder", () => {
      const out = join(tmp, "out");
      expect(() => writeOutput(out, broken())).toThrow(StubgenError);
      expect(stagingLeft(tmp)).toEqual([]);
    });

    it("does not leave behind an outDir it created", () => {
      const out = join(tmp, "out");
      expect(() => writeOutput(out, broken())).toThrow(StubgenError);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
    });

    it("removes the staging folder it made inside an existing outDir", () => {
      const out = join(tmp, "out");
      writeOutput(out, output({ r: { "ok.ts": "old" } }));
      expect(() => writeOutput(out, broken())).toThrow(StubgenError);
      expect(readdirSync(out)).toEqual(["r"]);
    });

    it("refuses a revision label that is not a plain folder name (nothing outside outDir is touched)", () => {
      const out = join(tmp, "out");
      for (const label of ["../escape", "a/b", ".hidden", ""]) {
        expect(() => writeOutput(out, output({ [label]: { "a.ts": "a" } }))).toThrow(StubgenError);
      }
      expect(readdirSync(tmp)).toEqual([]);
    });

    it("says what a bad label should be, and refuses an outDir that is a file without touching it", () => {
      expect(catchStubgenError(() => writeOutput(join(tmp, "out"), output({ "a/b": { "a.ts": "a" } }))).message).toBe(
        'expected a revision label of letters, digits, ".", "_" and "-", found "a/b"',
      );
      const file = join(tmp, "out");
      writeFileSync(file, "mine");
      const err = catchStubgenError(() => writeOutput(file, output({ r: { "a.ts": "a" } })));
      expect(err.message).toBe("cannot write the output: expected a folder, found a file");
      expect(err.location).toEqual({ file });
      expect(readFileSync(file, "utf8")).toBe("mine");
    });

    it("throws a StubgenError when the parent of outDir is a file", () => {
      writeFileSync(join(tmp, "parent"), "file");
      const out = join(tmp, "parent", "out");
      const err = catchStubgenError(() => writeOutput(out, output({ r: { "a.ts": "a" } })));
      expect(err.location.file).toBe(out);
      expect(readdirSync(tmp)).toEqual(["parent"]);
    });
  });
});

describe("checkOutput", () => {
  const wanted = () => output({ r: { "a.ts": "A", "sub/b.ts": "B" }, s: { "c.ts": "C" } });

  it("reports empty lists when the output is up to date", () => {
    const out = join(tmp, "out");
    writeOutput(out, wanted());
    expect(checkOutput(out, wanted())).toEqual({ stale: [], missing: [], extra: [] });
  });

  it("reports every file as missing when nothing was generated", () => {
    expect(checkOutput(join(tmp, "nothing"), wanted())).toEqual({
      stale: [],
      missing: [join("r", "a.ts"), join("r", "sub", "b.ts"), join("s", "c.ts")],
      extra: [],
    });
  });

  it("reports missing, stale and extra files relative to outDir", () => {
    const out = join(tmp, "out");
    writeOutput(out, wanted());
    rmSync(join(out, "r", "sub", "b.ts"));
    writeFileSync(join(out, "s", "c.ts"), "changed");
    writeFileSync(join(out, "r", "leftover.ts"), "old");
    mkdirSync(join(out, "r", "deep"));
    writeFileSync(join(out, "r", "deep", "z.ts"), "old");
    expect(checkOutput(out, wanted())).toEqual({
      stale: [join("s", "c.ts")],
      missing: [join("r", "sub", "b.ts")],
      extra: [join("r", "deep", "z.ts"), join("r", "leftover.ts")],
    });
  });

  it("reports a file edited without changing its length (one character replaced) as stale", () => {
    const out = join(tmp, "out");
    const files = output({ r: { "a.ts": "export const a = 1;\n" } });
    writeOutput(out, files);
    writeFileSync(join(out, "r", "a.ts"), "export const a = 2;\n");
    expect(statSync(join(out, "r", "a.ts")).size).toBe("export const a = 1;\n".length);
    expect(checkOutput(out, files)).toEqual({ stale: [join("r", "a.ts")], missing: [], extra: [] });
  });

  it("reports a file the generator no longer writes as extra, even when everything else is up to date", () => {
    const out = join(tmp, "out");
    writeOutput(out, wanted());
    writeFileSync(join(out, "s", "old.ts"), "old");
    expect(checkOutput(out, wanted())).toEqual({ stale: [], missing: [], extra: [join("s", "old.ts")] });
  });

  it("ignores folders of revisions it does not generate", () => {
    const out = join(tmp, "out");
    writeOutput(out, wanted());
    mkdirSync(join(out, "other"));
    writeFileSync(join(out, "other", "x.ts"), "x");
    expect(checkOutput(out, wanted())).toEqual({ stale: [], missing: [], extra: [] });
  });

  it("writes nothing", () => {
    const out = join(tmp, "out");
    checkOutput(out, wanted());
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe("writeOutput leaves unchanged files untouched", () => {
  const files = { "a.ts": "A", "sub/b.ts": "B", "c.ts": "C" };
  const stat = (path: string) => {
    const st = statSync(path);
    return { ino: st.ino, mtimeMs: st.mtimeMs };
  };
  /** inode and mtime of every file and folder below `dir`. */
  const stats = (dir: string): Record<string, { ino: number; mtimeMs: number }> => {
    const out: Record<string, { ino: number; mtimeMs: number }> = { ".": stat(dir) };
    const walk = (at: string, prefix: string) => {
      for (const entry of readdirSync(at, { withFileTypes: true })) {
        const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
        out[rel] = stat(join(at, entry.name));
        if (entry.isDirectory()) walk(join(at, entry.name), rel);
      }
    };
    walk(dir, "");
    return out;
  };
  /** Waits past the file system's mtime granularity, so a rewrite would show. */
  const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

  it("a second run with the same texts keeps every inode and mtime (files, folders, outDir) and reports nothing written", async () => {
    const out = join(tmp, "out");
    writeOutput(out, output({ r: files }));
    const before = stats(out);
    await tick();
    const report = writeOutput(out, output({ r: files }));
    expect(stats(out)).toEqual(before);
    expect(report).toEqual({ written: [], removed: [], unchanged: [join("r", "a.ts"), join("r", "sub", "b.ts"), join("r", "c.ts")] });
  });

  it("a changed file is rewritten; the others keep inode and mtime", async () => {
    const out = join(tmp, "out");
    writeOutput(out, output({ r: files }));
    const before = stats(out);
    await tick();
    const report = writeOutput(out, output({ r: { ...files, "sub/b.ts": "B2" } }));
    expect(readFileSync(join(out, "r", "sub", "b.ts"), "utf8")).toBe("B2");
    const after = stats(out);
    expect(after["r/sub/b.ts"]).not.toEqual(before["r/sub/b.ts"]);
    expect(after["r/a.ts"]).toEqual(before["r/a.ts"]);
    expect(after["r/c.ts"]).toEqual(before["r/c.ts"]);
    expect(report.written).toEqual([join("r", "sub", "b.ts")]);
    expect(stagingLeft(out)).toEqual([]);
  });

  it("a stale file (and the folder it leaves empty) is removed; a new file is added", () => {
    const out = join(tmp, "out");
    writeOutput(out, output({ r: files }));
    mkdirSync(join(out, "r", "old", "deeper"), { recursive: true });
    writeFileSync(join(out, "r", "old", "deeper", "gone.ts"), "stale");
    writeFileSync(join(out, "r", "stale.ts"), "stale");
    const report = writeOutput(out, output({ r: { ...files, "d.ts": "D" } }));
    expect(tree(out)).toEqual({ "r/a.ts": "A", "r/sub/b.ts": "B", "r/c.ts": "C", "r/d.ts": "D" });
    expect(existsSync(join(out, "r", "old"))).toBe(false);
    expect(report.removed).toEqual([join("r", "old", "deeper", "gone.ts"), join("r", "stale.ts")]);
    expect(report.written).toEqual([join("r", "d.ts")]);
  });

  it("a file where a folder was (and the other way round) is swapped in", () => {
    const out = join(tmp, "out");
    writeOutput(out, output({ r: { "x/y.ts": "Y", z: "Z" } }));
    writeOutput(out, output({ r: { x: "X", "z/w.ts": "W" } }));
    expect(tree(out)).toEqual({ "r/x": "X", "r/z/w.ts": "W" });
  });

  describe("a failure part-way through the swap leaves the folder exactly as it was", () => {
    // Old: a, sub/b, c, stale/s. New: a changed, sub/b kept, c gone, stale/ gone, d and e/f new.
    const oldFiles = { "a.ts": "A", "sub/b.ts": "B", "c.ts": "C", "stale/s.ts": "S" };
    const newFiles = { "a.ts": "A2", "sub/b.ts": "B", "d.ts": "D", "e/f.ts": "F" };

    /** How many steps a successful write of newFiles over oldFiles takes. */
    const countSteps = () => {
      const out = join(tmp, "count");
      writeOutput(out, output({ r: oldFiles }));
      let steps = 0;
      writeOutput(out, output({ r: newFiles }), { beforeStep: () => void steps++ });
      rmSync(out, { recursive: true, force: true });
      return steps;
    };

    it("after every possible step", async () => {
      const steps = countSteps();
      expect(steps).toBeGreaterThanOrEqual(6); // remove ×2, rmdir, replace, create ×2, mkdir
      for (let failAt = 0; failAt < steps; failAt++) {
        const out = join(tmp, `out-${failAt}`);
        writeOutput(out, output({ r: oldFiles, other: { "o.ts": "O" } }));
        writeFileSync(join(out, "README.md"), "mine");
        const before = stats(out);
        await tick();
        let seen = 0;
        const err = catchStubgenError(() =>
          writeOutput(out, output({ r: newFiles }), {
            beforeStep: () => {
              if (seen++ === failAt) throw Object.assign(new Error("disk full"), { code: "ENOSPC" });
            },
          }),
        );
        expect(err.format(), `fail at step ${failAt}`).toBe(`${out}: cannot write the output folder: no space left on the device (ENOSPC)`);
        expect(tree(out), `fail at step ${failAt}`).toEqual({
          "r/a.ts": "A",
          "r/sub/b.ts": "B",
          "r/c.ts": "C",
          "r/stale/s.ts": "S",
          "other/o.ts": "O",
          "README.md": "mine",
        });
        // same inodes for every file that was there (mtimes of folders may move)
        const after = stats(out);
        for (const path of Object.keys(before).filter((p) => p.endsWith(".ts") || p.endsWith(".md"))) {
          expect(after[path], `${path}, fail at step ${failAt}`).toEqual(before[path]);
        }
        expect(stagingLeft(out)).toEqual([]);
      }
    });
  });
});

describe("the output root's files (ROOT_FOLDER: the ES module marker of --emit js)", () => {
  it("writes the marker beside the revision folders, leaves the user's other files alone, and removes it when its set is empty", () => {
    const out = join(tmp, "out");
    mkdirSync(out);
    writeFileSync(join(out, "README.md"), "mine");
    const report = writeOutput(out, output({ r: { "a.js": "a" }, [ROOT_FOLDER]: { [MARKER_FILE]: MARKER_TEXT } }));
    expect(report.written).toEqual([join("r", "a.js"), "package.json"]);
    expect(tree(out)).toEqual({ "README.md": "mine", "r/a.js": "a", "package.json": MARKER_TEXT });
    expect(checkOutput(out, output({ r: { "a.js": "a" }, [ROOT_FOLDER]: { [MARKER_FILE]: MARKER_TEXT } }))).toEqual({ stale: [], missing: [], extra: [] });
    // The user's README.md is not the output's: never extra, never removed.
    expect(checkOutput(out, output({ r: { "a.js": "a" }, [ROOT_FOLDER]: {} }))).toEqual({ stale: [], missing: [], extra: ["package.json"] });
    expect(writeOutput(out, output({ [ROOT_FOLDER]: {} })).removed).toEqual(["package.json"]);
    expect(tree(out)).toEqual({ "README.md": "mine", "r/a.js": "a" });
  });

  it("writes nothing but the marker there", () => {
    const out = join(tmp, "out");
    expect(catchStubgenError(() => writeOutput(out, output({ [ROOT_FOLDER]: { "index.js": "x" } }))).message).toBe(
      'only package.json is written to the output folder itself, found "index.js"',
    );
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("never replaces or removes a package.json that is not the marker", () => {
    const out = join(tmp, "out");
    mkdirSync(out);
    writeFileSync(join(out, "package.json"), '{"name":"mine"}');
    expect(() => writeOutput(out, output({ [ROOT_FOLDER]: { [MARKER_FILE]: MARKER_TEXT } }))).toThrow(StubgenError);
    expect(writeOutput(out, output({ [ROOT_FOLDER]: {} })).removed).toEqual([]);
    expect(checkOutput(out, output({ [ROOT_FOLDER]: {} })).extra).toEqual([]);
    expect(tree(out)).toEqual({ "package.json": '{"name":"mine"}' });
  });
});
