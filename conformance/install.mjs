/**
 * The pinned tools of conformance/package.json (the official suite and the `node` package, a
 * Node 22), installed into conformance/node_modules on first use. Shared by `npm run
 * conformance` (run.mjs) and the tests that need a Node 22 (test/vendoring/import-ext-ts.test.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = dirname(HERE);
export const MODULES = join(HERE, "node_modules");
/** The Node 22 binary of the pinned `node` package. */
export const NODE22 = join(MODULES, ".bin", "node");

/** The version of an installed package, or undefined when it is not installed. */
function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(join(MODULES, ...name.split("/"), "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/** The version a dependency pins: "1.2.3", or the version of an npm alias ("npm:pkg@1.2.3"). */
export const pinnedVersion = (spec) => /^npm:.+@([^@]+)$/.exec(spec)?.[1] ?? spec;

/** conformance/package.json's dependencies: name (the folder under node_modules, an alias's name) → spec. */
export const dependencies = () => JSON.parse(readFileSync(join(HERE, "package.json"), "utf8")).dependencies ?? {};

/**
 * True when every dependency of conformance/package.json is installed at its pinned version (an
 * earlier pin left in node_modules, such as a previous suite release, does not count).
 */
function installedAsPinned() {
  return existsSync(NODE22) && Object.entries(dependencies()).every(([name, spec]) => installedVersion(name) === pinnedVersion(spec));
}

/** Installs conformance/node_modules (npm ci) unless the pinned suite and Node 22 are already there. */
export function ensureInstalled() {
  if (installedAsPinned()) return;
  console.log(`conformance: installing ${relative(process.cwd(), MODULES) || "."} (npm ci)`);
  const result = spawnSync("npm", ["ci", "--prefix", HERE, "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm ci --prefix ${relative(process.cwd(), HERE) || "."} failed (exit ${result.status ?? result.signal})`);
}
