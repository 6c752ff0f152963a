/**
 * The built-in validator against hostile schemas and values (features/json-schema.ts, the bounds
 * in docs/security.md): deep and huge schemas are refused when compiled, deep values and
 * exponential schemas stop at the depth and step bounds with an invalid result (never a hang, never
 * a stack overflow), pathological patterns are matched in linear time. No timings: a backtracking
 * or unbounded implementation would not finish these.
 */
import { describe, expect, it } from "vitest";
import { createJsonSchemaValidator, SchemaError } from "../../../../templates/runtime/features/json-schema.js";
import type { JsonObject } from "../../../../templates/runtime/core/protocol.js";

const nest = (depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
};

describe("hostile schemas", () => {
  it("refuses a schema nested deeper than maxDepth, and one with more than maxNodes subschemas", () => {
    const deep = nest(100, { type: "string" }, (inner) => ({ properties: { a: inner } })) as JsonObject;
    expect(() => createJsonSchemaValidator().compile(deep)).toThrow(/nested deeper than 64/);
    expect(() => createJsonSchemaValidator({ maxDepth: 200 }).compile(deep)).not.toThrow();
    const wide = { properties: Object.fromEntries(Array.from({ length: 20_001 }, (_, i) => [`p${i}`, { type: "string" }])) };
    expect(() => createJsonSchemaValidator().compile(wide)).toThrow(SchemaError);
    expect(() => createJsonSchemaValidator().compile(wide)).toThrow(/more than 10000 subschemas/);
  });

  it("refuses a pattern longer than maxPatternLength", () => {
    expect(() => createJsonSchemaValidator({ maxPatternLength: 8 }).compile({ pattern: "a".repeat(9) })).toThrow(/longer than 8/);
  });

  it("stops an exponential schema (anyOf over recursive refs) at the step bound: invalid, not a hang", () => {
    const schema = {
      $defs: { a: { anyOf: [{ $ref: "#/$defs/b" }, { $ref: "#/$defs/b" }] }, b: { anyOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/a" }] } },
      $ref: "#/$defs/a",
    };
    const result = createJsonSchemaValidator({ maxDepth: 1000 }).compile(schema).validate(1);
    expect(result).toMatchObject({ valid: false, issue: { message: expect.stringMatching(/more than 100000 steps|nested deeper than/) } });
  });

  it("stops a ref cycle that consumes nothing at the depth bound", () => {
    const result = createJsonSchemaValidator().compile({ $defs: { x: { $ref: "#/$defs/x" } }, $ref: "#/$defs/x" }).validate({});
    expect(result).toMatchObject({ valid: false, issue: { message: "nested deeper than 64" } });
  });

  it("reports a value nested deeper than maxDepth as invalid, at its place, without overflowing the stack", () => {
    const schema = { $defs: { n: { type: "array", items: { $ref: "#/$defs/n" } } }, $ref: "#/$defs/n" };
    const value = nest(100_000, [], (inner) => [inner]);
    const result = createJsonSchemaValidator().compile(schema).validate(value) as { valid: false; issue: { pointer: string; message: string } };
    expect(result.valid).toBe(false);
    expect(result.issue.message).toBe("nested deeper than 64");
    expect(result.issue.pointer.startsWith("/0/0/0")).toBe(true);
  });

  it("bounds uniqueItems over a large array by the step budget", () => {
    const value = Array.from({ length: 5000 }, (_, i) => ({ i }));
    const result = createJsonSchemaValidator().compile({ uniqueItems: true }).validate(value);
    expect(result).toMatchObject({ valid: false, issue: { message: "validation took more than 100000 steps" } });
  });

  it("matches pathological patterns over long strings in linear time", () => {
    const validator = createJsonSchemaValidator();
    const long = "a".repeat(50_000);
    expect(validator.compile({ pattern: "^(a+)+$" }).validate(`${long}!`)).toMatchObject({ valid: false });
    expect(validator.compile({ pattern: "a*a*a*a*b" }).validate(long)).toMatchObject({ valid: false });
    expect(validator.compile({ patternProperties: { "^(x+x+)+y$": { type: "number" } } }).validate({ [`${"x".repeat(30_000)}`]: "s" })).toEqual({ valid: true, value: { [`${"x".repeat(30_000)}`]: "s" } });
  });
});
