// The vitest configuration of mutation runs (`npm run mutate`, stryker.config.mjs); not used by
// `npm test`.
//
// Most runtime tests import the generated copies of the runtime (test/generated/runtime/*/*.ts,
// written once by the global setup, test/prepare.mjs), not templates/runtime/*/*.ts. This
// configuration resolves every generated runtime file to its source in templates/runtime instead
// (the copy differs from the source only in its header comment), so the tests run exactly the
// files Stryker instruments and its per-test coverage names them. Checked by hand: with
// `if (this.#aborted)` in incoming.ts's lazy signal disabled, receive-path.test.ts fails under
// this configuration.
//
// Test selection: the tests that run in-process and exercise the generator's stages or the
// runtime (unit, stubs, mrtr, http, http-client, http-session-client, subscriptions, tasks). Left out:
// tests that spawn processes or compile with tsc (cli, vendoring, integration, examples,
// everything-*), which do not see Stryker's in-process mutants and cost minutes, and the
// interop tests against the official SDKs (slow; their rules are covered by the wire tests).
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const root = dirname(fileURLToPath(import.meta.url));
/** The runtime folders the global setup writes (test/generated and, with the Tasks extension, test/generated-tasks). */
const generatedRuntimes = [join(root, "test", "generated", "runtime") + sep, join(root, "test", "generated-tasks", "runtime") + sep];
const runtimeSource = join(root, "templates", "runtime");

/** test/generated{,-tasks}/runtime/<folder>/<name>.ts → templates/runtime/<folder>/<name>.ts. */
function runtimeFromSource(): Plugin {
  return {
    name: "mcp-stubgen:runtime-from-source",
    enforce: "pre",
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const dir = resolved === null ? undefined : generatedRuntimes.find((d) => resolve(resolved.id).startsWith(d));
      if (resolved === null || dir === undefined) return resolved;
      return join(runtimeSource, resolve(resolved.id).slice(dir.length));
    },
  };
}

export default defineConfig({
  plugins: [runtimeFromSource()],
  test: {
    include: [
      "test/generator/load/**/*.test.ts",
      "test/generator/model/**/*.test.ts",
      "test/generator/emit/**/*.test.ts",
      "test/generator/write/**/*.test.ts",
      "test/generator/diff/**/*.test.ts",
      "test/generator/*.test.ts",
      "test/generator/cli/config-load.test.ts",
      "test/generator/cli/quiet-pipe.test.ts",
      "test/runtime/**/*.test.ts",
    ],
    exclude: ["test/runtime/http/http-client/sdk-v2.test.ts", "test/runtime/http/http-session-client/sdk-server.test.ts", "test/runtime/http/http-client/readme-snippets.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    // In-memory type checks memoised by content (test/helpers/typecheck.ts): a mutant that does
    // not change the emitted text skips its compile. The folder lives in Stryker's sandbox.
    // MCP_STUBGEN_MUTATION: test/helpers/per-test.ts runs shared setup inside every test.
    env: { MCP_STUBGEN_TYPECHECK_CACHE: join(root, ".typecheck-cache"), MCP_STUBGEN_MUTATION: "1" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
