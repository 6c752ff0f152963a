/**
 * Generates every published revision and type-checks the output under strict,
 * exactOptionalPropertyTypes, noUncheckedIndexedAccess and verbatimModuleSyntax; then checks
 * that every example message of 2026-07-28 and draft is a valid value of the generated type
 * named by its folder, and that a misspelt property is a compile error.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { PACKAGE_ROOT } from "../../generator/project.js";
import { examplesDir, REVISIONS, TEST_CACHE_DIR, type Revision } from "../helpers/schemas.js";
import { typecheckFiles } from "../helpers/typecheck.js";

let out: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "mcp-stubgen-typecheck-"));
  await generate({ all: true, out, cacheDir: TEST_CACHE_DIR });
});

/** `const <Type>_<n>: T.<Type> = <example>;` for every example of the revision. */
function examplesModule(revision: Revision): { text: string; count: number } {
  const dir = examplesDir(revision);
  if (dir === null) throw new Error(`no examples for ${revision}`);
  const lines = ['import type * as T from "./index.js";', ""];
  let count = 0;
  for (const type of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, type)).filter((f) => f.endsWith(".json")).sort()) {
      const json = readFileSync(join(dir, type, file), "utf8");
      lines.push(`// ${type}/${file}`, `export const example${count++}: T.${type} = ${json.trim()};`, "");
    }
  }
  return { text: lines.join("\n"), count };
}

describe("generated output of every published revision", () => {
  it("type-checks with zero diagnostics under the strictest options (types, catalog, runtime, client, server, transports)", () => {
    const files = [...REVISIONS, "runtime"].flatMap((r) => readdirSync(join(out, r), { recursive: true }).map(String).filter((f) => f.endsWith(".ts")).map((f) => join(out, r, f)));
    // six files per revision (types, catalog, client, server, index, the stdio re-export), eight in the shared runtime/
    expect(files.length).toBeGreaterThanOrEqual(REVISIONS.length * 6 + 8);
    expect(typecheckFiles(files)).toEqual([]);
  });

  it("passes the type-level tests of test/type-tests (every @ts-expect-error still an error)", () => {
    const targets = [
      ["catalog-2025-11-25.types.ts", join(out, "2025-11-25", "catalog.types.ts")],
      ["facade-2026-07-28.types.ts", join(out, "2026-07-28", "facade.types.ts")],
      ["connect-2025-11-25.types.ts", join(out, "2025-11-25", "connect.types.ts")],
    ] as const;
    for (const [source, target] of targets) copyFileSync(join(PACKAGE_ROOT, "test", "type-tests", source), target);
    expect(typecheckFiles(targets.map(([, target]) => target))).toEqual([]);
  });

  it("a wrong handler result is reported against the complete result type, not InputRequiredResult (issue 30)", () => {
    const file = join(out, "2026-07-28", "wrong-result.check.ts");
    writeFileSync(
      file,
      ['import { McpServer } from "./index.js";', 'export const server = new McpServer({ handlers: { "tools/call": () => ({ text: "hi" }) } });', ""].join("\n"),
    );
    const diagnostics = typecheckFiles([file]);
    expect(diagnostics.map((d) => d.code)).toEqual([2322]);
    const lines = diagnostics[0]!.message.split("\n").map((line) => line.trim());
    // The union of the handler's results is printed once; the member TS explains the error with is CallToolResult.
    expect(lines).toContain(`Type '{ text: string; }' is not assignable to type 'WithDefaults<CallToolResult, "resultType">'.`);
    expect(lines.at(-1)).toMatch(/^Property 'content' is missing in type '\{ text: string; \}' but required in type '\{ .*content: ContentBlock\[\];/);
    // Before issue 30 the schema's InputRequiredResult (an index signature, resultType a string) was the member explained.
    expect(lines.filter((line) => /type '(?:T\.)?InputRequiredResult'/.test(line))).toEqual([]);
  });

  it("passes the type-level tests of StdioClientTransport (test/type-tests/stdio-spawn-2025-11-25.types.ts)", () => {
    const target = join(out, "2025-11-25", "stdio-spawn.types.ts");
    copyFileSync(join(PACKAGE_ROOT, "test", "type-tests", "stdio-spawn-2025-11-25.types.ts"), target);
    // with @types/node, as a stdio client's project has it (the test passes Node's own spawn)
    expect(typecheckFiles([target], { types: ["node"] })).toEqual([]);
  });

  it("exports every schema definition as a type, named as the schema names it", () => {
    for (const revision of REVISIONS) {
      const schema = JSON.parse(readFileSync(join(TEST_CACHE_DIR, revision, "schema.json"), "utf8")) as Record<string, object>;
      const names = Object.keys(schema["$defs"] ?? schema["definitions"] ?? {});
      const types = readFileSync(join(out, revision, "types.ts"), "utf8");
      const exported = [...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
      expect(exported, revision).toEqual(names);
    }
  });
});

describe.each(["2026-07-28", "draft"] as const)("example messages of %s", (revision) => {
  it("each example is a valid value of the generated type named by its folder", () => {
    const { text, count } = examplesModule(revision);
    expect(count).toBeGreaterThan(100);
    const file = join(out, revision, "examples.check.ts");
    writeFileSync(file, text);
    const diagnostics = typecheckFiles([file]).map((d) => ({ code: d.code, message: d.message }));
    // One upstream example carries a property its schema does not declare. JSON Schema lets
    // it through (no additionalProperties: false), our types reject it on purpose, as the
    // spec's own TypeScript does: in 2026-07-28 ListRootsRequest is an input request carried
    // inside a result, not a JSON-RPC request, so it has no `id`.
    expect(diagnostics).toEqual([
      { code: 2353, message: `Object literal may only specify known properties, and '"id"' does not exist in type 'ListRootsRequest'.` },
    ]);
  });

  it("a misspelt property, top-level or nested, is a compile error", () => {
    const dir = examplesDir(revision)!;
    const example = (type: string) => {
      const file = readdirSync(join(dir, type)).find((f) => f.endsWith(".json"))!;
      return JSON.parse(readFileSync(join(dir, type, file), "utf8")) as Record<string, unknown>;
    };
    const request = example("CallToolRequest");
    const params = request["params"] as Record<string, unknown>;
    const cases = [
      { type: "CallToolRequest", value: { ...request, parmas: {} }, typo: "parmas" },
      { type: "CallToolRequest", value: { ...request, params: { ...params, argumnets: {} } }, typo: "argumnets" },
      { type: "Tool", value: { ...example("Tool"), anotations: {} }, typo: "anotations" },
    ];
    const file = join(out, revision, "misspelt.check.ts");
    writeFileSync(
      file,
      [
        'import type * as T from "./index.js";',
        ...cases.map((c, i) => `export const typo${i}: T.${c.type} = ${JSON.stringify(c.value)};`),
        // Where the schema allows additional properties (tool arguments), unknown keys stay legal:
        `export const legal: T.CallToolRequest = ${JSON.stringify({ ...request, params: { ...params, arguments: { anyKey: 1 } } })};`,
      ].join("\n"),
    );
    const diagnostics = typecheckFiles([file]);
    expect(diagnostics.map((d) => d.line)).toEqual([2, 3, 4]);
    for (const d of diagnostics) expect([2353, 2561]).toContain(d.code);
    expect(diagnostics.map((d) => /known properties, (?:and|but) '"?(\w+)"?'/.exec(d.message)?.[1])).toEqual(cases.map((c) => c.typo));
  });
});
