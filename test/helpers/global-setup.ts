import { prepare } from "../prepare.mjs";

/**
 * Makes `vitest` alone work too: the same preparation `npm test` runs before the type-check.
 * `npm test` has just run it (the type-check needs its output) and says so with
 * MCP_STUBGEN_PREPARED=1, so the generation is not done a second time.
 */
export default async function setup(): Promise<void> {
  if (process.env["MCP_STUBGEN_PREPARED"] === "1") return;
  await prepare();
}
