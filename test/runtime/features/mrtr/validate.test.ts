/**
 * The answer validator (templates/runtime/features/mrtr.ts `validate`, the JSON Schema subset the
 * generated INPUT_REQUIRED schemas use): each keyword's verdict and the message a client gets
 * back (inside -32602 "Invalid params: inputResponses: …"), at the root and inside arrays, and
 * its depth bound on recursive schemas.
 */
import { expect, it } from "vitest";
import { validate, type ValidationSchema } from "../../../../templates/runtime/features/mrtr.js";

const none: Record<string, ValidationSchema> = {};

it("at the root the value is called 'the value'; required at the root names the property alone", () => {
  expect(validate("x", { type: "integer" }, none)).toBe('the value must be an integer, got string "x"');
  expect(validate(null, { type: ["string", "integer"] }, none)).toBe("the value must be a string or an integer, got null");
  expect(validate("image", { const: "text" }, none)).toBe('the value must be "text"');
  expect(validate({}, { required: ["a"] }, none)).toBe("a is required");
});

it("allOf: every part must hold, the first failing part's problem is the answer", () => {
  const schema: ValidationSchema = { allOf: [{ type: "object" }, { required: ["a"] }, { properties: { a: { type: "string" } } }] };
  expect(validate({ a: "x" }, schema, none, "v")).toBeNull();
  expect(validate(1, schema, none, "v")).toBe("v must be an object, got number 1");
  expect(validate({}, schema, none, "v")).toBe("v.a is required");
  expect(validate({ a: 1 }, schema, none, "v")).toBe("v.a must be a string, got number 1");
});

it("anyOf: one match is enough, two are fine; a single failing shape gives its own problem", () => {
  expect(validate("s", { anyOf: [{ type: "string" }, { type: ["string", "number"] }] }, none, "v")).toBeNull();
  expect(validate(1, { anyOf: [{ type: "string" }] }, none, "v")).toBe("v must be a string, got number 1");
  expect(validate(true, { anyOf: [{ type: "string" }, { type: "number" }] }, none, "v")).toBe("v matches none of its 2 allowed shapes");
});

it("a $ref that holds does not end the check: the schema's own keywords still apply", () => {
  const schemas: Record<string, ValidationSchema> = { Obj: { type: "object" } };
  expect(validate({}, { $ref: "Obj", required: ["x"] }, schemas, "v")).toBe("v.x is required");
});

it("items: every item is checked; an array without items and a non-array with items pass", () => {
  expect(validate([1, "x"], { items: { type: "number" } }, none, "v")).toBe('v[1] must be a number, got string "x"');
  expect(validate([1, "x"], { type: "array" }, none, "v")).toBeNull();
  expect(validate("s", { items: { type: "number" } }, none, "v")).toBeNull();
});

it("true accepts anything at any depth; the depth bound is 64", () => {
  expect(validate({ deep: 1 }, true, none, "v", 100)).toBeNull();
  expect(validate(1, {}, none, "", 64)).toBeNull();
  expect(validate(1, {}, none, "", 65)).toBe("the value is nested too deeply");
  expect(validate(1, {}, none, "v", 65)).toBe("v is nested too deeply");
});

it("recursion through allOf, anyOf and properties stops at the depth bound", () => {
  const schemas: Record<string, ValidationSchema> = {
    All: { allOf: [{ $ref: "All" }] },
    Any: { anyOf: [{ $ref: "Any" }] },
    Props: { type: "object", properties: { a: { $ref: "Props" } } },
  };
  expect(validate(1, { $ref: "All" }, schemas, "v")).toBe("v is nested too deeply");
  expect(validate(1, { $ref: "Any" }, schemas, "v")).toBe("v is nested too deeply");
  let deep: unknown = {};
  for (let i = 0; i < 100; i++) deep = { a: deep };
  expect(validate(deep, { $ref: "Props" }, schemas, "v")).toMatch(/^v(\.a)+ is nested too deeply$/);
});
