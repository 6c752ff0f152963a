import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// vitest's default is one worker fewer than the cores, which on a 2-core machine means one:
// every file in turn. The slow files mostly wait on child processes (the CLI, tsc, npm, tsx
// peers) that run on the other core, so two workers overlap that waiting. On more cores this is
// the default again.
const maxWorkers = Math.max(availableParallelism() - 1, 2);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers,
  },
});
