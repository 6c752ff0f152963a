// Prepares what the tests read: the published schemas in a test cache (from ../shared/mcp-schema
// when it exists, else downloaded from the pinned upstream commit; sha256-checked either way)
// and the generated output of every revision in test/generated/ (git-ignored), which the stub
// tests import and type-check, and 2026-07-28 and draft with the Tasks extension in
// test/generated-tasks/ (git-ignored); and out/2025-11-25 and out/2026-07-28 (git-ignored), which the
// examples and benchmarks import and the type-check covers (CI runs `npm test` without
// `npm run generate`, so these must be made here). Run by `npm test` after the build, and by vitest's global setup.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// MCP_STUBGEN_SHARED_SCHEMAS: where they are when this file runs elsewhere (npm run mutate runs
// the tests in a sandbox copy of the repo, inside .stryker-tmp/).
export const SHARED_SCHEMAS = process.env["MCP_STUBGEN_SHARED_SCHEMAS"] ?? resolve(root, "..", "shared", "mcp-schema");
export const TEST_CACHE_DIR = join(root, "node_modules", ".cache", "mcp-stubgen-test", "schema");
export const TEST_OUT_DIR = join(root, "test", "generated");
/** 2026-07-28 and draft generated with the Tasks extension (--extension tasks). */
export const TEST_TASKS_OUT_DIR = join(root, "test", "generated-tasks");
/** 2026-07-28 generated with the Skills extension (--extension skills): the skills tests' server and client. */
export const TEST_SKILLS_OUT_DIR = join(root, "test", "generated-skills");
/**
 * Published schemas under labels the generator does not know (the day the spec publishes a new
 * revision): 2026-07-28's as 2027-01-01 (the stateless era), 2025-11-25's as 2025-12-31 (the
 * session era). Each follows the nearest earlier known revision's prose rules.
 */
export const TEST_UNKNOWN_OUT_DIR = join(root, "test", "generated-unknown");
export const UNKNOWN_LABELS = { "2027-01-01": "2026-07-28", "2025-12-31": "2025-11-25" };

export async function prepare() {
  // `npm ci` no longer builds (the package has no `prepare`, which npm flags when a tarball is
  // installed): `vitest` run alone on a fresh clone builds dist/ here the first time.
  if (!existsSync(join(root, "dist", "generator", "index.js"))) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  const { generate, pullSchemas } = await import(join(root, "dist", "generator", "index.js"));
  // lockfile: false: the test cache is checked against the package's manifest alone, and no
  // lockfile is written (the API's default would be mcp-stubgen.lock.json in the repo root).
  await pullSchemas([], { cacheDir: TEST_CACHE_DIR, lockfile: false, from: existsSync(SHARED_SCHEMAS) ? SHARED_SCHEMAS : undefined });
  // With the MCP Apps protocol beside the revisions (test/generated/apps/, --extension apps).
  await generate({ all: true, extensions: ["apps"], out: TEST_OUT_DIR, cacheDir: TEST_CACHE_DIR, lockfile: false });
  await generate({ revisions: ["2026-07-28", "draft"], extensions: ["tasks"], out: TEST_TASKS_OUT_DIR, cacheDir: TEST_CACHE_DIR, lockfile: false });
  await generate({ revisions: ["2026-07-28"], extensions: ["skills"], out: TEST_SKILLS_OUT_DIR, cacheDir: TEST_CACHE_DIR, lockfile: false });
  for (const [label, published] of Object.entries(UNKNOWN_LABELS)) {
    await generate({ schema: join(TEST_CACHE_DIR, published, "schema.json"), revisions: [label], out: TEST_UNKNOWN_OUT_DIR, cacheDir: TEST_CACHE_DIR, lockfile: false });
  }
  // As `npm run generate` writes them: 2026-07-28 with the Tasks and Skills extensions (the
  // everything server serves both), and the add-ons the examples import: `oauth` (the everything client's auth/*
  // scenarios), `mcpx-ws` and `redis` (the MCPx network gateway and peers; the everything server's --redis, the
  // multi-instance tests' fixture server, the bench).
  await generate({ revisions: ["2025-11-25", "2026-07-28"], extensions: ["tasks", "skills", "apps"], addons: ["mcpx-ws", "oauth", "redis"], out: join(root, "out"), cacheDir: TEST_CACHE_DIR, lockfile: false });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await prepare();
  console.log(`test schemas in ${TEST_CACHE_DIR}; generated output in ${TEST_OUT_DIR}`);
}
