/**
 * The programmatic entry point build scripts use: `generate` from the package index.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate, StubgenError } from "../../../generator/index.js";
import { fileList, manifestSha256, stagingLeftovers, tempDirs, TEST_CACHE_DIR } from "./support.js";

const tmp = tempDirs();

describe("import { generate } from the package index", () => {
  it("generates {revisions, out, cacheDir} and reports what it wrote; check: true then finds it up to date", async () => {
    const cwd = tmp();
    const out = join(cwd, "src", "mcp");
    const result = await generate({ revisions: ["2024-11-05"], out, cacheDir: TEST_CACHE_DIR });
    expect(result.outDir).toBe(out);
    expect(result.check).toBeUndefined();
    expect(result.revisions.map((r) => r.revision)).toEqual(["2024-11-05"]);
    const files = fileList(out);
    expect(result.runtime.length).toBeGreaterThan(0);
    expect(files).toEqual([...result.runtime.map((f) => `runtime/${f}`), ...result.revisions[0]!.files.map((f) => `2024-11-05/${f}`)].sort());
    for (const name of ["types.ts", "catalog.ts", "index.ts"]) expect(files).toContain(`2024-11-05/${name}`);
    expect(readFileSync(join(out, "2024-11-05", "types.ts"), "utf8")).toContain(manifestSha256("2024-11-05"));
    expect(stagingLeftovers(join(cwd, "src"))).toEqual([]);

    const checked = await generate({ revisions: ["2024-11-05"], out, cacheDir: TEST_CACHE_DIR, check: true });
    expect(checked.check).toEqual({ stale: [], missing: [], extra: [] });
  });

  it("bad input rejects with a StubgenError whose format() is the one-line message", async () => {
    const cwd = tmp();
    const error = await generate({ revisions: ["1999-01-01"], out: join(cwd, "out"), cacheDir: TEST_CACHE_DIR }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(StubgenError);
    expect((error as StubgenError).format()).toMatch(/^unknown revision "1999-01-01"; expected one of /);
    expect(fileList(cwd)).toEqual([]);
  });
});
