import type { RevisionModel } from "../model/revision.js";

/** What registryView reads of a finished revision. */
export type RegistryViewModel = Pick<RevisionModel, "methods" | "definitions" | "policy" | "registry">;

/** The client requests a server's registrations (runtime features/registry.ts) may answer, where the revision has them. */
const REGISTRY_METHODS = [
  "tools/list",
  "tools/call",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "completion/complete",
] as const;

/** The server notifications registrations send, where the revision has them. */
const REGISTRY_NOTIFICATIONS = [
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/list_changed",
  "notifications/resources/updated",
] as const;

/** REGISTRY of templates/server.ts.hbs: the RegistryRules of this revision. Pure. */
export function registryView(model: RegistryViewModel, listen: boolean) {
  const has = (kind: "request" | "notification", from: "client" | "server", method: string) =>
    model.methods.some((m) => m.kind === kind && m.method === method && m.from.includes(from));
  // A kind is served where the revision has its requests and the definitions its registerX types name.
  const defined = (...names: string[]) => names.every((name) => model.definitions.includes(name));
  const kindOf = (method: string) => (method.startsWith("tools/") ? "tools" : method.startsWith("prompts/") ? "prompts" : method.startsWith("resources/") ? "resources" : "completion");
  const DEFINITIONS: Readonly<Record<string, readonly string[]>> = {
    tools: ["Tool", "CallToolResult"],
    prompts: ["Prompt", "GetPromptResult"],
    resources: ["Resource", "ReadResourceResult"],
    completion: [],
  };
  const methods = REGISTRY_METHODS.filter((m) => has("request", "client", m) && defined(...(DEFINITIONS[kindOf(m)] ?? [])));
  return {
    methods,
    notifications: REGISTRY_NOTIFICATIONS.filter((m) => has("notification", "server", m)),
    // What the prose says (the policy table), and what the schema says (registry-facts.ts).
    invalidArguments: model.policy.invalidToolArguments,
    resourceNotFound: model.policy.resourceNotFoundCode,
    structuredContent: model.registry.structuredContent,
    completionsCapability: model.registry.completionsCapability,
    announce: listen ? "publish" : "notify",
    /** What the generated registerX methods exist for. */
    tools: methods.includes("tools/call"),
    prompts: methods.includes("prompts/get"),
    resources: methods.includes("resources/read"),
    templates: methods.includes("resources/templates/list") && defined("ResourceTemplate"),
  };
}
