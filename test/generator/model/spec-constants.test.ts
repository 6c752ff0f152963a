/**
 * The spec's value constants derived from a schema (model/spec-constants.ts): names and values
 * as each revision's schema.ts has them, for a revision this version does not know too.
 */
import { describe, expect, it } from "vitest";
import { StubgenError } from "../../../generator/errors.js";
import { readSchemaDocument } from "../../../generator/load/schema-document.js";
import { errorCode, specConstants, upperSnake } from "../../../generator/model/spec-constants.js";

const JSONRPC = { type: "object", properties: { jsonrpc: { const: "2.0", type: "string" }, id: { type: "string" } } };
const doc = (defs: Record<string, unknown>) => readSchemaDocument(JSON.stringify({ $defs: { JSONRPCRequest: JSONRPC, ...defs } }), "x.json");
const asObject = (list: ReturnType<typeof specConstants>) => Object.fromEntries(list.map((c) => [c.name, c.value]));

describe("specConstants", () => {
  it("a dated revision: its label, the JSON-RPC version and the five JSON-RPC codes, even when the schema states none", () => {
    expect(asObject(specConstants(doc({}), "2027-01-01", []))).toEqual({
      LATEST_PROTOCOL_VERSION: "2027-01-01",
      JSONRPC_VERSION: "2.0",
      PARSE_ERROR: -32700,
      INVALID_REQUEST: -32600,
      METHOD_NOT_FOUND: -32601,
      INVALID_PARAMS: -32602,
      INTERNAL_ERROR: -32603,
    });
  });

  it("an MCP error code a definition fixes, on its code or on its error's code through allOf, named in upper snake case", () => {
    const list = asObject(
      specConstants(
        doc({
          URLElicitationRequiredError: { type: "object", properties: { error: { allOf: [{ type: "object" }, { properties: { code: { const: -32042 } } }] } } },
          HeaderMismatchError: { type: "object", properties: { code: { const: -32020, type: "integer" } } },
          SomeError: { type: "object", properties: { code: { type: "integer" } } },
        }),
        "2027-01-01",
        [],
      ),
    );
    expect([list["URL_ELICITATION_REQUIRED"], list["HEADER_MISMATCH"], "SOME" in list]).toEqual([-32042, -32020, false]);
  });

  it("a draft takes the newest dated revision the policy table knows; a schema without JSON-RPC envelopes gives only the version", () => {
    const list = specConstants(readSchemaDocument(JSON.stringify({ $defs: { X: { type: "object" } } }), "x.json"), "draft", ["2025-11-25", "2026-07-28", "draft"]);
    expect(asObject(list)).toEqual({ LATEST_PROTOCOL_VERSION: "2026-07-28" });
  });

  it("a standard JSON-RPC error definition with another code is an error naming it", () => {
    const e = (() => {
      try {
        specConstants(doc({ ParseError: { type: "object", properties: { code: { const: -1 } } } }), "2027-01-01", []);
      } catch (error) {
        return error;
      }
    })();
    expect(e).toBeInstanceOf(StubgenError);
    expect((e as StubgenError).message).toBe("expected ParseError to fix code -32700 (JSON-RPC 2.0 §5.1), found -1");
  });

  it("upperSnake keeps acronyms one word", () => {
    expect(["URLElicitationRequired", "MissingRequiredClientCapability", "Parse"].map(upperSnake)).toEqual(["URL_ELICITATION_REQUIRED", "MISSING_REQUIRED_CLIENT_CAPABILITY", "PARSE"]);
  });
});

describe("errorCode", () => {
  it("the number a schema's error definition fixes, by its constant's name; null where the schema fixes none or the constant is not a number", () => {
    const list = specConstants(doc({ UnsupportedProtocolVersionError: { type: "object", properties: { code: { const: -32022, type: "integer" } } } }), "2027-01-01", []);
    expect(errorCode(list, "UNSUPPORTED_PROTOCOL_VERSION")).toBe(-32022);
    expect(errorCode(specConstants(doc({}), "2027-01-01", []), "UNSUPPORTED_PROTOCOL_VERSION")).toBeNull();
    expect(errorCode(list, "LATEST_PROTOCOL_VERSION")).toBeNull();
  });
});
