/**
 * The normalized shapes `diff` compares (diff-shape.ts) and the narrowing rule (diff-covers.ts).
 */
import { describe, expect, it } from "vitest";
import { createCoverage } from "../../../generator/diff/covers.js";
import { canonicalJson, renderShape, shapeOf } from "../../../generator/diff/shape.js";
import { docFrom } from "../support.js";

const EMPTY = docFrom({});
const render = (node: unknown) => renderShape(shapeOf(EMPTY, node));
/** Whether `after` (in a schema of `defs.after`) covers `before` (in one of `defs.before`). */
const covers = (after: unknown, before: unknown, defs: { before?: Record<string, unknown>; after?: Record<string, unknown> } = {}) => {
  const from = docFrom(defs.before ?? {});
  const to = docFrom(defs.after ?? {});
  return createCoverage(from, to).covers(shapeOf(to, after), shapeOf(from, before));
};

describe("shapeOf + renderShape", () => {
  it("renders refs, types, literals, arrays, objects and unions deterministically", () => {
    const doc = docFrom({ A: { type: "string" } });
    expect(renderShape(shapeOf(doc, { $ref: "#/$defs/A", description: "ignored" }))).toBe("A");
    expect(render({ type: "string", format: "uri", minLength: 1, title: "t" })).toBe("string");
    expect(render({ type: ["null", "string"] })).toBe("null | string");
    expect(render({ enum: ["b", "a", 1] })).toBe('"a" | "b" | 1');
    expect(render({ const: { z: 1, a: 2 } })).toBe('{"a":2,"z":1}');
    expect(render({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe("(number | string)[]");
    expect(render({ type: "array" })).toBe("unknown[]");
    expect(render({ properties: { b: { type: "string" }, "a-b": { type: "number" } }, required: ["b"], additionalProperties: true })).toBe(
      '{ "a-b"?: number; b: string; [key: string]: unknown }',
    );
    expect(render({ type: "object" })).toBe("object");
  });

  it("unions flatten, dedupe and absorb; boolean schemas are unknown and never", () => {
    expect(render({ anyOf: [{ type: "string" }, { oneOf: [{ type: "string" }, { type: "integer" }] }] })).toBe("integer | string");
    expect(render({ anyOf: [{ type: "string" }, {}] })).toBe("unknown");
    expect(render(true)).toBe("unknown");
    expect(render(false)).toBe("never");
    expect(render({ not: {} })).toBe("never");
    expect(render({ description: "only words" })).toBe("unknown");
  });

  it("the corners: non-string types dropped, literal values of every kind, nested and empty combinations", () => {
    expect(render({ type: ["string", 3, null] })).toBe("string");
    expect(render({ enum: [null, true, 2, "x", [1], { b: 1, a: 2 }] })).toBe('"x" | 2 | [1] | null | true | {"a":2,"b":1}');
    // (A $ref that names no definition of the document keeps its pointer.)
    expect(render({ type: "array", items: { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { $ref: "#/$defs/A" }] } })).toBe("(#/$defs/A & { a?: string })[]");
    expect(render({ type: "array", items: { type: "string" } })).toBe("string[]");
    expect(render({ allOf: [{ anyOf: [{ type: "string" }, { type: "integer" }] }, { type: "object" }] })).toBe("(integer | string) & object");
    expect(render({ allOf: [{ allOf: [{ type: "string" }, { minLength: 1 }] }, { type: "string" }] })).toBe("string");
    expect(render({ allOf: [{ type: "string" }, false] })).toBe("never");
    expect(render({ anyOf: [false, { type: "string" }] })).toBe("string");
    expect(render({ anyOf: [false] })).toBe("never");
    expect(render({ not: { type: "string" } })).toBe("unknown");
    expect(render({ properties: { a: {} }, required: "a" })).toBe("{ a?: unknown }");
    expect(render({ type: "object", additionalProperties: false, properties: { a: true } })).toBe("{ a?: unknown }");
    expect(render({ type: "object", additionalProperties: { type: "integer" } })).toBe("{ [key: string]: integer }");
    expect(render(7)).toBe("unknown");
  });

  it("allOf is an intersection", () => {
    const doc = docFrom({ A: { type: "object" }, B: { type: "object" } });
    expect(renderShape(shapeOf(doc, { allOf: [{ $ref: "#/$defs/B" }, { $ref: "#/$defs/A" }] }))).toBe("A & B");
  });
});

describe("covers: is the new type a widening of the old one?", () => {

  it("literals fit their primitive type; integer fits number; not the other way round", () => {
    expect(covers({ type: "string" }, { const: "a" })).toBe(true);
    expect(covers({ type: "integer" }, { enum: [1, 2] })).toBe(true);
    expect(covers({ type: "integer" }, { const: 1.5 })).toBe(false);
    expect(covers({ type: "number" }, { type: "integer" })).toBe(true);
    expect(covers({ type: "integer" }, { type: "number" })).toBe(false);
    expect(covers({ const: "a" }, { type: "string" })).toBe(false);
    expect(covers({}, { type: "string" })).toBe(true);
  });

  it("objects: new optional properties widen; new required properties, lost properties and closed index signatures narrow", () => {
    const old = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    expect(covers({ type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a"] }, old)).toBe(true);
    expect(covers({ type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a", "b"] }, old)).toBe(false);
    expect(covers({ type: "object", properties: {} }, old)).toBe(false);
    expect(covers({ type: "object", additionalProperties: {} }, old)).toBe(true);
    expect(covers({ type: "object", properties: { a: { type: "string" } } }, { ...old, additionalProperties: {} })).toBe(false);
  });

  it("follows $refs on each side in its own schema, and terminates on recursive definitions", () => {
    const list = (item: unknown) => ({ type: "object", properties: { item, next: { $ref: "#/$defs/List" } }, required: ["item"] });
    const defs = { before: { List: list({ type: "integer" }) }, after: { List: list({ type: "number" }), Node: list({ type: "number" }) } };
    expect(covers({ $ref: "#/$defs/Node" }, { $ref: "#/$defs/List" }, defs)).toBe(true);
    expect(covers({ $ref: "#/$defs/List" }, { $ref: "#/$defs/List" }, defs)).toBe(true);
    const narrowed = { before: { List: list({ type: "number" }) }, after: { Node: list({ type: "integer" }), List: list({ type: "integer" }) } };
    expect(covers({ $ref: "#/$defs/Node" }, { $ref: "#/$defs/List" }, narrowed)).toBe(false);
  });
});

describe("covers: the rest of the rules", () => {

  it("each literal fits only its own primitive type", () => {
    const cases: ReadonlyArray<[type: string, fits: unknown[], not: unknown[]]> = [
      ["string", ["a"], [1, true, null]],
      ["boolean", [true, false], ["true", 0, null]],
      ["number", [1.5, 2], ["1", true, null]],
      ["integer", [2], [2.5, "2", false]],
      ["null", [null], [0, "", false]],
    ];
    for (const [type, fits, not] of cases) {
      for (const value of fits) expect(covers({ type }, { const: value }), `${type} ⊇ ${JSON.stringify(value)}`).toBe(true);
      for (const value of not) expect(covers({ type }, { const: value }), `${type} ⊉ ${JSON.stringify(value)}`).toBe(false);
    }
  });

  it("nothing old (false) is covered by anything; a union before is covered member by member, a union after by one member", () => {
    expect(covers({ type: "string" }, false)).toBe(true);
    expect(covers({ anyOf: [{ type: "string" }, { type: "integer" }] }, { anyOf: [{ const: "a" }, { const: 1 }] })).toBe(true);
    expect(covers({ anyOf: [{ type: "string" }, { type: "boolean" }] }, { anyOf: [{ const: "a" }, { const: 1 }] })).toBe(false);
  });

  it("a union after that names the old $ref covers it; one that does not is compared with the definition", () => {
    const defs = { before: { Thing: { type: "object", properties: { a: { type: "string" } } } }, after: { Thing: { type: "object" } } };
    expect(covers({ anyOf: [{ $ref: "#/$defs/Thing" }, { type: "string" }] }, { $ref: "#/$defs/Thing" }, defs)).toBe(true);
    expect(covers({ anyOf: [{ type: "integer" }, { type: "string" }] }, { $ref: "#/$defs/Thing" }, defs)).toBe(false);
  });

  it("a recursive definition renamed, unchanged, covers the old one (assumed while being decided)", () => {
    const node = (self: string) => ({ type: "object", properties: { item: { type: "string" }, next: { $ref: `#/$defs/${self}` } }, required: ["item"] });
    expect(covers({ $ref: "#/$defs/Node" }, { $ref: "#/$defs/List" }, { before: { List: node("List") }, after: { Node: node("Node") } })).toBe(true);
  });

  describe("intersections of objects (allOf) are compared as the object they make", () => {
    const a = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const b = { type: "object", properties: { b: { type: "string" } } };
    const ab = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a"] };

    it("on either side, through $refs and nested allOf", () => {
      const defs = { before: { A: a, Mid: { allOf: [{ $ref: "#/$defs/A" }] } }, after: { A: a } };
      expect(covers(ab, { allOf: [{ $ref: "#/$defs/Mid" }, b] }, defs)).toBe(true);
      expect(covers({ allOf: [{ $ref: "#/$defs/A" }, b] }, ab, defs)).toBe(true);
      expect(covers({ allOf: [{ $ref: "#/$defs/A" }, { ...b, required: ["b"] }] }, ab, defs)).toBe(false);
    });

    it("a property is required when any member requires it", () => {
      const before = { allOf: [a, { type: "object", properties: { a: { type: "string" } } }] };
      expect(covers(a, before)).toBe(true);
    });

    it("the index signature stays only when every member has one", () => {
      const open = { type: "object", additionalProperties: {} };
      expect(covers(ab, { allOf: [open, ab] })).toBe(true);
      expect(covers(ab, { allOf: [open, { ...ab, additionalProperties: {} }] })).toBe(false);
    });

    it("an allOf that contains itself, or aliases that refer to each other, make no object (and end)", () => {
      const loop = { before: { Loop: { allOf: [{ $ref: "#/$defs/Loop" }, b] }, P: { $ref: "#/$defs/Q" }, Q: { $ref: "#/$defs/P" } } };
      expect(covers(ab, { allOf: [{ $ref: "#/$defs/Loop" }, a] }, loop)).toBe(false);
      expect(covers(ab, { allOf: [{ $ref: "#/$defs/P" }, a] }, loop)).toBe(false);
    });

    it("an intersection with a member that is not an object is a narrowing", () => {
      expect(covers({ type: "string" }, { allOf: [{ type: "string" }, { $ref: "#/$defs/Text" }] }, { before: { Text: { type: "string" } } })).toBe(false);
    });
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
    expect(canonicalJson(new Set(["x"]))).toBe('["x"]');
    expect(canonicalJson(new Map([["b", 1], ["a", undefined]]))).toBe('{"b":1}');
    expect(canonicalJson({ r: /x+/g, n: Number.NaN, f: () => 1, u: undefined, s: Symbol("s") })).toBe('{"f":"[function]","n":"NaN","r":"/x+/g","s":"[symbol]"}');
    expect(canonicalJson({ B: 1, a: 1, "": 1, b: 1 })).toBe('{"":1,"B":1,"a":1,"b":1}');
  });
});
