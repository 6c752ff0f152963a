import { StubgenError } from "../errors.js";
import type { SchemaModel } from "../model/model.js";
import type { RevisionPolicy } from "../model/policy.js";
import { facadeView, tasksExtension } from "./facade-view.js";
import type { HttpBinding } from "../model/http-binding.js";
import type { LifecycleModel } from "../model/lifecycle.js";
import type { subscriptionsTemplateView } from "./subscriptions-view.js";
import { registryView } from "./registry-view.js";

/**
 * The result `_meta` key of the server's identity in the default server/discover result
 * (2026-07-28, ResultMetaObject: servers SHOULD identify themselves).
 */
const DISCOVER_SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

/**
 * The view of templates/server.ts.hbs: the shared facade view and SERVER, the server's
 * descriptor that the runtime (facade/server.ts) reads. `lifecycle` is the default initialize /
 * server/discover handler the server gets (model/lifecycle.ts); `http` what its Streamable HTTP
 * binding needs (model/http-binding.ts), null where it has none; `missingCapabilityCode` the schema's
 * MissingRequiredClientCapabilityError code (the Tasks extension refuses with it). Pure.
 */
export function serverView(
  model: SchemaModel,
  policy: RevisionPolicy,
  lifecycle: LifecycleModel | null,
  http: HttpBinding | null,
  subscriptions: ReturnType<typeof subscriptionsTemplateView>,
  missingCapabilityCode: number | null,
  inputRequired: boolean,
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
    subscriptions,
    inputRequired,
    /** The result `_meta` key the server identifies itself under, where it has the `serverInfo` option. */
    serverInfoMetaKey: http !== null && lifecycle !== null && lifecycle.kind === "discover" ? http.serverInfoMetaKey : null,
    serverInfoType,
    tasks: taskRuntime === undefined || missingCapabilityCode === null ? null : { cancelRequest: taskRuntime.policy.cancelRequest, missingCapabilityCode },
    /** REGISTRY: the rules of the server's registrations (registerTool and the others). */
    registry: registryView(model, subscriptions !== null && subscriptions !== undefined),
  };
}
