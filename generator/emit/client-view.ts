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
  };
}
