/**
 * The "done when": a new user's project, set up exactly as README.md's "Use it in your
 * project" section says, from the packed package, builds and runs: the client cancels a tool
 * call with an AbortSignal and the server's handler sees ctx.signal abort.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_CACHE_DIR } from "../helpers/schemas.js";
import { SHARED_SCHEMAS } from "../prepare.mjs";
import { README_COMMANDS, readmeBlocks, runConsumerCheck } from "./consumer-check.mjs";

describe("a consumer project set up as the README says", () => {
  it("the README shows every command the check runs", () => {
    const { blocks } = readmeBlocks();
    const shell = blocks.filter((b) => b.lang === "sh").map((b) => b.text).join("\n");
    for (const command of README_COMMANDS) expect(shell, command).toContain(command);
  });

  it("the offline package.json the check uses is the README's first one with --from added to schema pull", () => {
    const { blocks } = readmeBlocks();
    const named = (name: string) => JSON.parse(blocks.find((b) => b.name === name)?.text ?? "null") as { scripts: Record<string, string> };
    const online = named("package.json");
    const offline = named("package.json offline");
    expect(offline.scripts["prebuild"]).toBe(online.scripts["prebuild"]?.replace("schema pull", "schema pull --from ../shared/mcp-schema"));
    expect({ ...offline, scripts: { ...offline.scripts, prebuild: "" } }).toEqual({ ...online, scripts: { ...online.scripts, prebuild: "" } });
  });

  it(
    "npm pack → npm init → install → prebuild (schema pull, generate) → tsc → start: the call is cancelled on both sides; and a project as npm init -y leaves it runs the --emit js output and a spawned stdio server",
    () => {
      const schemas = existsSync(SHARED_SCHEMAS) ? SHARED_SCHEMAS : TEST_CACHE_DIR;
      const log: string[] = [];
      const r = runConsumerCheck({ schemas, log: (line: string) => log.push(line) });
      // the packed manifest runs nothing on install: no prepare (npm flags it for a tarball), no install scripts
      expect(r.installedScripts.filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
      expect(r.installOutput).not.toMatch(/install-scripts|mcp-stubgen@0\.1\.0 \((prepare|install|postinstall)/);
      expect(r.packedFiles).toContain("LICENSE");
      expect(r.packedFiles).toContain("schema/revisions.json");
      expect(r.licenseInstalled).toBe(true);
      // prebuild: the config's one revision into the config's cache, then generate
      expect(r.build).toContain("2025-11-25: build/mcp-schema/2025-11-25/schema.json (sha256 ok, from ../shared/mcp-schema/2025-11-25/schema.json)");
      expect(r.build).toMatch(/^wrote src\/generated\/mcp\/2025-11-25\/ \(types\.ts, .*\)$/m);
      expect(r.cacheInProject).toBe(true);
      expect(r.cacheInPackage).toBe(false);
      expect(r.compiled).toEqual(["client.js", "server.js"]);
      expect(r.rebuildTouchedNothing).toBe(true);
      // what the README says it prints, line for line
      expect(r.start).toBe(r.expectedStart);
      expect(r.start.split("\n")).toEqual([
        "client: connected to demo-server (protocol 2025-11-25)",
        "server: slow started",
        "client: callTool rejected: AbortError",
        "server: ctx.signal aborted: the user pressed stop",
        "client: ping answered",
        "",
      ]);
      // step 6: a project as npm init -y leaves it ("type": "commonjs"), package.json edited by nobody but npm install
      const plain = r.plain;
      expect(plain.packageJsonBefore["type"]).toBe("commonjs");
      expect({ ...plain.packageJsonAfter, devDependencies: null }).toEqual({ ...plain.packageJsonBefore, devDependencies: null });
      expect(Object.keys(plain.packageJsonAfter["devDependencies"] as object)).toEqual(["mcp-stubgen"]);
      expect(plain.generated).toMatch(/^wrote mcp\/2025-11-25\/ \(types\.js, types\.d\.ts, .*stdio-spawn\.js, stdio-spawn\.d\.ts, .*\)$/m);
      // the CommonJS client ran the --emit js output and a server it spawned over stdio
      expect(plain.client.split("\n")).toEqual([
        "connected to mcp-stubgen-example (pid number)",
        "echo: from a commonjs project",
        "sleep: AbortError",
        'server exit: {"code":0,"signal":null,"requested":true}',
        "",
      ]);
      // The HTTP client with an SDK auth provider: test/consumer/auth.test.ts (auth-check.mjs).
    },
    300_000,
  );
});
