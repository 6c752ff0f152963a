// StrykerJS configuration of `npm run mutate` (mutation testing; not part of `npm test` or CI).
// See docs/mutation-testing.md. Reports: reports/mutation/ (git-ignored).
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // The in-process test selection, and the runtime resolved to templates/runtime (see there).
  vitest: { configFile: "vitest.mutate.config.ts" },
  // Only the tests that cover a mutant run for it.
  coverageAnalysis: "perTest",
  mutate: [
    "templates/runtime/**/*.ts",
    "generator/**/*.ts",
    // I/O edges: the CLI's argument parsing and process handling are tested through spawned
    // processes (test/generator/cli), which cannot see in-process mutants.
    "!generator/cli/main.ts",
    "!generator/cli/usage.ts",
  ],
  // Static mutants (module-level constants) would need the whole suite per mutant.
  ignoreStatic: true,
  concurrency: 2,
  // A mutant that hangs a test (an endless loop, a promise never settled) counts as detected;
  // a short extra allowance keeps such mutants from dominating the run time.
  timeoutMS: 5_000,
  timeoutFactor: 2,
  // Reruns only mutants whose code or tests changed since the last run (reports/stryker-incremental.json).
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  // Stryker would rewrite tsconfig.json's project references in the sandbox through the
  // TypeScript API, which typescript@7 (the native compiler) does not have; we have no
  // references, so it is pointed at a file that does not exist and skips that step.
  tsconfigFile: "no-tsconfig-rewrite.json",
  // The sandbox needs the generated test output and dist/ (the global setup regenerates them).
  ignorePatterns: ["conformance/results", "benchmarks", "out", ".mcp-stubgen", ".typecheck-cache"],
  thresholds: { high: 85, low: 80, break: null },
};
