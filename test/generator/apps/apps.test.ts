/**
 * The MCP Apps extension in the generator: its schema pulled from the shared folder or from a
 * project's node_modules/@modelcontextprotocol/ext-apps; its catalog derived from the schema and
 * the sender table, checked both ways; the wrappers' names derived from the methods; the output
 * (`generate --extension apps` → <out>/apps/) byte-identical from run to run; and the App side's
 * import graph free of Node modules (it runs in a browser).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../../generator/generate.js";
import { pullSchemas } from "../../../generator/load/schema-pull.js";
import { readManifest } from "../../../generator/load/schema-source.js";
import { sha256Hex } from "../../../generator/load/schema-document.js";
import { APPS_POLICY, APPS_TYPE_RULES, applyTypeRules, appsCatalog, hoistNestedDefs } from "../../../generator/model/apps.js";
import { APPS_FILES, callName, sendName } from "../../../generator/emit/apps-render.js";
import type { MethodRecord } from "../../../generator/model/model.js";
import { PACKAGE_ROOT } from "../../../generator/project.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";

const PACKAGE = join(PACKAGE_ROOT, "node_modules", "@modelcontextprotocol", "ext-apps");
const RAW = readFileSync(join(TEST_CACHE_DIR, "extensions", "apps", "schema.json"), "utf8");
const DEFS = hoistNestedDefs(JSON.parse(RAW))["$defs"] as Record<string, unknown>;
const APPS_OUT = join(PACKAGE_ROOT, "test", "generated", "apps");

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "stubgen-apps-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The core methods the table proxies, as a base revision's model would give them. */
const CORE: MethodRecord[] = Object.entries(APPS_POLICY.proxied).map(([method]) => ({
  method,
  kind: method.startsWith("notifications/") ? "notification" : "request",
  from: ["client"],
  typeName: null,
  params: { kind: "named", name: "P" },
  paramsRequired: true,
  paramsMetaOnly: false,
  paramsFieldsOptional: false,
  description: null,
  results: method.startsWith("notifications/") ? null : ["R"],
  resultRule: null,
  cancellable: true,
  taskAugmentable: false,
})) as unknown as MethodRecord[];

describe("apps schema in the cache", () => {
  it("is pinned in the manifest and pulled from a project's node_modules/@modelcontextprotocol/ext-apps", async () => {
    const info = readManifest().extensions!.find((e) => e.id === "apps")!;
    expect(info).toMatchObject({ identifier: "io.modelcontextprotocol/ui", repository: "modelcontextprotocol/ext-apps", output: "apps" });
    expect(sha256Hex(RAW)).toBe(info.sha256);
    const cacheDir = tempDir();
    const pulled = await pullSchemas(["apps"], { cacheDir, lockfile: false, from: PACKAGE });
    expect(pulled).toEqual([expect.objectContaining({ kind: "extension", revision: "apps", source: join(PACKAGE, "dist", "src", "generated", "schema.json") })]);
    expect(readFileSync(join(cacheDir, "extensions", "apps", "schema.json"), "utf8")).toBe(RAW);
  });
});

describe("apps catalog", () => {
  const catalog = appsCatalog(DEFS, CORE);

  it("has every message of the schema with its sender, and the proxied core messages", () => {
    const own = catalog.filter((m) => m.source === "apps").map((m) => m.method);
    const schemaMethods = Object.values(DEFS).flatMap((d) => {
      const c = (d as { properties?: { method?: { const?: unknown } } }).properties?.method?.const;
      return typeof c === "string" ? [c] : [];
    });
    expect(own.sort()).toEqual([...schemaMethods].sort());
    expect(catalog.find((m) => m.method === "ui/open-link")).toEqual({ method: "ui/open-link", kind: "request", from: ["app"], params: 'T.McpUiOpenLinkRequest["params"]', paramsRequired: true, result: "T.McpUiOpenLinkResult", source: "apps" });
    expect(catalog.find((m) => m.method === "ui/notifications/tool-input")).toMatchObject({ kind: "notification", from: ["host"], result: null });
    expect(catalog.find((m) => m.method === "ui/update-model-context")?.result).toBe("Core.EmptyResult");
    expect(catalog.find((m) => m.method === "tools/call")).toMatchObject({ from: ["app", "host"], params: "Core.P", result: "Core.R", source: "core" });
    expect(catalog.map((m) => m.method)).toEqual([...catalog.map((m) => m.method)].sort());
  });

  it("refuses a message without a sender, a sender without a message, and a proxied method the base lacks", () => {
    const { "ui/open-link": _dropped, ...senders } = APPS_POLICY.senders;
    expect(() => appsCatalog(DEFS, CORE, { ...APPS_POLICY, senders })).toThrow(/ui\/open-link .* has no sender/);
    expect(() => appsCatalog(DEFS, CORE, { ...APPS_POLICY, senders: { ...APPS_POLICY.senders, "ui/nothing": ["app"] } })).toThrow(/ui\/nothing has a sender but/);
    expect(() => appsCatalog(DEFS, CORE.slice(1), APPS_POLICY)).toThrow(/is not a method of the base revision/);
    expect(() => appsCatalog(DEFS, CORE, { ...APPS_POLICY, coreResults: {} })).toThrow(/ui\/update-model-context has no McpUiUpdateModelContextResult/);
    expect(() => appsCatalog(DEFS, CORE, { ...APPS_POLICY, coreResults: { ...APPS_POLICY.coreResults, "ui/open-link": "EmptyResult" } })).toThrow(/which the schema defines/);
  });

  it("hoists the nested definitions under the table's names, and refuses one the table does not name", () => {
    expect(DEFS["McpUiJsonValue"]).toBeDefined();
    expect(RAW.includes("#/$defs/__schema0")).toBe(true);
    expect(JSON.stringify(DEFS).includes("__schema0")).toBe(false);
    expect(() => hoistNestedDefs(JSON.parse(RAW), { ...APPS_POLICY, hoisted: {} })).toThrow(/nested definition __schema0/);
    expect(() => hoistNestedDefs(JSON.parse(RAW), { ...APPS_POLICY, hoisted: { ...APPS_POLICY.hoisted, __other: "X" } })).toThrow(/__other names no nested definition/);
  });

  it("gives the Zod-shaped nodes the official TypeScript, and refuses a rule that matches nothing", () => {
    const typed = applyTypeRules(DEFS);
    expect(typed["McpUiStyles"]).toMatchObject({ tsType: "Record<McpUiStyleVariableKey, string | undefined>" });
    const text = JSON.stringify(typed);
    expect(text).toContain('"tsType":"number | undefined"');
    expect(text).toContain('"tsType":"{ [key: string]: object }"');
    // The input is left as it was.
    expect((DEFS["McpUiStyles"] as { tsType?: string }).tsType).toBeUndefined();
    const never = { name: "never", reason: "test", apply: () => undefined };
    expect(() => applyTypeRules(DEFS, [...APPS_TYPE_RULES, never])).toThrow(/"never" matches nothing/);
  });

  it("names the wrappers from the methods", () => {
    expect(["ui/open-link", "ui/request-display-mode", "ui/message", "ui/resource-teardown"].map(callName)).toEqual(["openLink", "requestDisplayMode", "message", "resourceTeardown"]);
    expect(["ui/notifications/size-changed", "ui/notifications/tool-input-partial"].map(sendName)).toEqual(["sendSizeChanged", "sendToolInputPartial"]);
  });
});

describe("generate --extension apps", () => {
  it("writes <out>/apps/ byte-identical on every run, beside its base revision", async () => {
    const texts: Array<Map<string, string>> = [];
    for (const out of [tempDir(), tempDir()]) {
      await generate({ revisions: ["2025-11-25"], extensions: ["apps"], out, cacheDir: TEST_CACHE_DIR, lockfile: false, force: true });
      texts.push(new Map(readdirSync(join(out, "apps")).sort().map((f) => [f, readFileSync(join(out, "apps", f), "utf8")])));
    }
    expect([...texts[0]!.keys()]).toEqual([...APPS_FILES].sort());
    expect(texts[1]).toEqual(texts[0]);
    expect(texts[0]!.get("catalog.ts")).toContain('import type * as Core from "../2025-11-25/types.js"');
  });

  it("copies the MCP Apps runtime (runtime/apps/) into an output with --extension apps only", async () => {
    const [withApps, without] = [tempDir(), tempDir()];
    await generate({ revisions: ["2025-11-25"], extensions: ["apps"], out: withApps, cacheDir: TEST_CACHE_DIR, lockfile: false, force: true });
    await generate({ revisions: ["2025-11-25"], out: without, cacheDir: TEST_CACHE_DIR, lockfile: false, force: true });
    expect(readdirSync(join(withApps, "runtime", "apps")).sort()).toEqual(["host-bridge.ts", "post-message.ts", "server-helpers.ts", "ui-endpoint.ts"]);
    expect(readdirSync(join(without, "runtime"))).not.toContain("apps");
  });

  it("refuses a run without its base revision, and the inline runtime", async () => {
    await expect(generate({ revisions: ["2026-07-28"], extensions: ["apps"], out: tempDir(), cacheDir: TEST_CACHE_DIR, lockfile: false })).rejects.toThrow(/extends the revisions 2025-11-25/);
    await expect(generate({ revisions: ["2025-11-25", "2026-07-28"], extensions: ["apps"], runtime: "inline", out: tempDir(), cacheDir: TEST_CACHE_DIR, lockfile: false })).rejects.toThrow(/shared runtime/);
  });
});

describe("the apps output in a browser", () => {
  /**
   * Every module reachable from `entry` by its relative imports, every other specifier met, and
   * the modules that name a Node module in a string at all (the runtime loads Node modules by a
   * computed dynamic import, as stdio-spawn.ts does node:child_process, which no import scan sees).
   */
  function importGraph(entry: string): { files: Set<string>; external: Set<string>; namesNode: string[] } {
    const files = new Set<string>();
    const external = new Set<string>();
    const namesNode: string[] = [];
    const visit = (file: string): void => {
      if (files.has(file)) return;
      files.add(file);
      const text = readFileSync(file, "utf8");
      if (/["'`]node:[a-z_/]+["'`]/.test(text)) namesNode.push(file);
      for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)) {
        const specifier = match[1] ?? match[2]!;
        if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
        else external.add(specifier);
      }
    };
    visit(entry);
    return { files, external, namesNode };
  }

  it("imports no Node module (nor any package) from apps/index.ts, app.ts or host.ts", () => {
    for (const entry of ["index.ts", "app.ts", "host.ts"]) {
      const { files, external, namesNode } = importGraph(join(APPS_OUT, entry));
      expect(files.size).toBeGreaterThan(5);
      for (const file of files) expect(existsSync(file)).toBe(true);
      expect([...external]).toEqual([]);
      expect(namesNode).toEqual([]);
    }
  });

  it("the graph walk sees a Node module where one is loaded", () => {
    const { namesNode } = importGraph(join(PACKAGE_ROOT, "test", "generated", "runtime", "transports", "stdio-spawn.ts"));
    expect(namesNode).toEqual([join(PACKAGE_ROOT, "test", "generated", "runtime", "transports", "stdio-spawn.ts")]);
  });
});
