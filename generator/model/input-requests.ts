/**
 * Multi round-trip requests (MRTR, SEP-2322; 2026-07-28 `basic/patterns/mrtr`): what a revision
 * lets a server ask the client for in an `InputRequiredResult`, read from the schema.
 *
 * A revision takes part when its schema defines the `InputRequest` union and `InputRequiredResult`.
 * Then:
 * - each member of `InputRequest` (ElicitRequest, CreateMessageRequest, ListRootsRequest) is an
 *   input the server may ask for: its method, params type and result (found as every request's
 *   result is found, deriveResult: `ElicitRequest` → `ElicitResult`);
 * - the client requests whose params declare `inputResponses` (a `$ref` to `InputResponses`) are
 *   the ones a handler may answer with `InputRequiredResult` (prompts/get, resources/read,
 *   tools/call: "Supported Requests");
 * - the client capability each input needs is the `ClientCapabilities` property named like the
 *   method's namespace (`elicitation/create` → `elicitation`), with the sub-capabilities the
 *   client pages add (SUB_CAPABILITIES);
 * - `-32021` comes from the `code` const of `MissingRequiredClientCapabilityError`;
 * - each result becomes a small validation schema (a JSON Schema subset) that the runtime
 *   checks the client's answers against (mrtr-server.ts).
 * A schema that has the union but disagrees with the pattern's field names is an error.
 */
import { StubgenError } from "../errors.js";
import { join } from "../load/json-pointer.js";
import { definition, deref, isSchemaNode, refName, type Located, type SchemaDocument } from "../load/schema-document.js";
import type { TypeExpr } from "./vocabulary.js";
import { deriveResult, type ResultRule } from "./result-mapping.js";

/** A client capability a particular use of an input request needs beyond the plain capability. */
export interface SubCapabilityRule {
  /** The param of the input request that decides. */
  readonly param: string;
  /** The param's values that need it (null: the param left out), or "present": any value. */
  readonly values: readonly (string | null)[] | "present";
  /** The sub-capability: a property of the capability object (`elicitation.url`). */
  readonly sub: string;
  /** A capability object without any of its sub-capabilities grants this one too. */
  readonly impliedByEmpty: boolean;
}

/**
 * The client pages' rules that the schema cannot say (2026-07-28):
 * - client/elicitation: `url` mode needs `elicitation.url`; form mode (`mode` "form" or left
 *   out, "Clients MUST treat requests without a mode field as form mode") needs
 *   `elicitation.form`, and "an empty capabilities object is equivalent to declaring support
 *   for form mode only";
 * - client/sampling: "Servers MUST NOT send tool-enabled sampling requests to Clients that have
 *   not declared support for tool use via the sampling.tools capability"; `includeContext`
 *   "thisServer"/"allServers" SHOULD NOT be used unless the client declares `sampling.context`.
 * A rule applies only where the schema's ClientCapabilities declares the sub-capability.
 */
export const SUB_CAPABILITIES: Readonly<Record<string, readonly SubCapabilityRule[]>> = {
  "elicitation/create": [
    { param: "mode", values: ["url"], sub: "url", impliedByEmpty: false },
    { param: "mode", values: [null, "form"], sub: "form", impliedByEmpty: true },
  ],
  "sampling/createMessage": [
    { param: "tools", values: "present", sub: "tools", impliedByEmpty: false },
    { param: "includeContext", values: ["thisServer", "allServers"], sub: "context", impliedByEmpty: false },
  ],
};

export interface InputRequestRecord {
  readonly method: string;
  /** The member's definition (`ElicitRequest`). */
  readonly typeName: string;
  readonly params: TypeExpr | null;
  readonly paramsRequired: boolean;
  /** The result definition (`ElicitResult`) and how it was found. */
  readonly result: string;
  readonly resultRule: ResultRule;
  /** The ClientCapabilities property the client must declare, or null when none is named like the method. */
  readonly capability: string | null;
  readonly subCapabilities: readonly SubCapabilityRule[];
}

export interface InputRequestsModel {
  /** The inputs a server may ask for, sorted by method. */
  readonly inputs: readonly InputRequestRecord[];
  /** Client requests whose handlers may answer InputRequiredResult, sorted. */
  readonly methods: readonly string[];
  /** The code of MissingRequiredClientCapabilityError, or null when the schema has none. */
  readonly missingCapabilityCode: number | null;
}

const UNION = "InputRequest";
const RESULT = "InputRequiredResult";

/**
 * The result that asks for input and the `resultType` that says so (basic/patterns/mrtr: "the
 * server responds with an InputRequiredResult, `resultType: "input_required"`"). The schema types
 * resultType as any string, so this is what tells it from a request's complete result.
 */
export const INPUT_REQUIRED_RESULT = { definition: RESULT, resultType: "input_required" } as const;
const RESPONSES = "InputResponses";
/** The map of a retry's answers: the server checks each answer to what it asked (mrtr-server.ts), not the map's every value. */
export const INPUT_RESPONSES = RESPONSES;
/** The fields the pattern puts on the wire (mrtr-server.ts and mrtr-client.ts read and write exactly these). */
const RESULT_FIELDS = ["resultType", "inputRequests", "requestState"] as const;
const PARAMS_FIELDS = ["inputResponses", "requestState"] as const;

/** The revision's MRTR facts, or null when its schema has no `InputRequest` union. Pure. */
export function inputRequestsModel(
  doc: SchemaDocument,
  clientRequests: ReadonlyArray<{ readonly method: string; readonly params: TypeExpr | null }>,
  resultOverrides: Readonly<Record<string, string>> = {},
): InputRequestsModel | null {
  const union = definition(doc, UNION);
  if (union === null) return null;
  const result = definition(doc, RESULT);
  if (result === null) throw new StubgenError(`expected a definition ${RESULT} beside ${UNION}`, { file: doc.file, pointer: join("", doc.defsKey) });
  requireProperties(doc, result, RESULT_FIELDS);
  const capabilities = definition(doc, "ClientCapabilities");
  const capabilityProps = capabilities && properties(doc, capabilities);

  const inputs = members(doc, union).map((member): InputRequestRecord => {
    const props = member.node["properties"];
    const method = isSchemaNode(props) && isSchemaNode(props["method"]) ? props["method"]["const"] : undefined;
    if (typeof method !== "string") {
      throw new StubgenError(`expected each ${UNION} member to have "properties.method.const"`, { file: doc.file, pointer: member.pointer });
    }
    const typeName = member.name;
    if (typeName === null) throw new StubgenError(`expected each ${UNION} member to be a "$ref" to a definition`, { file: doc.file, pointer: member.pointer });
    const required = member.node["required"];
    const paramsRequired = Array.isArray(required) && required.includes("params");
    const paramsNode = isSchemaNode(props) ? props["params"] : undefined;
    const named = isSchemaNode(paramsNode) ? refName(doc, paramsNode["$ref"]) : null;
    const params: TypeExpr | null = !isSchemaNode(paramsNode)
      ? null
      : named !== null
        ? { kind: "named", name: named }
        : { kind: "paramsOf", owner: { kind: "named", name: typeName }, optional: !paramsRequired };
    const found = deriveResult(doc, { method, typeName }, resultOverrides);
    // An input request is answered by one result (InputResponse lists them one by one).
    const [result, ...others] = found.types;
    if (result === undefined || others.length > 0) {
      throw new StubgenError(`expected ${method} (${UNION}) to have one result, found ${found.types.join(" | ") || "none"}`, { file: doc.file, pointer: member.pointer });
    }
    const namespace = method.split("/")[0] ?? method;
    const capability = capabilityProps?.has(namespace) ? namespace : null;
    const subProps = capability !== null && capabilities !== null ? subCapabilityNames(doc, capabilities, capability) : new Set<string>();
    return {
      method,
      typeName,
      params,
      paramsRequired,
      result,
      resultRule: found.rule,
      capability,
      subCapabilities: (SUB_CAPABILITIES[method] ?? []).filter((rule) => subProps.has(rule.sub)),
    };
  });
  inputs.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));

  const methods = clientRequests
    .filter((request) => request.params !== null && takesInputResponses(doc, request.params))
    .map((request) => request.method)
    .sort();
  for (const method of methods) {
    const request = clientRequests.find((r) => r.method === method)!;
    const at = paramsLocation(doc, request.params!);
    if (at !== null) requireProperties(doc, at, PARAMS_FIELDS);
  }

  return {
    inputs,
    methods,
    missingCapabilityCode: errorCode(doc, "MissingRequiredClientCapabilityError"),
  };
}

/** The members of the union: `$ref`s followed (anyOf/oneOf of them, or a single `$ref`). */
function members(doc: SchemaDocument, union: Located): Located[] {
  const list = union.node["anyOf"] ?? union.node["oneOf"];
  const keyword = union.node["anyOf"] !== undefined ? "anyOf" : "oneOf";
  if (Array.isArray(list)) {
    return list.map((node, i) => {
      const pointer = join(union.pointer, keyword, i);
      if (!isSchemaNode(node)) throw new StubgenError(`expected a schema object in ${UNION}`, { file: doc.file, pointer });
      return deref(doc, { node, pointer, name: null });
    });
  }
  if (typeof union.node["$ref"] === "string") return [deref(doc, union)];
  throw new StubgenError(`expected ${UNION} to be an anyOf of request types or a single "$ref"`, { file: doc.file, pointer: union.pointer });
}

/** Property names of an object schema, through `$ref` and `allOf`. */
function properties(doc: SchemaDocument, at: Located): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (loc: Located): void => {
    const target = deref(doc, loc);
    if (seen.has(target.pointer)) return;
    seen.add(target.pointer);
    const props = target.node["properties"];
    if (isSchemaNode(props)) for (const name of Object.keys(props)) names.add(name);
    const all = target.node["allOf"];
    if (Array.isArray(all)) {
      all.forEach((node, i) => {
        if (isSchemaNode(node)) visit({ node, pointer: join(target.pointer, "allOf", i), name: null });
      });
    }
  };
  visit(at);
  return names;
}

/** The schema of a property (through `$ref` and `allOf`), or null. */
function property(doc: SchemaDocument, at: Located, name: string): Located | null {
  const target = deref(doc, at);
  const props = target.node["properties"];
  if (isSchemaNode(props) && isSchemaNode(props[name])) return { node: props[name], pointer: join(target.pointer, "properties", name), name: null };
  const all = target.node["allOf"];
  if (!Array.isArray(all)) return null;
  for (const [i, node] of all.entries()) {
    if (!isSchemaNode(node)) continue;
    const found = property(doc, { node, pointer: join(target.pointer, "allOf", i), name: null }, name);
    if (found !== null) return found;
  }
  return null;
}

function requireProperties(doc: SchemaDocument, at: Located, names: readonly string[]): void {
  const have = properties(doc, at);
  const missing = names.filter((name) => !have.has(name));
  if (missing.length > 0) {
    throw new StubgenError(`expected ${at.name ?? "the params"} to declare ${missing.map((n) => JSON.stringify(n)).join(", ")} (multi round-trip requests)`, {
      file: doc.file,
      pointer: at.pointer,
    });
  }
}

/** Sub-capability names of a capability: the properties of ClientCapabilities[capability]. */
function subCapabilityNames(doc: SchemaDocument, capabilities: Located, capability: string): Set<string> {
  const at = property(doc, capabilities, capability);
  return at === null ? new Set() : properties(doc, at);
}

/** Where a params TypeExpr points in the document, or null for shapes it cannot name. */
function paramsLocation(doc: SchemaDocument, params: TypeExpr): Located | null {
  switch (params.kind) {
    case "named":
      return definition(doc, params.name);
    case "paramsOf": {
      const owner = paramsLocation(doc, params.owner);
      return owner === null ? null : property(doc, owner, "params");
    }
    case "memberOf":
      return null;
  }
}

/** Whether the params declare `inputResponses` as a reference to InputResponses. */
function takesInputResponses(doc: SchemaDocument, params: TypeExpr): boolean {
  const at = paramsLocation(doc, params);
  const field = at && property(doc, at, PARAMS_FIELDS[0]);
  return field !== null && refName(doc, field.node["$ref"]) === RESPONSES;
}

/** The integer `code` const somewhere under an error definition (`error.allOf[…].properties.code.const`). */
function errorCode(doc: SchemaDocument, name: string): number | null {
  const def = definition(doc, name);
  if (def === null) return null;
  const search = (node: unknown, depth: number): number | null => {
    if (depth > 8 || node === null || typeof node !== "object") return null;
    if (isSchemaNode(node)) {
      const props = node["properties"];
      const code = isSchemaNode(props) && isSchemaNode(props["code"]) ? props["code"]["const"] : undefined;
      if (typeof code === "number" && Number.isInteger(code)) return code;
    }
    for (const value of Object.values(node)) {
      const found = search(value, depth + 1);
      if (found !== null) return found;
    }
    return null;
  };
  return search(def.node, 0);
}
