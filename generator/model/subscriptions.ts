/**
 * `subscriptions/listen` of a revision as data (2026-07-28, basic/patterns/subscriptions): the
 * SUBSCRIPTIONS table the generated server.ts hands to the runtime's SubscriptionHub
 * (templates/runtime/features/subscriptions.ts), which reads nothing else. The facts are the spec's, in
 * the table below; each is checked against the schema, so a revision whose schema disagrees gets
 * an error (or, for a filter field it lacks, no such kind), never silently different stubs.
 *
 * SubscriptionTable and SubscriptionKind are declared again, under the same names, in the runtime
 * (templates/runtime/features/subscriptions.ts): the runtime is copied verbatim into the output and imports
 * nothing of the generator, and the generator's build (tsconfig.build.json) does not compile the
 * runtime. test/generator/model/runtime-agreement.test.ts checks that the two declarations agree.
 */
import { StubgenError } from "../errors.js";
import { join } from "../load/json-pointer.js";
import { definition, deref, isSchemaNode, type Located, type SchemaDocument, type SchemaNode } from "../load/schema-document.js";
import type { SchemaModel } from "./model.js";

/** One notification kind a client opts in to in the listen filter. */
export interface SubscriptionKind {
  /** The filter field (SubscriptionFilter). */
  readonly field: string;
  /** The notification delivered on the stream. */
  readonly notification: string;
  /** The ServerCapabilities member and its flag that declare the server sends it. */
  readonly capability: string;
  readonly flag: string;
  /** Per-resource kinds: the notification param that names the resource (the filter field is a URI list); null: a boolean field. */
  readonly uriParam: string | null;
}

export interface SubscriptionTable {
  readonly listen: string;
  readonly acknowledged: string;
  /** The listen request's param that holds the filter. */
  readonly filterParam: string;
  /** The `_meta` key of every message on the stream (NotificationMetaObject, SubscriptionsListenResultMetaObject). */
  readonly subscriptionIdKey: string;
  /** The listen result without its `_meta` (Graceful Closure). */
  readonly completeResult: { readonly [key: string]: string };
  readonly kinds: readonly SubscriptionKind[];
}

/** The spec's facts (Subscriptions: Opening a Stream, Notification Filter, Acknowledgment, Graceful Closure). */
const LISTEN = {
  listen: "subscriptions/listen",
  acknowledged: "notifications/subscriptions/acknowledged",
  filterParam: "notifications",
  filterType: "SubscriptionFilter",
  notificationMeta: "NotificationMetaObject",
  subscriptionIdKey: "io.modelcontextprotocol/subscriptionId",
} as const;

const KINDS: readonly SubscriptionKind[] = [
  { field: "toolsListChanged", notification: "notifications/tools/list_changed", capability: "tools", flag: "listChanged", uriParam: null },
  { field: "promptsListChanged", notification: "notifications/prompts/list_changed", capability: "prompts", flag: "listChanged", uriParam: null },
  { field: "resourcesListChanged", notification: "notifications/resources/list_changed", capability: "resources", flag: "listChanged", uriParam: null },
  { field: "resourceSubscriptions", notification: "notifications/resources/updated", capability: "resources", flag: "subscribe", uriParam: "uri" },
];

function propertiesOf(doc: SchemaDocument, at: Located | null): { [key: string]: SchemaNode } {
  if (at === null) return {};
  const properties = deref(doc, at).node["properties"];
  if (!isSchemaNode(properties)) return {};
  const out: { [key: string]: SchemaNode } = {};
  for (const [key, value] of Object.entries(properties)) if (isSchemaNode(value)) out[key] = value;
  return out;
}

/** A property's schema after `$ref`s, or null. */
function property(doc: SchemaDocument, at: Located | null, key: string): Located | null {
  const node = propertiesOf(doc, at)[key];
  return node === undefined || at === null ? null : deref(doc, { node, pointer: join(at.pointer, "properties", key), name: null });
}

/** The listen table of this revision, or null when its schema has no `subscriptions/listen`. Pure. */
export function subscriptionTable(doc: SchemaDocument, model: SchemaModel): SubscriptionTable | null {
  const listen = model.methods.find((m) => m.method === LISTEN.listen && m.kind === "request" && m.from.includes("client"));
  if (listen === undefined) return null;
  const fail = (message: string, at?: Located | null): never => {
    throw new StubgenError(`${LISTEN.listen}: ${message}`, { file: doc.file, ...(at ? { pointer: at.pointer } : {}) });
  };
  const serverNotifications = new Map(model.methods.filter((m) => m.kind === "notification" && m.from.includes("server")).map((m) => [m.method, m]));
  if (!serverNotifications.has(LISTEN.acknowledged)) fail(`expected the server notification ${LISTEN.acknowledged}`);
  const params = listen.params?.kind === "named" ? definition(doc, listen.params.name) : null;
  const filter = property(doc, params, LISTEN.filterParam);
  if (filter === null || filter.name !== LISTEN.filterType) fail(`expected params.${LISTEN.filterParam} to be a ${LISTEN.filterType}`, params);
  const meta = definition(doc, LISTEN.notificationMeta);
  if (propertiesOf(doc, meta)[LISTEN.subscriptionIdKey] === undefined) fail(`expected ${LISTEN.notificationMeta} to declare ${JSON.stringify(LISTEN.subscriptionIdKey)}`, meta);
  const fields = propertiesOf(doc, filter);
  const capabilities = definition(doc, "ServerCapabilities");
  const kinds = KINDS.filter((kind) => {
    // A field the filter lacks is a kind this revision does not have; a field the table lacks is
    // one the hub does not honour (the acknowledgment leaves it out, as it must for any unsupported type).
    const node = fields[kind.field];
    if (node === undefined) return false;
    const type = deref(doc, { node, pointer: join(filter?.pointer ?? "", "properties", kind.field), name: null }).node["type"];
    if (type !== (kind.uriParam === null ? "boolean" : "array")) fail(`expected ${LISTEN.filterType}.${kind.field} to be ${kind.uriParam === null ? "a boolean" : "a list of URIs"}`, filter);
    const notification = serverNotifications.get(kind.notification);
    if (notification === undefined) fail(`expected the server notification ${kind.notification} (${LISTEN.filterType}.${kind.field})`);
    const flag = property(doc, capabilities, kind.capability);
    if (propertiesOf(doc, flag)[kind.flag] === undefined) fail(`expected ServerCapabilities.${kind.capability}.${kind.flag} (${LISTEN.filterType}.${kind.field})`, capabilities);
    return true;
  });
  // The listen result carries `resultType` where the revision's Result does (2026-07-28: "complete").
  // subscriptions/listen has a single result (no InputRequiredResult): its first is the one.
  const resultName = listen.results?.[0];
  const result = resultName === undefined ? null : definition(doc, resultName);
  const completeResult = propertiesOf(doc, result)["resultType"] === undefined ? {} : { resultType: "complete" };
  return {
    listen: LISTEN.listen,
    acknowledged: LISTEN.acknowledged,
    filterParam: LISTEN.filterParam,
    subscriptionIdKey: LISTEN.subscriptionIdKey,
    completeResult,
    kinds,
  };
}
