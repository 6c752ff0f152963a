/**
 * The CLI loads each dependency only in the command that needs it (issue 30, item 6): the
 * modules a real child process loads are logged by a module hook
 * (test/fixtures/cli/load-log/) and compared with what each command may load.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, cliFixture, tempDirs, TEST_CACHE_DIR } from "./support.js";

const tmp = tempDirs();
const REV = "2025-11-25";
const HEAVY = ["yargs", "handlebars", "json-schema-to-typescript", "ts-morph", "typescript", "prettier"] as const;

/** The packages (under node_modules) a CLI run loaded, and its result. */
function loadedPackages(args: readonly string[], cwd: string): { code: number | null; stdout: string; stderr: string; packages: Set<string> } {
  const log = join(cwd, `load-${Math.random().toString(36).slice(2)}.log`);
  const r = spawnSync(process.execPath, ["--import", pathToFileURL(cliFixture("load-log/register.mjs")).href, CLI, ...args], {
    cwd,
    env: { ...process.env, MCP_STUBGEN_LOAD_LOG: log, NO_COLOR: "1" },
    encoding: "utf8",
  });
  const urls = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  const packages = new Set(urls.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter((p): p is string => p !== undefined));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, packages };
}

const none = (packages: Set<string>, of: readonly string[]) => of.filter((p) => packages.has(p));

describe("the CLI loads a dependency only in the command that needs it", () => {
  let cwd: string;
  beforeAll(() => {
    cwd = tmp();
  });

  it("the hook sees the packages a run loads (a first generate loads handlebars)", () => {
    const r = loadedPackages(["generate", "-r", REV, "--out", "OUT", "--cache", TEST_CACHE_DIR, "--force"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.packages.has("handlebars")).toBe(true);
    expect(r.packages.has("json-schema-to-typescript")).toBe(true);
  });

  it.each([["--help"], ["-h"], ["--version"]])("%s loads none of yargs, handlebars, json-schema-to-typescript, ts-morph", (flag) => {
    const r = loadedPackages([flag], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toBe("");
    expect(none(r.packages, HEAVY)).toEqual([]);
  });

  it("catalog loads neither yargs nor the emitters' dependencies", () => {
    const r = loadedPackages(["catalog", "--revision", REV, "--cache", TEST_CACHE_DIR], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^method\s+kind/);
    expect(none(r.packages, HEAVY)).toEqual([]);
  });

  it("diff loads neither yargs nor the emitters' dependencies", () => {
    const r = loadedPackages(["diff", "--from", REV, "--to", "2026-07-28", "--cache", TEST_CACHE_DIR], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toBe("");
    expect(none(r.packages, HEAVY)).toEqual([]);
  });

  it("generate of an unchanged revision loads none of them", () => {
    const first = loadedPackages(["generate", "-r", REV, "--out", "OUT2", "--cache", TEST_CACHE_DIR], cwd);
    expect(first.code, first.stderr).toBe(0);
    const again = loadedPackages(["generate", "-r", REV, "--out", "OUT2", "--cache", TEST_CACHE_DIR], cwd);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^up to date: /);
    expect(none(again.packages, HEAVY)).toEqual([]);
  });

  it("a usage error still gets yargs' message (the fast path hands it over)", () => {
    const r = loadedPackages(["generate", "--revison", REV], cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("mcp-stubgen: error: unknown option --revison; did you mean --revision? (see mcp-stubgen generate --help)\n");
    expect(r.packages.has("yargs")).toBe(true);
  });
});
