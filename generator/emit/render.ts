import type { SchemaDocument } from "../load/schema-document.js";
import { emitTypes } from "./emit-types.js";
import { formatTypeExpr, type MethodKind, type SchemaModel, type Side } from "../model/model.js";
import { TOOL_VERSION } from "../project.js";
import { templates, type Template } from "./templates.js";
import type { RevisionPolicy } from "../model/policy.js";
import { facadeView } from "./facade-view.js";
import { rulesView, type RulesView } from "./rules-view.js";
import { lifecycleView } from "./lifecycle-view.js";
import { constType } from "./const-type.js";

/** Generated files of one revision: path relative to `out/<revision>/` → text. */
export type FileSet = ReadonlyMap<string, string>;

const MAPS: ReadonlyArray<{ name: string; methodType: string; kind: MethodKind; from: Side; doc: string }> = [
  { name: "ClientRequestMap", methodType: "ClientRequestMethod", kind: "request", from: "client", doc: "Requests the client sends: method → params and result." },
  { name: "ServerRequestMap", methodType: "ServerRequestMethod", kind: "request", from: "server", doc: "Requests the server sends: method → params and result." },
  { name: "ClientNotificationMap", methodType: "ClientNotificationMethod", kind: "notification", from: "client", doc: "Notifications the client sends: method → params." },
  { name: "ServerNotificationMap", methodType: "ServerNotificationMethod", kind: "notification", from: "server", doc: "Notifications the server sends: method → params." },
];

/** The view the catalog template renders. Pure. */
export function catalogView(model: SchemaModel, rules: RulesView) {
  return {
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
        result: m.result,
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
          result: m.result && `T.${m.result}`,
          cancellable: m.cancellable,
          taskAugmentable: m.taskAugmentable,
        })),
    })),
  };
}

/** Runtime files copied (with the header) into every revision's output. */
export const RUNTIME_FILES = ["protocol", "outgoing", "incoming", "endpoint", "typed", "in-memory", "mcpx", "stdio"] as const;

/** Renders all files of one revision. */
export async function renderRevision(doc: SchemaDocument, model: SchemaModel, policy: RevisionPolicy): Promise<FileSet> {
  const t = templates();
  const header = { toolVersion: TOOL_VERSION, revision: model.revision, sha256: model.sha256 };
  const render = (name: string, view: object) => (t.get(name) as Template)({ ...header, ...view });
  const body = await emitTypes(doc, model.revision);
  return new Map([
    ["types.ts", render("types.ts", { body })],
    ["catalog.ts", render("catalog.ts", catalogView(model, rulesView(doc, model, policy)))],
    ...RUNTIME_FILES.map((name): [string, string] => [`${name}.ts`, render(`runtime/${name}.ts`, {})]),
    ["client.ts", render("runtime/facade.ts", facadeView(model, policy, "client"))],
    ["server.ts", render("runtime/facade.ts", facadeView(model, policy, "server", lifecycleView(doc, model)))],
    ["index.ts", render("index.ts", {})],
  ]);
}
