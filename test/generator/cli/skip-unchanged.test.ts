/**
 * `generate` skips work when the schema bytes, the options and the generator are those of the
 * last run and its files are on disk as it wrote them (generator/write/stamp.ts; issue 30,
 * item 6). Anything else regenerates: an edited, deleted or added output file, a changed option,
 * a changed schema, a damaged stamp. `--check` never writes a stamp.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { stampPath } from "../../../generator/write/stamp.js";
import { lines, runCli, snapshot, tempDirs, TEST_CACHE_DIR, wroteLines } from "./support.js";

const tmp = tempDirs("stubgen-skip-");
const REV = "2025-11-25";
const UP_TO_DATE = `up to date: OUT/runtime/, OUT/${REV}/ (schema, options and generator unchanged; nothing written; --force to generate anyway)\n`;

describe("generate skips an unchanged run", () => {
  let cwd: string;
  let cache: string;
  const gen = (...extra: string[]) => runCli(["generate", "-r", REV, "--out", "OUT", "--cache", cache, ...extra], cwd);

  beforeEach(async () => {
    cwd = tmp();
    cache = join(cwd, "cache");
    mkdirSync(cache);
    cpSync(join(TEST_CACHE_DIR, REV), join(cache, REV), { recursive: true });
    const first = await gen();
    expect(first.code, first.stderr).toBe(0);
    expect([...wroteLines(first.stdout).keys()]).toEqual(["OUT/runtime", `OUT/${REV}`]);
  });

  it("an unchanged run writes nothing and says so", async () => {
    const before = snapshot(cwd);
    const r = await gen();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(UP_TO_DATE);
    expect(snapshot(cwd)).toEqual(before);
  });

  it("the stamp lives in the cache, not in the output folder", () => {
    expect(existsSync(stampPath(cache, join(cwd, "OUT")))).toBe(true);
    expect(readdirSync(join(cwd, "OUT")).sort()).toEqual([REV, "runtime"]);
  });

  it("an edited output file is rewritten", async () => {
    const file = join(cwd, "OUT", REV, "index.ts");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, `${original}// edited\n`);
    const r = await gen();
    expect(r.code, r.stderr).toBe(0);
    expect([...wroteLines(r.stdout).keys()]).toContain(`OUT/${REV}`);
    expect(readFileSync(file, "utf8")).toBe(original);
    expect((await gen()).stdout).toBe(UP_TO_DATE);
  });

  it("a deleted output file is written again, and a file added to a generated folder is removed", async () => {
    const gone = join(cwd, "OUT", "runtime", "core", "protocol.ts");
    const text = readFileSync(gone, "utf8");
    rmSync(gone);
    const r = await gen();
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(gone, "utf8")).toBe(text);
    const stray = join(cwd, "OUT", REV, "stray.ts");
    writeFileSync(stray, "export {};\n");
    const r2 = await gen();
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stdout).not.toBe(UP_TO_DATE);
    expect(existsSync(stray)).toBe(false);
  });

  it("a changed option regenerates", async () => {
    const r = await gen("--import-ext", "ts");
    expect(r.code, r.stderr).toBe(0);
    expect(wroteLines(r.stdout).has(`OUT/${REV}`)).toBe(true);
    expect(readFileSync(join(cwd, "OUT", REV, "index.ts"), "utf8")).toMatch(/from "\.\/[a-z-]+\.ts"/);
    // and back: the first options' files are written again
    const back = await gen();
    expect(wroteLines(back.stdout).has(`OUT/${REV}`)).toBe(true);
    expect(readFileSync(join(cwd, "OUT", REV, "index.ts"), "utf8")).not.toMatch(/from "\.\/[a-z-]+\.ts"/);
  });

  it("a different schema file (same revision, other bytes) is not skipped", async () => {
    const schema = join(cache, REV, "schema.json");
    writeFileSync(schema, `${readFileSync(schema, "utf8")}\n`);
    const r = await gen();
    // the cache's sha256 check now refuses it: proof the run did not skip on the stamp
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/does not match its sha256/);
  });

  it("--force generates, and over files already as generated says unchanged, not wrote (issue 30, polish)", async () => {
    const r = await gen("--force");
    expect(r.code, r.stderr).toBe(0);
    expect([...wroteLines(r.stdout).keys()]).toEqual([]);
    expect(lines(r.stdout).map((l) => l.replace(/ \(.*\)$/, ""))).toEqual(["unchanged: OUT/runtime/", `unchanged: OUT/${REV}/`]);
    expect(lines(r.stdout)[0]).toMatch(/^unchanged: OUT\/runtime\/ \(\d+ files already as generated; nothing written\)$/);
  });

  it("a damaged or oversized stamp means generate, never a crash", async () => {
    const stamp = stampPath(cache, join(cwd, "OUT"));
    for (const text of ["{not json", JSON.stringify({ format: 1, entries: [{ key: 1 }] }), "[]", " ".repeat(5 * 1024 * 1024)]) {
      writeFileSync(stamp, text);
      const r = await gen();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/^unchanged: OUT\/runtime\/ /m); // generated again (not skipped), finding the files as they were
    }
    expect((await gen()).stdout).toBe(UP_TO_DATE);
  });

  it("--check never writes a stamp, and reports an edit the stamp would not vouch for", async () => {
    const out2 = ["generate", "-r", REV, "--out", "OUT2", "--cache", cache];
    const check = await runCli([...out2, "--check"], cwd);
    expect(check.code).toBe(1);
    expect(existsSync(stampPath(cache, join(cwd, "OUT2")))).toBe(false);
    const file = join(cwd, "OUT", REV, "types.ts");
    writeFileSync(file, "// edited\n");
    const before = snapshot(cwd);
    const r = await gen("--check");
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toContain(`stale: OUT/${REV}/types.ts`);
    expect(snapshot(cwd)).toEqual(before);
  });
});
