/**
 * `mcp-stubgen schema list` and `schema pull`: the cache states, copying from a local folder, and
 * the sha256 check that keeps a wrong file out of the cache.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  expectOneErrorLine,
  haveSharedSchemas,
  lines,
  manifestSha256,
  REVISIONS,
  runCli,
  SHARED_SCHEMAS,
  snapshot,
  stagingLeftovers,
  tempDirs,
  TEST_CACHE_DIR,
} from "./support.js";

const tmp = tempDirs();

/** The rows of `schema list`'s first table: revision → [dialect, state, path]. */
function listRows(stdout: string): Map<string, string[]> {
  const all = lines(stdout);
  const [header, rule, ...rows] = all.includes("") ? all.slice(0, all.indexOf("")) : all;
  expect(header).toMatch(/^revision\s+dialect\s+cache\s+path$/);
  expect(rule).toMatch(/^-+(\s+-+){3}$/);
  return new Map(rows.map((row) => row.split(/\s{2,}/)).map(([id, ...rest]) => [id!, rest]));
}

describe("schema list", () => {
  it("with an empty cache shows every known revision as missing", async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, "empty"));
    const r = await runCli(["schema", "list", "--cache", "empty"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const rows = listRows(r.stdout);
    expect([...rows.keys()]).toEqual([...REVISIONS]);
    for (const rev of REVISIONS) {
      expect(rows.get(rev)?.[1], rev).toBe("missing");
      expect(rows.get(rev)?.[2], rev).toBe(`empty/${rev}/schema.json`);
    }
    // Then, after a blank line, the known extensions.
    const all = lines(r.stdout);
    const extensions = all.slice(all.indexOf("") + 1);
    expect(extensions[0]).toMatch(/^extension\s+identifier\s+extends\s+cache\s+path$/);
    expect(extensions.slice(2).map((row) => row.split(/\s{2,}/))).toEqual([
      ["tasks", "io.modelcontextprotocol/tasks", "2026-07-28, draft", "missing", "empty/extensions/tasks/schema.json"],
      ["apps", "io.modelcontextprotocol/ui", "2025-11-25", "missing", "empty/extensions/apps/schema.json"],
      // A bundled extension is never cached: its file ships in the package.
      ["skills", "io.modelcontextprotocol/skills", "2026-07-28, draft", "bundled", expect.stringMatching(/schema\/extensions\/skills\/2026-07-28\/schema\.json$/)],
    ]);
  });
});

describe("schema pull --from", () => {
  const REV = "2025-06-18";

  it(`copies ${REV} into the cache (sha256 checked), and schema list then shows it cached`, async () => {
    // The published schemas beside the repo; without them the test cache (filled by the
    // global setup, sha256-checked) serves as the same layout.
    const from = haveSharedSchemas() ? SHARED_SCHEMAS : TEST_CACHE_DIR;
    const cwd = tmp();
    const cache = join(cwd, "cache");
    const pulled = await runCli(["schema", "pull", REV, "--from", from, "--cache", cache], cwd);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toBe("");
    expect(lines(pulled.stdout)).toEqual([
      `${REV}: cache/${REV}/schema.json (sha256 ok, from ${join(from, REV, "schema.json")})`,
    ]);
    expect(readFileSync(join(cache, REV, "schema.json"))).toEqual(readFileSync(join(from, REV, "schema.json")));
    expect(Object.keys(snapshot(cache))).toEqual([".", REV, `${REV}/schema.json`]);

    const listed = await runCli(["schema", "list", "--cache", cache], cwd);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listRows(listed.stdout);
    for (const rev of REVISIONS) expect(rows.get(rev)?.[1], rev).toBe(rev === REV ? "cached" : "missing");
  });

  describe("a source file whose bytes differ from the manifest's sha256", () => {
    /** A folder laid out like ../shared/mcp-schema holding a modified copy of REV. */
    function modifiedSource(cwd: string): string {
      const from = join(cwd, "modified");
      mkdirSync(join(from, REV), { recursive: true });
      const original = readFileSync(join(TEST_CACHE_DIR, REV, "schema.json"), "utf8");
      writeFileSync(join(from, REV, "schema.json"), original.replace('"description"', '"description" ').concat("\n"));
      return from;
    }

    it("exit 1, 'sha256 mismatch', and no cache file is created", async () => {
      const cwd = tmp();
      const from = modifiedSource(cwd);
      const before = snapshot(cwd);
      const r = await runCli(["schema", "pull", REV, "--from", from, "--cache", "cache"], cwd);
      const line = expectOneErrorLine(r);
      expect(line).toContain(`${join(from, REV, "schema.json")}: `);
      expect(line).toContain(`sha256 mismatch for revision ${REV}`);
      expect(line).toContain(`expected ${manifestSha256(REV)}`);
      expect(existsSync(join(cwd, "cache", REV, "schema.json"))).toBe(false);
      expect(snapshot(cwd)).toEqual(before);
    });

    it("exit 1, 'sha256 mismatch', and a cached good file is not overwritten (bytes and mtime)", async () => {
      const cwd = tmp();
      const cache = join(cwd, "cache");
      mkdirSync(join(cache, REV), { recursive: true });
      writeFileSync(join(cache, REV, "schema.json"), readFileSync(join(TEST_CACHE_DIR, REV, "schema.json")));
      const from = modifiedSource(cwd);
      const before = snapshot(cwd);
      const r = await runCli(["schema", "pull", REV, "--from", from, "--cache", cache], cwd);
      const line = expectOneErrorLine(r);
      expect(line).toContain("sha256 mismatch");
      expect(snapshot(cwd)).toEqual(before);
      expect(stagingLeftovers(join(cache, REV))).toEqual([]);
    });
  });
});

describe("schema pull --from a single file", () => {
  const REV = "2025-11-25";
  const source = () => join(haveSharedSchemas() ? SHARED_SCHEMAS : TEST_CACHE_DIR, REV, "schema.json");

  it("with the revision as a positional or as --revision: copied (sha256 checked)", async () => {
    for (const args of [[REV], ["--revision", REV]]) {
      const cwd = tmp();
      const r = await runCli(["schema", "pull", ...args, "--from", source(), "--cache", "cache"], cwd);
      expect(r.code, r.stderr).toBe(0);
      expect(lines(r.stdout)).toEqual([`${REV}: cache/${REV}/schema.json (sha256 ok, from ${source()})`]);
      expect(readFileSync(join(cwd, "cache", REV, "schema.json"))).toEqual(readFileSync(source()));
    }
  });

  it("labelled with another known revision: sha256 mismatch, nothing written", async () => {
    const cwd = tmp();
    const line = expectOneErrorLine(await runCli(["schema", "pull", "2025-06-18", "--from", source(), "--cache", "cache"], cwd));
    expect(line).toContain(`${source()}: sha256 mismatch for revision 2025-06-18: expected ${manifestSha256("2025-06-18")}`);
    expect(existsSync(join(cwd, "cache"))).toBe(false);
  });

  it("without a revision: asks for the one revision the file holds", async () => {
    const cwd = tmp();
    const line = expectOneErrorLine(await runCli(["schema", "pull", "--from", source(), "--cache", "cache"], cwd));
    expect(line).toBe(
      `mcp-stubgen: error: ${source()}: --from names a single schema file, so name the one revision it holds: ` +
        `mcp-stubgen schema pull REV --from ${source()} (got none)`,
    );
    expect(existsSync(join(cwd, "cache"))).toBe(false);
  });
});

describe("schema pull --from a path that is neither a schema file nor a <revision>/schema.json folder", () => {
  it("a missing path: names it and shows the expected layout", async () => {
    const cwd = tmp();
    const line = expectOneErrorLine(await runCli(["schema", "pull", "2025-11-25", "--from", "nowhere", "--cache", "cache"], cwd));
    expect(line).toBe(
      "mcp-stubgen: error: nowhere: --from: no such file or folder; expected a schema file (with one revision named) " +
        "or a folder laid out as nowhere/<revision>/schema.json",
    );
    expect(existsSync(join(cwd, "cache"))).toBe(false);
  });

  it("a folder without <revision>/schema.json: names the file it looked for and shows the layout", async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, "schemas", "2025-11-25"), { recursive: true });
    writeFileSync(join(cwd, "schemas", "2025-11-25.json"), "{}");
    const line = expectOneErrorLine(await runCli(["schema", "pull", "2025-11-25", "--from", "schemas", "--cache", "cache"], cwd));
    expect(line).toBe(
      "mcp-stubgen: error: schemas/2025-11-25/schema.json: --from: no schema for revision 2025-11-25 in this folder; " +
        "expected a schema file (with one revision named) or a folder laid out as schemas/<revision>/schema.json",
    );
    expect(existsSync(join(cwd, "cache"))).toBe(false);
  });
});
