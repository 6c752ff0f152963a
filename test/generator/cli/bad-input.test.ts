/**
 * Bad input: every case exits 1 with exactly one error line on stderr that names the file and
 * where in it (JSON pointer or line:column) and what was expected, and leaves the previously
 * generated output folder, and everything beside it, exactly as it was.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  cliFixture,
  expectOneErrorLine,
  fileList,
  MANIFEST,
  REVISIONS,
  runCli,
  snapshot,
  stagingLeftovers,
  tempDirs,
  TEST_CACHE_DIR,
  type RunResult,
} from "./support.js";

const tmp = tempDirs();
const REV = "2025-11-25";

describe("bad input leaves the output folder as it was", () => {
  let cwd: string;
  let emptyCache: string;

  beforeAll(async () => {
    cwd = tmp();
    emptyCache = join(cwd, "empty-cache");
    mkdirSync(emptyCache);
    writeFileSync(join(cwd, "a-file"), "not a folder\n");
    const r = await runCli(["generate", "--revision", REV, "--out", "OUT", "--cache", TEST_CACHE_DIR], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(fileList(join(cwd, "OUT"))).toContain(`${REV}/types.ts`);
  });

  /** Runs a command that must fail; asserts the one error line and that nothing in cwd changed. */
  async function failing(args: readonly string[]): Promise<string> {
    const before = snapshot(cwd);
    const r: RunResult = await runCli(args, cwd);
    const line = expectOneErrorLine(r);
    expect(snapshot(cwd)).toEqual(before);
    expect(stagingLeftovers(cwd)).toEqual([]);
    expect(stagingLeftovers(join(cwd, "OUT"))).toEqual([]);
    return line;
  }

  it("invalid JSON given with --schema: file:line:column and what was expected", async () => {
    const file = cliFixture("invalid-json.json");
    const line = await failing(["generate", "--schema", file, "--out", "OUT"]);
    expect(line).toBe(
      `mcp-stubgen: error: ${file}:5:5: invalid JSON: expected ',' or '}' after a property value, found '"'`,
    );
  });

  it("a $ref that does not resolve: file#pointer of the $ref", async () => {
    const file = cliFixture("unresolved-ref.json");
    const line = await failing(["generate", "--schema", file, "--out", "OUT"]);
    expect(line).toContain(`${file}#/$defs/Holder/properties/broken/$ref: `);
    expect(line).toContain('"#/$defs/NoSuchDefinition"');
    expect(line).toMatch(/does not resolve/);
  });

  it("a direction-union member without a method const: file#pointer and what was expected", async () => {
    const file = cliFixture("member-without-method.json");
    const line = await failing(["generate", "--schema", file, "--out", "OUT"]);
    expect(line).toContain(`${file}#/$defs/LooseRequest/properties/method: `);
    expect(line).toContain("ClientRequest member (at /$defs/ClientRequest/anyOf/1)");
    expect(line).toContain('expected "properties.method.const" to be a string');
  });

  it("an unknown revision: the message lists every known revision", async () => {
    const line = await failing(["generate", "--revision", "2099-01-01", "--out", "OUT", "--cache", TEST_CACHE_DIR]);
    expect(line).toContain('unknown revision "2099-01-01"');
    expect(MANIFEST.revisions.map((r) => r.id)).toEqual([...REVISIONS]);
    expect(line).toContain(`expected one of ${REVISIONS.join(", ")}`);
  });

  it("a missing cache: names the expected cache file and prints the exact schema pull command", async () => {
    const line = await failing(["generate", "--revision", REV, "--out", "OUT", "--cache", emptyCache]);
    expect(line).toContain(`${join(emptyCache, REV, "schema.json")}: `);
    expect(line).toContain(`mcp-stubgen schema pull ${REV} --cache ${emptyCache}`);
  });

  it("--all with one revision missing from the cache writes no revision at all", async () => {
    const partial = join(cwd, "partial-cache");
    // a cache holding every revision but the last: the failure comes after the others were modelled
    mkdirSync(partial);
    for (const rev of REVISIONS.slice(0, -1)) cpSync(join(TEST_CACHE_DIR, rev), join(partial, rev), { recursive: true });
    const line = await failing(["generate", "--all", "--out", "OUT", "--cache", partial]);
    const last = REVISIONS[REVISIONS.length - 1]!;
    expect(line).toContain(`mcp-stubgen schema pull ${last} --cache ${partial}`);
  });

  it("--out naming an existing regular file: names it, says a folder was expected", async () => {
    const line = await failing(["generate", "--revision", REV, "--out", "a-file", "--cache", TEST_CACHE_DIR]);
    expect(line).toMatch(/^mcp-stubgen: error: a-file: /);
    expect(line).toMatch(/expected a folder, found a file/);
  });

  it("--out below a regular file: names the output path", async () => {
    const line = await failing(["generate", "--revision", REV, "--out", "a-file/sub", "--cache", TEST_CACHE_DIR]);
    expect(line).toMatch(/^mcp-stubgen: error: a-file\/sub: cannot write the output folder/);
  });
});
