import type { SchemaModel } from "../model/model.js";
import type { RevisionModel } from "../model/revision.js";
import type { SubscriptionTable } from "../model/subscriptions.js";
import type { RevisionPolicy } from "../model/policy.js";
import { facadeView, tasksExtension } from "./facade-view.js";
import { DISCOVER_SERVER_INFO_KEY } from "./server-view.js";

/**
 * The view of templates/client.ts.hbs: the shared facade view, the request `_meta` the client
 * fills (2026-07-28), whether it answers input requests (multi round-trip requests) and the
 * Tasks extension's cancel request (CLIENT in client.ts). Pure.
 */
export function clientView(model: RevisionModel, policy: RevisionPolicy, answersInput: boolean, versionRefused: number | null) {
  const base = facadeView(model, policy, "client", answersInput);
  const taskRuntime = tasksExtension(model);
  const lists = LIST_CACHE.filter((l) => has(model, l.method) && has(model, l.changed));
  const handshake = handshakeOf(model, versionRefused);
  return {
    ...base,
    // The list requests go through the client's list cache (partials/facade-methods.hbs `cached`);
    // the handshake request, sent by hand, keeps what the server says of itself (`handshake`).
    methods: base.methods.map((m) => ({ ...m, cached: lists.some((l) => l.method === m.method), handshake: m.method === handshake?.request })),
    answersInput,
    requestMeta: base.fillsMeta ? policy.requestMeta : null,
    tasks: taskRuntime === undefined ? null : { cancelRequest: taskRuntime.policy.cancelRequest },
    handshake,
    handshakeTypes: handshakeTypes(model),
    lists,
  };
}

/**
 * The types of connect()'s options and getters: the schema's ClientCapabilities, Implementation
 * and ServerCapabilities where it defines them (every published revision does), else the
 * shapes the spec gives them.
 */
function handshakeTypes(model: SchemaModel) {
  const named = (name: string, otherwise: string) => (model.definitions.includes(name) ? `T.${name}` : otherwise);
  const object = "{ [key: string]: unknown }";
  return {
    clientCapabilities: named("ClientCapabilities", object),
    serverCapabilities: named("ServerCapabilities", object),
    implementation: named("Implementation", "{ name: string; version: string; [key: string]: unknown }"),
  };
}

const has = (model: SchemaModel, method: string) => model.methods.some((m) => m.method === method);

/**
 * The lists the client caches (CLIENT.lists, runtime features/list-cache.ts): each list request,
 * the notification that says it changed and the capability that promises it (server/tools,
 * server/prompts, server/resources: List Changed Notification); kept where the schema has both.
 */
const LIST_CACHE = [
  { method: "tools/list", changed: "notifications/tools/list_changed", capability: "tools" },
  { method: "prompts/list", changed: "notifications/prompts/list_changed", capability: "prompts" },
  { method: "resources/list", changed: "notifications/resources/list_changed", capability: "resources" },
  { method: "resources/templates/list", changed: "notifications/resources/list_changed", capability: "resources" },
] as const;

/**
 * What connect() sends (CLIENT.handshake, runtime facade/client-connect.ts), from the methods the
 * schema defines: `initialize` then `notifications/initialized` (basic/lifecycle, Initialization:
 * the result names the version the server chose, and its serverInfo), or `server/discover`
 * (2026-07-28: the result lists supportedVersions; serverInfo is in its `_meta`). Null where the
 * schema has neither (connect() then only attaches the transport). `versionRefused`: the code of
 * the schema's UnsupportedProtocolVersionError, on which connect() asks again (server/discover only).
 */
/** The listen request connect() opens after server/discover: the filter field of each list_changed kind, by the capability that offers it. */
function listenOf(table: SubscriptionTable | null) {
  if (table === null) return null;
  const fields = Object.fromEntries(table.kinds.filter((kind) => kind.flag === "listChanged").map((kind) => [kind.field, kind.capability]));
  return { request: table.listen, filterParam: table.filterParam, fields };
}

function handshakeOf(model: RevisionModel, versionRefused: number | null) {
  if (has(model, "initialize")) {
    return {
      request: "initialize",
      initialized: has(model, "notifications/initialized") ? "notifications/initialized" : null,
      versionField: "protocolVersion",
      declaresInParams: true,
      serverInfo: { in: "result", key: "serverInfo" },
      listen: null,
      versionRefused: null,
    };
  }
  if (has(model, "server/discover")) {
    return {
      request: "server/discover",
      initialized: null,
      versionField: "supportedVersions",
      declaresInParams: false,
      serverInfo: { in: "meta", key: model.http?.serverInfoMetaKey ?? DISCOVER_SERVER_INFO_KEY },
      // basic/patterns/subscriptions: the filter field of each list_changed, by the capability offering it (the model's listen table).
      listen: listenOf(model.subscriptions),
      versionRefused,
    };
  }
  return null;
}
