/**
 * Renders `<out>/apps/`: the MCP Apps protocol's types, catalog, App side, Host side, typed server
 * helpers and index, from the apps schema (hoisted, model/apps.ts) and its catalog. Pure given the
 * templates; the views read the catalog only, the type emitter the schema's definitions.
 */
import { emitTypes } from "./emit-types.js";
import { templates, type Template } from "./templates.js";
import { TOOL_VERSION } from "../project.js";
import { APPS_POLICY, type AppsPolicy, type UiMethod, type UiSide } from "../model/apps.js";
import type { DefinitionTable } from "../load/schema-document.js";
import type { FileSet } from "./render.js";

/** What renderApps needs: the schema's definitions, its pin, the catalog and the base revision. */
export interface AppsInput {
  readonly doc: DefinitionTable;
  readonly sha256: string;
  readonly extensionId: string;
  readonly extensionVersion: string;
  readonly baseRevision: string;
  readonly methods: readonly UiMethod[];
  /** Where the runtime is, relative to `<out>/apps/` (`../runtime/`). */
  readonly runtimeDir: string;
  readonly policy?: AppsPolicy | undefined;
}

/** The files of `<out>/apps/`, in the order renderApps writes them. */
export const APPS_FILES: readonly string[] = ["types.ts", "catalog.ts", "app.ts", "host.ts", "server-helpers.ts", "index.ts"];

const MAPS: ReadonlyArray<{ name: string; kind: UiMethod["kind"]; from: UiSide; doc: string }> = [
  { name: "AppRequestMap", kind: "request", from: "app", doc: "Requests the App sends: method → params and result." },
  { name: "HostRequestMap", kind: "request", from: "host", doc: "Requests the Host sends: method → params and result." },
  { name: "AppNotificationMap", kind: "notification", from: "app", doc: "Notifications the App sends: method → params." },
  { name: "HostNotificationMap", kind: "notification", from: "host", doc: "Notifications the Host sends: method → params." },
];

/** `ui/request-display-mode` → `requestDisplayMode`; `ui/notifications/size-changed` → `SizeChanged` (pascal). */
function methodWords(method: string): string[] {
  return method
    .split("/")
    .filter((part) => part !== "ui" && part !== "notifications")
    .flatMap((part) => part.split(/[-_]/));
}
const capital = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
export function callName(method: string): string {
  const [first = "", ...rest] = methodWords(method);
  return first + rest.map(capital).join("");
}
export function sendName(method: string): string {
  return `send${methodWords(method).map(capital).join("")}`;
}

/**
 * The typed wrappers of one side: a method per `ui/*` request it sends (callName) and per `ui/*`
 * notification (sendName), but the handshake's, which connect() sends. Core messages are sent
 * with request()/notify().
 */
function sideMethods(methods: readonly UiMethod[], side: UiSide, policy: AppsPolicy) {
  const own = methods.filter((m) => m.source === "apps" && m.from.includes(side) && m.method !== policy.lifecycle.request && m.method !== policy.lifecycle.initialized);
  // Typed through the side's maps, so the wrappers read the catalog's types and nothing else.
  const prefix = side === "app" ? "App" : "Host";
  const entry = (map: string, m: UiMethod, field: string) => `${prefix}${map}Map[${JSON.stringify(m.method)}][${JSON.stringify(field)}]`;
  return {
    calls: own.filter((m) => m.kind === "request").map((m) => ({ name: callName(m.method), method: m.method, params: entry("Request", m, "params"), paramsRequired: m.paramsRequired, result: entry("Request", m, "result"), doc: "" })),
    sends: own.filter((m) => m.kind === "notification").map((m) => ({ name: sendName(m.method), method: m.method, params: entry("Notification", m, "params"), paramsRequired: m.paramsRequired })),
  };
}

function methodRow(m: UiMethod): string {
  const fields = { method: m.method, kind: m.kind, from: m.from, paramsRequired: m.paramsRequired, cancellable: m.kind === "request", taskAugmentable: false, source: m.source };
  return `{ ${Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")} }`;
}

export async function renderApps(input: AppsInput): Promise<FileSet> {
  const policy = input.policy ?? APPS_POLICY;
  const t = templates();
  const header = { toolVersion: TOOL_VERSION, sha256: input.sha256, extensionId: input.extensionId, extensionVersion: input.extensionVersion, runtimeDir: input.runtimeDir, lifecycle: policy.lifecycle };
  const render = (name: string, view: object) => (t.get(name) as Template)({ ...header, ...view });
  const body = await emitTypes(input.doc, "extension apps");
  const maps = MAPS.map((map) => ({
    ...map,
    entries: input.methods
      .filter((m) => m.kind === map.kind && m.from.includes(map.from))
      .map((m) => ({ method: m.method, params: m.params ?? "undefined", paramsRequired: m.params !== null && m.paramsRequired, result: m.result })),
  }));
  const hoisted = Object.entries(policy.hoisted).map(([from, to]) => `${from} → ${to}`).join(", ");
  const appInfo = 'T.McpUiInitializeRequest["params"]["appInfo"]';
  return new Map([
    ["types.ts", render("apps-types.ts", { body, hoisted })],
    ["catalog.ts", render("apps-catalog.ts", { baseRevision: input.baseRevision, protocolVersion: policy.protocolVersion, methods: input.methods.map(methodRow), maps })],
    ["app.ts", render("apps-app.ts", { appInfoType: appInfo, ...sideMethods(input.methods, "app", policy) })],
    ["host.ts", render("apps-host.ts", sideMethods(input.methods, "host", policy))],
    ["server-helpers.ts", render("apps-server-helpers.ts", {})],
    ["index.ts", render("apps-index.ts", {})],
  ]);
}
