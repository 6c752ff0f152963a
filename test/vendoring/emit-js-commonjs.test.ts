/**
 * `emit: "js"` in a default project: `npm init -y` (npm 11) writes `"type": "commonjs"`, under
 * which Node reads a `.js` file as CommonJS. The output root's package.json marker
 * (generator/write/module-marker.ts) makes the generated files ES modules there: plain `node`
 * runs them from an `.mjs` script and from a CommonJS script's `import()`, tsc reads the
 * declarations for an ES module consumer, and generate, `check` and the clean-up own the marker
 * (and only the marker: a package.json of the user's is never replaced).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { MARKER_TEXT } from "../../generator/write/module-marker.js";
import { TEST_CACHE_DIR } from "../helpers/schemas.js";
import { EXPECTED_WIRE, pingAndCancelScript, type ScriptReport } from "./scripts.js";
import { consumerTsconfig, runTsc } from "./support.js";

const REVISION = "2025-11-25";
/** What `npm init -y` writes with npm 11 (the fields that matter: no "module" type anywhere). */
const NPM_INIT = { name: "consumer", version: "1.0.0", main: "index.js", type: "commonjs", scripts: {}, license: "ISC" };
let dir: string;
let out: string;

const tmp = () => mkdtempSync(join(dir, "case-"));
const read = (...path: string[]) => readFileSync(join(...path), "utf8");
const node = (script: string, cwd: string) => spawnSync(process.execPath, [script], { cwd, encoding: "utf8", timeout: 60_000 });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-stubgen-emit-js-cjs-"));
  out = join(dir, "out");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(NPM_INIT, null, 2)}\n`);
  await generate({ revisions: [REVISION], out, cacheDir: TEST_CACHE_DIR, emit: "js" });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('emit "js" in a "type": "commonjs" project', () => {
  it("writes <out>/package.json with type module, and nothing else at the root", () => {
    expect(JSON.parse(read(out, "package.json"))).toMatchObject({ type: "module" });
    expect(read(out, "package.json")).toBe(MARKER_TEXT);
  });

  it("runs under plain node from an .mjs script: ping, then a cancelled call, as on the TypeScript runtime's wire", () => {
    writeFileSync(join(dir, "ping.mjs"), pingAndCancelScript(`./out/${REVISION}/index.js`, false));
    const run = node("ping.mjs", dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ScriptReport;
    expect(report.pong).toEqual({});
    expect(report.error).toEqual({ name: "AbortError", isRequestCancelledError: true });
    expect(report.wire).toEqual(EXPECTED_WIRE);
  });

  it("runs from a CommonJS script's import(): a tools/call answered by the server's handler", () => {
    const script = [
      '"use strict";',
      `import("./out/${REVISION}/index.js").then(async ({ McpClient, McpServer, createInMemoryTransportPair }) => {`,
      "  const [a, b] = createInMemoryTransportPair();",
      '  const server = new McpServer({ logger: null, handlers: { "tools/call": async (params) => ({ content: [{ type: "text", text: `hello ${params.name}` }] }) } });',
      "  const client = new McpClient({ logger: null });",
      "  await server.connect(b);",
      "  await client.connect(a, { initialize: false });",
      '  const result = await client.callTool({ name: "world" });',
      "  await client.close();",
      "  console.log(JSON.stringify({ isCommonJs: typeof module === \"object\", result }));",
      "});",
      "",
    ].join("\n");
    writeFileSync(join(dir, "main.js"), script);
    const run = node("main.js", dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ isCommonJs: true, result: { content: [{ type: "text", text: "hello world" }] } });
  });

  it("type-checks an ES module consumer (.mts) against the .d.ts files with tsc (NodeNext, strict), and its @ts-expect-error is used", () => {
    const consumer = [
      `import { McpClient, McpServer, createInMemoryTransportPair, type CallToolResult } from "./out/${REVISION}/index.js";`,
      "",
      "const [a, b] = createInMemoryTransportPair();",
      'const server = new McpServer({ handlers: { "tools/call": async (params) => ({ content: [{ type: "text", text: params.name }] }) } });',
      "const client = new McpClient({ logger: null });",
      "await server.connect(b);",
      "await client.connect(a, { initialize: false });",
      'export const result: CallToolResult = await client.callTool({ name: "x" });',
      "// @ts-expect-error the tool name is a string",
      "await client.callTool({ name: 42 });",
      "",
    ].join("\n");
    writeFileSync(join(dir, "consumer.mts"), consumer);
    writeFileSync(join(dir, "tsconfig.json"), consumerTsconfig(["consumer.mts"]));
    const { status, output } = runTsc(["-p", join(dir, "tsconfig.json")], dir);
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("check reports the marker missing, then generate puts it back", async () => {
    const cwd = tmp();
    const gen = join(cwd, "gen");
    await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, emit: "js" });
    unlinkSync(join(gen, "package.json"));
    const check = await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, emit: "js", check: true });
    expect(check.check).toEqual({ stale: [], missing: ["package.json"], extra: [] });
    writeFileSync(join(gen, "package.json"), '{"type":"module"}\n');
    await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, emit: "js" });
    // A package.json that already says "type": "module" is the user's: left as it is.
    expect(read(gen, "package.json")).toBe('{"type":"module"}\n');
    unlinkSync(join(gen, "package.json"));
    await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, emit: "js" });
    expect(read(gen, "package.json")).toBe(MARKER_TEXT);
    const upToDate = await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, emit: "js", check: true });
    expect(upToDate.check).toEqual({ stale: [], missing: [], extra: [] });
  }, 120_000);

  it("back to TypeScript output: check lists the marker as extra, generate removes it", async () => {
    const cwd = tmp();
    const gen = join(cwd, "gen");
    writeFileSync(join(cwd, "keep.txt"), "not ours");
    await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, emit: "js" });
    const check = await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, check: true });
    expect(check.check?.extra).toContain("package.json");
    await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR });
    expect(existsSync(join(gen, "package.json"))).toBe(false);
    expect(existsSync(join(gen, REVISION, "index.ts"))).toBe(true);
    expect(read(cwd, "keep.txt")).toBe("not ours");
  }, 120_000);

  it("TypeScript output keeps the marker while another folder of the output is still JavaScript", async () => {
    const gen = join(tmp(), "gen");
    await generate({ revisions: ["2025-06-18"], out: gen, cacheDir: TEST_CACHE_DIR, emit: "js", runtime: "inline" });
    await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, runtime: "inline" });
    expect(read(gen, "package.json")).toBe(MARKER_TEXT);
    expect(existsSync(join(gen, "2025-06-18", "index.js"))).toBe(true);
  }, 120_000);

  it("refuses to replace a package.json of the user's whose type is not module: one error, nothing written", async () => {
    const gen = join(tmp(), "gen");
    const own = `${JSON.stringify({ name: "mine", type: "commonjs" })}\n`;
    await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR });
    writeFileSync(join(gen, "package.json"), own);
    await expect(generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR, emit: "js" })).rejects.toThrow(
      /cannot mark the JavaScript output as ES modules: package\.json there is not mcp-stubgen's/,
    );
    expect(read(gen, "package.json")).toBe(own);
    expect(existsSync(join(gen, REVISION, "index.js"))).toBe(false);
    // TypeScript output leaves it alone too.
    await generate({ revisions: [REVISION], out: gen, cacheDir: TEST_CACHE_DIR });
    expect(read(gen, "package.json")).toBe(own);
  }, 120_000);
});
