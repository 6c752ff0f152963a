import type { SchemaModel } from "../model/model.js";
import type { RevisionPolicy } from "../model/policy.js";
import { facadeView, tasksExtension } from "./facade-view.js";

/**
 * The view of templates/client.ts.hbs: the shared facade view, the request `_meta` the client
 * fills (2026-07-28), whether it answers input requests (multi round-trip requests) and the
 * Tasks extension's cancel request (CLIENT in client.ts). Pure.
 */
export function clientView(model: SchemaModel, policy: RevisionPolicy, answersInput: boolean) {
  const base = facadeView(model, policy, "client", answersInput);
  const taskRuntime = tasksExtension(model);
  return {
    ...base,
    answersInput,
    requestMeta: base.fillsMeta ? policy.requestMeta : null,
    tasks: taskRuntime === undefined ? null : { cancelRequest: taskRuntime.policy.cancelRequest },
    handshake: handshakeOf(model),
  };
}

/**
 * What connect() sends (CLIENT.handshake, runtime facade/client-connect.ts), from the methods the
 * schema defines: `initialize` then `notifications/initialized` (basic/lifecycle, Initialization:
 * the result names the version the server chose, and its serverInfo), or `server/discover`
 * (2026-07-28: the result lists supportedVersions; serverInfo is in its `_meta`). Null where the
 * schema has neither (connect() then only attaches the transport).
 */
function handshakeOf(model: SchemaModel) {
  const has = (method: string) => model.methods.some((m) => m.method === method);
  if (has("initialize")) {
    return {
      request: "initialize",
      initialized: has("notifications/initialized") ? "notifications/initialized" : null,
      versionField: "protocolVersion",
      declaresInParams: true,
      serverInfo: { in: "result", key: "serverInfo" },
      listen: null,
    };
  }
  if (has("server/discover")) {
    return {
      request: "server/discover",
      initialized: null,
      versionField: "supportedVersions",
      declaresInParams: false,
      serverInfo: { in: "meta", key: "io.modelcontextprotocol/serverInfo" },
      // basic/patterns/subscriptions: the filter field of each list_changed, by the capability offering it.
      listen: has("subscriptions/listen")
        ? { request: "subscriptions/listen", filterParam: "notifications", fields: { toolsListChanged: "tools", promptsListChanged: "prompts", resourcesListChanged: "resources" } }
        : null,
    };
  }
  return null;
}
