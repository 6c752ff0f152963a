/**
 * features/json-schema.ts, the built-in validator of registrations: each keyword it implements
 * accepts and refuses what JSON Schema 2020-12 says, with the JSON pointer of the first problem;
 * what it refuses at compile time (unsupported assertions, remote refs, bad keyword values).
 */
import { describe, expect, it } from "vitest";
import { createJsonSchemaValidator, SchemaError } from "../../../../templates/runtime/features/json-schema.js";
import type { JsonObject } from "../../../../templates/runtime/core/protocol.js";

const validator = createJsonSchemaValidator();
const check = (schema: JsonObject, value: unknown) => validator.compile(schema).validate(value);
const ok = (schema: JsonObject, value: unknown) => expect(check(schema, value), JSON.stringify(value)).toEqual({ valid: true, value });
const bad = (schema: JsonObject, value: unknown, pointer: string, message: string | RegExp) => {
  const result = check(schema, value) as { valid: false; issue: { pointer: string; message: string } };
  expect(result.valid, JSON.stringify(value)).toBe(false);
  expect(result.issue.pointer).toBe(pointer);
  if (typeof message === "string") expect(result.issue.message).toBe(message);
  else expect(result.issue.message).toMatch(message);
};

describe("keywords", () => {
  it("type, one or several; integer is a number without a fraction; NaN and undefined are no JSON", () => {
    ok({ type: "integer" }, 3);
    bad({ type: "integer" }, 3.5, "", "must be integer, got number");
    ok({ type: ["string", "null"] }, null);
    bad({ type: ["string", "null"] }, 1, "", "must be string or null, got number");
    bad({ type: "number" }, Number.NaN, "", /must be number, got NaN/);
    bad({ type: "object" }, [], "", "must be object, got array");
  });

  it("const and enum compare as JSON (objects by keys, arrays by items)", () => {
    ok({ const: { a: [1, { b: 2 }] } }, { a: [1, { b: 2 }] });
    bad({ const: { a: 1 } }, { a: 1, b: 2 }, "", 'must be {"a":1}');
    ok({ enum: ["x", 1, null] }, null);
    bad({ enum: ["x", 1] }, "y", "", 'must be one of ["x",1]');
  });

  it("numeric bounds and multipleOf", () => {
    const schema = { type: "number", minimum: 1, exclusiveMaximum: 10, multipleOf: 0.5 };
    ok(schema, 9.5);
    bad(schema, 0, "", "must be ≥ 1");
    bad(schema, 10, "", "must be < 10");
    bad(schema, 2.25, "", "must be a multiple of 0.5");
    ok({ multipleOf: 0.1 }, 0.3);
    bad({ maximum: 5, exclusiveMinimum: 1 }, 1, "", "must be > 1");
  });

  it("string lengths count code points, and pattern is unanchored", () => {
    ok({ minLength: 2, maxLength: 2 }, "😀😀");
    bad({ maxLength: 1 }, "😀😀", "", "must have at most 1 characters");
    bad({ minLength: 3 }, "ab", "", "must have at least 3 characters");
    ok({ pattern: "b+" }, "abbc");
    bad({ pattern: "^b+$" }, "abbc", "", 'must match the pattern "^b+$"');
    // format is an annotation (Validation §7.2): ignored.
    ok({ type: "string", format: "email" }, "not an email");
  });

  it("objects: properties, required, additionalProperties, patternProperties, propertyNames, min/maxProperties, dependentRequired", () => {
    const schema = {
      type: "object",
      properties: { id: { type: "integer" }, "a/b~c": { type: "string" } },
      patternProperties: { "^x-": { type: "boolean" } },
      additionalProperties: false,
      required: ["id"],
    };
    ok(schema, { id: 1, "x-flag": true, "a/b~c": "s" });
    bad(schema, {}, "", 'must have the property "id"');
    bad(schema, { id: "1" }, "/id", "must be integer, got string");
    bad(schema, { id: 1, "a/b~c": 2 }, "/a~1b~0c", "must be string, got number");
    bad(schema, { id: 1, "x-flag": 1 }, "/x-flag", "must be boolean, got number");
    bad(schema, { id: 1, other: 1 }, "/other", "is not an allowed property");
    bad({ additionalProperties: { type: "string" } }, { k: 1 }, "/k", "must be string, got number");
    bad({ propertyNames: { maxLength: 3 } }, { long: 1 }, "/long", "the property name must have at most 3 characters");
    bad({ minProperties: 2 }, { a: 1 }, "", "must have at least 2 properties");
    bad({ maxProperties: 0 }, { a: 1 }, "", "must have at most 0 properties");
    bad({ dependentRequired: { card: ["cvc"] } }, { card: "1" }, "", 'must have the property "cvc" when it has "card"');
    // properties inherited from Object.prototype are not the value's own
    bad({ required: ["toString"] }, {}, "", 'must have the property "toString"');
  });

  it("arrays: items, prefixItems (and draft-07 array items with additionalItems), min/maxItems, uniqueItems, contains", () => {
    bad({ items: { type: "string" } }, ["a", 1], "/1", "must be string, got number");
    ok({ prefixItems: [{ type: "number" }], items: { type: "string" } }, [1, "a", "b"]);
    bad({ prefixItems: [{ type: "number" }], items: { type: "string" } }, [1, 2], "/1", "must be string, got number");
    bad({ items: [{ type: "number" }], additionalItems: false }, [1, 2], "/1", "no value is allowed here");
    bad({ minItems: 1 }, [], "", "must have at least 1 items");
    bad({ maxItems: 1 }, [1, 2], "", "must have at most 1 items");
    bad({ uniqueItems: true }, [{ a: 1 }, { a: 1 }], "", "items 0 and 1 are equal");
    ok({ uniqueItems: true }, [1, "1", [1]]);
    bad({ contains: { const: 3 } }, [1, 2], "", "must contain at least 1 matching item");
    bad({ contains: { type: "number" }, maxContains: 1 }, [1, 2], "", "must contain at most 1 matching items");
  });

  it("allOf, anyOf, oneOf, not, if/then/else; a nested problem keeps its pointer", () => {
    const item = { type: "object", properties: { n: { type: "number" } } };
    bad({ properties: { list: { items: { allOf: [item] } } } }, { list: [{ n: 1 }, { n: "x" }] }, "/list/1/n", "must be number, got string");
    ok({ anyOf: [{ type: "string" }, { type: "number" }] }, 2);
    bad({ anyOf: [{ type: "string" }, { type: "number" }] }, true, "", "must match a schema of anyOf (the first: must be string, got boolean)");
    bad({ oneOf: [{ type: "number" }, { type: "integer" }] }, 2, "", "must match exactly one schema of oneOf, matches 2");
    ok({ oneOf: [{ type: "number" }, { type: "integer" }] }, 2.5);
    bad({ not: { type: "null" } }, null, "", "must not match the schema of not");
    const conditional = { if: { properties: { kind: { const: "a" } } }, then: { required: ["a"] }, else: { required: ["b"] } };
    ok(conditional, { kind: "a", a: 1 });
    bad(conditional, { kind: "a" }, "", 'must have the property "a"');
    bad(conditional, { kind: "z" }, "", 'must have the property "b"');
    ok(true as never, 1);
    bad({ properties: { x: false } }, { x: 1 }, "/x", "no value is allowed here");
  });

  it("$ref to $defs, definitions and the root, recursive", () => {
    const tree = {
      $defs: { node: { type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["value"] } },
      $ref: "#/$defs/node",
    };
    ok(tree, { value: 1, children: [{ value: 2, children: [] }] });
    bad(tree, { value: 1, children: [{ value: 2, children: [{}] }] }, "/children/0/children/0", 'must have the property "value"');
    bad({ definitions: { s: { type: "string" } }, properties: { a: { $ref: "#/definitions/s" } } }, { a: 1 }, "/a", "must be string, got number");
    bad({ properties: { self: { $ref: "#" } }, type: "object" }, { self: { self: 1 } }, "/self/self", "must be object, got number");
  });
});

describe("schemas refused when compiled", () => {
  it.each([
    [{ unevaluatedProperties: false }, /unevaluatedProperties is not supported by the built-in validator \(use the ajv add-on\)/],
    [{ dependentSchemas: {} }, /dependentSchemas is not supported/],
    [{ $dynamicRef: "#x" }, /\$dynamicRef is not supported/],
    [{ $ref: "https://example.com/schema" }, /is not local/],
    [{ $ref: "#/$defs/missing" }, /names nothing/],
    [{ type: "text" }, /type must be a JSON type/],
    [{ minLength: -1 }, /minLength must be a non-negative integer/],
    [{ maximum: "5" }, /maximum must be a number/],
    [{ multipleOf: 0 }, /multipleOf must be > 0/],
    [{ required: "a" }, /required must be an array of strings/],
    [{ anyOf: [] }, /anyOf must be a non-empty array/],
    [{ properties: { a: 5 } }, /at \/properties\/a: a schema must be an object or a boolean/],
    [{ pattern: "(a)\\1" }, /backreferences/],
  ])("%j", (schema, message) => {
    expect(() => validator.compile(schema as JsonObject)).toThrow(SchemaError);
    expect(() => validator.compile(schema as JsonObject)).toThrow(message);
  });

  it("ignores keywords it does not know (annotations), and x- annotations such as x-mcp-header", () => {
    ok({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region", title: "t", deprecated: true } }, $comment: "c", "x-anything": 1 }, { region: "eu" });
  });
});
