/**
 * The pure parts of templates/runtime/features/mrtr.ts, imported where they are: base64url, the
 * canonical JSON the binding digests, the answer validator and the capability rules.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { missingCapabilities, type InputRule } from "../../../../templates/runtime/features/mrtr-rules.js";
import { canonicalJson, fromBase64Url, toBase64Url } from "../../../../templates/runtime/features/mrtr-state.js";
import { McpError } from "../../../../templates/runtime/core/protocol.js";

describe("base64url", () => {
  it("round-trips any bytes, without padding, in the URL-safe alphabet", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = toBase64Url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(fromBase64Url(text)).toEqual(bytes);
      }),
    );
  });

  it("refuses other characters, impossible lengths and non-canonical last characters", () => {
    expect(fromBase64Url("ab+c")).toBeNull();
    expect(fromBase64Url("abc=")).toBeNull();
    expect(fromBase64Url("abcde")).toBeNull();
    expect(fromBase64Url("AA")).toEqual(new Uint8Array([0]));
    expect(fromBase64Url("AB")).toBeNull(); // the same byte with stray low bits
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every level, keeps array order, drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
  });

  it("gives the same text whatever the key order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("refuses nesting deeper than 64 with -32602", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(McpError);
  });
});


describe("missingCapabilities", () => {
  const elicitation: InputRule = {
    capability: "elicitation",
    result: "ElicitResult",
    subCapabilities: [
      { param: "mode", values: ["url"], sub: "url", impliedByEmpty: false },
      { param: "mode", values: [null, "form"], sub: "form", impliedByEmpty: true },
    ],
  };

  it("lists what is missing, at the sub-capability where one applies", () => {
    expect(missingCapabilities(elicitation, { message: "m" }, {})).toEqual({ elicitation: {} });
    expect(missingCapabilities(elicitation, { mode: "url" }, {})).toEqual({ elicitation: { url: {} } });
    expect(missingCapabilities(elicitation, { mode: "url" }, { elicitation: { form: {} } })).toEqual({ elicitation: { url: {} } });
    expect(missingCapabilities(elicitation, { mode: "form" }, { elicitation: { url: {} } })).toEqual({ elicitation: { form: {} } });
    expect(missingCapabilities(elicitation, {}, { elicitation: {} })).toBeNull();
    expect(missingCapabilities(elicitation, { mode: 5 }, { elicitation: { url: {} } })).toBeNull(); // no rule applies to a non-string mode
  });

  it("needs nothing for an input without a capability; a capability that is not an object counts as absent", () => {
    expect(missingCapabilities({ capability: null, subCapabilities: [], result: "R" }, {}, {})).toBeNull();
    expect(missingCapabilities({ capability: "roots", subCapabilities: [], result: "R" }, {}, { roots: true })).toEqual({ roots: {} });
  });
});
