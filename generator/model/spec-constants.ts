/**
 * The value constants the spec's own TypeScript (`schema.ts`) exports beside its types, derived
 * from the published schema so that an unseen revision gets them too, under the spec's names:
 *
 * - `LATEST_PROTOCOL_VERSION`: the revision's label when it is a date (basic/versioning:
 *   "YYYY-MM-DD"). A label that is not a date (`draft`) has no version of its own; its schema.ts
 *   names the newest published revision, which the schema does not say: the newest date label
 *   of `knownRevisions` (the policy table's) stands in. This one value lives only in schema.ts.
 * - `JSONRPC_VERSION`: the `const` of `JSONRPCRequest.jsonrpc` ("2.0").
 * - The standard JSON-RPC 2.0 error codes (`PARSE_ERROR` … `INTERNAL_ERROR`): fixed by JSON-RPC
 *   2.0 §5.1, not by MCP. Until 2025-11-25 the schema states them nowhere (schema.ts declares them
 *   in code); from 2026-07-28 `ParseError` … `InternalError` fix each `code` with a `const`, and
 *   those are checked against the table.
 * - Every other error code a definition `<Name>Error` fixes with a `const` on its `code` (or on
 *   its `error.code`, for a whole error response such as `URLElicitationRequiredError`), named
 *   `<NAME>` in upper snake case: `URL_ELICITATION_REQUIRED` (-32042), `HEADER_MISMATCH` (-32020).
 *
 * Pure.
 */
import { StubgenError } from "../errors.js";
import { isSchemaNode, type SchemaDocument, type SchemaNode } from "../load/schema-document.js";
import { join } from "../load/json-pointer.js";

export interface SpecConstant {
  /** The spec's name (`LATEST_PROTOCOL_VERSION`). */
  readonly name: string;
  readonly value: string | number;
  /** Where the value comes from: the doc comment, one sentence. */
  readonly source: string;
}

/** JSON-RPC 2.0 §5.1, "Error object": the codes every revision's schema.ts declares. */
const JSONRPC_CODES: ReadonlyArray<{ readonly name: string; readonly code: number; readonly definition: string }> = [
  { name: "PARSE_ERROR", code: -32700, definition: "ParseError" },
  { name: "INVALID_REQUEST", code: -32600, definition: "InvalidRequestError" },
  { name: "METHOD_NOT_FOUND", code: -32601, definition: "MethodNotFoundError" },
  { name: "INVALID_PARAMS", code: -32602, definition: "InvalidParamsError" },
  { name: "INTERNAL_ERROR", code: -32603, definition: "InternalError" },
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `URLElicitationRequired` → `URL_ELICITATION_REQUIRED`: acronyms stay one word. */
export function upperSnake(name: string): string {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [name]).map((w) => w.toUpperCase()).join("_");
}

/** The `const` a definition fixes its error code with: on `code`, or on `error.code` (through `allOf`). */
function fixedCode(node: SchemaNode): number | undefined {
  const constOf = (value: unknown): number | undefined => {
    if (!isSchemaNode(value)) return undefined;
    const code = isSchemaNode(value["properties"]) ? value["properties"]["code"] : undefined;
    if (isSchemaNode(code) && typeof code["const"] === "number") return code["const"];
    const parts = Array.isArray(value["allOf"]) ? value["allOf"] : [];
    return parts.map(constOf).find((c) => c !== undefined);
  };
  const error = isSchemaNode(node["properties"]) ? node["properties"]["error"] : undefined;
  return constOf(node) ?? constOf(error);
}

/** The value of the error code constant `name` (UNSUPPORTED_PROTOCOL_VERSION…); null where the schema fixes none. */
export function errorCode(constants: readonly SpecConstant[], name: string): number | null {
  const value = constants.find((c) => c.name === name)?.value;
  return typeof value === "number" ? value : null;
}

/** The constants of one revision's schema.ts, in its order (version, JSON-RPC codes, MCP codes). */
export function specConstants(doc: SchemaDocument, revision: string, knownRevisions: readonly string[]): SpecConstant[] {
  const latest = DATE.test(revision) ? revision : knownRevisions.filter((r) => DATE.test(r)).sort().at(-1);
  const out: SpecConstant[] = [];
  if (latest !== undefined) {
    out.push({ name: "LATEST_PROTOCOL_VERSION", value: latest, source: DATE.test(revision) ? "This revision's protocol version." : "The newest published revision: a draft has no protocol version of its own." });
  }
  const request = doc.defs.get("JSONRPCRequest");
  const jsonrpc = isSchemaNode(request) && isSchemaNode(request["properties"]) ? request["properties"]["jsonrpc"] : undefined;
  if (!isSchemaNode(jsonrpc) || typeof jsonrpc["const"] !== "string") return out;
  out.push({ name: "JSONRPC_VERSION", value: jsonrpc["const"], source: "The `const` of `JSONRPCRequest.jsonrpc`." });
  for (const { name, code, definition } of JSONRPC_CODES) {
    const node = doc.defs.get(definition);
    const stated = isSchemaNode(node) ? fixedCode(node) : undefined;
    if (stated !== undefined && stated !== code) {
      throw new StubgenError(`expected ${definition} to fix code ${code} (JSON-RPC 2.0 §5.1), found ${stated}`, { file: doc.file, pointer: join("", doc.defsKey, definition) });
    }
    out.push({ name, value: code, source: stated === undefined ? "JSON-RPC 2.0 §5.1 (this schema states it nowhere)." : `The \`const\` of \`${definition}.code\` (JSON-RPC 2.0 §5.1).` });
  }
  // The core's definitions only: an extension's (generate --extension) are not its schema.ts's.
  const skip = new Set([...JSONRPC_CODES.map((c) => c.definition), ...(doc.extensions ?? []).flatMap((ext) => ext.definitions)]);
  for (const [definition, node] of doc.defs) {
    const base = /^(\w+)Error$/.exec(definition)?.[1];
    if (base === undefined || skip.has(definition) || !isSchemaNode(node)) continue;
    const code = fixedCode(node);
    if (code !== undefined) out.push({ name: upperSnake(base), value: code, source: `The \`const\` of \`${definition}\`'s error code.` });
  }
  return out;
}
