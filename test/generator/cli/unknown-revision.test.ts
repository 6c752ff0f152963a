/**
 * `generate` of a schema under a label the generator does not know, through the CLI: one line
 * says whose prose rules it follows; the config's `rulesOf` chooses another known revision of
 * the schema's era, and a bad `rulesOf` is one error line naming the file and the pointer.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneErrorLine, lines, runCli, tempDirs, TEST_CACHE_DIR } from "./support.js";

const tmp = tempDirs("stubgen-unknown-revision-");
const schemaOf = (revision: string) => join(TEST_CACHE_DIR, revision, "schema.json");
const eraOf = (cwd: string, label: string) => {
  const catalog = readFileSync(join(cwd, "OUT", label, "catalog.ts"), "utf8");
  return /export const ERA: [^=]+= \{\n  era: "(\w+)",\n  rulesOf: "([\w-]+)"/.exec(catalog)?.slice(1, 3);
};

describe("generate of an unknown label", () => {
  it("says in one line whose rules it follows; a known label prints no such line", async () => {
    const cwd = tmp();
    const run = await runCli(["generate", "--schema", schemaOf("2026-07-28"), "-r", "2027-01-01", "--out", "OUT", "--cache", TEST_CACHE_DIR, "--force"], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)[0]).toBe(
      '2027-01-01: rules of 2026-07-28 for cancellation, timeouts and the HTTP transport\'s rules (what only the spec\'s prose says; the schema decides the rest; set "rulesOf" in the config to choose another)',
    );
    expect(eraOf(cwd, "2027-01-01")).toEqual(["stateless", "2026-07-28"]);
    const index = readFileSync(join(cwd, "OUT", "2027-01-01", "index.ts"), "utf8");
    expect(index).toContain("createHttpHandler");
    expect(index).not.toContain("createSessionHttpHandler");
    const known = await runCli(["generate", "-r", "2025-11-25", "--out", "OUT2", "--cache", TEST_CACHE_DIR, "--force"], cwd);
    expect(known.stdout).not.toContain("rules of");
  });

  it("a session-era schema under a later label gets the session era", async () => {
    const cwd = tmp();
    const run = await runCli(["generate", "--schema", schemaOf("2025-11-25"), "-r", "2025-12-31", "--out", "OUT", "--cache", TEST_CACHE_DIR, "--force"], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)[0]).toMatch(/^2025-12-31: rules of 2025-11-25 for /);
    expect(eraOf(cwd, "2025-12-31")).toEqual(["session", "2025-11-25"]);
    expect(readFileSync(join(cwd, "OUT", "2025-12-31", "index.ts"), "utf8")).toContain("createSessionHttpHandler");
  });

  it("rulesOf in the config chooses another known revision of the era", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify({ rulesOf: { "2025-12-31": "2025-06-18" } }));
    const run = await runCli(["generate", "--schema", schemaOf("2025-11-25"), "-r", "2025-12-31", "--out", "OUT", "--cache", TEST_CACHE_DIR, "--force"], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)[0]).toMatch(/^2025-12-31: rules of 2025-06-18 for /);
    expect(eraOf(cwd, "2025-12-31")).toEqual(["session", "2025-06-18"]);
  });

  it("a rulesOf of the other era, or not a known revision, is one error line and nothing written", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify({ rulesOf: { "2025-12-31": "2026-07-28" } }));
    const other = await runCli(["generate", "--schema", schemaOf("2025-11-25"), "-r", "2025-12-31", "--out", "OUT", "--cache", TEST_CACHE_DIR], cwd);
    expect(expectOneErrorLine(other)).toMatch(/rulesOf for 2025-12-31: 2026-07-28 is of the stateless era, but the schema of 2025-12-31 is of the session era; expected one of /);
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify({ rulesOf: { "2025-12-31": "2099-09-09" } }));
    const unknown = await runCli(["generate", "--schema", schemaOf("2025-11-25"), "-r", "2025-12-31", "--out", "OUT", "--cache", TEST_CACHE_DIR], cwd);
    expect(expectOneErrorLine(unknown)).toMatch(/mcp-stubgen\.config\.json#\/rulesOf\/2025-12-31: invalid config: expected a known revision \(2024-11-05, /);
    expect(existsSync(join(cwd, "OUT"))).toBe(false);
  });

  it("schema pull 2027-01-01 --from DIR, then generate --revision 2027-01-01, offline: the stateless era from the cache, pinned in the lockfile", async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, "specs", "2027-01-01"), { recursive: true });
    copyFileSync(schemaOf("2026-07-28"), join(cwd, "specs", "2027-01-01", "schema.json"));
    const pulled = await runCli(["schema", "pull", "2027-01-01", "--from", "specs"], cwd);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, "mcp-stubgen.lock.json"), "utf8"))).toMatchObject({ revisions: { "2027-01-01": { source: "local", commit: null } } });
    const run = await runCli(["generate", "-r", "2027-01-01"], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)[0]).toMatch(/^2027-01-01: rules of 2026-07-28 for /);
    const catalog = readFileSync(join(cwd, "out", "2027-01-01", "catalog.ts"), "utf8");
    expect(catalog).toContain('  era: "stateless",\n  rulesOf: "2026-07-28",');
    expect(readFileSync(join(cwd, "out", "2027-01-01", "index.ts"), "utf8")).toContain("createHttpHandler");
  });
});
