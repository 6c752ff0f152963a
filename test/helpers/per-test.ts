/**
 * Shared setup for a describe block's tests that mutation testing can see.
 *
 * `npm run mutate` (StrykerJS, vitest.mutate.config.ts) runs, for each mutant, only the tests
 * whose code reached the mutated spot, and it activates the mutant once the file's tests start.
 * Code run in a describe body or in `beforeAll` is neither: a result computed there is the
 * unmutated one, and the tests that assert on it are not credited with covering that code, so a
 * mutant they would catch survives or is skipped. `setUpPerTest(fn)` runs `fn` as a `beforeEach`,
 * inside each test: in a mutation run every time (so each test covers and sees the mutated
 * code), otherwise once for the block, like `beforeAll` (so `npm test` pays for it once).
 */
import { beforeEach } from "vitest";

/** True in `npm run mutate`'s test runs (vitest.mutate.config.ts sets it). */
export const UNDER_MUTATION = process.env["MCP_STUBGEN_MUTATION"] === "1";

/** Runs `fn` before the block's first test (before every test in a mutation run). */
export function setUpPerTest(fn: () => void | Promise<void>): void {
  let done = false;
  beforeEach(async () => {
    if (done && !UNDER_MUTATION) return;
    await fn();
    done = true;
  });
}
