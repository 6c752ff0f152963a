import { methodName } from "../emit/facade-view.js";
import type { MethodRecord, SchemaModel } from "../model/model.js";
import { finishModel, type RevisionModel } from "../model/revision.js";
import { code, definitionChangeText } from "./format.js";
import { compareText, renderShape, shapeOf } from "./shape.js";
import type { DefinitionChange, Direction, MethodPresence, RevisionDiff, RevisionInput } from "./types.js";

/**
 * `mcp-stubgen diff --migrate`: the diff read as a migration guide. The same changes as the
 * report, arranged for someone updating code: what changes in the generated API (McpClient and
 * McpServer methods and handlers, transports), methods that moved (a request that became an
 * input request) and definitions that were renamed, repeated changes folded into one line with
 * a count, and the rest one line each. Every group says what to change in your code (the
 * hints are data: the tables below).
 */

/** One line of the guide: what changed, how often, a few examples, and what to do about it. */
export interface MigrationGroup {
  readonly title: string;
  /** How many entries of the diff this line stands for. */
  readonly count: number;
  /** Names the group covers (all of them for the API and moves; the first few for repeats). */
  readonly examples: readonly string[];
  readonly breaking: boolean;
  /** What to change in your code; empty when nothing needs changing. */
  readonly todo: string;
}

export interface MigrationGuide {
  readonly from: string;
  readonly to: string;
  /** The generated API: McpClient/McpServer methods and handlers, transports. */
  readonly api: readonly MigrationGroup[];
  /** Methods that became input requests; definitions renamed (same shape, new name). */
  readonly moves: readonly MigrationGroup[];
  /** Definition changes that repeat (same change of the same property in several definitions). */
  readonly repeated: readonly MigrationGroup[];
  /** Everything else, one line each. */
  readonly other: readonly MigrationGroup[];
  /** Entries of the diff the guide covers (each counted once). */
  readonly changes: number;
}

/** How many names a repeated group shows before "…". */
const EXAMPLES = 4;

/** What to do when a client → server request is gone, by method (the generated API's view). */
const REMOVED_REQUEST_TODO: Readonly<Record<string, string>> = {
  initialize:
    "there is no handshake: drop the initialize() call; server/discover (discover()) tells what the server offers, and each request carries the protocol version in _meta (the runtime adds it)",
  ping: "there is no ping: drop it, or call a cheap method (discover()) to check the server is there",
  "logging/setLevel":
    'the level is per request now: instead of one setLevel() for the session, put the level in each request\'s _meta, `"io.modelcontextprotocol/logLevel": "info"` (RequestMetaObject; without it the server sends no notifications/message for that request); a server\'s ctx.log honours it, as it honoured setLevel',

  "resources/subscribe": "subscribe through subscriptions/listen instead",
  "resources/unsubscribe": "end the subscriptions/listen stream instead",
};

/** What to do for a request whose method belongs to an extension now (by prefix). */
const EXTENSION_PREFIXES: ReadonlyArray<readonly [prefix: string, todo: string]> = [
  ["tasks/", "Tasks are an extension in this revision: generate with --extension tasks to keep the task methods"],
];

/** What to do, by property and kind of change (`"_meta property-required"`), else by property, for a definition change. */
const PROPERTY_TODO: Readonly<Record<string, string>> = {
  "_meta property-required": "the client runtime fills a request's _meta (the protocol version and the rest): only params you send by hand must carry it",
  inputResponses: "the runtime sets it when McpClient answers input rounds: nothing to do unless you retry by hand",
  requestState: "the runtime sets it when McpClient answers input rounds: nothing to do unless you retry by hand",
  _meta: "code that reads or builds _meta: use the named meta types (their keys are the same; most are still open objects)",
  resultType:
    'every result says what it is ("complete", or "input_required"): code that reads results checks it; results built outside the generated McpServer must carry it (see docs/client-and-server.md for what the server fills)',
  cacheScope: "cacheable results say who may reuse them: decide per server (see docs/client-and-server.md for the defaults the server fills); clients may cache by it",
  ttlMs: "cacheable results say how long they stay fresh: decide per server (see docs/client-and-server.md for the defaults the server fills); clients may cache by it",
  task: "task augmentation left the core: use the Tasks extension (--extension tasks)",
  jsonrpc: "stop reading JSON-RPC framing fields from these types: the runtime owns the envelope",
  id: "stop reading JSON-RPC framing fields from these types: the runtime owns the envelope",
  "params property-required": "requests built by hand must send params (with _meta); through the generated McpClient the runtime fills _meta",
};

/** What to do, by kind of change, when no property-specific hint applies. */
const CHANGE_TODO: Readonly<Record<DefinitionChange["change"], string>> = {
  "property-added": "objects of these types you build must now set it",
  "property-removed": "stop reading or setting it",
  "property-required": "always set it where you build these objects",
  "property-optional": "check for it before reading it",
  "property-type": "update code that builds or reads it",
  "additional-properties": "extra keys are no longer typed: move them under _meta",
  type: "update code that builds or reads values of this type",
};

/**
 * What to do about a change of the revision's rules (model/policy.ts), by key; a key not here
 * changes nothing in your code (the generated runtime follows it). `before`/`after` are the
 * rules' values (null: the rules set none).
 */
const POLICY_TODO: Readonly<Record<string, (before: unknown, after: unknown) => { readonly title: string; readonly todo: string }>> = {
  defaultTimeoutMs: (before, after) => ({
    title: `default request timeout: ${timeoutText(before, TIMEOUT_FALLBACK)} → ${timeoutText(after, TIMEOUT_FALLBACK)} on every request that gives none`,
    todo:
      after === null
        ? "requests no longer end on their own: pass timeoutMs where you want a limit (or the endpoint's defaultTimeoutMs option)"
        : `the revision's rules now set it: a request that gives no timeout fails after ${timeoutText(after, TIMEOUT_FALLBACK)} (RequestTimeoutError), whatever the runtime's fallback was: pass timeoutMs on calls that may run longer, or set the endpoint's defaultTimeoutMs option (0: none); long-lived requests (subscriptions/listen) are exempt`,
  }),
  defaultMaxTotalTimeoutMs: (before, after) => ({
    title: `default cap over a whole request, progress resets included: ${timeoutText(before, "none")} → ${timeoutText(after, "none")}`,
    todo:
      after === null
        ? "progress now extends a request without limit: pass maxTotalTimeoutMs where you want one"
        : `a request whose progress keeps resetting its timeout still ends after ${timeoutText(after, "none")}: pass maxTotalTimeoutMs (or the endpoint's defaultMaxTotalTimeoutMs option; 0: none) for work that runs longer`,
  }),
};

/** What a request timeout is when the revision's rules set none. */
const TIMEOUT_FALLBACK = "none set by the revision (the runtime's fallback applied: defaultTimeoutOf, core/endpoint-contract.ts)";

/** A rules timeout for a reader: `60 s`, `10 min`, or `unset` when the rules set none (null). */
function timeoutText(ms: unknown, unset: string): string {
  if (typeof ms !== "number") return unset;
  return ms % 60_000 === 0 && ms >= 120_000 ? `${ms / 60_000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The transports the generated index exports, by how the revision speaks HTTP. */
const TRANSPORTS: Readonly<Record<"stateless" | "session" | "legacy", { readonly client: string; readonly server: string; readonly name: string }>> = {
  stateless: { client: "createHttpClientTransport", server: "createHttpHandler", name: "the stateless Streamable HTTP transport" },
  session: { client: "createSessionHttpClientTransport", server: "createSessionHttpHandler", name: "Streamable HTTP with sessions" },
  legacy: { client: "createLegacySseClientTransport", server: "createLegacySseHandler", name: "HTTP+SSE" },
};

/** The transports a revision's index exports, from its era facts (model/revision.ts EraModel). */
function httpKind(model: RevisionModel): keyof typeof TRANSPORTS | null {
  const transport = model.era.httpTransport;
  return transport === "sse" ? "legacy" : transport;
}

/** The finished model (http binding, input requests), or null when the schema does not fit the generator's tables. */
function finished(side: RevisionInput): RevisionModel | null {
  try {
    return finishModel(side);
  } catch {
    return null;
  }
}

const requestOf = (model: SchemaModel, method: string): MethodRecord | undefined => model.methods.find((m) => m.method === method && m.kind === "request");
const call = (record: MethodRecord | undefined, method: string) => `${record === undefined ? method : methodName(record)}()`;

/** The migration guide of `diff` (made by diffRevisions from `from` and `to`). Pure. */
export function migrationGuide(from: RevisionInput, to: RevisionInput, diff: RevisionDiff): MigrationGuide {
  // Each entry of the diff goes to one line of the guide: take() claims entries, returning those not claimed before.
  const covered = new Set<unknown>();
  const take = <T>(entries: readonly T[]): T[] => {
    const fresh = entries.filter((e) => !covered.has(e));
    for (const e of fresh) covered.add(e);
    return fresh;
  };
  const before = finished(from);
  const after = finished(to);
  const inputs = new Set(after?.inputRequests?.inputs.map((i) => i.method) ?? []);

  // Moves: a server → client request (or its notification) that is an input request now.
  const moved = take(diff.methods.removed.filter((m) => inputs.has(m.method)));
  const moves: MigrationGroup[] = [];
  const movedMethods = [...new Set(moved.map((m) => m.method))];
  if (movedMethods.length > 0) {
    moves.push({
      title: `${movedMethods.map(code).join(", ")}: no longer requests of their own, they became input requests`,
      count: moved.length,
      examples: movedMethods,
      breaking: true,
      todo:
        "a server asks for them from inside the handler that needs them, with ctx.input.required(…) (the handler's result is then InputRequiredResult and the client retries with the answers); a client keeps its handlers for them: McpClient answers input requests with the same handlers, by default",
    });
  }
  // Renames: a removed definition whose shape exactly one added definition has, and no other
  // removed one (a shape as plain as `string` or `{}` matches too much to mean a rename).
  const shapes = <T extends { readonly definition: string }>(list: readonly T[], side: RevisionInput) => {
    const byShape = new Map<string, T[]>();
    for (const d of list) {
      const shape = renderShape(shapeOf(side.doc, side.doc.defs.get(d.definition)));
      byShape.set(shape, [...(byShape.get(shape) ?? []), d]);
    }
    return byShape;
  };
  const addedShapes = shapes(diff.definitions.added, to);
  for (const [shape, removedHere] of shapes(diff.definitions.removed, from)) {
    const twins = addedShapes.get(shape);
    const removed = removedHere[0];
    if (removedHere.length !== 1 || twins?.length !== 1 || removed === undefined || shape.length < 16) continue;
    const twin = twins[0]!;
    take([removed, twin]);
    moves.push({ title: `${code(removed.definition)} renamed ${code(twin.definition)} (same shape)`, count: 2, examples: [removed.definition, twin.definition], breaking: true, todo: `rename it in your code` });
  }

  const api = apiGroups(diff, from.model, to.model, before, after, take);
  const repeated = repeatedGroups(diff.definitions.changed.filter((c) => !covered.has(c)), take);
  const other = otherGroups(diff, covered);
  return { from: diff.from, to: diff.to, api, moves, repeated, other, changes: diff.summary.changes };
}

/** The generated API: methods of McpClient (requests it sends), handlers of McpServer, transports. */
function apiGroups(
  diff: RevisionDiff,
  fromModel: SchemaModel,
  toModel: SchemaModel,
  before: RevisionModel | null,
  after: RevisionModel | null,
  take: <T>(entries: readonly T[]) => T[],
): MigrationGroup[] {
  // (take() leaves out what the moves claimed: a request that became an input request is not "removed".)
  const groups: MigrationGroup[] = [];
  const of = (list: readonly MethodPresence[], direction: Direction) => list.filter((m) => m.direction === direction);
  // Client → server requests: McpClient methods and McpServer handlers.
  const gone = take(of(diff.methods.removed, "ClientRequest"));
  const byTodo = new Map<string, string[]>();
  for (const m of gone) {
    const todo = REMOVED_REQUEST_TODO[m.method] ?? EXTENSION_PREFIXES.find(([prefix]) => m.method.startsWith(prefix))?.[1] ?? "drop the call and the handler";
    byTodo.set(todo, [...(byTodo.get(todo) ?? []), m.method]);
  }
  for (const [todo, methods] of byTodo) {
    groups.push({
      title: `McpClient ${methods.map((m) => code(call(requestOf(fromModel, m), m))).join(", ")} removed, and the McpServer handlers ${methods.map((m) => code(`"${m}"`)).join(", ")}`,
      count: methods.length,
      examples: methods,
      breaking: true,
      todo,
    });
  }
  const added = take(of(diff.methods.added, "ClientRequest"));
  if (added.length > 0) {
    groups.push({
      title: `McpClient ${added.map((m) => code(call(requestOf(toModel, m.method), m.method))).join(", ")} new, with the McpServer handlers ${added.map((m) => code(`"${m.method}"`)).join(", ")}`,
      count: added.length,
      examples: added.map((m) => m.method),
      breaking: false,
      todo: "optional: a server answers them by default where the runtime can (server/discover from its handlers); add handlers to offer more",
    });
  }
  // Server → client requests and the notifications of either side: the handlers of the side that receives them.
  for (const [direction, who] of [
    ["ServerRequest", "McpClient handlers (requests from the server)"],
    ["ClientNotification", "McpServer notification handlers"],
    ["ServerNotification", "McpClient notification handlers"],
  ] as const) {
    const removed = take(of(diff.methods.removed, direction).filter((m) => !m.method.startsWith("tasks/") && m.method !== "notifications/tasks/status"));
    if (removed.length > 0) {
      groups.push({ title: `${who} ${removed.map((m) => code(`"${m.method}"`)).join(", ")} removed`, count: removed.length, examples: removed.map((m) => m.method), breaking: true, todo: "drop those handlers: nothing sends these any more" });
    }
    const tasks = take(of(diff.methods.removed, direction).filter((m) => m.method.startsWith("tasks/") || m.method === "notifications/tasks/status"));
    if (tasks.length > 0) {
      groups.push({ title: `${who} for the task methods ${tasks.map((m) => code(`"${m.method}"`)).join(", ")} removed`, count: tasks.length, examples: tasks.map((m) => m.method), breaking: true, todo: EXTENSION_PREFIXES[0]![1] });
    }
    const fresh = take(of(diff.methods.added, direction));
    if (fresh.length > 0) {
      groups.push({ title: `${who} ${fresh.map((m) => code(`"${m.method}"`)).join(", ")} new`, count: fresh.length, examples: fresh.map((m) => m.method), breaking: false, todo: "optional: add a handler where you want to react to them" });
    }
  }
  // Transports: the index exports the HTTP transports of the revision's era.
  const was = before === null ? null : httpKind(before);
  const is = after === null ? null : httpKind(after);
  if (was !== null && is !== null && was !== is) {
    const a = TRANSPORTS[was];
    const b = TRANSPORTS[is];
    groups.push({
      title: `HTTP: ${a.name} replaced by ${b.name}: ${code(a.client)} → ${code(b.client)}, ${code(a.server)} → ${code(b.server)}`,
      count: 0,
      examples: [a.client, a.server, b.client, b.server],
      breaking: true,
      todo: `construct the new ones where you built the old (their options differ: see docs/http-client.md and docs/http-server.md); stdio and in-memory are unchanged`,
    });
  }
  return groups;
}

/** Definition changes grouped by what changed: a group of two or more is one line with a count. */
function repeatedGroups(changes: readonly DefinitionChange[], take: <T>(entries: readonly T[]) => T[]): MigrationGroup[] {
  const groups = new Map<string, DefinitionChange[]>();
  for (const c of changes) groups.set(changeKey(c), [...(groups.get(changeKey(c)) ?? []), c]);
  const out: MigrationGroup[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    take(members);
    const first = members[0]!;
    const names = [...new Set(members.map((m) => m.definition))].sort(compareText);
    const property = "property" in first ? first.property : undefined;
    out.push({
      title: `${members.length} definitions: ${definitionChangeText(first, "title")}`,
      count: members.length,
      examples: names.slice(0, EXAMPLES),
      breaking: members.some((m) => m.breaking),
      todo: todoFor(first),
    });
  }
  return out.sort((a, b) => b.count - a.count || compareText(a.title, b.title));
}

/** The hint of a definition change: by property and change, by property, by change (nothing for an optional addition). */
function todoFor(c: DefinitionChange): string {
  const property = "property" in c ? c.property : undefined;
  const specific = property === undefined ? undefined : (PROPERTY_TODO[`${property} ${c.change}`] ?? PROPERTY_TODO[property]);
  if (specific !== undefined) return specific;
  return c.change === "property-added" && !c.required ? "" : CHANGE_TODO[c.change];
}

/** Two changes with the same key are the same change in different definitions. */
function changeKey(c: DefinitionChange): string {
  switch (c.change) {
    case "property-added":
      return `${c.change} ${c.property} ${c.required} ${c.type}`;
    case "property-removed":
      return `${c.change} ${c.property} ${c.type}`;
    case "property-required":
    case "property-optional":
      return `${c.change} ${c.property}`;
    case "property-type":
      return `${c.change} ${c.property} ${c.before} ${c.after}`;
    case "additional-properties":
    case "type":
      return `${c.change} ${c.before} ${c.after}`;
  }
}

/** What no group took: one line each, with the generic hint of its kind. */
function otherGroups(diff: RevisionDiff, covered: ReadonlySet<unknown>): MigrationGroup[] {
  const out: MigrationGroup[] = [];
  const one = (title: string, breaking: boolean, todo: string, example: string): void => void out.push({ title, count: 1, examples: [example], breaking, todo });
  for (const c of diff.methods.changed) {
    if (covered.has(c)) continue;
    const todo =
      c.change === "result" && c.widened
        ? "callers: the result may be the new member too (narrow it before reading it)"
        : c.change === "paramsRequired"
          ? c.after
            ? "requests built by hand must send params; through the generated McpClient, see the method's signature (the runtime fills _meta)"
            : ""
          : c.change === "taskAugmentable"
            ? c.after
              ? ""
              : "stop asking for a task on it (or generate with --extension tasks)"
            : "update the calls and handlers";
    one(`${code(c.method)}: ${c.change === "result" ? `result ${code(c.before)} → ${code(c.after)}` : c.change === "params" ? "params type changed" : c.change === "paramsRequired" ? (c.after ? "params now required" : "params now optional") : c.after ? "now task-augmentable" : "no longer task-augmentable"}`, c.breaking, todo, c.method);
  }
  // Added and removed definitions: one line each way, every name listed.
  const addedDefs = diff.definitions.added.filter((d) => !covered.has(d)).map((d) => d.definition);
  if (addedDefs.length > 0) out.push({ title: `${addedDefs.length} definitions added: ${addedDefs.map(code).join(", ")}`, count: addedDefs.length, examples: addedDefs, breaking: false, todo: "" });
  const removedDefs = diff.definitions.removed.filter((d) => !covered.has(d));
  if (removedDefs.length > 0) {
    const names = removedDefs.map((d) => d.definition);
    out.push({ title: `${names.length} definitions removed: ${names.map(code).join(", ")}`, count: names.length, examples: names, breaking: removedDefs.some((d) => d.breaking), todo: "stop using these types (the lines above say what replaced the methods they belonged to)" });
  }
  for (const c of diff.definitions.changed) if (!covered.has(c)) one(`${code(c.definition)}: ${definitionChangeText(c, "title")}`, c.breaking, todoFor(c), c.definition);
  // Rule changes that change what your code sees (a default timeout) get a line of their own, with their values.
  for (const p of diff.cancellation.policy) {
    const hint = POLICY_TODO[p.key]?.(p.before, p.after);
    if (hint !== undefined) out.push({ title: hint.title, count: 1, examples: [p.key], breaking: p.breaking, todo: hint.todo });
  }
  const policy = diff.cancellation.policy.filter((p) => POLICY_TODO[p.key] === undefined);
  if (policy.length > 0) {
    out.push({ title: `the revision's cancellation and timeout rules: ${policy.map((p) => code(p.key)).join(", ")} changed (\`mcp-stubgen diff\` shows the values)`, count: policy.length, examples: policy.map((p) => p.key), breaking: policy.some((p) => p.breaking), todo: "nothing in your code: the generated runtime follows them" });
  }
  for (const m of diff.cancellation.methods) one(`${code(m.method)}: ${m.after ? "now cancellable" : "no longer cancellable"}`, m.breaking, m.after ? "" : "do not pass an AbortSignal to it", m.method);
  return out;
}

/** The guide as Markdown: a title, the count line, then the four sections (empty ones left out). */
export function formatMigration(guide: MigrationGuide): string {
  // Only a repeated change's title leaves its names out (they follow in parentheses); every other title names them itself.
  const lines = (groups: readonly MigrationGroup[], named: boolean) =>
    groups.map((g) => {
      const more = named && g.examples.length > 0 ? ` (${g.examples.map(code).join(", ")}${g.count > g.examples.length ? ", …" : ""})` : "";
      const todo = g.todo === "" ? "" : `\n  - what to change: ${g.todo}`;
      return `- ${g.title}${more}${g.breaking ? " — **breaking**" : ""}${todo}`;
    });
  const groups = guide.api.length + guide.moves.length + guide.repeated.length + guide.other.length;
  const out = [`# Migrating from MCP ${guide.from} to ${guide.to}`, "", `${groups} lines for the diff's ${guide.changes} changes (\`mcp-stubgen diff\` without --migrate lists each one).`];
  for (const [title, section, named] of [
    ["The generated API", guide.api, false],
    ["Moved and renamed", guide.moves, false],
    ["Repeated changes", guide.repeated, true],
    ["Other changes", guide.other, false],
  ] as const) {
    if (section.length > 0) out.push("", `## ${title}`, "", ...lines(section, named));
  }
  return `${out.join("\n")}\n`;
}
