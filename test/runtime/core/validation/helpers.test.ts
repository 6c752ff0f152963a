/**
 * templates/runtime/core/validation.ts on its own: the helpers the generated validators call
 * (pointers, alternatives, JSON equality, code points), the `validate` option, and a check that
 * throws while reading a value (an in-process getter) becoming a problem, not an exception.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_VALIDATION_WORK } from "../../../../templates/runtime/core/work-budget.js";
import { compilePattern } from "../../../../templates/runtime/features/pattern.js";
import { blockingMs } from "../../../helpers/blocking.js";
import {
  anyOf,
  at,
  checkValue,
  codePoints,
  equal,
  fail,
  InvalidResultError,
  issueText,
  missing,
  oneOf,
  own,
  unique,
  wireChecks,
  type Check,
  type WireValidators,
} from "../../../../templates/runtime/core/validation.js";

const isString: Check = (v) => (typeof v === "string" ? undefined : fail("a string", v));
const hasA: Check = (v) => (typeof v === "object" && v !== null && "a" in v ? (typeof (v as { a: unknown }).a === "number" ? undefined : at("a", fail("a number", (v as { a: unknown }).a))) : missing("a", "a number"));

describe("pointers", () => {
  it("at() prefixes a member's key, escaping ~ and / (RFC 6901); numbers are indices", () => {
    expect(at("content", at(0, fail("a string", 1))).pointer).toBe("/content/0");
    expect(at("a/b~c", fail("x", 1)).pointer).toBe("/a~1b~0c");
    expect(missing("x/y", "a string")).toEqual({ pointer: "/x~1y", expected: "a string (required)", got: "nothing" });
  });

  it("issueText: the pointer, what was expected and what was found, on one line; the value itself named when the pointer is empty", () => {
    expect(issueText(at("n", fail("an integer", 1.5)))).toBe("/n: expected an integer, got 1.5");
    expect(issueText(fail("an object", "x\ny"))).toBe('(the value itself): expected an object, got "x\\ny"');
  });
});

describe("alternatives", () => {
  it("anyOf: the first that holds; else the one that got furthest, a wrong value before a missing one at the same depth; none past the value: all named", () => {
    expect(anyOf("s", 0, [hasA, isString], "an A or a string")).toBeUndefined();
    expect(anyOf({ a: "x" }, 0, [isString, hasA], "a string or an A")).toEqual({ pointer: "/a", expected: "a number", got: '"x"' });
    const missingB: Check = () => missing("b", "a string");
    expect(anyOf({ a: "x" }, 0, [missingB, hasA], "x")).toMatchObject({ pointer: "/a" });
    expect(anyOf({}, 0, [missingB, hasA], "x")).toMatchObject({ pointer: "/b" });
    expect(anyOf(5, 0, [isString, isString], "a string or a text")).toEqual({ pointer: "", expected: "a string or a text", got: "5" });
  });

  it("oneOf: exactly one must hold", () => {
    expect(oneOf("s", 0, [isString, hasA], "x")).toBeUndefined();
    expect(oneOf("s", 0, [isString, isString], "a string or a string")).toMatchObject({ expected: "exactly one of a string or a string (2 hold)" });
    expect(oneOf(1, 0, [isString, isString], "a string")).toMatchObject({ expected: "exactly one of a string (0 hold)" });
  });
});

describe("values", () => {
  it("equal: JSON equality, key order aside, own keys only", () => {
    expect(equal({ a: [1, { b: null }], c: "x" }, { c: "x", a: [1, { b: null }] })).toBe(true);
    expect(equal({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(equal([1, 2], [2, 1])).toBe(false);
    expect(equal([], {})).toBe(false);
    expect(equal(1, "1")).toBe(false);
    expect(unique([1, { a: 1 }, [1]])).toBe(true);
    expect(unique([{ a: 1, b: 2 }, { b: 2, a: 1 }])).toBe(false);
  });

  it("codePoints counts surrogate pairs once, and stops counting past the limit", () => {
    expect(codePoints("a😀b", 10)).toBe(3);
    expect(codePoints("😀".repeat(5), 10)).toBe(5);
    expect(codePoints("x".repeat(1_000_000), 3)).toBe(4);
  });

  it("own() never finds what an object inherits", () => {
    expect(own({}, "constructor")).toBeUndefined();
    expect(own(JSON.parse('{"__proto__":1}') as Record<string, unknown>, "__proto__")).toBe(1);
  });

  it("checkValue: a value that throws while it is read is a problem like any other", () => {
    const hostile = { get a(): unknown { throw new Error("boom"); } };
    expect(checkValue(hasA, hostile)).toEqual({ pointer: "", expected: "a JSON value", got: "a value that could not be read" });
  });

  it("checkValue: the patterns of one message share one budget (as the generated checks test them): 20 over 2,000 long keys end within 50 ms", () => {
    // What validators.ts writes for patternProperties: each key against each pattern, no budget handed.
    const patterns = Array.from({ length: 20 }, (_, i) => compilePattern(`(k|kk)+x${i}`, { maxLength: 100, maxProgram: 2000 }));
    const keysMatch: Check = (value) => {
      for (const key of Object.keys(value as object)) for (const pattern of patterns) if (pattern.test(key)) return fail("keys that match no pattern", key);
      return undefined;
    };
    const keys = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`${"k".repeat(1024)}${i}`, i]));
    const { ms, result } = blockingMs(() => checkValue(keysMatch, keys));
    expect(result).toEqual({ pointer: "", expected: `a value checked within ${DEFAULT_VALIDATION_WORK} units of work`, got: "more (validation budget exceeded)" });
    expect(ms).toBeLessThan(50);
    expect(checkValue(keysMatch, { kkx3: 1 })).toMatchObject({ expected: "keys that match no pattern" });
  });
});

describe("the validate option", () => {
  const validators: WireValidators = { requests: { r: { check: isString, required: true } }, notifications: { n: { check: isString, required: false } }, results: { r: isString }, inputs: {} };

  it("true or absent: everything; false: nothing; per kind: params and results apart", () => {
    for (const option of [undefined, true, {}]) {
      const checks = wireChecks(validators, option);
      expect([checks.requests?.size, checks.notifications?.size, checks.results?.size]).toEqual([1, 1, 1]);
    }
    expect(wireChecks(validators, false)).toEqual({ requests: undefined, notifications: undefined, results: undefined });
    const paramsOnly = wireChecks(validators, { results: false });
    expect([paramsOnly.requests?.size, paramsOnly.results]).toEqual([1, undefined]);
    const resultsOnly = wireChecks(validators, { params: false });
    expect([resultsOnly.requests, resultsOnly.notifications, resultsOnly.results?.size]).toEqual([undefined, undefined, 1]);
  });

  it("a method named like an Object.prototype member finds nothing inherited", () => {
    expect(wireChecks(validators, true).requests?.get("constructor")).toBeUndefined();
  });

  it("InvalidResultError is an InvalidResponseError naming the method, the id, the pointer and what was expected", () => {
    const error = new InvalidResultError("tools/call", 7, at("content", fail("an array", "x")));
    expect(error).toMatchObject({ name: "InvalidResultError", method: "tools/call", requestId: 7, pointer: "/content", expected: "an array" });
    expect(error.message).toBe('invalid response to tools/call (id 7): the result breaks its schema at /content: expected an array, got "x"');
  });
});
