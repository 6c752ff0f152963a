/**
 * What the generated Streamable HTTP server (templates/runtime/http/stateless/handler.ts) needs to know of
 * a revision, as data for the server facade (`SERVER.http` in server.ts, rendered by
 * emit/server-view.ts). Only revisions with the stateless HTTP binding get it (2026-07-28 and
 * later: every request carries its protocol version and client capabilities in `_meta`, and the
 * schema defines the transport's errors); for the others the binding is null and the server has
 * no `httpBinding`.
 *
 * Read from the schema: the `_meta` keys a request MUST carry (`required` of the request `_meta`
 * definition), the error codes (the `const` code of HeaderMismatchError,
 * UnsupportedProtocolVersionError, MissingRequiredClientCapabilityError), the result `_meta` key
 * that identifies the server. From the spec's transport page (basic/transports/streamable-http,
 * "Standard Request Headers"), filtered by the schema: which params field the `Mcp-Name` header
 * mirrors, and the tool methods `x-mcp-header` annotations belong to.
 */
import { definition, deref, isSchemaNode, refName, type Located, type SchemaDocument, type SchemaNode } from "../load/schema-document.js";
import type { SchemaModel } from "./model.js";
import type { RevisionPolicy } from "./policy.js";

/**
 * The `Mcp-Name` header's source (Streamable HTTP, Standard Request Headers: "`params.name` or
 * `params.uri`", required for `tools/call`, `resources/read`, `prompts/get`). An extension's
 * requests add theirs from its table (`httpNameParams`; Tasks, SEP-2663: `params.taskId` of
 * `tasks/get`, `tasks/update`, `tasks/cancel`). A row applies when the schema has the client
 * request and its params declare the field.
 */
export const MCP_NAME_SOURCES: ReadonlyArray<{ readonly method: string; readonly param: string }> = [
  { method: "tools/call", param: "name" },
  { method: "resources/read", param: "uri" },
  { method: "prompts/get", param: "name" },
];

/**
 * Custom headers from tool parameters (Streamable HTTP, "Custom Headers from Tool Parameters"):
 * `x-mcp-header` annotations live in the `inputSchema` of the tools `list` returns, and apply to
 * the `arguments` of `call` (by `Mcp-Name`, the tool's name).
 */
const TOOL_METHODS = { list: "tools/list", call: "tools/call", arguments: "arguments" } as const;

/** The schema's transport errors whose codes the HTTP server sends (their `error.code` const). */
const ERRORS = {
  headerMismatch: "HeaderMismatchError",
  unsupportedProtocolVersion: "UnsupportedProtocolVersionError",
  missingRequiredClientCapability: "MissingRequiredClientCapabilityError",
} as const;

/** The result `_meta` definition, and the definition its server-identity key refers to. */
const RESULT_META = { type: "ResultMetaObject", identity: "Implementation" } as const;

export interface HttpBinding {
  /** `_meta` keys every request MUST carry. */
  readonly requiredMeta: readonly string[];
  /** Method → the params field `Mcp-Name` mirrors. */
  readonly nameSources: ReadonlyArray<{ readonly method: string; readonly param: string }>;
  /** Where `x-mcp-header` annotations are read and checked; null: the schema has no tools. */
  readonly toolHeaders: { readonly list: string; readonly call: string; readonly arguments: string } | null;
  readonly errors: { readonly headerMismatch: number; readonly unsupportedProtocolVersion: number; readonly missingRequiredClientCapability: number | null };
  /** The result `_meta` key under which a server identifies itself; null: none. */
  readonly serverInfoMetaKey: string | null;
}

/** The schema node of a definition after `$ref`s, or null. */
function resolved(doc: SchemaDocument, name: string): Located | null {
  const at = definition(doc, name);
  return at === null ? null : deref(doc, at);
}

function propertiesOf(node: SchemaNode): SchemaNode {
  const properties = node["properties"];
  return isSchemaNode(properties) ? properties : {};
}

/** The `const` of `error.code` in an error response definition (directly or through `allOf`), or null. */
function errorCode(doc: SchemaDocument, name: string): number | null {
  const at = resolved(doc, name);
  if (at === null) return null;
  const error = propertiesOf(at.node)["error"];
  if (!isSchemaNode(error)) return null;
  const parts = [error, ...(Array.isArray(error["allOf"]) ? error["allOf"] : [])];
  for (const part of parts) {
    if (!isSchemaNode(part)) continue;
    const code = propertiesOf(part)["code"];
    if (isSchemaNode(code) && typeof code["const"] === "number" && Number.isInteger(code["const"])) return code["const"];
  }
  return null;
}

/** The property names of a client request's params (following `$ref`s), or an empty set. */
function paramsFields(doc: SchemaDocument, typeName: string | null): ReadonlySet<string> {
  if (typeName === null) return new Set();
  const at = resolved(doc, typeName);
  if (at === null) return new Set();
  const params = propertiesOf(at.node)["params"];
  if (!isSchemaNode(params)) return new Set();
  return new Set(Object.keys(propertiesOf(deref(doc, { node: params, pointer: `${at.pointer}/properties/params`, name: null }).node)));
}

/** The HTTP binding facts of a revision, or null when it has no stateless HTTP binding. Pure. */
export function httpBinding(doc: SchemaDocument, model: SchemaModel, policy: RevisionPolicy): HttpBinding | null {
  const headerMismatch = errorCode(doc, ERRORS.headerMismatch);
  const unsupportedProtocolVersion = errorCode(doc, ERRORS.unsupportedProtocolVersion);
  if (policy.requestMeta === null || headerMismatch === null || unsupportedProtocolVersion === null) return null;
  const metaType = resolved(doc, policy.requestMeta.type);
  const required = metaType?.node["required"];
  const requiredMeta = Array.isArray(required) ? required.filter((k): k is string => typeof k === "string").sort() : [];
  const clientRequests = new Map(model.methods.filter((m) => m.kind === "request" && m.from.includes("client")).map((m) => [m.method, m]));
  const extensionSources = (model.extensions ?? []).flatMap((ext) => Object.entries(ext.policy.httpNameParams).map(([method, param]) => ({ method, param })));
  const nameSources = [...MCP_NAME_SOURCES, ...extensionSources].filter(({ method, param }) => paramsFields(doc, clientRequests.get(method)?.typeName ?? null).has(param));
  const call = clientRequests.get(TOOL_METHODS.call);
  const toolHeaders =
    clientRequests.has(TOOL_METHODS.list) && call !== undefined && paramsFields(doc, call.typeName).has(TOOL_METHODS.arguments) ? TOOL_METHODS : null;
  const resultMeta = resolved(doc, RESULT_META.type);
  const serverInfoMetaKey =
    resultMeta === null
      ? null
      : (Object.entries(propertiesOf(resultMeta.node)).find(([, node]) => isSchemaNode(node) && refName(doc, node["$ref"]) === RESULT_META.identity)?.[0] ?? null);
  return {
    requiredMeta,
    nameSources,
    toolHeaders,
    errors: { headerMismatch, unsupportedProtocolVersion, missingRequiredClientCapability: errorCode(doc, ERRORS.missingRequiredClientCapability) },
    serverInfoMetaKey,
  };
}
