/**
 * `mcp-stubgen diff`: Markdown by default, `--json` (the programmatic result), `--fail-on
 * breaking` (exit 1 only with a breaking change, output printed either way), schemas given by
 * path, and the usual one-line errors.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { diff } from "../../../generator/index.js";
import { PACKAGE_ROOT } from "../../../generator/project.js";
import { cliFixture, expectOneErrorLine, lines, runCli, tempDirs, TEST_CACHE_DIR, type RunResult } from "./support.js";

const tmp = tempDirs();
const FROM = "2025-11-25";
const TO = "2026-07-28";
const pair = (name: string, which: "before" | "after") => join(PACKAGE_ROOT, "test", "fixtures", "diff", name, `${which}.json`);

describe(`diff --from ${FROM} --to ${TO}`, () => {
  let markdown: RunResult;

  beforeAll(async () => {
    markdown = await runCli(["diff", "--from", FROM, "--to", TO, "--cache", TEST_CACHE_DIR], tmp());
  });

  it("prints Markdown by default: title, summary line, sections; exit 0 despite breaking changes", () => {
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stderr).toBe("");
    const out = lines(markdown.stdout);
    expect(out[0]).toBe(`# MCP schema ${FROM} → ${TO}`);
    expect(out[2]).toMatch(/^Summary: \d+ methods added, \d+ removed, \d+ changed; .* \*\*\d+ breaking changes\*\*\.$/);
    expect(out.filter((l) => l.startsWith("## "))).toEqual(["## Methods", "## Definitions", "## Cancellation"]);
    expect(out).toContain("### Client → server requests (`ClientRequest`)");
    expect(out).toContain("- added `server/discover`");
    expect(out).toContain("- removed `initialize` — **breaking**");
    expect(out).toContain("- `tools/call` (request): no longer task-augmentable — **breaking**");
  });

  it("--json prints the same data as the programmatic diff(), with a stable key order", async () => {
    const r = await runCli(["diff", "--from", FROM, "--to", TO, "--json", "--cache", TEST_CACHE_DIR], tmp());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const programmatic = await diff({ from: FROM, to: TO, cacheDir: TEST_CACHE_DIR });
    expect(r.stdout).toBe(`${JSON.stringify(programmatic, null, 2)}\n`);
    const parsed = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["from", "to", "summary", "methods", "definitions", "cancellation"]);
    expect(parsed["from"]).toBe(FROM);
    expect(parsed["to"]).toBe(TO);
  });

  it("--fail-on breaking: exit 1 when there is a breaking change, the report still printed", async () => {
    const r = await runCli(["diff", "--from", FROM, "--to", TO, "--fail-on", "breaking", "--cache", TEST_CACHE_DIR], tmp());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(markdown.stdout);
  });
});

describe("diff --fail-on breaking without breaking changes", () => {
  it("a revision against itself: exit 0, nothing changed", async () => {
    const r = await runCli(["diff", "--from", FROM, "--to", FROM, "--fail-on", "breaking", "--cache", TEST_CACHE_DIR], tmp());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("**0 breaking changes**");
    expect(r.stdout).toContain("## Methods\n\nNo changes.");
  });

  it("--from-schema/--to-schema with only widenings: exit 0; labelled by the paths", async () => {
    const before = pair("enum-widened", "before");
    const after = pair("enum-widened", "after");
    const r = await runCli(["diff", "--from-schema", before, "--to-schema", after, "--fail-on", "breaking", "--json"], tmp());
    expect(r.code, r.stderr).toBe(0);
    const parsed = JSON.parse(r.stdout) as { from: string; to: string; summary: { breaking: number; definitionsChanged: number } };
    expect(parsed).toMatchObject({ from: before, to: after, summary: { breaking: 0, definitionsChanged: 4 } });
  });

  it("--from-schema with --from labels the schema (and picks that revision's policy)", async () => {
    const r = await runCli(["diff", "--from", "old", "--from-schema", pair("enum-narrowed", "before"), "--to", "new", "--to-schema", pair("enum-narrowed", "after"), "--fail-on", "breaking"], tmp());
    expect(r.code).toBe(1);
    expect(lines(r.stdout)[0]).toBe("# MCP schema old → new");
  });
});

describe("diff --help", () => {
  it("lists the command and its flags", async () => {
    const top = await runCli(["--help"], tmp());
    expect(top.stdout).toMatch(/^\s+mcp-stubgen diff\s+\S/m);
    const r = await runCli(["diff", "--help"], tmp());
    expect(r.code).toBe(0);
    for (const flag of ["--from", "--to", "--from-schema", "--to-schema", "--json", "--fail-on", "--cache"]) expect(r.stdout).toContain(flag);
  });
});

describe("diff errors: one error line, exit 1", () => {
  it("an unknown revision", async () => {
    const line = expectOneErrorLine(await runCli(["diff", "--from", "2099-01-01", "--to", TO, "--cache", TEST_CACHE_DIR], tmp()));
    expect(line).toMatch(/^mcp-stubgen: error: unknown revision "2099-01-01"; expected one of 2024-11-05, /);
  });

  it("a schema that is not JSON, named with line and column", async () => {
    const file = cliFixture("invalid-json.json");
    const line = expectOneErrorLine(await runCli(["diff", "--from", FROM, "--to-schema", file, "--cache", TEST_CACHE_DIR], tmp()));
    expect(line).toBe(`mcp-stubgen: error: ${file}:5:5: invalid JSON: expected ',' or '}' after a property value, found '"'`);
  });

  it("a revision that is not cached names the pull command", async () => {
    const cache = tmp();
    const line = expectOneErrorLine(await runCli(["diff", "--from", FROM, "--to", TO, "--cache", cache], tmp()));
    expect(line).toContain(`the schema of revision ${FROM} is not cached; run: mcp-stubgen schema pull ${FROM} --cache ${cache}`);
  });

  it("usage: a missing --to, a second --from, an unknown --fail-on value", async () => {
    expect(expectOneErrorLine(await runCli(["diff", "--from", FROM], tmp()))).toBe(
      "mcp-stubgen: error: diff needs --to REV (or --to-schema PATH_OR_URL) (see mcp-stubgen --help)",
    );
    expect(expectOneErrorLine(await runCli(["diff", "--from", FROM, "--from", TO, "--to", TO], tmp()))).toContain(
      `diff takes one --from, got ${FROM}, ${TO}`,
    );
    expect(expectOneErrorLine(await runCli(["diff", "--from", FROM, "--to", TO, "--fail-on", "anything"], tmp()))).toBe(
      'mcp-stubgen: error: --fail-on takes "breaking", got "anything" (see mcp-stubgen --help)',
    );
  });
});
