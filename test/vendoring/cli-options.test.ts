/**
 * The CLI and config side of the vendoring options: `--import-ext js|ts` / `importExtension`,
 * `--emit ts|js` / `emit`, flags winning over the config, `--check` on JavaScript output, and
 * one error line for a bad value or a combination that cannot work.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneErrorLine, fileList, lines, runCli, snapshot, tempDirs, TEST_CACHE_DIR } from "../generator/cli/support.js";

const tmp = tempDirs("stubgen-vendoring-cli-");
const REV = "2024-11-05";
const generateArgs = ["generate", "-r", REV, "--cache", TEST_CACHE_DIR, "--out", "gen"];

describe("generate --import-ext", () => {
  it("ts: the files import each other as ./name.ts; js (the default) as ./name.js", async () => {
    const cwd = tmp();
    const ts = await runCli([...generateArgs, "--import-ext", "ts"], cwd);
    expect(ts.code, ts.stderr).toBe(0);
    const index = readFileSync(join(cwd, "gen", REV, "index.ts"), "utf8");
    expect(index).toContain('export * from "./catalog.ts";');
    expect(index).not.toMatch(/from "\.\/\w+\.js"/);

    const js = await runCli([...generateArgs, "--import-ext", "js"], cwd);
    expect(js.code, js.stderr).toBe(0);
    expect(readFileSync(join(cwd, "gen", REV, "index.ts"), "utf8")).toContain('export * from "./catalog.js";');
  });

  it("rejects another value with one error line and writes nothing", async () => {
    const cwd = tmp();
    const before = snapshot(cwd);
    const line = expectOneErrorLine(await runCli([...generateArgs, "--import-ext", "mjs"], cwd));
    expect(line).toBe(`mcp-stubgen: error: --import-ext takes js or ts, got "mjs" (see mcp-stubgen --help)`);
    expect(snapshot(cwd)).toEqual(before);
  });
});

describe("generate --emit", () => {
  it("js: a .js and a .d.ts per file, and --check reports up to date, then the file edited", async () => {
    const cwd = tmp();
    const r = await runCli([...generateArgs, "--emit", "js"], cwd);
    expect(r.code, r.stderr).toBe(0);
    const files = fileList(join(cwd, "gen"));
    expect(files).toContain(`${REV}/index.js`);
    expect(files).toContain(`${REV}/index.d.ts`);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);

    // The two checks (each a full JavaScript emit) run side by side: the untouched output in
    // `cwd`, and a copy of it with one file edited in `edited`.
    const edited = tmp();
    cpSync(join(cwd, "gen"), join(edited, "gen"), { recursive: true });
    writeFileSync(join(edited, "gen", REV, "server.d.ts"), "// edited\n");
    const [check, stale] = await Promise.all([runCli([...generateArgs, "--emit", "js", "--check"], cwd), runCli([...generateArgs, "--emit", "js", "--check"], edited)]);
    expect(check.code, check.stderr).toBe(0);
    expect(lines(check.stdout)).toEqual(["up to date"]);

    expect(stale.code).toBe(1);
    expect(lines(stale.stdout)).toEqual([`stale: gen/${REV}/server.d.ts`, "1 file(s) out of date: run mcp-stubgen generate"]);
  });

  it("--emit js with --import-ext ts: one error line, nothing written", async () => {
    const cwd = tmp();
    const before = snapshot(cwd);
    const line = expectOneErrorLine(await runCli([...generateArgs, "--emit", "js", "--import-ext", "ts"], cwd));
    expect(line).toContain('importExtension ".ts" applies to TypeScript output only');
    expect(snapshot(cwd)).toEqual(before);
  });
});

describe("config keys importExtension and emit", () => {
  const config = (cwd: string, value: object) =>
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify({ revisions: [REV], out: "gen", cache: TEST_CACHE_DIR, ...value }));

  it("set the defaults of generate; the flags win over them", async () => {
    const cwd = tmp();
    config(cwd, { importExtension: ".ts" });
    expect((await runCli(["generate"], cwd)).code).toBe(0);
    expect(readFileSync(join(cwd, "gen", REV, "index.ts"), "utf8")).toContain('from "./catalog.ts";');
    expect((await runCli(["generate", "--import-ext", "js"], cwd)).code).toBe(0);
    expect(readFileSync(join(cwd, "gen", REV, "index.ts"), "utf8")).toContain('from "./catalog.js";');

    config(cwd, { emit: "js" });
    expect((await runCli(["generate"], cwd)).code).toBe(0);
    expect(fileList(join(cwd, "gen"))).toContain(`${REV}/catalog.d.ts`);
    expect((await runCli(["generate", "--emit", "ts"], cwd)).code).toBe(0);
    expect(fileList(join(cwd, "gen"))).toContain(`${REV}/catalog.ts`);
    expect(fileList(join(cwd, "gen"))).not.toContain(`${REV}/catalog.d.ts`);
  });

  it.each([
    { key: "importExtension", value: "ts", expected: '".js" or ".ts"' },
    { key: "emit", value: "mjs", expected: '"ts" or "js"' },
  ])("a bad $key: one error line naming the key's pointer", async ({ key, value, expected }) => {
    const cwd = tmp();
    config(cwd, { [key]: value });
    const line = expectOneErrorLine(await runCli(["generate"], cwd));
    expect(line).toContain(`mcp-stubgen.config.json#/${key}: invalid config: expected ${expected}`);
  });
});
