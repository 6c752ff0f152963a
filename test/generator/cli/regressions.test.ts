/**
 * Regression tests of CLI bugs found while writing the end-to-end tests (fixed since):
 *
 * 1. `"all": true` in the config beats `--revision` on the command line (docs/config.md: "Flags on the
 *    command line win over it"): generator/cli/main.ts `options()` passes both `revisions` (from the
 *    flag) and `all` (from the config), and generator/generate.ts `selectRevisions()` checks
 *    `all` first.
 * 2. An output folder on another file system than its parent (a symlink to another mount, or a
 *    mount point such as a bind-mounted `out/` in a container) can never be written:
 *    generator/write/write-output.ts stages beside `resolve(outDir)` (the link or mount point, not the
 *    real folder) and then `renameSync`s across file systems, which fails with EXDEV; the
 *    message is only "cannot write the output folder: EXDEV".
 */
import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileList, runCli, tempDirs, TEST_CACHE_DIR, wroteLines } from "./support.js";

const tmp = tempDirs();

describe("known bugs (these tests fail until fixed)", () => {
  it('BUG: --revision on the command line wins over "all": true in the config', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify({ all: true, out: "gen", cache: TEST_CACHE_DIR }));
    const r = await runCli(["generate", "--revision", "2025-11-25"], cwd);
    expect(r.code, r.stderr).toBe(0);
    // today: all six revisions are written
    expect([...wroteLines(r.stdout).keys()]).toEqual(["gen/runtime", "gen/2025-11-25"]);
    expect([...new Set(fileList(join(cwd, "gen")).map((f) => f.split("/")[0]))]).toEqual(["2025-11-25", "runtime"]);
  });

  describe("an output folder on another file system", () => {
    // /dev/shm is a tmpfs on Linux; when it is not on another device than the temp folder
    // there is nothing to reproduce here and the test checks the plain symlink case instead.
    const otherFs = (() => {
      try {
        return statSync("/dev/shm").isDirectory() && statSync("/dev/shm").dev !== statSync(tmpdir()).dev ? "/dev/shm" : tmpdir();
      } catch {
        return tmpdir();
      }
    })();
    const made: string[] = [];
    afterAll(() => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    });

    it(`BUG: --out as a symlink to a folder on another file system (${otherFs}) is written, not refused with EXDEV`, async () => {
      const cwd = tmp();
      const real = mkdtempSync(join(otherFs, "stubgen-cli-out-"));
      made.push(real);
      symlinkSync(real, join(cwd, "OUT"));
      const r = await runCli(["generate", "--revision", "2025-11-25", "--out", "OUT", "--cache", TEST_CACHE_DIR], cwd);
      // today: exit 1, "mcp-stubgen: error: OUT: cannot write the output folder: EXDEV"
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(fileList(real)).toContain("2025-11-25/types.ts");
    });
  });
});
