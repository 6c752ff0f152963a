import { posix } from "node:path";
import { emitTypes, type EmitTypesOptions } from "./emit-types.js";
import type { EraModel, RevisionModel } from "../model/revision.js";
import { formatResult, formatTypeExpr, type MethodKind, type Side } from "../model/vocabulary.js";
import { TOOL_VERSION } from "../project.js";
import { appsRuntimeSourceNames, loadRuntimeSources, RUNTIME_SOURCE_DIR, runtimeSourceNames, templates, type Template } from "./templates.js";
import { RUNTIME_DIR, type RuntimeLayout } from "./output-options.js";
import type { RevisionRules } from "../model/rules.js";
import { clientView } from "./client-view.js";
import { serverView } from "./server-view.js";
import { subscriptionsTemplateView } from "./subscriptions-view.js";
import { constType, constValue, type JsonValue } from "./const-type.js";
import { addonSourceNames } from "./addons.js";
import { validatorsView } from "./validators-view.js";
import type { InputRequestsModel } from "../model/input-requests.js";
import { errorCode } from "../model/spec-constants.js";

/** Generated files of one output folder (`out/<revision>/`, `out/runtime/`): path relative to it → text. */
export type FileSet = ReadonlyMap<string, string>;

const MAPS: ReadonlyArray<{ name: string; methodType: string; kind: MethodKind; from: Side; doc: string }> = [
  { name: "ClientRequestMap", methodType: "ClientRequestMethod", kind: "request", from: "client", doc: "Requests the client sends: method → params and result." },
  { name: "ServerRequestMap", methodType: "ServerRequestMethod", kind: "request", from: "server", doc: "Requests the server sends: method → params and result." },
  { name: "ClientNotificationMap", methodType: "ClientNotificationMethod", kind: "notification", from: "client", doc: "Notifications the client sends: method → params." },
  { name: "ServerNotificationMap", methodType: "ServerNotificationMethod", kind: "notification", from: "server", doc: "Notifications the server sends: method → params." },
];

/**
 * The catalog's multi round-trip block (InputRequestMap, InputRequiredMethod, INPUT_REQUIRED),
 * or null for a revision without an InputRequest union. Pure.
 */
export function inputRequiredView(input: InputRequestsModel | null, rules: RevisionRules) {
  if (input === null) return null;
  const line = (value: unknown) => JSON.stringify(value);
  return {
    entries: input.inputs.map((i) => ({
      method: i.method,
      params: i.params ? formatTypeExpr(i.params, "T.") : "undefined",
      paramsRequired: i.paramsRequired,
      result: `T.${i.result}`,
    })),
    methodType: input.methods.length === 0 ? "never" : input.methods.map((m) => JSON.stringify(m)).join(" | "),
    methods: `[${input.methods.map((m) => JSON.stringify(m)).join(", ")}]`,
    capabilitiesMetaKey: line(rules.requestMeta?.clientCapabilities ?? null),
    missingCapabilityCode: line(input.missingCapabilityCode),
    inputs: input.inputs.map((i) => ({
      method: line(i.method),
      rule: line({ capability: i.capability, subCapabilities: i.subCapabilities, result: i.result }),
    })),
  };
}

/**
 * ERA of catalog.ts: the era facts the runtime's transports read (the runtime knows no revision
 * by name): the era, the revision whose prose rules apply, JSON-RPC batches, and the session
 * versions a server may negotiate with their transport rules. Pure.
 */
export function eraView(model: Pick<RevisionModel, "era">) {
  const era = model.era;
  const value: JsonValue = {
    era: era.era,
    rulesOf: era.basis,
    batches: era.batches,
    sessionVersions: Object.fromEntries(era.sessionVersions.map(({ version, ...rules }) => [version, rules])),
  };
  return { type: constType(value), value: constValue(value), inherited: era.inherited, basis: era.basis };
}

/**
 * HTTP of catalog.ts: the stateless Streamable HTTP binding both sides read (the client
 * transport's headers and error codes, createHttpHandler's checks), or null. Pure.
 */
export function httpBindingView(model: Pick<RevisionModel, "http" | "rules">) {
  const http = model.http;
  const meta = model.rules.requestMeta;
  if (http === null || meta === null) return null;
  const value: JsonValue = {
    meta: { ...meta, required: [...http.requiredMeta] },
    nameSources: Object.fromEntries(http.nameSources.map(({ method, param }) => [method, param])),
    toolHeaders: http.toolHeaders === null ? null : { ...http.toolHeaders },
    errors: { ...http.errors },
  };
  return { type: constType(value), value: constValue(value) };
}

/** The view the catalog template renders. Pure. */
export function catalogView(model: RevisionModel) {
  const rules = model.rules;
  return {
    era: eraView(model),
    http: httpBindingView(model),
    inputRequired: inputRequiredView(model.inputRequests, rules),
    revision: model.revision,
    rules,
    endable: rules.endableByReceiver.length === 0 ? "never" : rules.endableByReceiver.map((m) => JSON.stringify(m)).join(" | "),
    methods: model.methods.map((m) => {
      const entry = {
        method: m.method,
        kind: m.kind,
        from: m.from,
        params: m.params && formatTypeExpr(m.params),
        paramsRequired: m.paramsRequired,
        result: formatResult(m.results),
        cancellable: m.cancellable,
        taskAugmentable: m.taskAugmentable,
      };
      // The entry's `as const` type, written out for the METHODS annotation (isolatedDeclarations).
      return { ...entry, type: constType(entry) };
    }),
    rulesTypes: {
      cancellers: constType(rules.cancellers),
      endableByReceiver: constType(rules.endableByReceiver),
      longLived: constType(rules.longLived),
      cancelByClosingStream: constType(rules.cancelByClosingStream),
      defaultTimeoutMs: constType(rules.defaultTimeoutMs),
      defaultMaxTotalTimeoutMs: constType(rules.defaultMaxTotalTimeoutMs),
      requestMeta: constType(
        rules.requestMeta && {
          protocolVersion: rules.requestMeta.protocolVersion,
          clientCapabilities: rules.requestMeta.clientCapabilities,
          clientInfo: rules.requestMeta.clientInfo,
        },
      ),
    },
    maps: MAPS.map((map) => ({
      ...map,
      entries: model.methods
        .filter((m) => m.kind === map.kind && m.from.includes(map.from))
        .map((m) => ({
          method: m.method,
          params: m.params ? formatTypeExpr(m.params, "T.") : "undefined",
          paramsRequired: m.paramsRequired,
          result: formatResult(m.results, "T."),
          cancellable: m.cancellable,
          taskAugmentable: m.taskAugmentable,
        })),
    })),
  };
}

/**
 * The revision-independent runtime: `templates/runtime/<folder>/<name>.ts`, plain TypeScript that
 * tsc checks in place, copied into the output as `<folder>/<name>.ts` with a generated header.
 * The folders say what the runtime is made of: core/ (the protocol engine), http/ (the shared
 * HTTP room and the HTTP transports), transports/ (the others), features/ (MRTR, tasks,
 * registrations, subscriptions), facade/ (the generated client's and server's behaviour).
 * Every module there is copied, so the list is the folder's (templates.ts runtimeSourceNames:
 * sorted, add-ons left out, as addons.ts selects them), read when this module loads.
 */
export const RUNTIME_FILES: readonly string[] = runtimeSourceNames();

/**
 * Runtime modules imported by path from a revision folder rather than through its index.ts
 * (`out/<rev>/stdio.js`, at the top of the revision folder whatever the runtime's folder): with the
 * shared runtime, each is a re-export of `../runtime/<folder>/<name>.js`.
 */
export const REEXPORTED_RUNTIME_FILES: readonly string[] = ["transports/stdio", "transports/stdio-spawn"];

/** Which HTTP client the index of a revision exports, by its HTTP transport (model/revision.ts EraModel): the stateless one, the session one, or none. Pure. */
export function httpExports(transport: EraModel["httpTransport"]): { http: boolean; sessionHttp: boolean } {
  return { http: transport === "stateless", sessionHttp: transport === "session" };
}

/**
 * What a revision's index exports of the HTTP+SSE transport of 2024-11-05 (legacy-sse/handler.ts,
 * legacy-sse-client.ts) and of the fallback client (fallback-client.ts). Pure.
 * - `legacySse`: a revision whose HTTP transport is HTTP+SSE: the server handler, the client
 *   transport and the node adapter;
 * - `legacyFallback`: the session revisions, whose clients "wanting to support older servers"
 *   fall back to it (2025-03-26 basic/transports, Backwards Compatibility).
 */
export function legacySseExports(transport: EraModel["httpTransport"]): { legacySse: boolean; legacyFallback: boolean } {
  return { legacySse: transport === "sse", legacyFallback: transport === "session" };
}

/** The header of a runtime file: no revision, no schema, no timestamp. Pure. */
export function runtimeHeader(toolVersion: string, source: string): string {
  return [
    `// Generated by mcp-stubgen ${toolVersion}: the revision-independent runtime.`,
    `// Source: ${source} of the mcp-stubgen package.`,
    "// Do not edit: regenerate it with mcp-stubgen.",
    "//",
    "",
  ].join("\n");
}

/** The runtime files (`<folder>/<name>.ts` → text): each source with its header. Pure given the sources. */
export function runtimeFiles(sources: ReadonlyMap<string, string>, toolVersion: string = TOOL_VERSION): FileSet {
  return new Map(
    [...sources].map(([name, text]): [string, string] => [`${name}.ts`, runtimeHeader(toolVersion, `${RUNTIME_SOURCE_DIR}/${name}.ts`) + text]),
  );
}

let runtime: FileSet | undefined;

/**
 * The runtime files, read from templates/runtime/ once, the files of the add-ons asked for
 * (addons.ts; names already checked by checkAddons), under `addons/<name>/`, and with `apps`
 * (an output with `--extension apps`) the MCP Apps runtime under `apps/`.
 */
export function renderRuntime(addons: readonly string[] = [], apps = false): FileSet {
  runtime ??= runtimeFiles(loadRuntimeSources(RUNTIME_FILES));
  if (addons.length === 0 && !apps) return runtime;
  const extra = [...addonSourceNames(addons), ...(apps ? appsRuntimeSourceNames() : [])];
  return new Map([...runtime, ...runtimeFiles(loadRuntimeSources(extra))]);
}

/** How renderRevision writes a revision: where its runtime lives, and the type emitter's options. */
export interface RenderOptions extends EmitTypesOptions {
  readonly layout: RuntimeLayout;
  /** Add-ons copied with an inline runtime (addons.ts); with the shared one, renderRuntime copies them. */
  readonly addons?: readonly string[] | undefined;
}

/**
 * Renders all files of one revision from its finished model (model/revision.ts finishModel).
 * `inline`: with its own copy of the runtime, importing `./core/protocol.js` and so on; `shared`:
 * importing `../runtime/core/protocol.js` and so on (written once by renderRuntime), plus a
 * re-export for each of REEXPORTED_RUNTIME_FILES.
 */
export async function renderRevision(model: RevisionModel, options: RenderOptions): Promise<FileSet> {
  const { layout, addons = [], ...typeOptions } = options;
  const t = templates();
  const header = {
    toolVersion: TOOL_VERSION,
    revision: model.revision,
    sha256: model.sha256,
    extensions: (model.extensions ?? []).map(({ id, sha256 }) => ({ id, sha256 })),
  };
  const runtimeDir = layout === "inline" ? "./" : `../${RUNTIME_DIR}/`;
  const render = (name: string, view: object) => (t.get(name) as Template)({ ...header, runtimeDir, ...view });
  const body = await emitTypes(model.typeSource, model.revision, typeOptions);
  // subscriptions/listen (server side only), where the revision has it.
  const subscriptions = subscriptionsTemplateView(model);
  const runtimePart: Array<[string, string]> =
    layout === "inline"
      ? [...renderRuntime(addons)]
      : REEXPORTED_RUNTIME_FILES.map((path): [string, string] => [`${posix.basename(path)}.ts`, render("reexport.ts", { path })]);
  const input = model.inputRequests;
  return new Map([
    ["types.ts", render("types.ts", { body, extensionUnions: (model.typeSource.extensions ?? []).length > 0, constants: model.constants.map(({ name, value, source }) => ({ name, literal: constType(value), source })) })],
    ["catalog.ts", render("catalog.ts", catalogView(model))],
    ["validators.ts", render("validators.ts", validatorsView(model.validation))],
    ...runtimePart,
    ["client.ts", render("client.ts", clientView(model, model.policy, input !== null, errorCode(model.constants, "UNSUPPORTED_PROTOCOL_VERSION")))],
    ["server.ts", render("server.ts", serverView(model, model.policy, model.lifecycle, model.http, subscriptions, input?.missingCapabilityCode ?? null, input !== null, model.resultDefaults))],
    ["index.ts", render("index.ts", { subscriptions, ...httpExports(model.era.httpTransport), ...legacySseExports(model.era.httpTransport), inputRequired: input !== null, resultDefaults: model.resultDefaults.length > 0, tasks: (model.extensions ?? []).some((ext) => ext.policy.runtime === "tasks"), skills: (model.extensions ?? []).some((ext) => ext.policy.runtime === "skills") })],
  ]);
}

/**
 * The cross-revision entry of a shared-runtime output with several revisions: `McpServers`
 * (runtime/facade/every-era.ts) over each revision's generated module, typed with the newest
 * dated revision's registrations (an undated label, `draft`, only when none is dated). Pure.
 */
export function renderEveryEra(revisions: readonly string[]): FileSet {
  const dated = revisions.filter((label) => /^\d{4}-\d{2}-\d{2}$/.test(label)).sort();
  const typing = dated.at(-1) ?? [...revisions].sort().at(-1)!;
  const view = revisions.map((label, i) => ({ label, ident: `R${i}_${label.replace(/[^A-Za-z0-9]/g, "_")}` }));
  const text = (templates().get("every-era.ts") as Template)({ toolVersion: TOOL_VERSION, revisions: view, typing: view.find((r) => r.label === typing)!.ident, typingLabel: typing });
  return new Map([["index.ts", text]]);
}

