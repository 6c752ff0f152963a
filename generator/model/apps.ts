/**
 * The MCP Apps extension (io.modelcontextprotocol/ui, SEP-1865; schema `src/generated/schema.json`
 * of modelcontextprotocol/ext-apps): a JSON-RPC protocol of its own between an app in an iframe and
 * its host page, over postMessage. Unlike Tasks it is not merged into a revision: it is generated
 * into `<out>/apps/` beside the revisions (`generate --extension apps`).
 *
 * Its catalog is derived from the schema: every `$defs` entry whose `method` is a const is a
 * message, a request when its name ends in `Request` (its result: the definition of the same stem
 * ending in `Result`), else a notification; params required where the message's `required` lists
 * them. What the schema does not say is the table below, as data, checked against the schema both
 * ways (a message without a sender, a sender without a message, a result named for a request that
 * has one, are errors): who sends each `ui/*` message, the core MCP messages the protocol carries
 * (typed from the base revision's catalog), the handshake, and the protocol version.
 *
 * Sources: SEP-1865 (MCP Apps), as the official package @modelcontextprotocol/ext-apps 2.0.4
 * implements it: the App sends ui/initialize then ui/notifications/initialized, ui/message,
 * ui/open-link, ui/download-file, ui/request-display-mode, ui/update-model-context, size-changed
 * and request-teardown, and proxies tools/call, resources/read, resources/list,
 * resources/templates/list and prompts/list to the host's MCP server; the Host sends the tool
 * notifications (tool-input, tool-input-partial, tool-result, tool-cancelled),
 * host-context-changed and ui/resource-teardown, and may call the App's own tools. The sandbox
 * proxy's two notifications go between the host and its sandbox proxy frame.
 */
import { StubgenError } from "../errors.js";
import { isSchemaNode, type SchemaNode } from "../load/schema-document.js";
import type { MethodRecord } from "./model.js";
import { formatResult, formatTypeExpr } from "./vocabulary.js";

/** A side of the App ↔ Host protocol. */
export type UiSide = "app" | "host";

export interface AppsPolicy {
  /** `ui/*` method → the side(s) that send it. Every message of the schema needs an entry. */
  readonly senders: Readonly<Record<string, readonly UiSide[]>>;
  /** Requests whose result the schema does not define: method → a core definition of the base revision. */
  readonly coreResults: Readonly<Record<string, string>>;
  /** Core MCP methods the protocol carries: method → the side(s) that send it (typed from the base revision's catalog). */
  readonly proxied: Readonly<Record<string, readonly UiSide[]>>;
  /** The handshake: the App's request, and its notification once it has the result. */
  readonly lifecycle: { readonly request: string; readonly initialized: string };
  /** The protocol version the App sends in ui/initialize (not in the schema: ext-apps LATEST_PROTOCOL_VERSION). */
  readonly protocolVersion: string;
  /** Names for the schema's anonymous nested definitions (`$defs` inside a definition), hoisted to the top. */
  readonly hoisted: Readonly<Record<string, string>>;
}

export const APPS_POLICY: AppsPolicy = {
  senders: {
    "ui/initialize": ["app"],
    "ui/notifications/initialized": ["app"],
    "ui/message": ["app"],
    "ui/open-link": ["app"],
    "ui/download-file": ["app"],
    "ui/request-display-mode": ["app"],
    "ui/update-model-context": ["app"],
    "ui/notifications/size-changed": ["app"],
    "ui/notifications/request-teardown": ["app"],
    "ui/notifications/sandbox-proxy-ready": ["app"],
    "ui/notifications/tool-input": ["host"],
    "ui/notifications/tool-input-partial": ["host"],
    "ui/notifications/tool-result": ["host"],
    "ui/notifications/tool-cancelled": ["host"],
    "ui/notifications/host-context-changed": ["host"],
    "ui/notifications/sandbox-resource-ready": ["host"],
    "ui/resource-teardown": ["host"],
  },
  // ext-apps answers ui/update-model-context with an empty result.
  coreResults: { "ui/update-model-context": "EmptyResult" },
  proxied: {
    "tools/call": ["app", "host"],
    "tools/list": ["host"],
    "resources/read": ["app"],
    "resources/list": ["app"],
    "resources/templates/list": ["app"],
    "prompts/list": ["app"],
    ping: ["app", "host"],
    "notifications/cancelled": ["app", "host"],
    "notifications/progress": ["app", "host"],
    "notifications/message": ["app"],
    "notifications/tools/list_changed": ["app", "host"],
    "notifications/resources/list_changed": ["host"],
    "notifications/prompts/list_changed": ["host"],
  },
  lifecycle: { request: "ui/initialize", initialized: "ui/notifications/initialized" },
  protocolVersion: "2026-01-26",
  hoisted: { __schema0: "McpUiJsonValue" },
};

/** One message of the App ↔ Host protocol, as catalog.ts lists it. */
export interface UiMethod {
  readonly method: string;
  readonly kind: "request" | "notification";
  readonly from: readonly UiSide[];
  /** The params type, as a TypeScript expression over `T.` (apps types) or `Core.` (the base revision's). */
  readonly params: string | null;
  readonly paramsRequired: boolean;
  readonly result: string | null;
  /** Where the message is defined: the apps schema, or the base revision's (proxied). */
  readonly source: "apps" | "core";
}

/**
 * The apps document with the nested `$defs` of its definitions hoisted to the top under the
 * table's names (the schema writes them per definition, each an identical copy, and refers to
 * them as `#/$defs/<name>`, which only resolves from the top). Pure: a new object.
 */
export function hoistNestedDefs(raw: unknown, policy: AppsPolicy = APPS_POLICY): Record<string, unknown> {
  if (!isSchemaNode(raw) || !isSchemaNode(raw["$defs"])) throw new StubgenError("the apps schema has no $defs");
  const defs: Record<string, unknown> = {};
  const hoisted: Record<string, string> = {};
  for (const [name, node] of Object.entries(raw["$defs"] as Record<string, unknown>)) {
    if (!isSchemaNode(node) || !isSchemaNode(node["$defs"])) {
      defs[name] = node;
      continue;
    }
    const { $defs: nested, ...rest } = node as SchemaNode & { $defs: Record<string, unknown> };
    for (const [local, value] of Object.entries(nested)) {
      const target = policy.hoisted[local];
      if (target === undefined) throw new StubgenError(`apps schema: ${name} has a nested definition ${local} the apps table (generator/model/apps.ts hoisted) does not name`);
      const text = JSON.stringify(value);
      if (hoisted[target] !== undefined && hoisted[target] !== text) throw new StubgenError(`apps schema: the nested definitions ${local} differ between definitions`);
      hoisted[target] = text;
    }
    defs[name] = rest;
  }
  for (const local of Object.keys(policy.hoisted)) {
    if (hoisted[policy.hoisted[local]!] === undefined) throw new StubgenError(`apps table: hoisted ${local} names no nested definition of the schema`);
  }
  // Every $ref to a hoisted definition follows it to its new name.
  const renaming = (_key: string, value: unknown): unknown => (isSchemaNode(value) && typeof value["$ref"] === "string" ? { ...value, $ref: renameRef(value["$ref"], policy) } : value);
  const renamed = JSON.parse(JSON.stringify(defs), renaming) as Record<string, unknown>;
  for (const [target, text] of Object.entries(hoisted).sort(([a], [b]) => (a < b ? -1 : 1))) renamed[target] = JSON.parse(text, renaming);
  return { ...(raw as Record<string, unknown>), $defs: renamed };
}

function renameRef(ref: string, policy: AppsPolicy): string {
  const local = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
  return local !== undefined && policy.hoisted[local] !== undefined ? `#/$defs/${policy.hoisted[local]}` : ref;
}

/**
 * The protocol's catalog: the schema's messages with their senders, then the core messages the
 * table names, typed from `core` (the base revision's methods). Sorted by method. Pure.
 */
export function appsCatalog(defs: Readonly<Record<string, unknown>>, core: readonly MethodRecord[], policy: AppsPolicy = APPS_POLICY): UiMethod[] {
  const methods: UiMethod[] = [];
  const seen = new Set<string>();
  for (const [name, node] of Object.entries(defs)) {
    const method = constMethod(node);
    if (method === undefined) continue;
    const from = policy.senders[method];
    if (from === undefined) throw new StubgenError(`apps schema: message ${method} (${name}) has no sender in the apps table (generator/model/apps.ts senders)`);
    seen.add(method);
    const required = isSchemaNode(node) && Array.isArray(node["required"]) && node["required"].includes("params");
    const hasParams = isSchemaNode(node) && isSchemaNode(node["properties"]) && "params" in node["properties"];
    const kind = name.endsWith("Request") ? "request" : "notification";
    methods.push({ method, kind, from, params: hasParams ? `T.${name}["params"]` : null, paramsRequired: required, result: kind === "request" ? resultOf(name, method, defs, policy) : null, source: "apps" });
  }
  for (const method of Object.keys(policy.senders)) {
    if (!seen.has(method)) throw new StubgenError(`apps table: ${method} has a sender but the apps schema defines no such message`);
  }
  for (const [method, from] of Object.entries(policy.proxied)) {
    const found = core.find((m) => m.method === method);
    if (found === undefined) throw new StubgenError(`apps table: proxied ${method} is not a method of the base revision`);
    methods.push({
      method,
      kind: found.kind,
      from,
      params: found.params === null ? null : formatTypeExpr(found.params, "Core."),
      paramsRequired: found.paramsRequired,
      result: formatResult(found.results, "Core."),
      source: "core",
    });
  }
  return methods.sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}

function constMethod(node: unknown): string | undefined {
  if (!isSchemaNode(node) || !isSchemaNode(node["properties"])) return undefined;
  const method = (node["properties"] as SchemaNode)["method"];
  return isSchemaNode(method) && typeof method["const"] === "string" ? method["const"] : undefined;
}

function resultOf(name: string, method: string, defs: Readonly<Record<string, unknown>>, policy: AppsPolicy): string {
  const own = `${name.slice(0, -"Request".length)}Result`;
  const core = policy.coreResults[method];
  if (defs[own] !== undefined) {
    if (core !== undefined) throw new StubgenError(`apps table: coreResults names a result for ${method}, which the schema defines (${own})`);
    return `T.${own}`;
  }
  if (core === undefined) throw new StubgenError(`apps schema: request ${method} has no ${own}; name its result in the apps table (coreResults)`);
  return `Core.${core}`;
}

/**
 * Where the schema, generated from Zod, says less than the types the official package
 * (@modelcontextprotocol/ext-apps spec.types.ts) declares, a rule gives the node the official
 * TypeScript (`tsType`, which the type emitter keeps), so that the generated types and the
 * official ones are assignable both ways. Each rule is a pattern with its reason; a rule that
 * matches nothing in the schema is an error (the schema changed: look again).
 */
export interface AppsTypeRule {
  readonly name: string;
  readonly reason: string;
  /** The node's TypeScript, or undefined when the rule does not apply to it. */
  readonly apply: (node: SchemaNode, defs: Readonly<Record<string, unknown>>) => string | undefined;
}

const constsOf = (node: unknown): string[] | undefined => {
  if (!isSchemaNode(node) || !Array.isArray(node["anyOf"])) return undefined;
  const values = node["anyOf"].map((member: unknown) => (isSchemaNode(member) && typeof member["const"] === "string" ? member["const"] : undefined));
  return values.every((v): v is string => v !== undefined) ? values : undefined;
};
const sameSet = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((v) => b.includes(v));
const isEmptySchema = (node: unknown): boolean => isSchemaNode(node) && Object.keys(node).filter((k) => k !== "description").length === 0;

export const APPS_TYPE_RULES: readonly AppsTypeRule[] = [
  {
    name: "exhaustive record",
    reason:
      "Zod 4 `z.record(z.enum(K), z.string().optional())` is exhaustive (every key present, its value possibly undefined) and its JSON Schema writes `undefined` as `{}`: ext-apps types McpUiStyles as `Record<McpUiStyleVariableKey, string | undefined>`",
    apply: (node, defs) => {
      const keys = constsOf(node["propertyNames"]);
      const extra = node["additionalProperties"];
      if (node["type"] !== "object" || keys === undefined || node["properties"] !== undefined || !Array.isArray(node["required"]) || !sameSet(keys, node["required"])) return undefined;
      if (!isSchemaNode(extra) || !Array.isArray(extra["anyOf"]) || extra["anyOf"].length !== 2 || !isEmptySchema(extra["anyOf"][1])) return undefined;
      const value = extra["anyOf"][0];
      if (!isSchemaNode(value) || typeof value["type"] !== "string" || Object.keys(value).length !== 1) return undefined;
      const named = Object.entries(defs).find(([, def]) => sameSet(constsOf(def) ?? [], keys))?.[0];
      return `Record<${named ?? keys.map((k) => JSON.stringify(k)).join(" | ")}, ${value["type"]} | undefined>`;
    },
  },
  {
    name: "undefined member",
    reason: "Zod's JSON Schema writes `z.undefined()` as `{}`: `anyOf: [{ type: T }, {}]` is `T | undefined` (ext-apps: `maxHeight?: number | undefined`)",
    apply: (node) => {
      const members = node["anyOf"];
      if (!Array.isArray(members) || members.length !== 2 || !isEmptySchema(members[1]) || Object.keys(node).some((k) => k !== "anyOf" && k !== "description")) return undefined;
      const value = members[0];
      if (!isSchemaNode(value) || Object.keys(value).length !== 1 || !["string", "number", "boolean"].includes(value["type"] as string)) return undefined;
      return `${value["type"] as string} | undefined`;
    },
  },
  {
    name: "record of objects",
    reason: "`experimental` is a record of open objects (Zod `z.record(z.string(), z.object({}).passthrough())`): ext-apps types it `Record<string, object>`",
    apply: (node) => {
      const inner = node["additionalProperties"];
      const stringKeys = (n: SchemaNode) => isSchemaNode(n["propertyNames"]) && n["propertyNames"]["type"] === "string" && Object.keys(n["propertyNames"]).length === 1;
      if (node["type"] !== "object" || !stringKeys(node) || node["properties"] !== undefined || !isSchemaNode(inner)) return undefined;
      const open = inner["type"] === "object" && stringKeys(inner) && isEmptySchema(inner["additionalProperties"]) && inner["properties"] === undefined;
      return open ? "{ [key: string]: object }" : undefined;
    },
  },
];

/**
 * The definitions with every node a rule matches given its `tsType` (a new object; the input is
 * left as it is). Definitions whose whole schema a rule matches keep their name: the rule's type
 * becomes the definition's.
 */
export function applyTypeRules(defs: Readonly<Record<string, unknown>>, rules: readonly AppsTypeRule[] = APPS_TYPE_RULES): Record<string, unknown> {
  const matched = new Set<string>();
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (!isSchemaNode(value)) return value;
    for (const rule of rules) {
      const tsType = rule.apply(value, defs);
      if (tsType === undefined) continue;
      matched.add(rule.name);
      return { ...(typeof value["description"] === "string" ? { description: value["description"] } : {}), tsType };
    }
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, visit(child)]));
  };
  const out = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, visit(def)]));
  for (const rule of rules) if (!matched.has(rule.name)) throw new StubgenError(`apps type rule "${rule.name}" matches nothing in the schema`);
  return out;
}
