/**
 * The client's reading of a tool's `x-mcp-header` annotations (templates/runtime/http/http-client.ts
 * toolHeaders, HTTP "Custom Headers from Tool Parameters") and its encoding of header values:
 * each rule that makes a tool's annotations invalid, with the exact reason, and what is found
 * when they are valid.
 */
import { describe, expect, it } from "vitest";
import { decodeHeaderValue, encodeHeaderValue, toolHeaders } from "../../../../templates/runtime/http/headers.js";

const param = (header: unknown, type: unknown = "string") => ({ type, "x-mcp-header": header });

describe("toolHeaders", () => {
  it("finds annotations on parameters reachable through properties keys, in document order", () => {
    const schema = {
      type: "object",
      properties: {
        region: param("Region"),
        opts: { type: "object", properties: { dry: param("Dry-Run", "boolean"), n: param("N", "integer") } },
        plain: { type: "string" },
      },
    };
    expect(toolHeaders(schema)).toEqual([
      { path: ["region"], header: "Region" },
      { path: ["opts", "dry"], header: "Dry-Run" },
      { path: ["opts", "n"], header: "N" },
    ]);
    expect(toolHeaders(undefined)).toEqual([]);
    expect(toolHeaders({ type: "object" })).toEqual([]);
  });

  it("gives the reason a tool's annotations are invalid", () => {
    const cases: ReadonlyArray<[schema: unknown, reason: string]> = [
      [param("Root"), "an x-mcp-header annotation is not reachable through properties alone"],
      [{ properties: { a: { anyOf: [param("A")] } } }, "an x-mcp-header annotation is not reachable through properties alone"],
      [{ properties: { a: { items: param("A") } } }, "an x-mcp-header annotation is not reachable through properties alone"],
      [{ properties: { a: param("has space") } }, 'x-mcp-header "has space" is not an HTTP token'],
      [{ properties: { a: param("") } }, 'x-mcp-header "" is not an HTTP token'],
      [{ properties: { a: param(7) } }, "x-mcp-header 7 is not an HTTP token"],
      [{ properties: { a: param("A", "number") } }, 'x-mcp-header A is on a parameter of type "number"'],
      [{ properties: { a: param("A", "object") } }, 'x-mcp-header A is on a parameter of type "object"'],
      [{ properties: { a: param("Same"), b: param("same") } }, "x-mcp-header same is not unique"],
    ];
    for (const [schema, reason] of cases) expect(toolHeaders(schema), reason).toBe(reason);
  });

  it("refuses a schema nested deeper than 64, and walks one that is not", () => {
    let deep: unknown = { type: "string" };
    for (let i = 0; i < 70; i++) deep = { properties: { a: deep } };
    expect(toolHeaders(deep)).toBe("inputSchema is nested deeper than 64");
    let arrays: unknown = { type: "string" };
    for (let i = 0; i < 70; i++) arrays = [arrays];
    expect(toolHeaders({ properties: { a: { anyOf: arrays } } })).toBe("inputSchema is nested deeper than 64");
    let fine: unknown = param("Deep");
    for (let i = 0; i < 30; i++) fine = { properties: { a: fine } };
    expect(toolHeaders(fine)).toEqual([{ path: Array.from({ length: 30 }, () => "a"), header: "Deep" }]);
    const nested = (levels: number) => {
      let node: unknown = param("Edge");
      for (let i = 0; i < levels; i++) node = { properties: { a: node } };
      return node;
    };
    expect(toolHeaders(nested(64))).toHaveLength(1);
    expect(toolHeaders(nested(65))).toBe("inputSchema is nested deeper than 64");
  });
});

describe("encodeHeaderValue", () => {
  it("sends plain visible ASCII as it is and everything else as a Base64 sentinel the server decodes back", () => {
    expect(encodeHeaderValue("eu-west")).toBe("eu-west");
    for (const value of ["", "café", "a\nb", "=?base64?SGk=?=", "x".repeat(70_000) + "é"]) {
      const encoded = encodeHeaderValue(value);
      expect(encoded.startsWith("=?base64?") && encoded.endsWith("?=")).toBe(true);
      expect(decodeHeaderValue(encoded)).toBe(value);
    }
    // Only a value that both starts and ends like the sentinel needs it.
    expect(encodeHeaderValue("=?base64?x")).toBe("=?base64?x");
    expect(encodeHeaderValue("x?=")).toBe("x?=");
  });
});
