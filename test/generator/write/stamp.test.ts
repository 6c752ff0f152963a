/**
 * generator/write/stamp.ts through the programmatic API: a second generate() with the same inputs
 * is skipped and says so, `force` generates, and a stamp is read as untrusted input (an entry
 * naming folders outside the output is ignored, never followed).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../../generator/generate.js";
import { MAX_STAMP_FILES, stampPath } from "../../../generator/write/stamp.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";

const REV = "2025-06-18";
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(): { out: string; cacheDir: string } {
  const root = mkdtempSync(join(tmpdir(), "stubgen-stamp-"));
  dirs.push(root);
  const cacheDir = join(root, "cache");
  mkdirSync(cacheDir);
  cpSync(join(TEST_CACHE_DIR, REV), join(cacheDir, REV), { recursive: true });
  return { out: join(root, "out"), cacheDir };
}

describe("generate() and its stamp", () => {
  it("--emit js: an unchanged run is skipped with the root's package.json marker in place; a removed marker (or a user's README beside it) is seen", async () => {
    const { out, cacheDir } = project();
    const first = await generate({ revisions: [REV], out, cacheDir, emit: "js" });
    expect(readFileSync(join(out, "package.json"), "utf8")).toContain('"type": "module"');
    // A file of the user's at the root is not the output's: the run stays up to date.
    writeFileSync(join(out, "README.md"), "# mine\n");
    expect(await generate({ revisions: [REV], out, cacheDir, emit: "js" })).toEqual({ ...first, changed: [], upToDate: true });
    rmSync(join(out, "package.json"));
    const again = await generate({ revisions: [REV], out, cacheDir, emit: "js" });
    expect(again.upToDate).toBeUndefined();
    expect(again.changed).toEqual(["package.json"]);
    expect(readFileSync(join(out, "package.json"), "utf8")).toContain('"type": "module"');
    expect(readFileSync(join(out, "README.md"), "utf8")).toBe("# mine\n");
  });

  it("skips an unchanged run (same result, upToDate) and generates with force", async () => {
    const { out, cacheDir } = project();
    const first = await generate({ revisions: [REV], out, cacheDir });
    expect(first.upToDate).toBeUndefined();
    const second = await generate({ revisions: [REV], out, cacheDir });
    expect(first.changed?.length).toBe(first.runtime.length + (first.revisions[0]?.files.length ?? 0));
    expect(second).toEqual({ ...first, changed: [], upToDate: true });
    // forced over files already as generated: nothing written, which `changed` says
    const forced = await generate({ revisions: [REV], out, cacheDir, force: true });
    expect(forced).toEqual({ ...first, changed: [] });
  });

  it("a strict-objects run is not the default run's", async () => {
    const { out, cacheDir } = project();
    await generate({ revisions: [REV], out, cacheDir });
    const strict = await generate({ revisions: [REV], out, cacheDir, strictObjects: true });
    expect(strict.upToDate).toBeUndefined();
  });

  it("ignores a stamp entry whose folders leave the output folder", async () => {
    const { out, cacheDir } = project();
    await generate({ revisions: [REV], out, cacheDir });
    const file = stampPath(cacheDir, out);
    const stamp = JSON.parse(readFileSync(file, "utf8")) as { entries: Array<{ folders: Record<string, unknown> }> };
    for (const entry of stamp.entries) entry.folders = { "../../elsewhere": {} };
    writeFileSync(file, JSON.stringify(stamp));
    const r = await generate({ revisions: [REV], out, cacheDir });
    expect(r.upToDate).toBeUndefined();
  });

  it(`keeps at most ${MAX_STAMP_FILES} stamps per cache, dropping the least recently written`, async () => {
    const { out, cacheDir } = project();
    const dir = dirname(stampPath(cacheDir, out));
    mkdirSync(dir, { recursive: true });
    const old = new Date(Date.now() - 86_400_000);
    for (let i = 0; i < MAX_STAMP_FILES + 10; i++) {
      const file = join(dir, `${i.toString(16).padStart(32, "0")}.json`);
      writeFileSync(file, "{}");
      utimesSync(file, old, old);
    }
    await generate({ revisions: [REV], out, cacheDir });
    const left = readdirSync(dir).filter((n) => n.endsWith(".json"));
    expect(left).toHaveLength(MAX_STAMP_FILES);
    expect(left).toContain(stampPath(cacheDir, out).slice(dir.length + 1));
    expect((await generate({ revisions: [REV], out, cacheDir })).upToDate).toBe(true);
  });
});
