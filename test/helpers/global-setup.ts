import { prepare } from "../prepare.mjs";

/** Makes `vitest` alone work too: the same preparation `npm test` runs before the type-check. */
export default async function setup(): Promise<void> {
  await prepare();
}
