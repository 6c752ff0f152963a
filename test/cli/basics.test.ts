/**
 * The CLI's own surface: help, version, and rejecting unknown commands and flags.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lines, PACKAGE_VERSION, runCli, tempDirs } from "./support.js";

const tmp = tempDirs();

describe("mcp-stubgen --help / --version", () => {
  it("--help exits 0 and lists the generate, catalog and schema commands", async () => {
    const r = await runCli(["--help"], tmp());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^mcp-stubgen <command> \[options\]/);
    for (const command of ["generate", "catalog", "schema"]) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+mcp-stubgen ${command}\\s+\\S`, "m"));
    }
    expect(r.stdout).toMatch(/--version/);
    expect(r.stdout).toMatch(/--cache/);
  });

  it("--help works on a command too (generate --help lists its own flags)", async () => {
    const r = await runCli(["generate", "--help"], tmp());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    for (const flag of ["--revision", "--all", "--schema", "--out", "--check", "--result-override"]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it("--version prints the version of package.json and nothing else", async () => {
    const r = await runCli(["--version"], tmp());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`${PACKAGE_VERSION}\n`);
  });
});

describe("usage errors", () => {
  it("an unknown command exits 1 with one error line naming it and nothing on stdout", async () => {
    const dir = tmp();
    const r = await runCli(["frobnicate"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toHaveLength(1);
    expect(lines(r.stderr)[0]).toMatch(/^mcp-stubgen: error: .*frobnicate.*\(see mcp-stubgen --help\)$/);
  });

  it("a near-miss command names what was typed and the suggestion", async () => {
    const r = await runCli(["generat"], tmp());
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(['mcp-stubgen: error: unknown command "generat": Did you mean generate? (see mcp-stubgen --help)']);
  });

  it("an unknown flag exits 1 with one error line naming it and writes nothing", async () => {
    const dir = tmp();
    const r = await runCli(["generate", "--revision", "2025-11-25", "--frobnicate"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toHaveLength(1);
    expect(lines(r.stderr)[0]).toMatch(/^mcp-stubgen: error: .*frobnicate.*\(see mcp-stubgen --help\)$/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(readdirSync(dir)).toEqual([]);
  });
});
