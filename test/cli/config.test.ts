/**
 * The config file: `mcp-stubgen.config.json` in the working folder, the "mcp-stubgen" key of its
 * package.json, `--config FILE` (paths relative to the file), validation errors with file and
 * pointer, and command-line flags winning over config values.
 */
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneErrorLine, fileList, runCli, snapshot, stagingLeftovers, tempDirs, TEST_CACHE_DIR, wroteLines } from "./support.js";

const tmp = tempDirs();

const writeJson = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** The revision folders below `dir`. */
const revisionFolders = (dir: string) => [...new Set(fileList(dir).map((f) => f.split("/")[0]))];

describe("config file", () => {
  it("mcp-stubgen.config.json in the working folder makes a bare `generate` write gen/2024-11-05/", async () => {
    const cwd = tmp();
    writeJson(join(cwd, "mcp-stubgen.config.json"), { revisions: ["2024-11-05"], out: "gen", cache: TEST_CACHE_DIR });
    const r = await runCli(["generate"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect([...wroteLines(r.stdout).keys()]).toEqual(["gen/2024-11-05"]);
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
    expect([...wroteLines(r.stdout).keys()]).toEqual(["src/mcp/2025-06-18"]);
    expect(revisionFolders(join(cwd, "src", "mcp"))).toEqual(["2025-06-18"]);
  });

  it("an unknown config key: exit 1, one error line with the file and the pointer of the key; nothing written", async () => {
    const cwd = tmp();
    writeJson(join(cwd, "mcp-stubgen.config.json"), { revisions: ["2024-11-05"], outDir: "gen", cache: TEST_CACHE_DIR });
    const before = snapshot(cwd);
    const r = await runCli(["generate"], cwd);
    const line = expectOneErrorLine(r);
    expect(line).toContain(`${join(realpathSync(cwd), "mcp-stubgen.config.json")}#/outDir: `);
    expect(line).toMatch(/invalid config: expected one of the keys revisions, all, schema, out, cache, resultOverrides/);
    expect(snapshot(cwd)).toEqual(before);
  });

  it("--config FILE: its paths are relative to its folder, and --revision, --cache and --out win over its values", async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, "conf", "empty-cache"), { recursive: true });
    writeJson(join(cwd, "conf", "stubgen.json"), { revisions: ["2024-11-05"], out: "gen", cache: "empty-cache" });
    // --revision and --cache from the command line; out from the config, relative to conf/
    const r = await runCli(["generate", "--config", "conf/stubgen.json", "--revision", "2025-03-26", "--cache", TEST_CACHE_DIR], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect([...wroteLines(r.stdout).keys()]).toEqual(["conf/gen/2025-03-26"]);
    expect(revisionFolders(join(cwd, "conf", "gen"))).toEqual(["2025-03-26"]);
    expect(existsSync(join(cwd, "gen"))).toBe(false);
    // --out from the command line (relative to the working folder); revisions from the config
    const r2 = await runCli(["generate", "--config", "conf/stubgen.json", "--out", "flag-out", "--cache", TEST_CACHE_DIR], cwd);
    expect(r2.code, r2.stderr).toBe(0);
    expect([...wroteLines(r2.stdout).keys()]).toEqual(["flag-out/2024-11-05"]);
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
