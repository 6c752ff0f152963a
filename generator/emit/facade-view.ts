import { StubgenError } from "../errors.js";
import type { MethodRecord, SchemaModel } from "../model/model.js";
import { formatResult, formatTypeExpr, type Side } from "../model/vocabulary.js";
import type { RevisionPolicy } from "../model/policy.js";
import type { HttpBinding } from "../model/http-binding.js";
import type { LifecycleModel } from "../model/lifecycle.js";

/** Members of the generated McpClient/McpServer classes that a method name must not shadow. */
const RESERVED = new Set(["connect", "close", "request", "notify", "inFlight", "openConnection", "httpBinding", "constructor"]);

/**
 * The typed method name of a request: its type name without `Request`, in lower camel case
 * (`CallToolRequest` → `callTool`, `ElicitRequest` → `elicit`); from the method string when the
 * schema names no type (`tools/call` → `toolsCall`). A clash with a class member gets `Request`.
 */
export function methodName(record: Pick<MethodRecord, "method" | "typeName">): string {
  const base =
    record.typeName?.endsWith("Request") && record.typeName !== "Request"
      ? record.typeName.slice(0, -"Request".length)
      : record.method
          .split(/[^A-Za-z0-9]+/)
          .filter(Boolean)
          .map((w) => w[0]!.toUpperCase() + w.slice(1))
          .join("");
  const name = base[0]!.toLowerCase() + base.slice(1);
  return RESERVED.has(name) ? `${name}Request` : name;
}

/** JSDoc body lines (`   * …`) from a description, safe inside a comment. */
function docLines(record: MethodRecord): string {
  const text = [
    ...(record.description ?? `Sends ${record.method}.`).split("\n"),
    "",
    `Method \`${record.method}\`.${record.cancellable ? "" : " Not cancellable (no signal): Cancellation, Behavior Requirements 2."}` +
      (record.taskAugmentable ? " With `task` in params it is task-augmented: cancel it with tasks/cancel, never a signal." : ""),
  ];
  return text.map((line) => `   *${line ? ` ${line.replace(/\*\//g, "*\\/")}` : ""}`).join("\n");
}

/**
 * The view of templates/runtime/facade.ts.hbs for one side. Pure. `lifecycle` (server side) is
 * the default initialize / server/discover handler the server gets (model/lifecycle.ts); `http`
 * (server side) what its Streamable HTTP binding needs (model/http-binding.ts), null where it has none.
 */
export function facadeView(model: SchemaModel, policy: RevisionPolicy, side: Side, lifecycle: LifecycleModel | null = null, http: HttpBinding | null = null, missingCapabilityCode: number | null = null) {
  const peer: Side = side === "client" ? "server" : "client";
  const cap = (s: Side) => s[0]!.toUpperCase() + s.slice(1);
  const requests = model.methods.filter((m) => m.kind === "request" && m.from.includes(side));
  // Where the client fills each request's `_meta` (2026-07-28), callers may leave it out.
  const fillsMeta = side === "client" && policy.requestMeta !== null;
  const paramsType = (m: MethodRecord) => {
    const type = m.params ? formatTypeExpr(m.params, "T.") : "undefined";
    return fillsMeta && m.params ? `MetaFilled<${type}>` : type;
  };
  // Tasks extension: the requests a server may answer with a task handle, and what the handle's
  // ClientTask resolves to (the request's other results, InputRequiredResult aside).
  const taskRuntime = (model.extensions ?? []).find((ext) => ext.policy.runtime === "tasks" && ext.policy.cancelRequest !== null);
  const becomesTask = (m: MethodRecord) => {
    const handles = taskRuntime?.policy.widenedResults[m.method]?.map((w) => w.type) ?? [];
    if (side !== "client" || handles.length === 0 || m.results === null) return null;
    const others = m.results.filter((r) => !handles.includes(r));
    const final = others.filter((r) => r !== "InputRequiredResult");
    return { results: formatResult(others, "T.")!, task: `ClientTask<${formatResult(final.length > 0 ? final : ["Result"], "T.")}>` };
  };
  if (taskRuntime !== undefined && side === "server" && missingCapabilityCode === null) {
    throw new StubgenError(
      `the ${taskRuntime.id} extension refuses its requests to clients that did not declare it with MissingRequiredClientCapabilityError, which this revision's schema does not define`,
      { file: taskRuntime.file },
    );
  }
  const names = new Map<string, string>();
  const methods = requests.map((m) => {
    const name = methodName(m);
    const clash = names.get(name);
    if (clash !== undefined) {
      throw new StubgenError(`${m.method} and ${clash} would both become the method ${name}() of the generated ${side}`);
    }
    names.set(name, m.method);
    return {
      name,
      method: m.method,
      doc: docLines(m),
      params: paramsType(m),
      paramsRequired: m.paramsRequired,
      metaOnly: m.paramsMetaOnly && (!m.paramsRequired || fillsMeta),
      result: formatResult(m.results, "T.") ?? "T.Result",
      options: m.cancellable ? "RequestOptions" : "UncancellableRequestOptions",
      taskAugmentable: m.taskAugmentable,
      becomesTask: becomesTask(m),
    };
  });
  const taskMethods = methods.filter((m) => m.taskAugmentable).map((m) => m.method);
  return {
    side,
    peer,
    className: side === "client" ? "McpClient" : "McpServer",
    out: `${cap(side)}RequestMap`,
    in: `${cap(peer)}RequestMap`,
    outN: `${cap(side)}NotificationMap`,
    inN: `${cap(peer)}NotificationMap`,
    methods,
    taskMethods,
    taskMethodType: taskMethods.map((m) => JSON.stringify(m)).join(" | "),
    taskResult: model.definitions.includes(policy.taskResultType) ? policy.taskResultType : "Result",
    tasks: taskRuntime === undefined ? null : { cancelRequest: taskRuntime.policy.cancelRequest, missingCapabilityCode },
    fillsMeta,
    defaultTimeoutMs: policy.defaultTimeoutMs,
    defaultMaxTotalTimeoutMs: policy.defaultMaxTotalTimeoutMs,
    requestMeta: fillsMeta ? policy.requestMeta : null,
    lifecycle: side === "server" ? lifecycle : null,
    isServer: side === "server",
    http: side === "server" ? http : null,
    /** The result `_meta` key the server identifies itself under, where it has the `serverInfo` option. */
    serverInfoMetaKey: side === "server" && http !== null && lifecycle !== null && lifecycle.kind === "discover" ? http.serverInfoMetaKey : null,
    lifecycleInitialize: lifecycle?.kind === "initialize",
    serverInfoType:
      lifecycle === null
        ? null
        : lifecycle.kind === "initialize"
          ? `T.${lifecycle.result}["serverInfo"]`
          : model.definitions.includes("Implementation")
            ? "T.Implementation"
            : null,
  };
}
