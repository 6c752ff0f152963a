import { StubgenError } from "../errors.js";
import type { SchemaModel } from "../model/model.js";
import type { RevisionPolicy } from "../model/policy.js";
import { facadeView, tasksExtension } from "./facade-view.js";
import type { HttpBinding } from "../model/http-binding.js";
import type { LifecycleModel } from "../model/lifecycle.js";
import type { subscriptionsTemplateView } from "./subscriptions-view.js";
import { registryView, type RegistryViewModel } from "./registry-view.js";
import type { ResultDefaultsRecord } from "../model/result-defaults.js";
import type { RevisionModel } from "../model/revision.js";

/**
 * What server.ts says of the result defaults (model/result-defaults.ts): HandlerResultMap (each
 * request's handler results, WithDefaults), SERVER.resultDefaults (the methods the runtime
 * completes) and the type of the `resultDefaults` option's cacheScope. Pure.
 */
export function resultDefaultsView(records: readonly ResultDefaultsRecord[]) {
  const cacheable = records.filter((r) => r.fields.includes("cacheScope"));
  return {
    handlerResults: records.map((r) => ({
      method: r.method,
      type: [...r.results.map((name) => `WithDefaults<T.${name}, ${r.fields.map((f) => JSON.stringify(f)).join(" | ")}>`), ...r.others.map((name) => `T.${name}`)].join(" | "),
    })),
    resultDefaults: records.length === 0 ? null : { complete: records.map((r) => r.method), cacheable: cacheable.map((r) => r.method) },
    /** Whether the server has the `resultDefaults` option (some result is cacheable). */
    cacheDefaults: cacheable.length > 0,
    cacheScopeType: cacheable.length === 0 ? null : `T.${cacheable[0]!.results[0]!}["cacheScope"]`,
  };
}

/**
 * The result `_meta` key of the server's identity in the default server/discover result
 * (2026-07-28, ResultMetaObject: servers SHOULD identify themselves).
 */
export const DISCOVER_SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

/**
 * The view of templates/server.ts.hbs: the shared facade view and SERVER, the server's
 * descriptor that the runtime (facade/server.ts) reads. `lifecycle` is the default initialize /
 * server/discover handler the server gets (model/lifecycle.ts); `http` what its Streamable HTTP
 * binding needs (model/http-binding.ts), null where it has none; `missingCapabilityCode` the schema's
 * MissingRequiredClientCapabilityError code (the Tasks extension refuses with it). Pure.
 */
export function serverView(
  model: SchemaModel & RegistryViewModel & Pick<RevisionModel, "era" | "logging">,
  policy: RevisionPolicy,
  lifecycle: LifecycleModel | null,
  http: HttpBinding | null,
  subscriptions: ReturnType<typeof subscriptionsTemplateView>,
  missingCapabilityCode: number | null,
  inputRequired: boolean,
  resultDefaults: readonly ResultDefaultsRecord[] = [],
) {
  const taskRuntime = tasksExtension(model);
  if (taskRuntime !== undefined && missingCapabilityCode === null) {
    throw new StubgenError(
      `the ${taskRuntime.id} extension refuses its requests to clients that did not declare it with MissingRequiredClientCapabilityError, which this revision's schema does not define`,
      { file: taskRuntime.file },
    );
  }
  const serverInfoType =
    lifecycle === null
      ? null
      : lifecycle.kind === "initialize"
        ? `T.${lifecycle.result}["serverInfo"]`
        : model.definitions.includes("Implementation")
          ? "T.Implementation"
          : null;
  return {
    ...facadeView(model, policy, "server"),
    ...resultDefaultsView(resultDefaults),
    lifecycle,
    /** SERVER.lifecycle: the default handler's kind and method, and where discover names the server. */
    lifecycleRule:
      lifecycle === null
        ? null
        : {
            kind: lifecycle.kind,
            method: lifecycle.method,
            serverInfoKey: lifecycle.kind === "discover" && serverInfoType !== null ? DISCOVER_SERVER_INFO_KEY : null,
          },
    capabilityRules: lifecycle?.capabilities ?? [],
    http,
    /** A session revision over Streamable HTTP: SERVER.sessions and McpServer.sessionBinding. */
    sessionHttp: model.era.httpTransport === "session",
    subscriptions,
    inputRequired,
    /** SERVER.logging: how the client asks for log messages (model/logging.ts); null: none. */
    logging: model.logging,
    /** The result `_meta` key the server identifies itself under, where it has the `serverInfo` option. */
    serverInfoMetaKey: http !== null && lifecycle !== null && lifecycle.kind === "discover" ? http.serverInfoMetaKey : null,
    serverInfoType,
    tasks: taskRuntime === undefined || missingCapabilityCode === null ? null : { cancelRequest: taskRuntime.policy.cancelRequest, missingCapabilityCode },
    /** REGISTRY: the rules of the server's registrations (registerTool and the others). */
    registry: registryView(model, subscriptions !== null && subscriptions !== undefined),
  };
}
