/**
 * The CLI's fast path (generator/cli/fast-args.ts, top-help.ts) answers exactly as the yargs
 * route does: the same stdout, stderr and exit code for the same command line, and every line it
 * is not sure of goes to yargs.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main, type Io } from "../../../generator/cli/main.js";
import { fastArgs } from "../../../generator/cli/fast-args.js";
import { TOP_HELP, TOP_HELP_WIDTH } from "../../../generator/cli/top-help.js";
import { PACKAGE_VERSION, tempDirs, TEST_CACHE_DIR } from "./support.js";

const tmp = tempDirs("stubgen-fast-");

async function run(argv: readonly string[], cwd: string, fastPath: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: Io = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd };
  const code = await main(argv, io, { fastPath, columns: TOP_HELP_WIDTH });
  return { code, stdout, stderr };
}

describe("top-level --help and --version without yargs", () => {
  it("the stored help is what yargs prints at the default width", async () => {
    const cwd = tmp();
    const viaYargs = await run(["--help"], cwd, false);
    expect(viaYargs.code).toBe(0);
    expect(viaYargs.stdout).toBe(`${TOP_HELP}\n`);
    for (const flag of ["--help", "-h"]) expect(await run([flag], cwd, true)).toEqual(viaYargs);
  });

  it("--version prints the package version, as yargs does", async () => {
    const cwd = tmp();
    const fast = await run(["--version"], cwd, true);
    expect(fast).toEqual({ code: 0, stdout: `${PACKAGE_VERSION}\n`, stderr: "" });
    expect(await run(["--version"], cwd, false)).toEqual(fast);
  });

  it("a narrower terminal gets yargs' help, wrapped to it", async () => {
    let stdout = "";
    const io: Io = { stdout: (t) => (stdout += t), stderr: () => {}, cwd: tmp() };
    expect(await main(["--help"], io, { columns: 60 })).toBe(0);
    expect(stdout).not.toBe(`${TOP_HELP}\n`);
    expect(Math.max(...stdout.split("\n").map((l) => l.length))).toBeLessThanOrEqual(60);
  });
});

describe("generate, catalog and diff lines: the same answer through both routes", () => {
  const C = TEST_CACHE_DIR;
  const lines: ReadonlyArray<readonly string[]> = [
    ["catalog", "--revision", "2025-11-25", "--cache", C],
    ["catalog", "-r", "2025-06-18", "--json", `--cache=${C}`],
    ["catalog", "-r", "2025-11-25", "-r", "2026-07-28", "--cache", C],
    ["catalog", "--cache", C],
    ["catalog", "-r", "2026-07-28", "-x", "tasks", "--result-override", "tools/call=CallToolResult", "--cache", C],
    ["diff", "--from", "2025-06-18", "--to", "2025-11-25", "--cache", C],
    ["diff", "--from", "2025-06-18", "--to", "2025-11-25", "--json", "--fail-on", "breaking", "--cache", C],
    ["diff", "--from", "2025-06-18", "--from", "2025-11-25", "--to", "2026-07-28", "--cache", C],
    ["diff", "--from", "2025-06-18", "--cache", C],
    ["diff", "--from", "2025-06-18", "--to", "2025-11-25", "--fail-on", "removed", "--cache", C],
    ["generate", "-r", "2025-11-25", "--out", "NOWHERE", "--check", "--cache", C],
    ["generate", "-r", "2025-11-25", "--emit", "python", "--cache", C],
    ["generate", "--cache", C],
    ["generate", "-r", "1999-01-01", "--cache", C],
  ];

  it.each(lines.map((l) => [l.join(" ").replaceAll(C, "CACHE"), l] as const))("%s", async (_name, argv) => {
    expect(fastArgs(argv), "the fast path takes this line").toBeDefined();
    const cwd = tmp();
    const viaYargs = await run(argv, cwd, false);
    expect(await run(argv, cwd, true)).toEqual(viaYargs);
  });
});

describe("fastArgs leaves to yargs every line it is not sure of", () => {
  it.each([
    [[]],
    [["schema", "list"]],
    [["generate", "--help"]],
    [["generate", "-h"]],
    [["generate", "--no-check", "-r", "2025-11-25"]],
    [["generate", "--importExt", "ts"]],
    [["generate", "--revison", "2025-11-25"]],
    [["generate", "-r", "2025-11-25", "2026-07-28"]],
    [["generate", "-r", "2025-11-25", "--", "--all"]],
    [["generate", "--all", "--all"]],
    [["catalog", "-r2025-06-18"]],
    [["generate", "--all=false"]],
    [["generate", "--out", "-weird"]],
    [["generate", "stray"]],
    [["catalog", "--version"]],
    [["--config", "x.json", "generate"]],
  ])("%j", (argv) => {
    expect(fastArgs(argv)).toBeUndefined();
  });

  it("takes a plain line as yargs hands it to the command", () => {
    expect(fastArgs(["generate", "-r", "a", "--revision=b", "-x", "tasks", "--out", "o", "--check", "--config", "c.json"])).toEqual({
      command: "generate",
      args: { revision: ["a", "b"], extension: ["tasks"], out: "o", check: true, config: "c.json" },
    });
    expect(fastArgs(["diff", "--from", "a", "--from", "b"])?.args).toEqual({ from: ["a", "b"] });
  });

  it("every path in the tables resolves (sanity: the test cache is there)", () => {
    expect(join(TEST_CACHE_DIR, "2025-11-25")).toContain("2025-11-25");
  });
});
