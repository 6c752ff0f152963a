/**
 * generator/model/spec-typing.ts on a small schema: which definitions the spec's own TypeScript
 * writes open (with an index signature), TypeScript's `object`, and the per-revision fact table.
 * The end-to-end check is test/integration/spec-assignability.test.ts; these pin each rule and
 * the evidence it must not take for another.
 */
import { describe, expect, it } from "vitest";
import { isOpenDefinitionNode, isTsObject, openDefinitions, specTypeFact } from "../../../generator/model/spec-typing.js";
import { docFrom } from "../support.js";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const META = { _meta: ref("MetaObject") };

const DEFS = {
  // Open by their own schema.
  Result: { type: "object", properties: META, additionalProperties: {} },
  OpenTrue: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
  MetaObject: { type: "object", description: "Any keys." },
  Titled: { type: "object", title: "T", $comment: "c" },
  // Not open: a typed or closed additionalProperties, another type, more than `type`.
  TypedMap: { type: "object", additionalProperties: { type: "string" } },
  Closed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
  Word: { type: "string" },
  EmptyProps: { type: "object", properties: {} },
  // Open by "Extends {@link …}" at the start of the description, transitively.
  RequestMetaObject: { type: "object", description: "Extends {@link MetaObject} with request keys.", properties: { progressToken: { type: "string" } } },
  DeepMetaObject: { type: "object", description: "Extends {@link RequestMetaObject}.", properties: { deep: { type: "string" } } },
  Loop1: { type: "object", description: "Extends {@link Loop2}.", properties: { a: { type: "string" } } },
  Loop2: { type: "object", description: "Extends {@link Loop1}.", properties: { b: { type: "string" } } },
  Mentions: { type: "object", description: "See also. Extends {@link MetaObject}.", properties: { a: { type: "string" } } },
  // Open by the name …Result and every property of Result repeated (unchanged, or narrowed to an extension of the base's).
  InitializeResult: { type: "object", properties: { ...META, version: { type: "string" } }, required: ["version"] },
  NarrowedResult: { type: "object", properties: { _meta: ref("RequestMetaObject"), x: { type: "number" } } },
  // Not open: _meta narrowed to something that does not extend MetaObject, _meta missing, _meta not a ref, the name, the type.
  ForeignMetaResult: { type: "object", properties: { _meta: ref("Closed") } },
  NoMetaResult: { type: "object", properties: { x: { type: "number" } } },
  InlineMetaResult: { type: "object", properties: { _meta: { type: "object" } } },
  Thing: { type: "object", properties: { ...META } },
  NoPropertiesResult: { type: "object", description: "Nothing listed.", required: [] },
  StringResult: { type: "string" },
  // A base with no properties: nothing to repeat, so not evidence.
  SomeMetaObject: { type: "object", properties: { a: { type: "string" } } },
};

describe("openDefinitions", () => {
  it("opens exactly the definitions the spec's TypeScript gives an index signature, each by its evidence", () => {
    expect([...openDefinitions(docFrom(DEFS))].sort()).toEqual(
      ["DeepMetaObject", "InitializeResult", "MetaObject", "NarrowedResult", "OpenTrue", "RequestMetaObject", "Result", "Titled"].sort(),
    );
  });

  it("follows an extension of an extension whatever the order of the definitions", () => {
    const reversed = Object.fromEntries(Object.entries(DEFS).reverse());
    expect([...openDefinitions(docFrom(reversed))].sort()).toEqual([...openDefinitions(docFrom(DEFS))].sort());
  });

  it("takes a …Result's repeated property as evidence only when the base is open", () => {
    const closedBase = { ...DEFS, Result: { type: "object", properties: META } };
    const open = openDefinitions(docFrom(closedBase));
    expect(open.has("Result")).toBe(false);
    expect(open.has("InitializeResult")).toBe(false);
    expect(open.has("NarrowedResult")).toBe(false);
  });

  it("does not count a definition as its own base", () => {
    // OpenTrue's own properties are repeated by itself; only its additionalProperties opens it.
    const open = openDefinitions(docFrom({ ...DEFS, OpenTrue: { type: "object", properties: { a: { type: "string" } } } }));
    expect(open.has("OpenTrue")).toBe(false);
  });
});

describe("isOpenDefinitionNode", () => {
  it("is true for the node of an open definition only, by identity", () => {
    const doc = docFrom(DEFS);
    expect(isOpenDefinitionNode(doc, doc.defs.get("Result"))).toBe(true);
    expect(isOpenDefinitionNode(doc, doc.defs.get("InitializeResult"))).toBe(true);
    expect(isOpenDefinitionNode(doc, doc.defs.get("Closed"))).toBe(false);
    expect(isOpenDefinitionNode(doc, structuredClone(doc.defs.get("Result")))).toBe(false);
    // Asked again (the answer is kept per document), and of another document.
    expect(isOpenDefinitionNode(doc, doc.defs.get("MetaObject"))).toBe(true);
    const other = docFrom({ Result: { type: "object" } });
    expect(isOpenDefinitionNode(other, other.defs.get("Result"))).toBe(true);
    expect(isOpenDefinitionNode(other, doc.defs.get("Result"))).toBe(false);
  });
});

describe("isTsObject", () => {
  const OBJECT = { type: "object", properties: {}, additionalProperties: true };

  it("is TypeScript's object: exactly type object, no properties, additionalProperties true (annotations aside)", () => {
    expect(isTsObject(OBJECT)).toBe(true);
    expect(isTsObject({ ...OBJECT, description: "d", title: "t", $comment: "c" })).toBe(true);
  });

  it("is not an open interface or anything with more or other keywords", () => {
    expect(isTsObject({ ...OBJECT, properties: { a: { type: "string" } } })).toBe(false);
    expect(isTsObject({ ...OBJECT, additionalProperties: {} })).toBe(false);
    expect(isTsObject({ ...OBJECT, type: "array" })).toBe(false);
    expect(isTsObject({ ...OBJECT, required: [] })).toBe(false);
    expect(isTsObject({ type: "object", additionalProperties: true, default: {} })).toBe(false);
    expect(isTsObject({ type: "object", properties: {} })).toBe(false);
    expect(isTsObject({ type: "object", properties: "x", additionalProperties: true })).toBe(false);
  });
});

describe("specTypeFact", () => {
  const faulty = { anyOf: [ref("JSONObject"), { type: "array", items: ref("JSONValue") }, { type: ["string", "integer", "boolean"] }] };
  it("gives the table's type for its definition where the schema shows the fault, whatever the revision", () => {
    expect(specTypeFact("JSONValue", faulty)?.tsType).toBe("string | number | boolean | null | JSONObject | JSONArray");
    expect(specTypeFact("JSONValue", faulty)?.accepts).toBe("any");
  });
  it("does not apply to a schema without the fault, nor to another definition", () => {
    expect(specTypeFact("JSONValue", { ...faulty, anyOf: [...faulty.anyOf.slice(0, 2), { type: ["string", "number", "boolean", "null"] }] })).toBeUndefined();
    expect(specTypeFact("JSONValue", {})).toBeUndefined();
    expect(specTypeFact("JSONObject", faulty)).toBeUndefined();
  });
});

describe("openDefinitions: inheritance to a fixed point, and the base's properties", () => {
  const meta = { type: "object", additionalProperties: {} };

  it("an extension of a definition opened later in the same pass is opened on the next pass", () => {
    const doc = docFrom({
      Extra: { type: "object", description: "Extends {@link MidResult}.", properties: { a: { type: "string" } } },
      MidResult: { type: "object", properties: { _meta: meta, b: { type: "string" } } },
      Result: { type: "object", properties: { _meta: meta }, additionalProperties: {} },
    });
    expect([...openDefinitions(doc)].sort()).toEqual(["Extra", "MidResult", "Result"]);
  });

  it("a base without properties opens nothing by name; every property of the base must be repeated", () => {
    for (const Result of [{ type: "object", additionalProperties: {} }, { type: "object", properties: {}, additionalProperties: {} }]) {
      const bare = docFrom({ Result, FooResult: { type: "object", properties: { x: { type: "string" } } } });
      expect([...openDefinitions(bare)]).toEqual(["Result"]);
    }
    const two = docFrom({
      Result: { type: "object", properties: { _meta: meta, resultType: { type: "string" } }, additionalProperties: {} },
      HalfResult: { type: "object", properties: { _meta: meta } },
      FullResult: { type: "object", properties: { _meta: meta, resultType: { type: "string" }, x: { type: "number" } } },
    });
    expect([...openDefinitions(two)].sort()).toEqual(["FullResult", "Result"]);
  });
});
