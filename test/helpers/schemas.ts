import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { PACKAGE_ROOT } from "../../generator/project.js";

/** The published schemas beside the repo (CI and developers), when present. */
export const SHARED_SCHEMAS = resolve(PACKAGE_ROOT, "..", "shared", "mcp-schema");

/** Schema cache the test run fills once (global setup) and every test reads. */
export const TEST_CACHE_DIR = join(PACKAGE_ROOT, "node_modules", ".cache", "mcp-stubgen-test", "schema");

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"] as const;
export type Revision = (typeof REVISIONS)[number];

export const haveSharedSchemas = () => existsSync(SHARED_SCHEMAS);

/** Example messages of a revision (`<Type>/<name>.json`), when present. */
export function examplesDir(revision: Revision): string | null {
  const dir = join(SHARED_SCHEMAS, revision, "examples");
  return existsSync(dir) ? dir : null;
}

export const FIXTURES = join(PACKAGE_ROOT, "test", "fixtures");
