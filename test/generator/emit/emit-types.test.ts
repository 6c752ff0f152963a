import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { emitTypes } from "../../../generator/emit/emit-types.js";
import { docFrom, loadFixture, typecheckInMemory, type Diag } from "../support.js";

const FIXTURES = ["emit-shapes.json", "draft07-lifecycle.json", "2020-12-inline.json", "2020-12-tasks.json"] as const;

/** Names of the top-level `export interface|type` declarations, in order. */
const exportedNames = (source: string) => [...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);

/** The declaration of `name`: from `export` to the end of its body (`}` at column 0, or the alias's line). */
function declaration(source: string, name: string): string {
  const match = new RegExp(`^export (interface|type) ${name}\\b[^\\n]*$`, "m").exec(source);
  if (!match) throw new Error(`no declaration of ${name}`);
  const start = match.index;
  if (match[1] === "type" && !match[0].trimEnd().endsWith("{") && !match[0].trimEnd().endsWith("(")) return match[0];
  const end = source.indexOf("\n}", start);
  return source.slice(start, source.indexOf("\n", end + 1) === -1 ? undefined : source.indexOf("\n", end + 1));
}

/** The JSDoc comment right above the declaration of `name`, or null. */
function docComment(source: string, name: string): string | null {
  const match = new RegExp(`(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/)\\n(?=export (?:interface|type) ${name}\\b)`).exec(source);
  return match?.[1] ?? null;
}

const emitted = new Map<string, string>();

setUpPerTest(async () => {
  for (const fixture of FIXTURES) emitted.set(fixture, await emitTypes(loadFixture(fixture), "test-rev"));
});

const shapes = () => emitted.get("emit-shapes.json")!;

describe("emitTypes", () => {
  describe("one declaration per definition", () => {
    for (const fixture of FIXTURES) {
      it(`exports each definition of ${fixture} exactly once, in schema order`, () => {
        const doc = loadFixture(fixture);
        expect(exportedNames(emitted.get(fixture)!)).toEqual([...doc.defs.keys()]);
      });
    }

    it("declares a type alias between interfaces where the schema has it", () => {
      const names = exportedNames(shapes());
      // Role and ContentBlock are aliases, the rest interfaces; the library would put aliases first.
      expect(names.indexOf("ContentBlock")).toBeGreaterThan(names.indexOf("ImageContent"));
      expect(names.indexOf("ContentBlock")).toBeLessThan(names.indexOf("Meta"));
      expect(shapes()).toMatch(/^export type ContentBlock = \(?TextContent \| ImageContent\)?$/m);
    });
  });

  describe("$ref with a sibling description", () => {
    it("refers to the named type instead of copying it (no Annotations1)", () => {
      const source = shapes();
      expect(source).not.toMatch(/\bAnnotations\d+\b/);
      expect(source.match(/^export interface Annotations\b/gm)).toHaveLength(1);
      expect(declaration(source, "TextContent")).toMatch(/^\s+annotations\?: Annotations$/m);
      expect(declaration(source, "ImageContent")).toMatch(/^\s+annotations\?: Annotations$/m);
    });

    it("keeps the sibling description as the property's JSDoc", () => {
      expect(declaration(shapes(), "TextContent")).toMatch(/\/\*\*\s*\n\s*\* Optional annotations\.\s*\n\s*\*\/\s*\n\s*annotations\?: Annotations/);
    });

    it("names the referenced type in array items too", () => {
      expect(declaration(shapes(), "Annotations")).toMatch(/audience\?: Role\[\]/);
    });
  });

  describe("JSDoc", () => {
    it("puts a definition's description in its doc comment", () => {
      expect(docComment(shapes(), "Role")).toContain("* Who sent a message.");
      expect(docComment(shapes(), "Annotations")).toContain("* Hints for the client.");
      expect(docComment(emitted.get("draft07-lifecycle.json")!, "InitializeRequest")).toContain("* Sent by the client to begin a session.");
    });

    it("names the schema location and revision instead of the library's note", () => {
      expect(docComment(shapes(), "ImageContent")).toContain("MCP test-rev schema: `#/$defs/ImageContent`");
      expect(docComment(emitted.get("draft07-lifecycle.json")!, "PingRequest")).toContain("MCP test-rev schema: `#/definitions/PingRequest`");
      for (const source of emitted.values()) {
        expect(source).not.toContain("McpStubgenSchemaRoot");
        expect(source).not.toContain("This interface was referenced by");
      }
    });

    it("does not let a description end the comment early", async () => {
      const source = await emitTypes(docFrom({ A: { description: "Closes */ early", type: "string" } }), "r");
      expect(docComment(source, "A")).not.toMatch(/Closes \*\/ early/);
      expect(typecheckInMemory({ "/t.ts": source })).toEqual([]);
    });
  });

  describe("index signatures", () => {
    it("has none on an object without additionalProperties", () => {
      for (const name of ["Annotations", "TextContent", "ImageContent"]) {
        expect(declaration(shapes(), name), name).not.toContain("[k: string]");
      }
    });

    it("has one when additionalProperties is {}", () => {
      expect(declaration(shapes(), "Meta")).toMatch(/^\s+\[k: string\]: unknown$/m);
    });

    it("has one when additionalProperties is true, on the object and on a nested object", () => {
      const caps = declaration(shapes(), "Capabilities");
      expect(caps.match(/\[k: string\]: unknown/g)).toHaveLength(2);
    });

    it("has none when additionalProperties is false", async () => {
      const source = await emitTypes(docFrom({ Closed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false } }), "r");
      expect(declaration(source, "Closed")).not.toContain("[k: string]");
    });
  });

  describe("typed as the spec's schema.ts means it (generator/model/spec-typing.ts)", () => {
    /** An index signature of the declaration itself, not of a nested object. */
    const TOP_LEVEL_INDEX = /^  \[k: string\]: unknown$/m;
    const meta = { type: "object", additionalProperties: {}, description: "Meta." };
    const inheriting = {
      Result: { type: "object", additionalProperties: {}, properties: { _meta: meta } },
      ListThingsResult: { type: "object", properties: { _meta: meta, things: { type: "array", items: { type: "string" } } }, required: ["things"] },
      Thing: { type: "object", properties: { _meta: meta, name: { type: "string" } } },
      MetaObject: { type: "object", description: "Any keys." },
      RequestMetaObject: { type: "object", description: "Extends {@link MetaObject} with request keys.", properties: { progressToken: { type: "string" } } },
      Closed: { type: "object", properties: { a: { type: "string" } } },
      Holder: { type: "object", properties: { form: { type: "object", properties: {}, additionalProperties: true, description: "Anything." } } },
    };

    it("gives a …Result that repeats every property of Result the index signature Result has, and not a Thing that only shares _meta", async () => {
      const source = await emitTypes(docFrom(inheriting), "r");
      expect(declaration(source, "ListThingsResult")).toMatch(TOP_LEVEL_INDEX);
      expect(declaration(source, "Thing")).not.toMatch(TOP_LEVEL_INDEX);
      expect(declaration(source, "Closed")).not.toMatch(TOP_LEVEL_INDEX);
    });

    it("opens a definition that says only type: object, and one whose description says it extends an open one", async () => {
      const source = await emitTypes(docFrom(inheriting), "r");
      expect(declaration(source, "MetaObject")).toMatch(/\[k: string\]: unknown/);
      expect(declaration(source, "RequestMetaObject")).toMatch(/^\s+\[k: string\]: unknown$/m);
    });

    it("types { type: object, properties: {}, additionalProperties: true } as object", async () => {
      expect(declaration(await emitTypes(docFrom(inheriting), "r"), "Holder")).toMatch(/^\s+form\?: object$/m);
    });

    it("with strictObjects, gives index signatures only where a definition's own schema writes them", async () => {
      const source = await emitTypes(docFrom(inheriting), "r", { strictObjects: true });
      expect(declaration(source, "Result")).toMatch(/\[k: string\]: unknown/);
      for (const name of ["ListThingsResult", "RequestMetaObject"]) expect(declaration(source, name), name).not.toMatch(TOP_LEVEL_INDEX);
      // The trade-off: a misspelt property of a result is an error only with strictObjects.
      const use = 'import type { ListThingsResult } from "./types";\nexport const r: ListThingsResult = { things: [], thnigs: [] };\n';
      const errors = typecheckInMemory({ "/s/types.ts": source, "/s/use.ts": use });
      expect(errors).toHaveLength(1);
      expect([2353, 2561]).toContain(errors[0]!.code);
      expect(typecheckInMemory({ "/d/types.ts": await emitTypes(docFrom(inheriting), "r"), "/d/use.ts": use })).toEqual([]);
    });

    it("writes a fact of its table where the schema shows its fault, whatever the revision's label (JSONValue with null)", async () => {
      const defs = {
        JSONValue: { anyOf: [{ $ref: "#/$defs/JSONObject" }, { type: "array", items: { $ref: "#/$defs/JSONValue" } }, { type: ["string", "integer", "boolean"] }] },
        JSONObject: { type: "object", additionalProperties: { $ref: "#/$defs/JSONValue" } },
        JSONArray: { type: "array", items: { $ref: "#/$defs/JSONValue" } },
      };
      expect(declaration(await emitTypes(docFrom(defs), "2026-07-28"), "JSONValue")).toContain("string | number | boolean | null | JSONObject | JSONArray");
      expect(declaration(await emitTypes(docFrom(defs), "2027-01-01"), "JSONValue")).toContain("string | number | boolean | null | JSONObject | JSONArray");
      // A schema without the fault is typed as it says.
      const fixed = { ...defs, JSONValue: { anyOf: [...defs.JSONValue.anyOf.slice(0, 2), { type: ["string", "number", "boolean", "null"] }] } };
      expect(declaration(await emitTypes(docFrom(fixed), "2026-07-28"), "JSONValue")).toContain("null");
      expect(declaration(await emitTypes(docFrom({ ...defs, JSONValue: { anyOf: defs.JSONValue.anyOf.slice(0, 2) } }), "2026-07-28"), "JSONValue")).not.toContain("null");
    });
  });

  describe("types", () => {
    it("makes a schema that says nothing about its type unknown", () => {
      expect(shapes()).toMatch(/^export type Anything = unknown$/m);
    });

    it("types an enum as a union of literals and a const as a literal", () => {
      expect(declaration(shapes(), "Role")).toMatch(/"user" \| "assistant"/);
      expect(declaration(shapes(), "TextContent")).toMatch(/^\s+type: "text"$/m);
    });

    it("marks required properties as required and the rest optional", () => {
      const text = declaration(shapes(), "TextContent");
      expect(text).toMatch(/^\s+text: string$/m);
      expect(text).toMatch(/^\s+annotations\?: Annotations$/m);
    });
  });

  describe("type-check of the emitted text", () => {
    it("compiles with zero diagnostics under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess", () => {
      const files: Record<string, string> = {};
      for (const [fixture, source] of emitted) files[`/gen/${fixture.replace(/\.json$/, "")}/types.ts`] = source;
      expect(typecheckInMemory(files)).toEqual([]);
    });

    /** One compile for all the usage files below (a ts-morph project takes a second or two to start). */
    const usage: Record<string, string> = {
      good: [
        'export const a: T.TextContent = { type: "text", text: "hi", annotations: { audience: ["user"], priority: 1 } };',
        "export const m: T.Meta = { anything: 1, nested: { deep: true } };",
        'export const c: T.Capabilities = { experimental: { x: 1 }, extra: "ok" };',
        'export const b: T.ContentBlock = { type: "image", data: "AAAA" };',
        "export const u: T.Anything = Symbol();",
      ].join("\n"),
      misspelt: "export const a: T.Annotations = { priorty: 1 };",
      nested: 'export const t: T.TextContent = { type: "text", text: "x", annotations: { priorty: 1 } };',
      undefinedOptional: "export const a: T.Annotations = { priority: undefined };",
      wrongConst: 'export const t: T.TextContent = { type: "image", text: "x" };',
    };
    let byFile: Map<string, Diag[]>;

    setUpPerTest(() => {
      const files: Record<string, string> = { "/gen/types.ts": shapes() };
      for (const [name, body] of Object.entries(usage)) files[`/gen/${name}.ts`] = `import type * as T from "./types.js";\n${body}\n`;
      byFile = new Map(Object.keys(files).map((f) => [f, []]));
      for (const d of typecheckInMemory(files)) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
    });
    const diagnosticsOf = (name: string) => byFile.get(`/gen/${name}.ts`) ?? [];

    it("reports nothing for the emitted file itself", () => {
      expect(byFile.get("/gen/types.ts")).toEqual([]);
      expect([...byFile.keys()].sort()).toEqual(["/gen/types.ts", ...Object.keys(usage).map((n) => `/gen/${n}.ts`)].sort());
    });

    it("accepts well-formed values", () => {
      expect(diagnosticsOf("good")).toEqual([]);
    });

    it("rejects a misspelt property on an interface without index signature", () => {
      const diagnostics = diagnosticsOf("misspelt");
      expect(diagnostics).toHaveLength(1);
      expect([2353, 2561]).toContain(diagnostics[0]!.code);
    });

    it("rejects a misspelt property in a nested object literal", () => {
      expect(diagnosticsOf("nested").map((d) => d.code).filter((code) => code === 2353 || code === 2561)).toHaveLength(1);
    });

    it("rejects undefined for an optional property (exactOptionalPropertyTypes)", () => {
      expect(diagnosticsOf("undefinedOptional")).not.toEqual([]);
    });

    it("rejects a wrong const value", () => {
      expect(diagnosticsOf("wrongConst")).not.toEqual([]);
    });
  });
});
