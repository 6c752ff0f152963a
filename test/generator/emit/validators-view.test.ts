/**
 * The generated validators (generator/emit/validators-view.ts over model/validation.ts), run for
 * real on small schemas: each keyword's verdict, the JSON pointer and the `expected` of the first
 * problem, extra properties allowed where the schema allows them, alternatives told apart by a
 * discriminator or by how far a value got, and the bound on recursive schemas.
 */
import { describe, expect, it } from "vitest";
import { subjectCheck, validatorsText } from "./validators-support.js";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

describe("types and literals", () => {
  it("type: one or several; integer is a whole number; NaN and Infinity are no JSON numbers", async () => {
    const check = await subjectCheck({ Subject: { type: "object", properties: { n: { type: "integer" }, x: { type: ["string", "null"] }, f: { type: "number" } } } });
    expect(check({ n: 1, x: null, f: 1.5 })).toBeUndefined();
    expect(check({ n: 1.5 })).toEqual({ pointer: "/n", expected: "an integer", got: "1.5" });
    expect(check({ x: 1 })).toEqual({ pointer: "/x", expected: "a string or null", got: "1" });
    expect(check({ f: Number.NaN })).toMatchObject({ pointer: "/f", expected: "a number" });
    expect(check({ f: Number.POSITIVE_INFINITY })).toMatchObject({ pointer: "/f", expected: "a number" });
    expect(check([])).toEqual({ pointer: "", expected: "an object", got: "an array" });
    expect(check(null)).toEqual({ pointer: "", expected: "an object", got: "null" });
  });

  it("const and enum, of primitives and of objects (JSON equality, key order aside)", async () => {
    const check = await subjectCheck({
      Subject: { type: "object", properties: { kind: { const: "text" }, level: { enum: ["a", "b", 3] }, shape: { const: { x: [1, 2] } }, pick: { enum: [{ a: 1 }, [1]] } } },
    });
    expect(check({ kind: "text", level: 3, shape: { x: [1, 2] }, pick: [1] })).toBeUndefined();
    expect(check({ kind: "image" })).toEqual({ pointer: "/kind", expected: '"text"', got: '"image"' });
    expect(check({ level: "c" })).toEqual({ pointer: "/level", expected: 'one of "a", "b", 3', got: '"c"' });
    expect(check({ shape: { x: [2, 1] } })).toMatchObject({ pointer: "/shape" });
    expect(check({ pick: { a: 1, b: 2 } })).toMatchObject({ pointer: "/pick", expected: 'one of {"a":1}, [1]' });
  });
});

describe("objects", () => {
  it("required: the pointer of the missing property, what it should be; present as undefined counts as missing", async () => {
    const check = await subjectCheck({ Subject: { type: "object", properties: { name: { type: "string" }, args: { type: "object" } }, required: ["name", "other"] } });
    expect(check({ name: "n", other: 0 })).toBeUndefined();
    expect(check({ other: 0 })).toEqual({ pointer: "/name", expected: "a string (required)", got: "nothing" });
    expect(check({ name: undefined, other: 0 })).toEqual({ pointer: "/name", expected: "a string (required)", got: "nothing" });
    expect(check({ name: "n" })).toEqual({ pointer: "/other", expected: "a value (required)", got: "nothing" });
  });

  it("extra properties pass where the schema says nothing of them; additionalProperties false or a schema holds them", async () => {
    const open = await subjectCheck({ Subject: { type: "object", properties: { a: { type: "string" } } } });
    expect(open({ a: "x", anything: [1, { b: 2 }] })).toBeUndefined();
    const closed = await subjectCheck({ Subject: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false } });
    expect(closed({ a: "x" })).toBeUndefined();
    expect(closed({ a: "x", b: 1 })).toEqual({ pointer: "/b", expected: "no such property (additionalProperties: false)", got: "1" });
    const typed = await subjectCheck({ Subject: { type: "object", additionalProperties: { type: "number" } } });
    expect(typed({ x: 1, y: 2 })).toBeUndefined();
    expect(typed({ x: 1, "a/b": "2" })).toEqual({ pointer: "/a~1b", expected: "a number", got: '"2"' });
  });

  it("inherited names are never read from the prototype: a missing `constructor` is missing", async () => {
    const check = await subjectCheck({ Subject: { type: "object", properties: { constructor: { type: "string" }, toString: { type: "string" } }, required: ["constructor"] } });
    expect(check({})).toEqual({ pointer: "/constructor", expected: "a string (required)", got: "nothing" });
    expect(check({ constructor: "c" })).toBeUndefined();
    expect(check(JSON.parse('{"constructor":"c","__proto__":{"x":1}}'))).toBeUndefined();
  });

  it("patternProperties, propertyNames, min/maxProperties and dependentRequired", async () => {
    const check = await subjectCheck({
      Subject: {
        type: "object",
        properties: { known: { type: "boolean" } },
        patternProperties: { "^x-": { type: "string" } },
        additionalProperties: false,
        propertyNames: { maxLength: 8 },
        maxProperties: 3,
        dependentRequired: { known: ["x-why"] },
      },
    });
    expect(check({ "x-a": "1" })).toBeUndefined();
    expect(check({ "x-a": 1 })).toEqual({ pointer: "/x-a", expected: "a string", got: "1" });
    expect(check({ other: 1 })).toMatchObject({ pointer: "/other", expected: "no such property (additionalProperties: false)" });
    expect(check({ "x-toolong-name": "a" })).toMatchObject({ pointer: "/x-toolong-name", expected: "a property name that is a valid value" });
    expect(check({ "x-a": "1", "x-b": "1", "x-c": "1", "x-d": "1" })).toMatchObject({ pointer: "", expected: "an object of at most 3 properties" });
    expect(check({ known: true })).toEqual({ pointer: "/x-why", expected: 'a value (with "known") (required)', got: "nothing" });
  });
});

describe("arrays, numbers and strings", () => {
  it("items and prefixItems (2020-12), min/maxItems, uniqueItems, contains", async () => {
    const check = await subjectCheck({
      Subject: { type: "array", prefixItems: [{ type: "string" }], items: { type: "integer" }, minItems: 1, maxItems: 4, uniqueItems: true, contains: { const: 7 } },
    });
    expect(check(["a", 7, 2])).toBeUndefined();
    expect(check([1, 7])).toEqual({ pointer: "/0", expected: "a string", got: "1" });
    expect(check(["a", 7, "b"])).toEqual({ pointer: "/2", expected: "an integer", got: '"b"' });
    expect(check([])).toMatchObject({ pointer: "", expected: "an array of at least 1 items" });
    expect(check(["a", 7, 7])).toMatchObject({ pointer: "", expected: "an array of distinct items" });
    expect(check(["a", 1])).toMatchObject({ pointer: "", expected: "an array with at least 1 items that are 7" });
  });

  it("draft-07: an array `items` is a tuple, additionalItems the rest; a $ref's siblings are ignored", async () => {
    const defs = {
      Subject: { type: "object", properties: { t: { type: "array", items: [{ type: "string" }], additionalItems: false }, r: { $ref: "#/definitions/Word", type: "integer" } } },
      Word: { type: "string" },
    };
    const check = await subjectCheck(defs, { key: "definitions" });
    expect(check({ t: ["a"], r: "w" })).toBeUndefined();
    expect(check({ t: ["a", "b"] })).toEqual({ pointer: "/t/1", expected: "no value here", got: '"b"' });
    expect(check({ r: 1 })).toEqual({ pointer: "/r", expected: "a string", got: "1" });
  });

  it("2020-12: a $ref's siblings apply beside it", async () => {
    const check = await subjectCheck({ Subject: { type: "object", properties: { r: { $ref: "#/$defs/Word", minLength: 2 } } }, Word: { type: "string" } });
    expect(check({ r: "ab" })).toBeUndefined();
    expect(check({ r: "a" })).toMatchObject({ pointer: "/r", expected: "a string of at least 2 characters" });
    expect(check({ r: 1 })).toMatchObject({ pointer: "/r", expected: "a string" });
  });

  it("number bounds and multipleOf; string lengths count code points; pattern with the linear-time matcher", async () => {
    const check = await subjectCheck({
      Subject: {
        type: "object",
        properties: { p: { type: "number", minimum: 0, exclusiveMaximum: 1 }, m: { type: "number", multipleOf: 0.1 }, s: { type: "string", minLength: 2, maxLength: 3 }, w: { type: "string", pattern: "^(a+)+$" } },
      },
    });
    expect(check({ p: 0, m: 0.3, s: "😀😀", w: "aaa" })).toBeUndefined();
    expect(check({ p: 1 })).toEqual({ pointer: "/p", expected: "a number < 1", got: "1" });
    expect(check({ p: -1 })).toEqual({ pointer: "/p", expected: "a number ≥ 0", got: "-1" });
    expect(check({ m: 0.35 })).toMatchObject({ pointer: "/m", expected: "a multiple of 0.1" });
    expect(check({ s: "😀" })).toMatchObject({ pointer: "/s", expected: "a string of at least 2 characters" });
    expect(check({ s: "😀😀😀😀" })).toMatchObject({ pointer: "/s", expected: "a string of at most 3 characters" });
    // A backtracking RegExp takes exponential time on this; the generated check does not.
    const started = performance.now();
    expect(check({ w: `${"a".repeat(5000)}b` })).toMatchObject({ pointer: "/w", expected: 'a string matching "^(a+)+$"' });
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("alternatives", () => {
  const content = {
    Text: { type: "object", properties: { type: { const: "text" }, text: { type: "string" } }, required: ["type", "text"] },
    Image: { type: "object", properties: { type: { const: "image" }, data: { type: "string" } }, required: ["type", "data"] },
  };

  it("a discriminator (a required property with a distinct const in every alternative) picks the one alternative", async () => {
    const check = await subjectCheck({ ...content, Subject: { anyOf: [ref("Text"), ref("Image")] } });
    expect(check({ type: "image", data: "d" })).toBeUndefined();
    expect(check({ type: "image", text: "t" })).toEqual({ pointer: "/data", expected: "a string (required)", got: "nothing" });
    expect(check({ type: "video" })).toEqual({ pointer: "/type", expected: 'one of "text", "image"', got: '"video"' });
    expect(check("text")).toEqual({ pointer: "", expected: "a Text or an Image", got: '"text"' });
    expect(validatorsText({ ...content, Subject: { anyOf: [ref("Text"), ref("Image")] } })).toContain('switch (t0) {\n    case "text": {');
  });

  it("without one, the alternative that got furthest into the value gives the problem; none past the value: all of them are named", async () => {
    const check = await subjectCheck({
      A: { type: "object", properties: { content: { type: "array" } }, required: ["content"] },
      B: { type: "object", properties: { kind: { const: "input_required" } }, required: ["kind"] },
      Subject: { anyOf: [ref("A"), ref("B")] },
    });
    expect(check({ content: [] })).toBeUndefined();
    expect(check({ kind: "input_required" })).toBeUndefined();
    expect(check({ content: "x" })).toEqual({ pointer: "/content", expected: "an array", got: '"x"' });
    expect(check(5)).toEqual({ pointer: "", expected: "an A or a B", got: "5" });
  });

  it("oneOf holds for exactly one; not; if/then/else; allOf holds for all", async () => {
    const check = await subjectCheck({
      Subject: {
        type: "object",
        properties: {
          one: { oneOf: [{ type: "integer" }, { minimum: 5 }] },
          not: { not: { type: "string" } },
          cond: { if: { type: "string" }, then: { minLength: 2 }, else: { type: "number" } },
          all: { allOf: [{ type: "string" }, { maxLength: 1 }] },
        },
      },
    });
    expect(check({ one: 1, not: 1, cond: "ab", all: "a" })).toBeUndefined();
    expect(check({ one: 7 })).toMatchObject({ pointer: "/one", expected: "exactly one of an integer or a valid value (2 hold)" });
    expect(check({ not: "s" })).toMatchObject({ pointer: "/not", expected: "not a string" });
    expect(check({ cond: "a" })).toMatchObject({ pointer: "/cond", expected: "a string of at least 2 characters" });
    expect(check({ cond: true })).toMatchObject({ pointer: "/cond", expected: "a number" });
    expect(check({ all: "ab" })).toMatchObject({ pointer: "/all", expected: "a string of at most 1 characters" });
  });
});

describe("recursion and hostile values", () => {
  it("a recursive schema is followed MAX_CHECK_DEPTH levels deep at most: a value nested deeper is a problem, not a stack overflow", async () => {
    const check = await subjectCheck({ Subject: { type: "object", properties: { child: ref("Subject") } } });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { child: deep };
    const issue = check(deep);
    expect(issue?.expected).toBe("a value nested at most 128 levels deep");
    expect(issue?.pointer.split("/child").length).toBeGreaterThan(128);
    let fine: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) fine = { child: fine };
    expect(check(fine)).toBeUndefined();
  });

  it("an unsupported assertion keyword is refused at generate time, naming its pointer", () => {
    expect(() => validatorsText({ Subject: { type: "object", unevaluatedProperties: false } })).toThrow(/wire validation: unevaluatedProperties is not supported/);
    try {
      validatorsText({ Subject: { type: "object", properties: { a: { dependentSchemas: {} } } } });
    } catch (error) {
      expect((error as { location?: { pointer?: string } }).location?.pointer).toBe("/$defs/Subject/properties/a/dependentSchemas");
    }
  });

  it("annotations and format assert nothing", async () => {
    const check = await subjectCheck({ Subject: { type: "string", format: "uri", description: "d", title: "t", default: "x", examples: ["y"], deprecated: true } });
    expect(check("not a uri")).toBeUndefined();
  });
});

describe("results", () => {
  it("resultType is never required (the client MUST treat an absent one as \"complete\"), and its value picks the result it says", async () => {
    const check = await subjectCheck({
      Done: { type: "object", properties: { resultType: { type: "string" }, content: { type: "array" } }, required: ["content", "resultType"] },
      Task: { type: "object", properties: { resultType: { const: "task" }, taskId: { type: "string" } }, required: ["taskId", "resultType"] },
      Subject: { anyOf: [ref("Done"), ref("Task")] },
    });
    expect(check({ content: [] })).toBeUndefined();
    expect(check({ resultType: "complete", content: [] })).toBeUndefined();
    expect(check({ resultType: "task", taskId: "t" })).toBeUndefined();
    // "task" checks the task handle only: content does not make it a Done.
    expect(check({ resultType: "task", content: [] })).toEqual({ pointer: "/taskId", expected: "a string (required)", got: "nothing" });
    // Any other value is a complete result.
    expect(check({ resultType: "later", taskId: "t" })).toEqual({ pointer: "/content", expected: "an array (required)", got: "nothing" });
  });
});
