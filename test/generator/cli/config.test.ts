/**
 * The config file: `mcp-stubgen.config.json` in the working folder, the "mcp-stubgen" key of its
 * package.json, `--config FILE` (paths relative to the file), validation errors with file and
 * pointer, and command-line flags winning over config values.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  expectOneErrorLine,
  fileList,
  haveSharedSchemas,
  lines,
  runCli,
  SHARED_SCHEMAS,
  snapshot,
  stagingLeftovers,
  tempDirs,
  TEST_CACHE_DIR,
  wroteLines,
} from "./support.js";

const tmp = tempDirs();

const writeJson = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** The revision folders below `dir`. */
const revisionFolders = (dir: string) => [...new Set(fileList(dir).map((f) => f.split("/")[0]))].filter((f) => f !== "runtime");

describe("config file", () => {
  it("mcp-stubgen.config.json in the working folder makes a bare `generate` write gen/2024-11-05/", async () => {
    const cwd = tmp();
    writeJson(join(cwd, "mcp-stubgen.config.json"), { revisions: ["2024-11-05"], out: "gen", cache: TEST_CACHE_DIR });
    const r = await runCli(["generate"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect([...wroteLines(r.stdout).keys()]).toEqual(["gen/runtime", "gen/2024-11-05"]);
    expect(revisionFolders(join(cwd, "gen"))).toEqual(["2024-11-05"]);
    expect(fileList(join(cwd, "gen"))).toContain("2024-11-05/types.ts");
    expect(existsSync(join(cwd, "out"))).toBe(false);
  });

  it('the "mcp-stubgen" key of package.json works the same way', async () => {
    const cwd = tmp();
    writeJson(join(cwd, "package.json"), {
      name: "consumer",
      private: true,
      "mcp-stubgen": { revisions: ["2025-06-18"], out: "src/mcp", cache: TEST_CACHE_DIR },
    });
    const r = await runCli(["generate"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect([...wroteLines(r.stdout).keys()]).toEqual(["src/mcp/runtime", "src/mcp/2025-06-18"]);
    expect(revisionFolders(join(cwd, "src", "mcp"))).toEqual(["2025-06-18"]);
  });

  it('"extensions": ["tasks"] merges the extension where it applies and says so; a non-array is an error at its pointer', async () => {
    const cwd = tmp();
    writeJson(join(cwd, "mcp-stubgen.config.json"), { revisions: ["2025-11-25", "2026-07-28"], extensions: ["tasks"], cache: TEST_CACHE_DIR });
    const r = await runCli(["generate"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).filter((l) => l.startsWith("wrote out/20")).map((l) => l.replace(/ \(.*\)$/, ""))).toEqual(["wrote out/2025-11-25/", "wrote out/2026-07-28/ with tasks"]);
    expect(readFileSync(join(cwd, "out", "2026-07-28", "catalog.ts"), "utf8")).toContain('"tasks/get"');
    expect(readFileSync(join(cwd, "out", "2025-11-25", "catalog.ts"), "utf8")).not.toContain("With the extension");
    writeJson(join(cwd, "mcp-stubgen.config.json"), { revisions: ["2026-07-28"], extensions: "tasks", cache: TEST_CACHE_DIR });
    const line = expectOneErrorLine(await runCli(["generate"], cwd));
    expect(line).toContain(`mcp-stubgen.config.json#/extensions: invalid config: expected an array of extension ids, e.g. ["tasks"]`);
  });

  it("an unknown config key: exit 1, one error line with the file and the pointer of the key; nothing written", async () => {
    const cwd = tmp();
    writeJson(join(cwd, "mcp-stubgen.config.json"), { revisions: ["2024-11-05"], outDir: "gen", cache: TEST_CACHE_DIR });
    const before = snapshot(cwd);
    const r = await runCli(["generate"], cwd);
    const line = expectOneErrorLine(r);
    expect(line).toContain(`${join(realpathSync(cwd), "mcp-stubgen.config.json")}#/outDir: `);
    expect(line).toMatch(/invalid config: expected one of the keys revisions, all, schema, out, cache, lockfile, fragment, resultOverrides, importExtension, emit, runtime, strictObjects, extensions, addons, rulesOf$/);
    expect(snapshot(cwd)).toEqual(before);
  });

  it("--config FILE: its paths are relative to its folder, and --revision, --cache and --out win over its values", async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, "conf", "empty-cache"), { recursive: true });
    writeJson(join(cwd, "conf", "stubgen.json"), { revisions: ["2024-11-05"], out: "gen", cache: "empty-cache" });
    // --revision and --cache from the command line; out from the config, relative to conf/
    const r = await runCli(["generate", "--config", "conf/stubgen.json", "--revision", "2025-03-26", "--cache", TEST_CACHE_DIR], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect([...wroteLines(r.stdout).keys()]).toEqual(["conf/gen/runtime", "conf/gen/2025-03-26"]);
    expect(revisionFolders(join(cwd, "conf", "gen"))).toEqual(["2025-03-26"]);
    expect(existsSync(join(cwd, "gen"))).toBe(false);
    // --out from the command line (relative to the working folder); revisions from the config
    const r2 = await runCli(["generate", "--config", "conf/stubgen.json", "--out", "flag-out", "--cache", TEST_CACHE_DIR], cwd);
    expect(r2.code, r2.stderr).toBe(0);
    expect([...wroteLines(r2.stdout).keys()]).toEqual(["flag-out/runtime", "flag-out/2024-11-05"]);
    expect(revisionFolders(join(cwd, "flag-out"))).toEqual(["2024-11-05"]);
    expect(revisionFolders(join(cwd, "conf", "gen"))).toEqual(["2025-03-26"]);
    expect(stagingLeftovers(cwd)).toEqual([]);
    expect(stagingLeftovers(join(cwd, "conf"))).toEqual([]);
  });

  it("catalog takes its revision and result overrides from the config, and --result-override wins per method", async () => {
    const cwd = tmp();
    writeJson(join(cwd, "mcp-stubgen.config.json"), {
      revisions: ["2025-06-18"],
      cache: TEST_CACHE_DIR,
      resultOverrides: { ping: "Result", "logging/setLevel": "Result" },
    });
    const r = await runCli(["catalog", "--json", "--result-override", "ping=EmptyResult"], cwd);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { revision: string; methods: Array<{ method: string; result: string | null }> };
    expect(json.revision).toBe("2025-06-18");
    const result = (method: string) => json.methods.find((m) => m.method === method)?.result;
    expect(result("ping")).toBe("EmptyResult"); // the flag
    expect(result("logging/setLevel")).toBe("Result"); // the config
    expect(result("tools/call")).toBe("CallToolResult"); // derived
  });
});

describe("config file errors name the file", () => {
  it("--config naming a missing file: one line with the file and what was expected; nothing written", async () => {
    const cwd = tmp();
    const r = await runCli(["generate", "--config", "missing.json"], cwd);
    expect(expectOneErrorLine(r)).toBe(
      `mcp-stubgen: error: ${join(realpathSync(cwd), "missing.json")}: cannot read the config file: no such file (ENOENT); ` +
        "expected a JSON object with the keys revisions, all, schema, out, cache, lockfile, fragment, resultOverrides, importExtension, emit, runtime, strictObjects, extensions, addons, rulesOf",
    );
    expect(fileList(cwd)).toEqual([]);
  });

  it("--config naming a folder says so", async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, "conf"));
    const line = expectOneErrorLine(await runCli(["schema", "list", "--config", "conf"], cwd));
    expect(line).toMatch(/^mcp-stubgen: error: \S+\/conf: cannot read the config file: it is a folder \(EISDIR\); expected a JSON object/);
  });

  it("invalid JSON in a --config file: file:line:column", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "bad.json"), '{\n  "out": "x",\n}\n');
    const line = expectOneErrorLine(await runCli(["generate", "--config", "bad.json"], cwd));
    expect(line).toMatch(new RegExp(`^mcp-stubgen: error: ${join(realpathSync(cwd), "bad.json")}:3:1: invalid JSON`));
  });
});

describe("schema pull and schema list honour the config (docs/config.md)", () => {
  const REV = "2025-11-25";
  const from = () => (haveSharedSchemas() ? SHARED_SCHEMAS : TEST_CACHE_DIR);

  it("the README's config: schema pull --from fills its cache with its revisions, then generate works", async () => {
    const cwd = tmp();
    writeJson(join(cwd, "mcp-stubgen.config.json"), { revisions: [REV], out: "src/generated/mcp", cache: "build/mcp-schema" });
    const pulled = await runCli(["schema", "pull", "--from", from()], cwd);
    expect(pulled.code, pulled.stderr).toBe(0);
    // only the config's revision, into the config's cache
    expect(lines(pulled.stdout)).toEqual([`${REV}: build/mcp-schema/${REV}/schema.json (sha256 ok, from ${join(from(), REV, "schema.json")})`]);
    const listed = await runCli(["schema", "list"], cwd);
    expect(listed.code, listed.stderr).toBe(0);
    expect(lines(listed.stdout).find((l) => l.startsWith(REV))).toMatch(new RegExp(`^${REV}\\s+2020-12\\s+cached\\s+build/mcp-schema/${REV}/schema.json$`));
    const generated = await runCli(["generate"], cwd);
    expect(generated.code, generated.stderr).toBe(0);
    expect([...wroteLines(generated.stdout).keys()]).toEqual([`src/generated/mcp/runtime`, `src/generated/mcp/${REV}`]);
    expect(existsSync(join(cwd, ".mcp-stubgen"))).toBe(false);
  });

  it("--config FILE: schema pull and list use its cache, relative to the file", async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, "conf"));
    writeJson(join(cwd, "conf", "stubgen.json"), { revisions: [REV], cache: "cache" });
    const pulled = await runCli(["schema", "pull", "--config", "conf/stubgen.json", "--from", from()], cwd);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(readFileSync(join(cwd, "conf", "cache", REV, "schema.json"))).toEqual(readFileSync(join(from(), REV, "schema.json")));
    const listed = await runCli(["schema", "list", "--config", "conf/stubgen.json"], cwd);
    expect(lines(listed.stdout).find((l) => l.startsWith(REV))).toContain(`cached   conf/cache/${REV}/schema.json`);
  });

  it("without a cache setting the cache is .mcp-stubgen/schema beside the config file (the working folder without one)", async () => {
    const cwd = tmp();
    const bare = await runCli(["schema", "pull", REV, "--from", from()], cwd);
    expect(bare.code, bare.stderr).toBe(0);
    expect(lines(bare.stdout)[0]).toMatch(new RegExp(`^${REV}: \\.mcp-stubgen/schema/${REV}/schema.json `));
    mkdirSync(join(cwd, "app"));
    writeJson(join(cwd, "app", "stubgen.json"), { revisions: [REV], out: "gen" });
    const pulled = await runCli(["schema", "pull", "--config", "app/stubgen.json", "--from", from()], cwd);
    expect(lines(pulled.stdout)[0]).toMatch(new RegExp(`^${REV}: app/\\.mcp-stubgen/schema/${REV}/schema.json `));
    const generated = await runCli(["generate", "--config", "app/stubgen.json"], cwd);
    expect(generated.code, generated.stderr).toBe(0);
    expect([...wroteLines(generated.stdout).keys()]).toEqual([`app/gen/runtime`, `app/gen/${REV}`]);
  });
});
