/**
 * The `ajv` add-on (templates/runtime/addons/ajv/validator.ts) as the validator of registrations
 * and of the client's check: keywords the built-in validator refuses work, the first error's
 * instance path is the pointer, patterns go through the linear-time matcher (a pathological one
 * answers over a long string; lookaround is refused at registration), one validation's patterns
 * share a budget (20 patternProperties over 2,000 long keys: refused, budgetExceeded, in under
 * 50 ms), and `regExp: "native"` hands patterns to RegExp.
 */
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createAjvValidator } from "../../../../templates/runtime/addons/ajv/validator.js";
import { connectPair } from "../../../helpers/harness.js";
import { blockingMs } from "../../../helpers/blocking.js";

const STRICT = {
  type: "object",
  properties: { name: { type: "string", pattern: "^(a+)+$" } },
  required: ["name"],
  unevaluatedProperties: false,
} as const;

describe("the ajv add-on", () => {
  it("validates registrations with what the built-in validator refuses, naming the pointer", async () => {
    const { client, server } = await connectPair({ server: { registrations: { validator: createAjvValidator() } } });
    const calls: string[] = [];
    server.registerTool("t", { inputSchema: STRICT }, (args) => {
      calls.push(args.name);
      return { content: [] };
    });
    expect(await client.callTool({ name: "t", arguments: { name: "aaa" } })).toEqual({ content: [] });
    const extra = await client.callTool({ name: "t", arguments: { name: "a", more: 1 } });
    expect(extra).toMatchObject({ isError: true, content: [{ type: "text", text: "Invalid arguments for tool t: (root): must NOT have unevaluated properties" }] });
    const missing = await client.callTool({ name: "t", arguments: {} });
    expect(missing.content).toEqual([{ type: "text", text: 'Invalid arguments for tool t: (root): must have the property "name"' }]);
    const hostile = await client.callTool({ name: "t", arguments: { name: `${"a".repeat(30_000)}!` } });
    expect(hostile.content).toEqual([{ type: "text", text: 'Invalid arguments for tool t: /name: must match pattern "^(a+)+$"' }]);
    expect(calls).toEqual(["aaa"]);
  });

  it("refuses a pattern the linear matcher cannot run when the tool is registered", async () => {
    const { server } = await connectPair({ server: { registrations: { validator: createAjvValidator() } } });
    expect(() => server.registerTool("t", { inputSchema: { type: "object", properties: { x: { type: "string", pattern: "(?=x)" } } } }, () => ({ content: [] }))).toThrow(/lookaround/);
  });

  it("keeps each pattern's own matcher (ajv keys compiled patterns by their text)", () => {
    const schema = createAjvValidator().compile({ type: "object", properties: { a: { pattern: "^a$" }, b: { pattern: "^b$" } } });
    expect(schema.validate({ a: "a", b: "b" })).toMatchObject({ valid: true });
    expect(schema.validate({ a: "a", b: "a" })).toEqual({ valid: false, issue: { pointer: "/b", message: 'must match pattern "^b$"' } });
  });

  it("shares one budget of work among a validation's patterns: 20 patternProperties over 2,000 long keys are refused within 50 ms", () => {
    const patternProperties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`(k|kk)+x${i}`, { type: "number" }]));
    const compiled = createAjvValidator().compile({ type: "object", patternProperties });
    const keys = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`${"k".repeat(1024)}${i}`, i]));
    const { ms, result } = blockingMs(() => compiled.validate(keys));
    expect(result).toEqual({ valid: false, issue: { pointer: "", message: "more than 1000000 units of work (maxWork)", budgetExceeded: true } });
    expect(ms).toBeLessThan(50);
    expect(() => createAjvValidator({ maxWork: 10 })).toThrow(/maxWork/);
  });

  it("uses RegExp with regExp: native, and an ajv instance of the caller's", () => {
    const native = createAjvValidator({ regExp: "native" }).compile({ type: "string", pattern: "(?=x)x" });
    expect(native.validate("x")).toEqual({ valid: true, value: "x" });
    const own = createAjvValidator({ ajv: new Ajv2020({ strict: false }) }).compile({ type: "integer" });
    expect(own.validate(1.5)).toEqual({ valid: false, issue: { pointer: "", message: "must be integer" } });
    expect(() => createAjvValidator({ maxPatternLength: 0 })).toThrow(RangeError);
  });

  it("checks a server's structured results on the client", async () => {
    const { client } = await connectPair({
      client: { toolOutput: { validator: createAjvValidator() } },
      server: {
        handlers: {
          "tools/list": () => ({ tools: [{ name: "t", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "integer" } }, unevaluatedProperties: false } }] }),
          "tools/call": () => ({ content: [], structuredContent: { n: 1, x: 2 } }),
        },
      },
    });
    await client.listTools({});
    await expect(client.callTool({ name: "t", arguments: {} })).rejects.toThrow("tool t: structuredContent breaks its outputSchema at (root): must NOT have unevaluated properties");
  });
});
