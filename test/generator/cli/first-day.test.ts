/**
 * The polish list of issue 30 (item 8), through the CLI as a user runs it: a run that changes
 * nothing says so (even in a read-only output folder), an unknown revision is answered with the
 * flag the command at hand takes, ENOTDIR names the file in the way, a mistyped config key gets
 * a "did you mean", and a pull that cannot download names --from.
 */
import { chmodSync, cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { expectOneErrorLine, lines, runCli, snapshot, tempDirs, TEST_CACHE_DIR } from "./support.js";

const REV = "2025-11-25";
const tmp = tempDirs("stubgen-first-day-");

describe("a run that changes nothing", () => {
  it("says unchanged for each folder, not wrote, also when the output folder is read-only", async () => {
    const cwd = tmp();
    const gen = () => runCli(["generate", "-r", REV, "--out", "OUT", "--cache", TEST_CACHE_DIR, "--force"], cwd);
    const first = await gen();
    expect(first.code, first.stderr).toBe(0);
    expect(lines(first.stdout).map((l) => l.replace(/ \(.*\)$/, ""))).toEqual(["wrote OUT/runtime/", `wrote OUT/${REV}/`]);
    // read-only (a CI checkout, a vendored folder): the run must not need to write anything
    const folders = ["OUT", "OUT/runtime", `OUT/${REV}`].map((f) => join(cwd, f));
    for (const folder of folders) chmodSync(folder, 0o555);
    try {
      const before = snapshot(cwd);
      const again = await gen();
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toBe("");
      expect(lines(again.stdout)).toEqual([
        expect.stringMatching(/^unchanged: OUT\/runtime\/ \(\d+ files already as generated; nothing written\)$/),
        expect.stringMatching(new RegExp(`^unchanged: OUT/${REV}/ \\(\\d+ files already as generated; nothing written\\)$`)),
      ]);
      expect(snapshot(cwd)).toEqual(before);
    } finally {
      for (const folder of folders) chmodSync(folder, 0o755);
    }
  });

  it("names only the folders it changed as written", async () => {
    const cwd = tmp();
    const gen = () => runCli(["generate", "-r", REV, "--out", "OUT", "--cache", TEST_CACHE_DIR, "--force"], cwd);
    expect((await gen()).code).toBe(0);
    writeFileSync(join(cwd, "OUT", REV, "index.ts"), "// edited\n");
    const r = await gen();
    expect(lines(r.stdout).map((l) => l.replace(/ \(.*\)$/, ""))).toEqual(["unchanged: OUT/runtime/", `wrote OUT/${REV}/`]);
  });
});

describe("an unknown revision", () => {
  let cwd: string;
  beforeAll(() => {
    cwd = tmp();
  });

  it("generate and catalog take --schema, and say so", async () => {
    expect(expectOneErrorLine(await runCli(["generate", "-r", "2099-01-01", "--cache", TEST_CACHE_DIR], cwd))).toMatch(/\(or give --schema PATH_OR_URL for another schema\)$/);
    expect(expectOneErrorLine(await runCli(["catalog", "-r", "2099-01-01", "--cache", TEST_CACHE_DIR], cwd))).toMatch(/\(or give --schema PATH_OR_URL for another schema\)$/);
  });

  it("diff names its own flag of each side, --from-schema or --to-schema", async () => {
    const from = expectOneErrorLine(await runCli(["diff", "--from", "2099-01-01", "--to", REV, "--cache", TEST_CACHE_DIR], cwd));
    expect(from).toMatch(/^mcp-stubgen: error: unknown revision "2099-01-01"; expected one of .* \(or give --from-schema PATH_OR_URL for another schema\)$/);
    const to = expectOneErrorLine(await runCli(["diff", "--from", REV, "--to", "2099-01-01", "--cache", TEST_CACHE_DIR], cwd));
    expect(to).toMatch(/\(or give --to-schema PATH_OR_URL for another schema\)$/);
  });

  it("schema pull, which takes no --schema, does not suggest it", async () => {
    const line = expectOneErrorLine(await runCli(["schema", "pull", "2099-01-01", "--cache", join(cwd, "c")], cwd));
    expect(line).not.toContain("or give --schema");
    expect(line).toMatch(/\(a schema of your own needs no pull: give it to generate or catalog with --schema PATH_OR_URL\)$/);
  });
});

describe("ENOTDIR names the file in the way", () => {
  let cwd: string;
  beforeAll(() => {
    cwd = tmp();
    writeFileSync(join(cwd, "a-file"), "not a folder\n");
    mkdirSync(join(cwd, "cache"));
    cpSync(join(TEST_CACHE_DIR, REV), join(cwd, "cache", REV), { recursive: true });
  });

  const cases: ReadonlyArray<readonly [what: string, args: readonly string[], expected: string]> = [
    ["--out below a file", ["generate", "-r", REV, "--cache", "cache", "--out", "a-file/sub/out"], "mcp-stubgen: error: a-file/sub/out: cannot write the output folder: a-file is a file, not a folder (ENOTDIR)"],
    ["--cache below a file (schema pull)", ["schema", "pull", REV, "--from", "cache", "--cache", "a-file/c"], `mcp-stubgen: error: a-file/c/${REV}/schema.json: cannot write the cache: a-file is a file, not a folder (ENOTDIR)`],
    ["--schema below a file", ["generate", "--schema", "a-file/schema.json", "--out", "OUT"], "mcp-stubgen: error: a-file/schema.json: cannot read the schema: a-file is a file, not a folder (ENOTDIR)"],
  ];
  for (const [what, args, expected] of cases) {
    it(`${what}: one error line naming it, no internal error`, async () => {
      expect(expectOneErrorLine(await runCli(args, cwd))).toBe(expected);
    });
  }

  it("--config below a file", async () => {
    const line = expectOneErrorLine(await runCli(["generate", "--config", "a-file/x.json"], cwd));
    expect(line).toMatch(/: cannot read the config file: a-file is a file, not a folder \(ENOTDIR\); expected a JSON object/);
  });
});

describe("config keys", () => {
  const configError = async (config: object) => {
    const cwd = tmp();
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify(config));
    return expectOneErrorLine(await runCli(["generate", "--cache", TEST_CACHE_DIR], cwd));
  };

  it('a near miss gets "did you mean"', async () => {
    expect(await configError({ revision: [REV] })).toMatch(/mcp-stubgen\.config\.json#\/revision: invalid config: expected one of the keys .*; did you mean "revisions"\?$/);
    expect(await configError({ extention: ["tasks"] })).toMatch(/did you mean "extensions"\?$/);
    expect(await configError({ resultOverride: {} })).toMatch(/did you mean "resultOverrides"\?$/);
  });

  it("a key nothing like any is listed against the keys only", async () => {
    const line = await configError({ colour: "blue" });
    expect(line).toMatch(/expected one of the keys revisions, all, .*extensions, addons, rulesOf$/);
  });
});
