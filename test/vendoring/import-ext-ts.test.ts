/**
 * `importExtension: ".ts"` (`--import-ext ts`): the generated files import each other as
 * `./name.ts`, so the sources run as they are under Node's type stripping (Node 22, the one
 * pinned in conformance/package.json, installed the way `npm run conformance` installs it) and
 * type-check under tsc with allowImportingTsExtensions and the vendoring flags.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureInstalled, NODE22 } from "../../conformance/install.mjs";
import { generate } from "../../generator/generate.js";
import { TEST_CACHE_DIR, TEST_OUT_DIR } from "../helpers/schemas.js";
import { moduleSpecifiers } from "../../generator/emit/import-specifiers.js";
import { EXPECTED_WIRE, pingAndCancelScript, type ScriptReport } from "./scripts.js";
import { filesBelow, runTsc, VENDOR_FLAGS } from "./support.js";

const REVISION = "2025-11-25";
let dir: string;
let out: string;

beforeAll(async () => {
  ensureInstalled();
  dir = mkdtempSync(join(tmpdir(), "mcp-stubgen-import-ext-"));
  out = join(dir, "out");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  await generate({ revisions: [REVISION], out, cacheDir: TEST_CACHE_DIR, importExtension: ".ts" });
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('importExtension ".ts"', () => {
  it.each([REVISION, "runtime"])("%s/: imports every generated file as ….ts (./name.ts, ../../core/name.ts, ../runtime/http/server/name.ts), and changes nothing else", (folder) => {
    const files = filesBelow(join(out, folder));
    // test/generated has MCP Apps beside the revisions: its runtime/apps/ comes only with --extension apps.
    expect(files).toEqual(filesBelow(join(TEST_OUT_DIR, folder)).filter((f) => !f.startsWith("apps/")));
    for (const file of files) {
      const text = readFileSync(join(out, folder, file), "utf8");
      const relative = moduleSpecifiers(file, text).filter((s) => s.text.startsWith("."));
      for (const s of relative) expect(s.text, file).toMatch(/^(\.\/|(\.\.\/)+)([a-z-]+\/)*[a-z-]+\.ts$/);
      // Undo the rewrite: the default output, byte for byte.
      const back = relative.reduceRight((t, s) => `${t.slice(0, s.end - 2)}js${t.slice(s.end)}`, text);
      expect(back, file).toBe(readFileSync(join(TEST_OUT_DIR, folder, file), "utf8"));
    }
  });

  it("runs under Node 22's type stripping: a TypeScript script imports index.ts, pings and cancels a call over the in-memory pair", () => {
    const script = join(dir, "ping.ts");
    writeFileSync(script, pingAndCancelScript(`./out/${REVISION}/index.ts`, true));
    const run = spawnSync(NODE22, ["--experimental-strip-types", "--no-warnings", script], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ScriptReport;
    expect(report.node).toMatch(/^v22\./);
    expect(report.pong).toEqual({});
    expect(report.error).toEqual({ name: "AbortError", isRequestCancelledError: true });
    expect(report.serverSawAbort).toBe("user gave up");
    expect(report.wire).toEqual(EXPECTED_WIRE);
  });

  it("type-checks under tsc with allowImportingTsExtensions and the vendoring flags", () => {
    const files = [REVISION, "runtime"].flatMap((folder) => filesBelow(join(out, folder)).map((f) => join(out, folder, f)));
    const { status, output } = runTsc([...VENDOR_FLAGS, "--allowImportingTsExtensions", "--lib", "ES2022,DOM", "--types", "", ...files]);
    expect(output).toBe("");
    expect(status).toBe(0);
  });
});
