/**
 * The validation budget of the built-in validator (features/json-schema.ts, `maxWork` and
 * `maxSteps`; issue 41, finding 3): a 4 MiB string argument against a `pattern` blocked the event
 * loop for 2.3–4.7 s, 20 `patternProperties` over 2,000 long keys for 28 s. Now each of those
 * validations ends in under 50 ms (best of 3): refused unchecked, `budgetExceeded` (the registry
 * answers -32602 "validation budget exceeded"), on either engine; `maxLength` is checked before
 * the pattern; a larger `maxWork` lets the same value be checked to its end.
 */
import { describe, expect, it } from "vitest";
import { createJsonSchemaValidator } from "../../../../templates/runtime/features/json-schema.js";
import { blockingMs } from "../../../helpers/blocking.js";

const validator = createJsonSchemaValidator();
const big = "a".repeat(4 * 1024 * 1024);
const refused = { valid: false, issue: { message: "more than 1000000 units of work (maxWork)", budgetExceeded: true } };

/** 2,000 keys of 1 KiB each, and 20 patternProperties that none of them matches. */
function longKeys(): Record<string, number> {
  const keys: Record<string, number> = {};
  for (let i = 0; i < 2000; i++) keys[`${"k".repeat(1024)}${i}`] = i;
  return keys;
}
const twenty = (pattern: (i: number) => string) => Object.fromEntries(Array.from({ length: 20 }, (_, i) => [pattern(i), { type: "number" }]));

describe("a 4 MiB string against a pattern", () => {
  it.each([
    ["^[a-z]+$", "RegExp: refused before it runs"],
    ["^(\\w+\\s?)*$", "the linear matcher: a nested quantifier"],
    ["[a-z]+@", "the linear matcher: unanchored"],
  ])("%s (%s) is refused within 50 ms", (pattern) => {
    const compiled = validator.compile({ type: "object", properties: { s: { type: "string", pattern } } });
    const { ms, result } = blockingMs(() => compiled.validate({ s: `${big}!` }));
    expect(result).toMatchObject({ ...refused, issue: { ...refused.issue, pointer: "/s" } });
    expect(ms).toBeLessThan(50);
  });

  it("over maxLength it never reaches the pattern", () => {
    const compiled = validator.compile({ type: "string", maxLength: 100, pattern: "^(a+)+$" });
    const { ms, result } = blockingMs(() => compiled.validate(big));
    expect(result).toEqual({ valid: false, issue: { pointer: "", message: "must have at most 100 characters" } });
    expect(ms).toBeLessThan(50);
  });

  it("with a larger maxWork it is checked to its end", () => {
    const generous = createJsonSchemaValidator({ maxWork: 1e9 }).compile({ type: "string", pattern: "^[a-z]+$" });
    expect(generous.validate(big)).toEqual({ valid: true, value: big });
  });
});

describe("20 patternProperties over 2,000 keys of 1 KiB", () => {
  it.each([
    ["RegExp", (i: number) => `^k+x${i}$`],
    ["the linear matcher", (i: number) => `(k|kk)+x${i}`],
  ])("on %s: refused within 50 ms", (_engine, pattern) => {
    const compiled = validator.compile({ type: "object", patternProperties: twenty(pattern) });
    const keys = longKeys();
    const { ms, result } = blockingMs(() => compiled.validate(keys));
    expect(result).toMatchObject(refused);
    expect(ms).toBeLessThan(50);
  });
});

describe("the step budget", () => {
  it("is the validation budget too: past maxSteps the value is refused, budgetExceeded", () => {
    const result = createJsonSchemaValidator({ maxSteps: 10 }).compile({ type: "array", items: { type: "number" } }).validate(Array.from({ length: 100 }, (_, i) => i));
    expect(result).toMatchObject({ valid: false, issue: { message: "validation took more than 10 steps", budgetExceeded: true } });
  });

  it("while a value nested too deep is invalid, not refused", () => {
    const schema = { $defs: { n: { type: "array", items: { $ref: "#/$defs/n" } } }, $ref: "#/$defs/n" };
    let value: unknown = [];
    for (let i = 0; i < 100; i++) value = [value];
    const result = createJsonSchemaValidator().compile(schema).validate(value) as { valid: false; issue: { budgetExceeded?: boolean } };
    expect(result.valid).toBe(false);
    expect(result.issue.budgetExceeded).toBeUndefined();
  });

  it.each([{ maxWork: 999 }, { maxWork: 1.5e6 + 0.5 }, { maxWork: Number.NaN }])("checks maxWork: %o", (options) => {
    expect(() => createJsonSchemaValidator(options)).toThrow(/maxWork/);
  });
});
