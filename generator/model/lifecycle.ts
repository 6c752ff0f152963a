/**
 * What the generated McpServer answers by default to the request that opens a conversation:
 * `initialize` (2024-11-05 … 2025-11-25, Lifecycle, Initialization) or `server/discover`
 * (2026-07-28, stateless: Servers MUST implement it). Which one is read from the schema (the
 * client request that exists); the capabilities the server declares are derived from the
 * handlers the user registers, through the table below, filtered to what the revision's schema
 * has (a capability its `ServerCapabilities` declares, methods its `ClientRequest` lists).
 */
import { definition, deref, isSchemaNode, type SchemaDocument } from "../load/schema-document.js";
import type { SchemaModel } from "./model.js";

/** A server capability and the client requests whose handlers imply it. */
export interface CapabilityRule {
  readonly capability: string;
  /** A handler of any of these methods declares the capability. */
  readonly methods: readonly string[];
  /** Sub-capabilities set when a handler of that method is registered. */
  readonly when: ReadonlyArray<{ readonly method: string; readonly set: { readonly [key: string]: unknown } }>;
}

/**
 * The spec's server features (server/tools, server/resources, server/prompts,
 * server/utilities/logging, server/utilities/completion; basic/utilities/tasks in 2025-11-25).
 * `listChanged` cannot be derived from handlers (the server sends those notifications on its
 * own), so it is never set here: give `capabilities` to declare it.
 */
export const CAPABILITY_RULES: readonly CapabilityRule[] = [
  { capability: "tools", methods: ["tools/list", "tools/call"], when: [] },
  {
    capability: "resources",
    methods: ["resources/list", "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe"],
    when: [{ method: "resources/subscribe", set: { subscribe: true } }],
  },
  { capability: "prompts", methods: ["prompts/list", "prompts/get"], when: [] },
  { capability: "logging", methods: ["logging/setLevel"], when: [] },
  { capability: "completions", methods: ["completion/complete"], when: [] },
  {
    capability: "tasks",
    methods: ["tasks/list", "tasks/get", "tasks/result", "tasks/cancel"],
    when: [
      { method: "tasks/list", set: { list: {} } },
      { method: "tasks/cancel", set: { cancel: {} } },
    ],
  },
];

/**
 * The requests that open a conversation, in the order they are looked for, with the result
 * properties the default handler fills: a schema whose result lacks one gets no default handler
 * (a small or unusual schema still generates; its server simply has no default).
 */
const LIFECYCLE_METHODS = [
  { method: "initialize", kind: "initialize", fills: ["protocolVersion", "capabilities", "serverInfo", "instructions"] },
  {
    method: "server/discover",
    kind: "discover",
    fills: ["resultType", "supportedVersions", "capabilities", "cacheScope", "ttlMs", "instructions", "_meta"],
  },
] as const;

export interface LifecycleModel {
  readonly kind: "initialize" | "discover";
  readonly method: string;
  /** The result type's name in types.ts. */
  readonly result: string;
  /** The capability rules that apply to this revision. */
  readonly capabilities: readonly CapabilityRule[];
}

/** Property names of a definition that is an object schema (after `$ref`s), or an empty set. */
export function propertiesOf(doc: SchemaDocument, name: string): ReadonlySet<string> {
  const at = definition(doc, name);
  if (at === null) return new Set();
  const properties = deref(doc, at).node["properties"];
  return new Set(isSchemaNode(properties) ? Object.keys(properties) : []);
}

/** The default lifecycle handler of the generated server, or null when the schema has neither request. Pure. */
export function lifecycleModel(doc: SchemaDocument, model: SchemaModel): LifecycleModel | null {
  const clientRequests = new Set(model.methods.filter((m) => m.kind === "request" && m.from.includes("client")).map((m) => m.method));
  const declared = propertiesOf(doc, "ServerCapabilities");
  for (const { method, kind, fills } of LIFECYCLE_METHODS) {
    const record = model.methods.find((m) => m.method === method && m.kind === "request" && m.from.includes("client"));
    // The default handler answers with one result type: the first the result allows that has
    // every property it fills (a union's other members, InputRequiredResult say, are not its to send).
    const result = record?.results?.find((name) => {
      const properties = propertiesOf(doc, name);
      return fills.every((p) => properties.has(p));
    });
    if (result === undefined) continue;
    const capabilities = CAPABILITY_RULES.filter((rule) => declared.has(rule.capability))
      .map((rule) => ({
        capability: rule.capability,
        methods: rule.methods.filter((m) => clientRequests.has(m)),
        when: rule.when.filter((w) => clientRequests.has(w.method)),
      }))
      .filter((rule) => rule.methods.length > 0);
    return { kind, method, result, capabilities };
  }
  return null;
}
