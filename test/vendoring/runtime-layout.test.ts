/**
 * `runtime: "shared"` (the default) and `"inline"` (`--runtime`, config key `runtime`): the
 * shared output has exactly one copy of each runtime file, in `<out>/runtime/`, and none in the
 * revision folders; the inline output is self-contained (no import outside its folder) and
 * compiles alone; switching between the two leaves no stale copies; `--check` covers
 * `<out>/runtime/`; `runtime` is no revision label.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StubgenError } from "../../generator/errors.js";
import { generate } from "../../generator/generate.js";
import { moduleSpecifiers } from "../../generator/emit/import-specifiers.js";
import { REEXPORTED_RUNTIME_FILES, RUNTIME_FILES } from "../../generator/emit/render.js";
import { fileList, lines, runCli } from "../generator/cli/support.js";
import { TEST_CACHE_DIR } from "../helpers/schemas.js";
import { filesBelow, runTsc, VENDOR_FLAGS } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "mcp-stubgen-runtime-layout-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(scratch, `case-${++n}`);

const REVS = ["2025-11-25", "2026-07-28"];
const RUNTIME = RUNTIME_FILES.map((f) => `${f}.ts`).sort();
const folders = (out: string) => [...new Set(fileList(out).map((f) => f.split("/")[0]!))].sort();

describe('runtime "shared" (the default)', () => {
  it("writes exactly one copy of each runtime file, in <out>/runtime/, and none in the revision folders (stdio.ts there is a one-line re-export)", async () => {
    const out = fresh();
    const result = await generate({ revisions: REVS, out, cacheDir: TEST_CACHE_DIR });
    // every-era/: the one server of every revision generated (two here), beside them.
    expect(folders(out)).toEqual([...REVS, "every-era", "runtime"].sort());
    expect(filesBelow(join(out, "every-era"))).toEqual(["index.ts"]);
    expect(filesBelow(join(out, "runtime"))).toEqual(RUNTIME);
    expect([...result.runtime].sort()).toEqual(RUNTIME);
    for (const rev of REVS) {
      const files = readdirSync(join(out, rev)).sort();
      expect(files, rev).toEqual(["catalog.ts", "client.ts", "index.ts", "server.ts", "types.ts", "validators.ts", ...REEXPORTED_RUNTIME_FILES.map((f) => `${posix.basename(f)}.ts`)].sort());
      const stdio = readFileSync(join(out, rev, "stdio.ts"), "utf8");
      expect(stdio.split("\n").filter((l) => l !== "" && !l.startsWith("//"))).toEqual(['export * from "../runtime/transports/stdio.js";']);
      // Every import leaving the folder goes to ../runtime/, to a file that is there.
      for (const file of files) {
        for (const s of moduleSpecifiers(file, readFileSync(join(out, rev, file), "utf8"))) {
          if (!s.text.startsWith("./")) expect(RUNTIME, `${rev}/${file}: ${s.text}`).toContain(s.text.replace(/^\.\.\/runtime\/(.+)\.js$/, "$1.ts"));
        }
      }
    }
  });

  it("--check covers <out>/runtime/: an edited runtime file is stale, a stray one is not generated", async () => {
    const out = fresh();
    await generate({ revisions: ["2025-11-25"], out, cacheDir: TEST_CACHE_DIR });
    writeFileSync(join(out, "runtime", "core", "outgoing.ts"), "// edited\n");
    writeFileSync(join(out, "runtime", "extra.ts"), "// stray\n");
    mkdirSync(join(out, "runtime", "old"));
    writeFileSync(join(out, "runtime", "old", "stray.ts"), "// stray in a folder of its own\n");
    const { check } = await generate({ revisions: ["2025-11-25"], out, cacheDir: TEST_CACHE_DIR, check: true });
    expect(check).toEqual({ stale: [join("runtime", "core", "outgoing.ts")], missing: [], extra: [join("runtime", "extra.ts"), join("runtime", "old", "stray.ts")] });
    await generate({ revisions: ["2025-11-25"], out, cacheDir: TEST_CACHE_DIR });
    // The regeneration removes the stray files and the folder they leave empty.
    expect(filesBelow(join(out, "runtime"))).toEqual(RUNTIME);
    expect(readdirSync(join(out, "runtime")).sort()).toEqual(["core", "facade", "features", "http", "transports"]);
  });
});

describe('runtime "inline"', () => {
  it("writes a self-contained revision folder: every runtime file in it, no import outside it, no <out>/runtime/", async () => {
    const out = fresh();
    const result = await generate({ revisions: ["2025-11-25"], out, cacheDir: TEST_CACHE_DIR, runtime: "inline" });
    expect(result.runtime).toEqual([]);
    expect(folders(out)).toEqual(["2025-11-25"]);
    const files = filesBelow(join(out, "2025-11-25"));
    for (const name of RUNTIME) expect(files).toContain(name);
    for (const file of files) {
      for (const s of moduleSpecifiers(file, readFileSync(join(out, "2025-11-25", file), "utf8"))) {
        expect(s.text, file).toMatch(/^(\.\/|(\.\.\/)+)([a-z-]+\/)*[a-z-]+\.js$/);
        // Resolved against the importing file, it names a file of the folder (none outside it).
        const target = posix.join(posix.dirname(file), s.text).replace(/\.js$/, ".ts");
        expect(files, `${file}: ${s.text}`).toContain(target);
      }
    }
  });

  it("compiles alone, copied to a folder of its own, under the vendoring flags", async () => {
    const out = fresh();
    await generate({ revisions: ["2026-07-28"], out, cacheDir: TEST_CACHE_DIR, runtime: "inline" });
    const project = fresh();
    const alone = join(project, "vendor", "mcp");
    cpSync(join(out, "2026-07-28"), alone, { recursive: true });
    writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
    const files = filesBelow(alone).map((f) => join(alone, f));
    const { status, output } = runTsc([...VENDOR_FLAGS, "--lib", "ES2022", "--types", "node", ...files]);
    expect(output).toBe("");
    expect(status).toBe(0);
  });
});

describe("switching between shared and inline", () => {
  it("leaves no stale copies either way", async () => {
    const out = fresh();
    await generate({ revisions: REVS, out, cacheDir: TEST_CACHE_DIR });
    const shared = fileList(out);

    await generate({ revisions: REVS, out, cacheDir: TEST_CACHE_DIR, runtime: "inline" });
    expect(folders(out)).toEqual(REVS);
    for (const rev of REVS) for (const name of RUNTIME) expect(fileList(out)).toContain(`${rev}/${name}`);
    expect((await generate({ revisions: REVS, out, cacheDir: TEST_CACHE_DIR, runtime: "inline", check: true })).check).toEqual({ stale: [], missing: [], extra: [] });

    await generate({ revisions: REVS, out, cacheDir: TEST_CACHE_DIR });
    expect(fileList(out)).toEqual(shared);
  });

  it("keeps <out>/runtime/ while a revision folder not generated now still imports it", async () => {
    const out = fresh();
    await generate({ revisions: REVS, out, cacheDir: TEST_CACHE_DIR });
    await generate({ revisions: ["2025-11-25"], out, cacheDir: TEST_CACHE_DIR, runtime: "inline" });
    expect(filesBelow(join(out, "runtime"))).toEqual(RUNTIME);
    expect(filesBelow(join(out, "2026-07-28"))).not.toContain("core/outgoing.ts");
    // once no folder imports it any more, it goes
    await generate({ revisions: REVS, out, cacheDir: TEST_CACHE_DIR, runtime: "inline" });
    expect(folders(out)).toEqual(REVS);
  });
});

describe("the runtime label and the CLI", () => {
  it('"runtime" is no revision label: generate rejects it and writes nothing', async () => {
    const out = fresh();
    const error = await generate({ schema: join(TEST_CACHE_DIR, "2025-11-25", "schema.json"), revisions: ["runtime"], out }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StubgenError);
    expect((error as StubgenError).format()).toMatch(/^a revision cannot be labelled "runtime": <out>\/runtime\/ holds the runtime the revisions share/);
    expect(fileList(scratch).filter((f) => f.startsWith(`case-${n}/`))).toEqual([]);
  });

  it("--runtime inline and the config key runtime choose the layout; --runtime wins; a bad value is one error line", async () => {
    const cwd = fresh();
    mkdirSync(cwd);
    const base = ["generate", "-r", "2024-11-05", "--cache", TEST_CACHE_DIR, "--out", "gen"];
    const inline = await runCli([...base, "--runtime", "inline"], cwd);
    expect(inline.code, inline.stderr).toBe(0);
    expect(folders(join(cwd, "gen"))).toEqual(["2024-11-05"]);

    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify({ runtime: "inline" }));
    const shared = await runCli([...base, "--runtime", "shared"], cwd);
    expect(shared.code, shared.stderr).toBe(0);
    // The runtime's files, core/ first (its endpoint among them), then the other folders.
    const wrote = lines(shared.stdout)[0] ?? "";
    expect(wrote).toMatch(/^wrote gen\/runtime\/ \(core\/[a-z-]+\.ts, core\/[a-z-]+\.ts, /);
    expect(wrote).toContain("core/endpoint.ts");
    expect(folders(join(cwd, "gen"))).toEqual(["2024-11-05", "runtime"]);
    const fromConfig = await runCli(base, cwd);
    expect(fromConfig.code, fromConfig.stderr).toBe(0);
    expect(folders(join(cwd, "gen"))).toEqual(["2024-11-05"]);

    const bad = await runCli([...base, "--runtime", "copy"], cwd);
    expect(bad.code).toBe(1);
    expect(lines(bad.stderr)).toEqual(['mcp-stubgen: error: --runtime takes shared or inline, got "copy" (see mcp-stubgen --help)']);
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify({ runtime: "copy" }));
    const badConfig = await runCli(base, cwd);
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toContain('mcp-stubgen.config.json#/runtime: invalid config: expected "shared" or "inline"');
  });
});
