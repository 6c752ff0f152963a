import type { SchemaModel } from "../model/model.js";

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

/**
 * Facts of the spec's prose, by the first revision they hold in (revision dates compare as strings;
 * "draft" sorts after every date).
 * - input validation errors of tools/call are tool execution errors (`isError: true`) from
 *   2025-11-25 (server/tools, Error Handling; SEP-1303); before, "Invalid arguments" are protocol
 *   errors (-32602). 2026-07-28's schema still shows -32602 for invalid tool arguments in its
 *   InvalidParamsError examples; its tools page keeps SEP-1303, which is what we follow.
 * - `outputSchema` and `structuredContent`: 2025-06-18 (server/tools, Structured Content).
 * - the `completions` server capability: 2025-03-26 (2024-11-05 has completion/complete without one).
 * - resource not found: -32002 until 2025-11-25; -32602 from 2026-07-28 (its schema: "-32002
 *   (resource not found, 2025-11-25 and earlier; replaced by -32602)").
 */
const SINCE = {
  toolErrorForInvalidArguments: "2025-11-25",
  structuredContent: "2025-06-18",
  completionsCapability: "2025-03-26",
  invalidParamsForMissingResource: "2026-07-28",
} as const;

/** REGISTRY of templates/server.ts.hbs: the RegistryRules of this revision. Pure. */
export function registryView(model: SchemaModel, listen: boolean) {
  const has = (kind: "request" | "notification", from: "client" | "server", method: string) =>
    model.methods.some((m) => m.kind === kind && m.method === method && m.from.includes(from));
  const since = (key: keyof typeof SINCE) => model.revision >= SINCE[key];
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
    invalidArguments: since("toolErrorForInvalidArguments") ? "tool-error" : "invalid-params",
    resourceNotFound: since("invalidParamsForMissingResource") ? -32602 : -32002,
    structuredContent: since("structuredContent"),
    completionsCapability: since("completionsCapability"),
    announce: listen ? "publish" : "notify",
    /** What the generated registerX methods exist for. */
    tools: methods.includes("tools/call"),
    prompts: methods.includes("prompts/get"),
    resources: methods.includes("resources/read"),
    templates: methods.includes("resources/templates/list") && defined("ResourceTemplate"),
  };
}
