/**
 * The output transforms load TypeScript (through ts-morph) only when an option needs them: a
 * plain `generate` never does, `importExtension: ".ts"` and `emit: "js"` do. Each case runs in
 * a fresh Node on the built package (dist/), where ts-morph, a CommonJS package, shows up in
 * the CommonJS module cache once loaded.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../generator/project.js";
import { TEST_CACHE_DIR } from "../helpers/schemas.js";

const out = mkdtempSync(join(tmpdir(), "mcp-stubgen-lazy-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Runs one generate (check only) in a fresh Node; returns the TypeScript modules it loaded. */
function typescriptModulesLoaded(options: object): string[] {
  const script = `
    import { createRequire } from "node:module";
    const { generate } = await import(${JSON.stringify(join(PACKAGE_ROOT, "dist", "generator", "index.js"))});
    await generate({ revisions: ["2025-11-25"], out: ${JSON.stringify(out)}, cacheDir: ${JSON.stringify(TEST_CACHE_DIR)}, check: true, ...${JSON.stringify(options)} });
    const cache = createRequire(import.meta.url).cache;
    console.log(JSON.stringify(Object.keys(cache).filter((k) => /[\\\\/](ts-morph|typescript|@ts-morph)[\\\\/]/.test(k))));
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: PACKAGE_ROOT, encoding: "utf8", timeout: 60_000 });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

describe("TypeScript is loaded lazily", () => {
  it("not at all by a plain generate", () => {
    expect(typescriptModulesLoaded({})).toEqual([]);
  });

  it.each([{ importExtension: ".ts" }, { emit: "js" }])("by generate with %o", (options) => {
    expect(typescriptModulesLoaded(options).some((path) => /ts-morph/.test(path))).toBe(true);
  });
});
