/**
 * The pinned tools of conformance/package.json (the official suite and the `node` package, a
 * Node 22), installed into conformance/node_modules on first use. Shared by `npm run
 * conformance` (run.mjs) and the tests that need a Node 22 (test/vendoring/import-ext-ts.test.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = dirname(HERE);
export const MODULES = join(HERE, "node_modules");
export const SUITE_PACKAGE = join(MODULES, "@modelcontextprotocol", "conformance");
/** The Node 22 binary of the pinned `node` package. */
export const NODE22 = join(MODULES, ".bin", "node");

/** Installs conformance/node_modules (npm ci) unless the suite and Node 22 are already there. */
export function ensureInstalled() {
  if (existsSync(join(SUITE_PACKAGE, "package.json")) && existsSync(NODE22)) return;
  console.log(`conformance: installing ${relative(process.cwd(), MODULES) || "."} (npm ci)`);
  const result = spawnSync("npm", ["ci", "--prefix", HERE, "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm ci --prefix ${relative(process.cwd(), HERE) || "."} failed (exit ${result.status ?? result.signal})`);
}
