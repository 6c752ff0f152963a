// The behaviour of the generated McpServer (server.ts keeps only its typed shell): the
// capabilities a server declares, the default handler of the request that opens a conversation
// (initialize or server/discover), and how the server's options become the endpoint's. All of it
// is driven by the revision's data, a ServerDescriptor that server.ts renders from the catalog
// and the schema, and is type-checked here, in place, rather than after generation.
//
// It loads no feature module (HTTP, tasks, multi round-trip requests; of mrtr-rules.ts and
// mrtr-state.ts it takes types only): what a revision has of them comes in through its
// descriptor, so that the server of a revision without them neither loads nor type-checks them
// (test/vendoring/strict-flags.test.ts).

import type { AnyRequestHandler, EndpointOptions, InputRequiredHook } from "../core/endpoint.js";
import { untypedHandlers, untypedNotificationHandlers, type FacadeOptions } from "./shared.js";
import { wireChecks, type WireValidators } from "../core/validation.js";
import type { InputRequiredRules } from "../features/mrtr-rules.js";
import type { RequestStateOptions } from "../features/mrtr-state.js";
import { serverLogging, type LoggingRule } from "../features/logging.js";
import { describeValue, type JsonObject, type Principal, type Transport } from "../core/protocol.js";
import { asPrincipal } from "../core/request-scope.js";
import { copyOwn, isObject, isThenable } from "../core/json.js";
import { numberOption } from "../core/options.js";

/**
 * A server capability and the client requests whose handlers imply it (Lifecycle, Capability
 * Negotiation: a server declares the features it offers). A capability is declared when a
 * handler of one of `methods` is registered; `when` adds a sub-capability for a particular one.
 */
export interface CapabilityRule {
  readonly capability: string;
  readonly methods: readonly string[];
  readonly when: ReadonlyArray<{ readonly method: string; readonly set: JsonObject }>;
}

/**
 * The request that opens a conversation, answered by default: `initialize` (2024-11-05 …
 * 2025-11-25, Lifecycle, Initialization) or `server/discover` (2026-07-28).
 */
export interface LifecycleRule {
  readonly kind: "initialize" | "discover";
  readonly method: string;
  /**
   * server/discover: the result `_meta` key the default result names the server under
   * (ResultMetaObject); null: the result carries no `_meta`. initialize has `serverInfo` itself.
   */
  readonly serverInfoKey: string | null;
}

/** One revision's server, as data: everything the runtime needs to know of it (server.ts's SERVER). */
export interface ServerDescriptor<Http extends object | null = object | null> {
  /** The revision the server was generated from (the catalog's REVISION). */
  readonly revision: string;
  /** The default lifecycle handler; null: the schema has neither request, the server has no default. */
  readonly lifecycle: LifecycleRule | null;
  /** The capability rules of this revision (deriveCapabilities). */
  readonly capabilities: readonly CapabilityRule[];
  /** The result `_meta` key under which the server identifies itself in every result; null: none. */
  readonly serverInfoMetaKey: string | null;
  /**
   * What the Streamable HTTP server needs of this revision besides the versions (HttpBinding
   * without `revision` and `supportedVersions`, checked where server.ts writes it); null: no HTTP binding.
   */
  readonly http: Http;
  /**
   * The session-era protocol versions a session over Streamable HTTP may negotiate, with what each
   * one's transport page asks (the catalog's ERA.sessionVersions); null: not a session revision.
   */
  readonly sessions: { readonly [version: string]: { readonly versionHeader: boolean; readonly priming: boolean; readonly batches: boolean } } | null;
  /** JSON-RPC batches are received over stdio and in memory (the catalog's ERA.batches: 2025-03-26). */
  readonly batches: boolean;
  /** subscriptions/listen (the catalog's SUBSCRIPTIONS), served from the `subscriptions` option; null: none. */
  readonly subscriptions: { readonly listen: string } | null;
  /**
   * The Tasks extension, served from the `tasks` option: its identifier (the key under
   * `capabilities.extensions`, TASKS_EXTENSION), the request that cancels a task and the code a
   * client that did not declare the extension is refused with; null: not merged.
   */
  readonly tasks: { readonly extension: string; readonly cancelRequest: string; readonly missingCapabilityCode: number } | null;
  /**
   * Multi round-trip requests: the catalog's INPUT_REQUIRED and mrtr.ts's createInputRequired,
   * which makes ctx.input of the handlers and the checks around them; null: none.
   */
  readonly inputRequired: {
    readonly rules: InputRequiredRules;
    readonly create: (rules: InputRequiredRules, options: RequestStateOptions | undefined, answers: WireValidators["inputs"]) => InputRequiredHook;
  } | null;
  /**
   * The client requests whose handler results the server completes where a field is missing
   * (2026-07-28): `complete` get `resultType: "complete"`, `cacheable` (CacheableResult) get
   * `cacheScope` and `ttlMs` from the `resultDefaults` option; null: none (earlier revisions).
   */
  readonly resultDefaults: { readonly complete: readonly string[]; readonly cacheable: readonly string[] } | null;
  /** How a client asks for log messages (ctx.log; features/logging.ts); null: the revision has none. */
  readonly logging: LoggingRule | null;
  /** The revision's wire validators (validators.ts's VALIDATORS). */
  readonly validators: WireValidators;
}

/**
 * What the runtime needs of a task manager (TaskManager): the handlers of the extension's
 * requests, and the check of every answer against its request's principal (a task handle nobody
 * could reach is refused: TaskManager.answered).
 */
export interface TaskHandlerSource {
  handlersFor(missingCapabilityCode: number, answers: WireValidators["inputs"]): object;
  answered?(result: unknown, principal: Principal | undefined): void;
}

/** What the runtime needs of a subscriptions hub (SubscriptionHub; the generated Subscriptions). */
export interface CapabilityDeclaringHub {
  /** The capabilities with what the hub delivers declared in them. */
  declare(capabilities: JsonObject): JsonObject;
  /** The untyped subscriptions/listen handler, honouring what `capabilities` declare. */
  listenHandler(capabilities?: object): (...args: never[]) => unknown;
}

/**
 * What the runtime needs of a server's registrations (features/registry.ts's Registry): the
 * handlers made from them, and the capabilities they add. Registrations change after the server
 * is made, so what it declares is worked out when a client asks (initialize, server/discover).
 */
export interface RegistrySource {
  handlers(): Readonly<Record<string, AnyRequestHandler>>;
  declare(capabilities: JsonObject): JsonObject;
  /** How many times the list a method answers has changed (Registry.listChanges); undefined: not a list of the registry's. */
  listChanges(method: string): number | undefined;
}

/**
 * The options of a generated McpServer the runtime reads; the generated McpServerOptions (of any
 * revision) is assignable to it. Anything else in them goes to the endpoint as it is.
 */
export interface ServerFacadeOptions extends FacadeOptions {
  readonly serverInfo?: object | undefined;
  readonly capabilities?: object | undefined;
  readonly instructions?: string | undefined;
  readonly protocolVersions?: readonly string[] | undefined;
  readonly subscriptions?: CapabilityDeclaringHub | undefined;
  readonly tasks?: TaskHandlerSource | undefined;
  readonly serverInfoInResults?: boolean | undefined;
  readonly requestState?: RequestStateOptions | undefined;
  readonly resultDefaults?: ResultDefaultsOptions | undefined;
  /** The server's registrations (McpServer.registerTool and the others); set by the generated McpServer. */
  readonly registry?: RegistrySource | undefined;
}

/**
 * The caching hints a server fills into cacheable results whose handler leaves them out
 * (CacheableResult, 2026-07-28). `Scope` is the schema's type of `cacheScope`.
 */
export interface ResultDefaultsOptions<Scope extends string = string> {
  /**
   * Indicates the intended scope of the cached response: "public" (no user-specific data: any
   * cache, shared ones included, may reuse it) or "private" (reused only within the same
   * authorization context). Default "private": a result that depends on the principal is never
   * shared by an intermediary unless the server says it may be.
   */
  readonly cacheScope?: Scope | undefined;
  /**
   * How long (ms, an integer ≥ 0) the client may cache the result before fetching it again.
   * Default 0: stale at once (the client may fetch it every time it needs it).
   */
  readonly ttlMs?: number | undefined;
}

/** The `resultType` of a complete result (2026-07-28 ResultType). */
const COMPLETE = "complete";
/** The values of CacheableResult's `cacheScope`. */
const CACHE_SCOPES: readonly string[] = ["private", "public"];
/** cacheScope where the server sets none: never shared across authorization contexts. */
export const DEFAULT_CACHE_SCOPE = "private";
/** ttlMs where the server sets none: stale at once. */
export const DEFAULT_TTL_MS = 0;

/** The fields filled into each kind of result, validated once per server (RangeError naming the option). */
function resultFills(options: ServerFacadeOptions): { readonly complete: JsonObject; readonly cacheable: JsonObject } {
  const given = options.resultDefaults;
  if (given !== undefined && !isObject(given)) throw new TypeError(`resultDefaults must be an object, got ${describeValue(given)}`);
  const cacheScope: unknown = given?.cacheScope ?? DEFAULT_CACHE_SCOPE;
  if (typeof cacheScope !== "string" || !CACHE_SCOPES.includes(cacheScope)) {
    throw new RangeError(`resultDefaults.cacheScope must be one of ${CACHE_SCOPES.map((s) => JSON.stringify(s)).join(", ")}, got ${describeValue(cacheScope)}`);
  }
  const ttlMs = numberOption("resultDefaults.ttlMs", given?.ttlMs, DEFAULT_TTL_MS, { min: 0 });
  return { complete: { resultType: COMPLETE }, cacheable: { resultType: COMPLETE, cacheScope, ttlMs } };
}

/**
 * `result` with each field of `fills` it lacks (missing or undefined) added, as a copy: the
 * handler's object (a shared constant, say) is never changed, and its own values win. Anything
 * but a complete result is left alone: an InputRequiredResult, a task handle (`resultType` set),
 * a value that is not an object (the endpoint answers for it).
 */
function completed(result: unknown, fills: JsonObject, keys: readonly string[]): unknown {
  if (!isObject(result) || (result["resultType"] !== undefined && result["resultType"] !== COMPLETE)) return result;
  let copy: JsonObject | undefined;
  for (const key of keys) {
    if (result[key] !== undefined) continue;
    copy ??= copyOwn(result);
    copy[key] = fills[key];
  }
  return copy ?? result;
}

/** `handler`, its results completed with `fills` (completed), whether it answers at once or with a promise. */
function withDefaults(handler: AnyRequestHandler, fills: JsonObject): AnyRequestHandler {
  // The fills' keys once per handler, not an entries array per result.
  const keys = Object.keys(fills);
  return (params, ctx) => {
    const result = handler(params, ctx);
    return isThenable(result) ? Promise.resolve(result).then((value) => completed(value, fills, keys)) : completed(result, fills, keys);
  };
}

/**
 * The handler table with the results of SERVER.resultDefaults's methods completed where a field is
 * missing (Result: servers implementing 2026-07-28 MUST include `resultType`; CacheableResult's
 * `cacheScope` and `ttlMs` are required), so that handlers may leave out what the server can fill.
 */
export function completingHandlers(
  server: ServerDescriptor,
  options: ServerFacadeOptions,
  handlers: Readonly<Record<string, AnyRequestHandler | undefined>> | undefined,
): Readonly<Record<string, AnyRequestHandler | undefined>> | undefined {
  const rules = server.resultDefaults;
  if (rules === null) return handlers;
  const fills = resultFills(options);
  if (handlers === undefined) return handlers;
  const cacheable = new Set(rules.cacheable);
  const table: Record<string, AnyRequestHandler | undefined> = { ...handlers };
  for (const method of rules.complete) {
    const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
    if (typeof handler === "function") table[method] = withDefaults(handler, cacheable.has(method) ? fills.cacheable : fills.complete);
  }
  return table;
}

/** What the default announcer uses of the server's endpoint (core/endpoint.ts's Endpoint). */
export interface AnnouncingEndpoint {
  notify(method: string, params?: object): Promise<void>;
  broadcast(method: string, params?: object, only?: (transport: Transport) => boolean): number;
}

/**
 * The default announcer of registrations on the revisions that announce by notification (2025
 * revisions; RegistryRules.announce "notify"). A list_changed goes to every peer of the server:
 * connect()'s and every connection open on it (one per session of the session server and of the
 * HTTP+SSE server), since a list changed for all of them (server/tools, List Changed Notification:
 * servers that declared listChanged SHOULD send it "when the list of available tools changes").
 * A notification due to some of them only (resources/updated, to its subscribers: `only` picks
 * their connections) goes to those; anything else keeps to connect()'s connection.
 */
export function notifyingAnnouncer(endpoint: () => AnnouncingEndpoint): (method: string, params?: JsonObject, only?: (transport: Transport) => boolean) => void {
  return (method, params, only) => {
    if (only !== undefined) endpoint().broadcast(method, params, only);
    else if (method.endsWith("/list_changed")) endpoint().broadcast(method, params);
    else endpoint().notify(method, params).catch(() => {});
  };
}

/** serverInfo of a server that gives none. */
export const DEFAULT_SERVER_INFO: { readonly name: string; readonly version: string } = { name: "mcp-server", version: "0.0.0" };

/**
 * The capabilities a server with these handlers offers, by `rules`. Only own properties that are
 * functions count (a table's `toString` is no handler). Flags the handlers cannot show
 * (`listChanged`: the server sends those notifications on its own) are never set here.
 */
export function deriveCapabilities(rules: readonly CapabilityRule[], handlers: object | undefined): JsonObject {
  const table = (handlers ?? {}) as Readonly<Record<string, unknown>>;
  const has = (method: string): boolean => Object.hasOwn(table, method) && typeof table[method] === "function";
  const capabilities: JsonObject = {};
  for (const { capability, methods, when } of rules) {
    if (!methods.some(has)) continue;
    const declared: JsonObject = {};
    for (const { method, set } of when) if (has(method)) Object.assign(declared, set);
    capabilities[capability] = declared;
  }
  return capabilities;
}

/**
 * The capabilities this server declares: `capabilities` (else derived from `handlers`), with what
 * its `subscriptions` hub delivers (Subscriptions.declare) where the revision serves them.
 */
export function declaredCapabilities(server: ServerDescriptor, options: ServerFacadeOptions): JsonObject {
  const given = (options.capabilities as JsonObject | undefined) ?? deriveCapabilities(server.capabilities, options.handlers);
  const capabilities = options.registry === undefined ? given : options.registry.declare(given);
  return server.subscriptions === null || options.subscriptions === undefined ? capabilities : options.subscriptions.declare(capabilities);
}

/**
 * The capabilities the default lifecycle result declares: declaredCapabilities, and with a task
 * manager the Tasks extension (`capabilities.extensions`, an empty settings object; SEP-2663).
 */
export function advertisedCapabilities(server: ServerDescriptor, options: ServerFacadeOptions): JsonObject {
  const capabilities = declaredCapabilities(server, options);
  if (server.tasks === null || options.tasks === undefined) return capabilities;
  const extensions = capabilities["extensions"] as JsonObject | undefined;
  return { ...capabilities, extensions: { ...extensions, [server.tasks.extension]: {} } };
}

/**
 * advertisedCapabilities, made once; with registrations, worked out on each call instead (they
 * change after the server is made).
 */
function capabilitiesSource(server: ServerDescriptor, options: ServerFacadeOptions): () => JsonObject {
  if (options.registry !== undefined) return () => advertisedCapabilities(server, options);
  const fixed = advertisedCapabilities(server, options);
  return () => fixed;
}

/** The protocol versions this server speaks, newest first (`protocolVersions`, default: its revision). */
function versionsOf(server: ServerDescriptor, options: ServerFacadeOptions): readonly string[] {
  return options.protocolVersions ?? [server.revision];
}

/** A default lifecycle handler: built once per server from its options. */
type LifecycleHandlerFactory = (server: ServerDescriptor, rule: LifecycleRule, options: ServerFacadeOptions) => (params: JsonObject | undefined) => JsonObject;

/** The default handler of each kind of lifecycle request. */
const LIFECYCLE_HANDLERS: { readonly [K in LifecycleRule["kind"]]: LifecycleHandlerFactory } = {
  /**
   * Lifecycle, Initialization: answers with the server's capabilities and info and the negotiated
   * version: "If the server supports the requested protocol version, it MUST respond with the
   * same version. Otherwise, the server MUST respond with another protocol version it supports"
   * (the first of protocolVersions, the newest).
   */
  initialize: (server, _rule, options) => {
    const versions = versionsOf(server, options);
    const capabilities = capabilitiesSource(server, options);
    const serverInfo = options.serverInfo ?? DEFAULT_SERVER_INFO;
    return (params) => {
      const requested = params?.["protocolVersion"];
      const protocolVersion = typeof requested === "string" && versions.includes(requested) ? requested : (versions[0] ?? server.revision);
      const result: JsonObject = { protocolVersion, capabilities: capabilities(), serverInfo };
      if (options.instructions !== undefined) result["instructions"] = options.instructions;
      return result;
    };
  },
  /**
   * Lifecycle, 2026-07-28: "Servers MUST implement server/discover": the versions, capabilities
   * and instructions of this server; its info goes in the result's `_meta` (ResultMetaObject:
   * servers SHOULD identify themselves). The answer does not depend on the caller, so caches may
   * share it (`cacheScope: "public"`), but it is marked stale at once (`ttlMs: 0`): write a
   * handler to let clients cache it.
   */
  discover: (server, rule, options) => {
    const capabilities = capabilitiesSource(server, options);
    const result: JsonObject = {
      resultType: "complete",
      supportedVersions: [...versionsOf(server, options)],
      capabilities: capabilities(),
      cacheScope: "public",
      ttlMs: 0,
    };
    if (rule.serverInfoKey !== null) result["_meta"] = { [rule.serverInfoKey]: options.serverInfo ?? DEFAULT_SERVER_INFO };
    if (options.instructions !== undefined) result["instructions"] = options.instructions;
    return options.registry === undefined ? () => result : () => ({ ...result, capabilities: capabilities() });
  },
};

/**
 * The handlers the server has without being given them, by method: the lifecycle request's,
 * subscriptions/listen's (from the `subscriptions` hub) and the Tasks extension's (from the
 * `tasks` manager). A handler of the user's wins over each of them.
 */
export function defaultHandlers(server: ServerDescriptor, options: ServerFacadeOptions): Readonly<Record<string, (...args: never[]) => unknown>> {
  // Registrations first: the handlers below are more specific, and the user's win over all.
  const defaults: Record<string, (...args: never[]) => unknown> = { ...options.registry?.handlers() };
  if (server.lifecycle !== null) defaults[server.lifecycle.method] = LIFECYCLE_HANDLERS[server.lifecycle.kind](server, server.lifecycle, options);
  if (server.subscriptions !== null && options.subscriptions !== undefined) {
    const hub = options.subscriptions;
    // With registrations, what is declared changes: each listen request honours what is declared then.
    defaults[server.subscriptions.listen] =
      options.registry === undefined
        ? hub.listenHandler(declaredCapabilities(server, options))
        : ((params: Parameters<AnyRequestHandler>[0], ctx: Parameters<AnyRequestHandler>[1]) =>
            (hub.listenHandler(declaredCapabilities(server, options)) as AnyRequestHandler)(params, ctx)) as (...args: never[]) => unknown;
  }
  if (server.tasks !== null && options.tasks !== undefined) Object.assign(defaults, options.tasks.handlersFor(server.tasks.missingCapabilityCode, server.validators.inputs));
  return defaults;
}

/** The check of a handler's answer against its request's principal (TaskHandlerSource.answered). */
type AnswerCheck = (result: unknown, principal: Principal | undefined) => void;

/**
 * `handler`, run as its request's principal (core/request-scope.ts: TaskManager.start without
 * `{ principal }` gives the task to it), its answer checked by the task manager (`answered`).
 */
function scoped(handler: AnyRequestHandler, answered: AnswerCheck): AnyRequestHandler {
  return (params, ctx) => {
    const result = asPrincipal(ctx.principal, () => handler(params, ctx));
    if (!isThenable(result)) {
      answered(result, ctx.principal);
      return result;
    }
    return Promise.resolve(result).then((value) => {
      answered(value, ctx.principal);
      return value;
    });
  };
}

/** The handler table, every handler scoped to its request's principal when the server has a task manager (scoped). */
function scopedHandlers(
  server: ServerDescriptor,
  options: ServerFacadeOptions,
  handlers: Readonly<Record<string, AnyRequestHandler | undefined>> | undefined,
): Readonly<Record<string, AnyRequestHandler | undefined>> | undefined {
  const tasks = options.tasks;
  if (server.tasks === null || tasks?.answered === undefined || handlers === undefined) return handlers;
  const answered: AnswerCheck = (result, principal) => tasks.answered?.(result, principal);
  const table: Record<string, AnyRequestHandler | undefined> = {};
  for (const [method, handler] of Object.entries(handlers)) table[method] = typeof handler === "function" ? scoped(handler, answered) : handler;
  return table;
}

/** The server's endpoint options: its own, with the defaults above and the revision's rules wired in. */
export function serverEndpointOptions(server: ServerDescriptor, options: ServerFacadeOptions): EndpointOptions {
  const defaults = defaultHandlers(server, options);
  // A handler of the user's wins over a default one.
  const merged = Object.keys(defaults).length === 0 ? untypedHandlers(options.handlers) : { ...untypedHandlers(defaults), ...untypedHandlers(options.handlers) };
  // ctx.log's levels, and logging/setLevel answered (or the user's handler heard) where the server declares logging.
  const logging = serverLogging(server.logging, declaredCapabilities(server, options), merged);
  return {
    ...options,
    // Servers SHOULD identify themselves in every result's `_meta` (basic/index, `_meta`).
    ...(server.serverInfoMetaKey === null || options.serverInfoInResults === false
      ? {}
      : { resultMeta: { [server.serverInfoMetaKey]: (options.serverInfo ?? DEFAULT_SERVER_INFO) as JsonObject } }),
    // Tasks extension: a result with resultType "task" is a task handle, cancelled with its cancel request.
    tasks: server.tasks === null ? undefined : { cancelRequest: server.tasks.cancelRequest },
    batches: server.batches,
    // Results completed where the handler left out what the server fills (completingHandlers).
    // With a task manager, each handler runs as its request's principal (scopedHandlers).
    handlers: scopedHandlers(server, options, completingHandlers(server, options, logging.handlers)),
    logging: logging.levels,
    notificationHandlers: untypedNotificationHandlers(options.notificationHandlers),
    // What the client sends is checked against the schema: its requests and notifications, the results.
    validate: wireChecks(server.validators, options.validate),
    // ctx.input of the handlers that may answer InputRequiredResult, and the checks around them.
    ...(server.inputRequired === null ? {} : { inputRequired: server.inputRequired.create(server.inputRequired.rules, options.requestState, server.validators.inputs) }),
  };
}

/**
 * How many times the list `method` answers has changed (McpServer.listChanges, what
 * createHttpHandler reads to keep its tools/list annotations until then): the registry's count
 * when the registry answers `method`; undefined when a handler of `handlers` does (the server
 * cannot tell when a list of yours changes) or nothing is registered for it.
 */
export function listChangesOf(options: ServerFacadeOptions, method: string): number | undefined {
  const own = options.handlers as Readonly<Record<string, unknown>> | undefined;
  if (own !== undefined && Object.hasOwn(own, method) && typeof own[method] === "function") return undefined;
  return options.registry?.listChanges(method);
}

/** What createHttpHandler reads (McpServer.httpBinding, an HttpBinding): the revision's HTTP rules and the protocol versions served. */
export function serverHttpBinding<Http extends object>(
  server: ServerDescriptor<Http>,
  options: ServerFacadeOptions,
): Http & { readonly revision: string; readonly supportedVersions: readonly string[]; readonly listen: string | null } {
  return { ...server.http, revision: server.revision, supportedVersions: [...versionsOf(server, options)], listen: server.subscriptions?.listen ?? null };
}
