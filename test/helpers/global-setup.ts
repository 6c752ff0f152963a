import { pullSchemas } from "../../generator/schema-source.js";
import { haveSharedSchemas, SHARED_SCHEMAS, TEST_CACHE_DIR } from "./schemas.js";

/**
 * Fills the test schema cache once per run: from ../shared/mcp-schema when it exists, else by
 * downloading the pinned upstream files. Either way every file is checked against its sha256.
 */
export default async function setup(): Promise<void> {
  await pullSchemas([], { cacheDir: TEST_CACHE_DIR, from: haveSharedSchemas() ? SHARED_SCHEMAS : undefined });
}
