import { StubgenError } from "../errors.js";
import type { MethodRecord, SchemaModel } from "../model/model.js";
import { formatResult, formatTypeExpr, type Side } from "../model/vocabulary.js";
import type { RevisionPolicy } from "../model/policy.js";

/** Members of the generated McpClient/McpServer classes that a method name must not shadow. */
const RESERVED = new Set([
  "connect",
  "close",
  "request",
  "notify",
  "inFlight",
  "openConnection",
  "httpBinding",
  "constructor",
  // The server's registrations (features/registry.ts).
  "registerTool",
  "registerPrompt",
  "registerResource",
  "registerResourceTemplate",
  "resourceUpdated",
]);

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

/** The extension whose runtime module is the Tasks extension (templates/runtime/features/task-manager.ts and the other task-*.ts), if merged. */
export function tasksExtension(model: SchemaModel) {
  return (model.extensions ?? []).find((ext) => ext.policy.runtime === "tasks" && ext.policy.cancelRequest !== null);
}

/** The result a handler answers when it needs input (multi round-trip requests): never a call's final result where the client answers it. */
const INPUT_REQUIRED_RESULT = "InputRequiredResult";

/**
 * What client.ts.hbs and server.ts.hbs share (partials/facade-methods.hbs, partials/facade-options.hbs):
 * the typed method of each request the side sends, the map names and the timeouts. `answersInput`:
 * the client answers InputRequiredResult itself unless told otherwise (`returnInputRequired`), so a
 * method that may meet one is generic on that option (`R`, default the client's `Manual`) and
 * resolves to InputAnswered<R, complete, InputRequiredResult> (core/typed.ts). Pure.
 */
export function facadeView(model: SchemaModel, policy: RevisionPolicy, side: Side, answersInput = false) {
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
  const taskRuntime = tasksExtension(model);
  // Multi round-trip requests: a method that may meet InputRequiredResult, with its other results.
  const inputAnswered = (results: readonly string[]): string | null => {
    if (!answersInput || !results.includes(INPUT_REQUIRED_RESULT)) return null;
    const complete = results.filter((r) => r !== INPUT_REQUIRED_RESULT);
    return `InputAnswered<R, ${formatResult(complete.length > 0 ? complete : ["Result"], "T.")}, T.${INPUT_REQUIRED_RESULT}>`;
  };
  const becomesTask = (m: MethodRecord) => {
    const handles = taskRuntime?.policy.widenedResults[m.method]?.map((w) => w.type) ?? [];
    if (side !== "client" || handles.length === 0 || m.results === null) return null;
    const others = m.results.filter((r) => !handles.includes(r));
    const final = others.filter((r) => r !== INPUT_REQUIRED_RESULT);
    const answered = inputAnswered(others);
    // ClientTask only where the client declared the extension (McpClient's `Capabilities`).
    return { results: answered ?? formatResult(others, "T.")!, answered: answered !== null, task: `TaskIfDeclared<TasksDeclared<Capabilities>, ${formatResult(final.length > 0 ? final : ["Result"], "T.")}>` };
  };
  const names = new Map<string, string>();
  const methods = requests.map((m) => {
    const name = methodName(m);
    const clash = names.get(name);
    if (clash !== undefined) {
      throw new StubgenError(`${m.method} and ${clash} would both become the method ${name}() of the generated ${side}`);
    }
    names.set(name, m.method);
    const options = m.cancellable ? "RequestOptions" : "UncancellableRequestOptions";
    const answered = m.results === null ? null : inputAnswered(m.results);
    const task = becomesTask(m);
    // Generic on the call's returnInputRequired where that selects the result (InputAnswered).
    const generic = answered !== null || task?.answered === true;
    return {
      name,
      method: m.method,
      doc: docLines(m),
      params: paramsType(m),
      // Optional where the schema allows, and where the client fills `_meta` and nothing else is required (`listTools()`).
      paramsOptional: !m.paramsRequired || (fillsMeta && m.paramsFieldsOptional),
      metaOnly: m.paramsMetaOnly && (!m.paramsRequired || fillsMeta),
      result: answered ?? formatResult(m.results, "T.") ?? "T.Result",
      generic: generic ? "<R extends boolean = Manual>" : "",
      options: generic ? `${options} & { returnInputRequired?: R | undefined }` : options,
      taskAugmentable: m.taskAugmentable,
      becomesTask: task,
    };
  });
  const taskMethods = methods.filter((m) => m.taskAugmentable).map((m) => m.method);
  // The typed request(): what each method that may meet InputRequiredResult resolves to otherwise.
  const inputResults = answersInput
    ? requests
        .filter((m) => m.results?.includes(INPUT_REQUIRED_RESULT) === true)
        .map((m) => ({ method: m.method, complete: formatResult(m.results!.filter((r) => r !== INPUT_REQUIRED_RESULT), "T.") ?? "T.Result" }))
    : [];
  return {
    side,
    peer,
    out: `${cap(side)}RequestMap`,
    in: `${cap(peer)}RequestMap`,
    outN: `${cap(side)}NotificationMap`,
    inN: `${cap(peer)}NotificationMap`,
    methods,
    taskMethods,
    inputResults,
    taskMethodType: taskMethods.map((m) => JSON.stringify(m)).join(" | "),
    taskResult: model.definitions.includes(policy.taskResultType) ? policy.taskResultType : "Result",
    fillsMeta,
    defaultTimeoutMs: policy.defaultTimeoutMs,
    defaultMaxTotalTimeoutMs: policy.defaultMaxTotalTimeoutMs,
  };
}
