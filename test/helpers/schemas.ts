import { existsSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../generator/project.js";
import { SHARED_SCHEMAS } from "../prepare.mjs";

/**
 * SHARED_SCHEMAS: the published schemas beside the repo, when present. TEST_CACHE_DIR: the
 * schema cache test/prepare.mjs fills and every test reads. TEST_OUT_DIR: every revision
 * generated, for the stub tests.
 */
export { SHARED_SCHEMAS, TEST_CACHE_DIR, TEST_OUT_DIR } from "../prepare.mjs";

export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"] as const;
export type Revision = (typeof REVISIONS)[number];

export const haveSharedSchemas = () => existsSync(SHARED_SCHEMAS);

/** Example messages of a revision (`<Type>/<name>.json`), when present. */
export function examplesDir(revision: Revision): string | null {
  const dir = join(SHARED_SCHEMAS, revision, "examples");
  return existsSync(dir) ? dir : null;
}

export const FIXTURES = join(PACKAGE_ROOT, "test", "fixtures");
