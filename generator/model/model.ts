import { StubgenError } from "../errors.js";
import { join } from "../load/json-pointer.js";
import type { RevisionPolicy } from "./policy.js";
import { deriveResult, type ResultRule } from "./result-mapping.js";
import { definition, deref, isSchemaNode, refName, type ExtensionSource, type Located, type SchemaDocument, type SchemaNode } from "../load/schema-document.js";
import type { ExtensionPolicy } from "./extensions.js";
import type { MethodKind, Side, TypeExpr } from "./vocabulary.js";


export interface MethodRecord {
  readonly method: string;
  readonly kind: MethodKind;
  /** Which side sends it: client, server, or both (in that order). */
  readonly from: readonly Side[];
  /** The schema definition of the whole message, when the union names one. */
  readonly typeName: string | null;
  readonly params: TypeExpr | null;
  /** Whether the message must carry `params`. */
  readonly paramsRequired: boolean;
  /** The params hold nothing but `_meta` (ping, list_changed notifications, …). */
  readonly paramsMetaOnly: boolean;
  /**
   * Every field of the params but `_meta` is optional (or there are no params): a caller who fills
   * `_meta` (the 2026-07-28 client) may leave the params out (`listTools()`).
   */
  readonly paramsFieldsOptional: boolean;
  /** The message type's description in the schema. */
  readonly description: string | null;
  /**
   * Requests: the definitions the result may be, in order (one, or the members of a union:
   * 2026-07-28 `tools/call` → `CallToolResult`, `InputRequiredResult`); null for notifications.
   * formatResult renders it as a type.
   */
  readonly results: readonly string[] | null;
  /** How the result was found (result-mapping.ts); null for notifications. */
  readonly resultRule: ResultRule | null;
  /** May be cancelled with `notifications/cancelled` (requests only). */
  readonly cancellable: boolean;
  /** Params carry an optional `task` (TaskMetadata): cancelled with `tasks/cancel` when used. */
  readonly taskAugmentable: boolean;
  /** The extension that defines the message (generate --extension); absent for the core's. */
  readonly extension?: string;
}

export interface SchemaModel {
  readonly revision: string;
  readonly dialect: SchemaDocument["dialect"];
  readonly sha256: string;
  /** Definition names in schema order. */
  readonly definitions: readonly string[];
  /** Sorted by method, then kind. */
  readonly methods: readonly MethodRecord[];
  /** The extensions merged into the schema (generate --extension), in the order merged. */
  readonly extensions?: readonly ModelExtension[];
}

/** An extension merged into the schema, as the model and the emitters need it. */
export interface ModelExtension extends ExtensionSource {
  /** Its messages' methods, sorted. */
  readonly methods: readonly string[];
  readonly policy: ExtensionPolicy;
}

export interface ModelOptions {
  readonly revision: string;
  readonly policy: RevisionPolicy;
  readonly resultOverrides?: Readonly<Record<string, string>>;
  /** The extensions merged into the document (mergeExtension), with their tables. */
  readonly extensions?: readonly ModelExtension[];
}

/** The direction unions methods are discovered from. */
export const DIRECTION_UNIONS: ReadonlyArray<{ readonly union: string; readonly kind: MethodKind; readonly from: Side }> = [
  { union: "ClientRequest", kind: "request", from: "client" },
  { union: "ServerRequest", kind: "request", from: "server" },
  { union: "ClientNotification", kind: "notification", from: "client" },
  { union: "ServerNotification", kind: "notification", from: "server" },
];

/**
 * A schema without any of the direction unions would give an empty client and server: an error
 * unless the caller says the schema is a fragment (`--fragment`, config `"fragment": true`).
 */
export function checkDirectionUnions(doc: SchemaDocument): void {
  if (DIRECTION_UNIONS.some((u) => definition(doc, u.union) !== null)) return;
  const names = DIRECTION_UNIONS.map((u) => u.union).join(", ");
  throw new StubgenError(
    `expected at least one of the MCP direction unions ${names} under "${doc.defsKey}"; found none, so the client and ` +
      `server would have no methods (for a schema fragment, pass --fragment or set "fragment": true in the config)`,
    { file: doc.file, pointer: `/${doc.defsKey}` },
  );
}

interface UnionMember {
  readonly union: string;
  readonly kind: MethodKind;
  readonly from: Side;
  /** The member as written in the union (a `$ref` or an inline object). */
  readonly at: Located;
  /** The member with `$ref`s followed. */
  readonly target: Located;
}

/** Builds the method catalog of a schema. Pure: same document and options, same model. */
export function buildModel(doc: SchemaDocument, options: ModelOptions): SchemaModel {
  const members = DIRECTION_UNIONS.flatMap((u) => unionMembers(doc, u.union, u.kind, u.from));
  const byKey = new Map<string, { method: string; kind: MethodKind; from: Set<Side>; members: UnionMember[] }>();
  for (const member of members) {
    const method = methodOf(doc, member);
    const key = `${member.kind} ${method}`;
    const entry = byKey.get(key) ?? { method, kind: member.kind, from: new Set<Side>(), members: [] };
    entry.from.add(member.from);
    entry.members.push(member);
    byKey.set(key, entry);
  }
  const extensions = options.extensions ?? [];
  const extensionOf = new Map(extensions.flatMap((ext) => ext.methods.map((method): [string, string] => [method, ext.id])));
  const methods: MethodRecord[] = [];
  for (const entry of byKey.values()) {
    // Prefer a member that names a definition (2026-07-28 inlines ClientNotification but
    // ServerNotification refers to CancelledNotification for the same method).
    const member = entry.members.find((m) => m.target.name !== null) ?? entry.members[0]!;
    const typeName = member.target.name;
    const properties = member.target.node["properties"];
    const paramsNode = isSchemaNode(properties) ? properties["params"] : undefined;
    const paramsAt: Located | null = isSchemaNode(paramsNode)
      ? { node: paramsNode, pointer: join(member.target.pointer, "properties", "params"), name: null }
      : null;
    const required = member.target.node["required"];
    const paramsRequired = Array.isArray(required) && required.includes("params");
    const params = paramsAt && paramsExpr(doc, member, paramsAt.node, paramsRequired);
    const isRequest = entry.kind === "request";
    const result = isRequest ? deriveResult(doc, { method: entry.method, typeName }, options.resultOverrides ?? {}) : null;
    // An extension may widen a core request's result (Tasks: tools/call may answer a task handle).
    const widened = isRequest ? extensions.flatMap((ext) => (ext.policy.widenedResults[entry.method] ?? []).map((w) => w.type)) : [];
    const results = result && [...result.types, ...widened.filter((type) => !result.types.includes(type))];
    const extension = extensionOf.get(entry.method);
    methods.push({
      method: entry.method,
      kind: entry.kind,
      from: (["client", "server"] as const).filter((side) => entry.from.has(side)),
      typeName,
      params,
      paramsRequired,
      paramsMetaOnly: paramsAt === null || propertyNames(doc, paramsAt).every((name) => name === "_meta"),
      paramsFieldsOptional: paramsAt === null || requiredNames(doc, paramsAt).every((name) => name === "_meta"),
      description: typeof member.target.node["description"] === "string" ? member.target.node["description"] : null,
      results,
      resultRule: result?.rule ?? null,
      cancellable: isRequest && !options.policy.uncancellable.includes(entry.method),
      taskAugmentable: isRequest && paramsAt !== null && hasTaskProperty(doc, paramsAt, options.policy.taskMetadataType),
      ...(extension !== undefined ? { extension } : {}),
    });
  }
  const requests = new Set(methods.filter((m) => m.kind === "request").map((m) => m.method));
  for (const method of Object.keys(options.resultOverrides ?? {})) {
    if (!requests.has(method)) {
      throw new StubgenError(
        `result override for ${JSON.stringify(method)}: expected a request method of this schema (${[...requests].sort().join(", ")})`,
        { file: doc.file, pointer: `/${doc.defsKey}` },
      );
    }
  }
  methods.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  return {
    revision: options.revision,
    dialect: doc.dialect,
    sha256: doc.sha256,
    definitions: [...doc.defs.keys()],
    methods,
    ...(extensions.length > 0 ? { extensions } : {}),
  };
}

/**
 * The members of a direction union, whatever its shape: an `anyOf`/`oneOf` of `$ref`s or
 * inline objects, a single `$ref`, or an inline message object. A missing union has none.
 */
function unionMembers(doc: SchemaDocument, union: string, kind: MethodKind, from: Side): UnionMember[] {
  const def = definition(doc, union);
  if (!def) return [];
  const alternatives = def.node["anyOf"] ?? def.node["oneOf"];
  const keyword = def.node["anyOf"] !== undefined ? "anyOf" : "oneOf";
  let list: Located[];
  if (Array.isArray(alternatives)) {
    list = alternatives.map((node, i) => {
      const pointer = join(def.pointer, keyword, i);
      if (!isSchemaNode(node)) throw new StubgenError(`expected a schema object in ${union}`, { file: doc.file, pointer });
      return { node, pointer, name: null };
    });
  } else if (typeof def.node["$ref"] === "string") {
    list = [def];
  } else if (isSchemaNode(def.node["properties"])) {
    // An inline message object: it names no message type of its own (the union's name is
    // the union's, not the message's; 2026-07-28 ClientNotification).
    list = [{ ...def, name: null }];
  } else {
    throw new StubgenError(
      `expected ${union} to be an anyOf of message types, a single "$ref", or an inline message object`,
      { file: doc.file, pointer: def.pointer },
    );
  }
  return list.map((at) => ({ union, kind, from, at, target: deref(doc, at) }));
}

/** The methods a direction union lists (ClientRequest: the requests a client sends), before any model is built. */
export function unionMethods(doc: SchemaDocument, union: "ClientRequest" | "ServerRequest" | "ClientNotification" | "ServerNotification"): ReadonlySet<string> {
  const { kind, from } = DIRECTION_UNIONS.find((u) => u.union === union)!;
  return new Set(unionMembers(doc, union, kind, from).map((member) => methodOf(doc, member)));
}

function methodOf(doc: SchemaDocument, member: UnionMember): string {
  const props = member.target.node["properties"];
  const method = isSchemaNode(props) && isSchemaNode(props["method"]) ? props["method"]["const"] : undefined;
  if (typeof method !== "string") {
    throw new StubgenError(
      `${member.union} member (at ${member.at.pointer}) has no method: expected "properties.method.const" to be a string`,
      { file: doc.file, pointer: join(member.target.pointer, "properties", "method") },
    );
  }
  return method;
}

function paramsExpr(doc: SchemaDocument, member: UnionMember, params: SchemaNode, required: boolean): TypeExpr {
  const named = refName(doc, params["$ref"]);
  if (named !== null) return { kind: "named", name: named };
  const owner: TypeExpr =
    member.target.name !== null
      ? { kind: "named", name: member.target.name }
      : member.at.pointer === join("", doc.defsKey, member.union)
        ? { kind: "named", name: member.union }
        : { kind: "memberOf", union: member.union, method: methodOf(doc, member) };
  return { kind: "paramsOf", owner, optional: !required };
}

/** Whether the params (through `$ref`, `allOf`, `anyOf`, `oneOf`) have a `task` property of the TaskMetadata type. */
function hasTaskProperty(doc: SchemaDocument, at: Located, taskType: string): boolean {
  const seen = new Set<string>();
  const visit = (loc: Located): boolean => {
    const target = deref(doc, loc);
    if (seen.has(target.pointer)) return false;
    seen.add(target.pointer);
    const props = target.node["properties"];
    const task = isSchemaNode(props) ? props["task"] : undefined;
    if (isSchemaNode(task) && refName(doc, task["$ref"]) === taskType) return true;
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      const list = target.node[keyword];
      if (!Array.isArray(list)) continue;
      for (const [i, node] of list.entries()) {
        if (isSchemaNode(node) && visit({ node, pointer: join(target.pointer, keyword, i), name: null })) return true;
      }
    }
    return false;
  };
  return visit(at);
}

/** Property names of an object schema, through `$ref` and `allOf`; `anyOf`/`oneOf` count as unknown shapes. */
/** Required property names of a params schema, through `$ref` and `allOf`; a union counts as "?" (something required). */
function requiredNames(doc: SchemaDocument, at: Located): string[] {
  const target = deref(doc, at);
  if (target.node["anyOf"] !== undefined || target.node["oneOf"] !== undefined) return ["?"];
  const required = target.node["required"];
  const own = Array.isArray(required) ? required.map(String) : [];
  const all = target.node["allOf"];
  const inherited = Array.isArray(all)
    ? all.flatMap((node, i) => (isSchemaNode(node) ? requiredNames(doc, { node, pointer: join(target.pointer, "allOf", i), name: null }) : []))
    : [];
  return [...own, ...inherited];
}

function propertyNames(doc: SchemaDocument, at: Located): string[] {
  const target = deref(doc, at);
  if (target.node["anyOf"] !== undefined || target.node["oneOf"] !== undefined) return ["?"];
  const props = target.node["properties"];
  const own = isSchemaNode(props) ? Object.keys(props) : [];
  const all = target.node["allOf"];
  const inherited = Array.isArray(all)
    ? all.flatMap((node, i) => (isSchemaNode(node) ? propertyNames(doc, { node, pointer: join(target.pointer, "allOf", i), name: null }) : []))
    : [];
  return [...own, ...inherited];
}
