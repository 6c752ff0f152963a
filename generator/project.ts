import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The mcp-stubgen package folder (where package.json, templates/ and schema/revisions.json live), found by
 * walking up from this module: the same answer from generator/*.ts (tests) and from
 * dist/generator/*.js (the built CLI).
 */
export const PACKAGE_ROOT: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown };
      if (pkg.name === "mcp-stubgen") return dir;
    } catch {
      // not here; keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("mcp-stubgen: cannot find its own package.json");
    dir = parent;
  }
})();

export const TOOL_VERSION: string = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }
).version;

export const TEMPLATES_DIR = join(PACKAGE_ROOT, "templates");
export const MANIFEST_PATH = join(PACKAGE_ROOT, "schema", "revisions.json");

/**
 * The default schema cache, relative to the project folder (the config file's folder, else the
 * working folder): inside the user's project, not inside the installed package (which
 * `npm ci` wipes). Users git-ignore `.mcp-stubgen/`.
 */
export const DEFAULT_CACHE_SUBDIR = join(".mcp-stubgen", "schema");

export function defaultCacheDir(projectDir: string): string {
  return join(projectDir, DEFAULT_CACHE_SUBDIR);
}
