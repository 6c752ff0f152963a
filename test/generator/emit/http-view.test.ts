/**
 * The generator's model of a revision's HTTP binding (generator/model/http-binding.ts): read from the
 * published schemas (2026-07-28 has it, 2025-11-25 has none) and from small inline schemas
 * (the rows that apply are those the schema supports).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSchemaDocument } from "../../../generator/load/schema-document.js";
import { EXTENSION_POLICIES } from "../../../generator/model/extensions.js";
import { httpBinding } from "../../../generator/model/http-binding.js";
import { buildModel, type ModelExtension } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { docFrom, request } from "../support.js";

function published(revision: string) {
  const file = join(TEST_CACHE_DIR, revision, "schema.json");
  const doc = readSchemaDocument(readFileSync(file, "utf8"), file);
  const policy = policyFor(revision);
  return httpBinding(doc, buildModel(doc, { revision, policy }), policy);
}

describe("httpBinding", () => {
  it("2026-07-28: required _meta keys, Mcp-Name sources, tool headers, error codes and the serverInfo key, from its schema", () => {
    expect(published("2026-07-28")).toEqual({
      requiredMeta: ["io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/protocolVersion"],
      nameSources: [
        { method: "tools/call", param: "name" },
        { method: "resources/read", param: "uri" },
        { method: "prompts/get", param: "name" },
      ],
      toolHeaders: { list: "tools/list", call: "tools/call", arguments: "arguments" },
      errors: { headerMismatch: -32020, unsupportedProtocolVersion: -32022, missingRequiredClientCapability: -32021 },
      serverInfoMetaKey: "io.modelcontextprotocol/serverInfo",
    });
  });

  it.each(["2024-11-05", "2025-11-25"])("%s: none (no per-request _meta, no transport errors in the schema)", (revision) => {
    expect(published(revision)).toBeNull();
  });

  const STATELESS = policyFor("2026-07-28");
  const errorDef = (code: number) => ({
    type: "object",
    properties: { jsonrpc: { const: "2.0" }, error: { allOf: [{ $ref: "#/$defs/Error" }, { type: "object", properties: { code: { type: "integer", const: code } } }] } },
  });
  const base = {
    Error: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" } } },
    RequestMetaObject: {
      type: "object",
      properties: {
        "io.modelcontextprotocol/protocolVersion": { type: "string" },
        "io.modelcontextprotocol/clientCapabilities": { type: "object" },
        "io.modelcontextprotocol/clientInfo": { type: "object" },
      },
      required: ["io.modelcontextprotocol/protocolVersion"],
    },
    CallToolRequestParams: { type: "object", properties: { name: { type: "string" } } },
    CallToolRequest: request("tools/call", { $ref: "#/$defs/CallToolRequestParams" }),
    CallToolResult: { type: "object" },
    ReadResourceResult: { type: "object" },
    ReadResourceRequest: request("resources/read", { type: "object", properties: { name: { type: "string" } } }),
    GetTaskRequest: request("tasks/get", { type: "object", properties: { taskId: { type: "string" } } }),
    GetTaskResult: { type: "object" },
    ClientRequest: { anyOf: [{ $ref: "#/$defs/CallToolRequest" }, { $ref: "#/$defs/ReadResourceRequest" }, { $ref: "#/$defs/GetTaskRequest" }] },
  };
  // The tasks/get row comes from the Tasks extension's table (generate --extension tasks).
  const tasks: ModelExtension = { id: "tasks", file: "tasks.json", sha256: "0", defsKey: "$defs", definitions: [], methods: ["tasks/get"], policy: EXTENSION_POLICIES["tasks"]! };
  const view = (defs: Record<string, unknown>, extensions: ModelExtension[] = [tasks]) => {
    const doc = docFrom(defs);
    return httpBinding(doc, buildModel(doc, { revision: "test", policy: STATELESS, extensions }), STATELESS);
  };

  it("the extension's Mcp-Name rows apply only with the extension", () => {
    const defs = { ...base, HeaderMismatchError: errorDef(-32020), UnsupportedProtocolVersionError: errorDef(-32022) };
    expect(view(defs, [])?.nameSources).toEqual([{ method: "tools/call", param: "name" }]);
  });

  it("a schema with the two transport errors: only the rows it supports (no tools/list, no uri on resources/read, tasks/get with a taskId, no result _meta)", () => {
    expect(view({ ...base, HeaderMismatchError: errorDef(-32020), UnsupportedProtocolVersionError: errorDef(-32022) })).toEqual({
      requiredMeta: ["io.modelcontextprotocol/protocolVersion"],
      nameSources: [
        { method: "tools/call", param: "name" },
        { method: "tasks/get", param: "taskId" },
      ],
      toolHeaders: null,
      errors: { headerMismatch: -32020, unsupportedProtocolVersion: -32022, missingRequiredClientCapability: null },
      serverInfoMetaKey: null,
    });
  });

  it("none without HeaderMismatchError or UnsupportedProtocolVersionError, or without the per-request _meta policy", () => {
    expect(view({ ...base, UnsupportedProtocolVersionError: errorDef(-32022) })).toBeNull();
    expect(view({ ...base, HeaderMismatchError: errorDef(-32020) })).toBeNull();
    const doc = docFrom({ ...base, HeaderMismatchError: errorDef(-32020), UnsupportedProtocolVersionError: errorDef(-32022) });
    const legacy = policyFor("2025-11-25");
    expect(httpBinding(doc, buildModel(doc, { revision: "test", policy: legacy }), legacy)).toBeNull();
  });
});
