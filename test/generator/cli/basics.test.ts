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

  /** Runs a command that must be refused; returns its one stderr line after checking exit 1 and no stdout. */
  async function refused(args: readonly string[]): Promise<string> {
    const dir = tmp();
    const r = await runCli(args, dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
    return lines(r.stderr)[0]!;
  }

  it("a near-miss command names what was typed and the suggestion", async () => {
    expect(await refused(["generat"])).toBe("mcp-stubgen: error: unknown command generat; did you mean generate? (see mcp-stubgen --help)");
  });

  it("an unknown command with no near miss lists the commands", async () => {
    expect(await refused(["frobnicate"])).toBe(
      "mcp-stubgen: error: unknown command frobnicate; expected one of generate, catalog, diff, schema (see mcp-stubgen --help)",
    );
  });

  it("a near-miss subcommand names the whole command and points at that command's help", async () => {
    expect(await refused(["schema", "lst"])).toBe(
      "mcp-stubgen: error: unknown command schema lst; did you mean schema list? (see mcp-stubgen schema --help)",
    );
  });

  it("a near-miss option (a missing letter, two swapped letters) suggests the option", async () => {
    expect(await refused(["generate", "--revison", "2025-11-25"])).toBe(
      "mcp-stubgen: error: unknown option --revison; did you mean --revision? (see mcp-stubgen generate --help)",
    );
    expect(await refused(["schema", "pull", "--form", "x"])).toBe(
      "mcp-stubgen: error: unknown option --form; did you mean --from? (see mcp-stubgen schema pull --help)",
    );
    expect(await refused(["generate", "--all", "--result-overide", "ping=Result"])).toBe(
      "mcp-stubgen: error: unknown option --result-overide; did you mean --result-override? (see mcp-stubgen generate --help)",
    );
  });

  it("a stray argument to a command that takes none is named", async () => {
    expect(await refused(["generate", "--all", "extra"])).toBe("mcp-stubgen: error: unexpected argument extra (see mcp-stubgen generate --help)");
  });

  it("the messages stay English whatever the locale", async () => {
    const r = await runCli(["generate", "--revison", "x"], tmp(), { LANG: "de_DE.UTF-8", LC_ALL: "de_DE.UTF-8" });
    expect(lines(r.stderr)).toEqual([
      "mcp-stubgen: error: unknown option --revison; did you mean --revision? (see mcp-stubgen generate --help)",
    ]);
  });

  it("an unknown flag exits 1 with one error line naming it and writes nothing", async () => {
    const dir = tmp();
    const r = await runCli(["generate", "--revision", "2025-11-25", "--frobnicate"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toHaveLength(1);
    expect(lines(r.stderr)[0]).toBe("mcp-stubgen: error: unknown option --frobnicate (see mcp-stubgen generate --help)");
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(readdirSync(dir)).toEqual([]);
  });
});
