/**
 * The SUBSCRIPTIONS table (model/subscriptions.ts) as server.ts.hbs and index.ts.hbs render it:
 * the table, its `as const` type and the unions of its notifications and filter fields.
 */
import type { RevisionModel } from "../model/revision.js";
import { constType, propertyName, type JsonValue } from "./const-type.js";

/** What the templates render of the revision's subscriptions/listen, or null when it has none. Pure. */
export function subscriptionsTemplateView(model: RevisionModel) {
  const view = model.subscriptions;
  if (view === null) return null;
  const kinds = view.kinds.map((k) => ({ field: k.field, notification: k.notification, capability: k.capability, flag: k.flag, uriParam: k.uriParam }));
  const value: JsonValue = { ...view, completeResult: { ...view.completeResult }, kinds };
  return {
    ...view,
    kinds,
    type: constType(value),
    completeResultText: `{ ${Object.entries(view.completeResult).map(([k, v]) => `${propertyName(k)}: ${JSON.stringify(v)}`).join(", ")} }`.replace("{  }", "{}"),
    notifications: kinds.length === 0 ? "never" : kinds.map((k) => JSON.stringify(k.notification)).join(" | "),
    fields: kinds.length === 0 ? "never" : kinds.map((k) => JSON.stringify(k.field)).join(" | "),
    capabilitiesType: model.definitions.includes("ServerCapabilities") ? "T.ServerCapabilities" : "object",
  };
}
