import { describe, expect, it } from "vitest";
import { constType, propertyName } from "../../../generator/emit/const-type.js";
import { typecheckInMemory } from "../support.js";

describe("constType", () => {
  it("writes literals, readonly tuples and readonly object types", () => {
    expect(constType("a\"b")).toBe('"a\\"b"');
    expect(constType(60000)).toBe("60000");
    expect(constType(-1.5)).toBe("-1.5");
    expect(constType(true)).toBe("true");
    expect(constType(null)).toBe("null");
    expect(constType([])).toBe("readonly []");
    expect(constType(["client", "server"])).toBe('readonly ["client", "server"]');
    expect(constType({})).toBe("{}");
    expect(constType({ a: 1, "io.x/y": [null], b: { c: false } })).toBe('{ readonly a: 1; readonly "io.x/y": readonly [null]; readonly b: { readonly c: false } }');
  });

  it("quotes only keys that are not identifiers", () => {
    expect(["method", "$x", "_y", "a-b", "1a", "io.modelcontextprotocol/clientInfo"].map(propertyName)).toEqual([
      "method",
      "$x",
      "_y",
      '"a-b"',
      '"1a"',
      '"io.modelcontextprotocol/clientInfo"',
    ]);
  });

  it("rejects numbers JSON cannot hold", () => {
    expect(() => constType(Number.NaN)).toThrow(/not a JSON number/);
    expect(() => constType(Number.POSITIVE_INFINITY)).toThrow(/not a JSON number/);
  });

  it("is the type TypeScript infers for the same value `as const`", () => {
    const values = [{ a: 1, "b-c": ["x", null, -2], d: { e: true, f: [] } }, [[1], { g: "h" }], "s", 0, -3];
    const lines = ["type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;"];
    values.forEach((value, i) => {
      const literal = JSON.stringify(value);
      lines.push(`const v${i} = ${literal} as const;`, `export const t${i}: Equal<typeof v${i}, ${constType(value)}> = true;`);
    });
    expect(typecheckInMemory({ "/check.ts": lines.join("\n") })).toEqual([]);
  });
});
