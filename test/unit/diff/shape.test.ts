/**
 * The normalized shapes `diff` compares (diff-shape.ts) and the narrowing rule (diff-covers.ts).
 */
import { describe, expect, it } from "vitest";
import { createCoverage } from "../../../generator/diff/covers.js";
import { canonicalJson, renderShape, shapeOf } from "../../../generator/diff/shape.js";
import { docFrom } from "../support.js";

const EMPTY = docFrom({});
const render = (node: unknown) => renderShape(shapeOf(EMPTY, node));

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

  it("allOf is an intersection", () => {
    const doc = docFrom({ A: { type: "object" }, B: { type: "object" } });
    expect(renderShape(shapeOf(doc, { allOf: [{ $ref: "#/$defs/B" }, { $ref: "#/$defs/A" }] }))).toBe("A & B");
  });
});

describe("covers: is the new type a widening of the old one?", () => {
  const covers = (after: unknown, before: unknown, defs: { before?: Record<string, unknown>; after?: Record<string, unknown> } = {}) => {
    const from = docFrom(defs.before ?? {});
    const to = docFrom(defs.after ?? {});
    return createCoverage(from, to).covers(shapeOf(to, after), shapeOf(from, before));
  };

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

describe("canonicalJson", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
    expect(canonicalJson(new Set(["x"]))).toBe('["x"]');
  });
});
