// Registrations: tools, prompts, resources and resource templates registered one by one on a
// server (McpServer.registerTool and the others), and the handlers made from them: tools/list and
// tools/call, prompts/list and prompts/get, resources/list, resources/templates/list and
// resources/read, resources/subscribe and unsubscribe, completion/complete. The Registry keeps
// the registrations, lists them a page at a time (pagination.ts), declares the capabilities they
// imply and announces a registration that is added, changed or removed (list_changed); the
// requests that use a registration are registry-requests.ts's, its schemas schema-input.ts's,
// the types of the API registration-types.ts's.
//
// Revision-independent: what differs between revisions comes in as RegistryRules (server.ts's
// REGISTRY), rendered from the catalog.

import type { AnyRequestHandler, HandlerContext } from "../core/endpoint.js";
import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import type { JsonObject } from "../core/protocol.js";
import { defaultValidator, type Validator } from "./json-schema.js";
import { pageOf } from "./pagination.js";
import type { ItemConfig, PromptConfig, Registered, TemplateConfig, ToolConfig } from "./registration-types.js";
import {
  callTool,
  complete,
  getPrompt,
  listResources,
  notServed,
  readResource,
  servesResources,
  type Entry,
  type PromptEntry,
  type RegistryTables,
  type ResourceEntry,
  type Serving,
  type TemplateEntry,
  type ToolEntry,
} from "./registry-requests.js";
import { prepareSchema, requireObjectRoot, type SchemaInput } from "./schema-input.js";
import { uriMatcher } from "./uri-template.js";
import { ResourceSubscriptions, type Recipients } from "./resource-subscriptions.js";
import type { SubscriptionBus } from "./subscriptions.js";

/** What differs between revisions, as data (the generated server.ts's REGISTRY). */
export interface RegistryRules {
  /** The requests of the client this registry may serve in this revision (those the catalog has). */
  readonly methods: readonly string[];
  /** The notifications it may send in this revision (list_changed, resources/updated). */
  readonly notifications: readonly string[];
  /**
   * How a call with arguments that break the tool's input schema is answered: "tool-error", a
   * result with `isError: true` the model can read and correct (2025-11-25 and later, server/tools,
   * Error Handling: input validation errors are tool execution errors, SEP-1303); "invalid-params",
   * JSON-RPC -32602 (before: "Invalid arguments" are protocol errors).
   */
  readonly invalidArguments: "tool-error" | "invalid-params";
  /** The error code of resources/read for a URI nothing serves (-32002 until 2025-11-25; -32602 in 2026-07-28). */
  readonly resourceNotFound: number;
  /** Whether tools have `outputSchema` and results `structuredContent` (2025-06-18 and later). */
  readonly structuredContent: boolean;
  /** Whether the server declares `completions` for completion/complete (2025-03-26 and later). */
  readonly completionsCapability: boolean;
  /** How list changes reach clients: "notify" (2025: notifications on the connection), "publish" (2026-07-28: subscriptions/listen streams). */
  readonly announce: "notify" | "publish";
}

/** Where announcements go: the server wires it to its connections (notify; facade/server.ts's notifyingAnnouncer) or its Subscriptions hub (publish). */
export type Announcer = (method: string, params?: JsonObject, only?: Recipients) => void;

/** Options of the registry (McpServerOptions.registrations). */
export interface RegistryOptions {
  /** Validates plain JSON Schemas (default: the built-in validator, json-schema.ts; the `ajv` add-on has another). */
  readonly validator?: Validator | undefined;
  /** Validate arguments before handlers and structured results after them (default true). */
  readonly validate?: boolean | undefined;
  /** Items per page of every list (default 100; a cursor points at the next page). */
  readonly pageSize?: number | undefined;
  /**
   * Where list changes go instead of the server's own way (every connection of the server, or its
   * Subscriptions hub): a hub of your own, a log, several servers; called once per kind and change
   * burst, guarded.
   */
  readonly announce?: Announcer | undefined;
  /**
   * 2025 revisions: where resources/subscribe and notifications/resources/updated cross
   * instances (features/resource-subscriptions.ts), so that `resourceUpdated(uri)` on any instance
   * reaches every session subscribed to it on any instance; the Redis add-on's
   * RedisSubscriptionBus on a channel of its own (`{ channel: "resources" }`). Default none: one process.
   */
  readonly resourceBus?: SubscriptionBus | undefined;
}

type Kind = "tools" | "prompts" | "resources";

/** The list_changed notification of each kind. */
const LIST_CHANGED: Readonly<Record<Kind, string>> = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
};
const RESOURCE_UPDATED = "notifications/resources/updated";
/** The kind each list method lists. */
const LIST_KINDS: Readonly<Record<string, Kind>> = {
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resources",
};

/**
 * The registrations of one server and the handlers made from them. The generated McpServer
 * owns one (its registerTool and the others delegate here) and serves `handlers()` under the
 * handlers you pass yourself: a handler of yours for a method wins.
 */
export class Registry {
  readonly #rules: RegistryRules;
  readonly #validator: Validator;
  readonly #validate: boolean;
  readonly #pageSize: number;
  readonly #announce: Announcer;
  readonly #tools = new Map<string, ToolEntry>();
  readonly #prompts = new Map<string, PromptEntry>();
  /** Resources by URI (one per URI), and resource templates by name. */
  readonly #resources = new Map<string, ResourceEntry>();
  readonly #templates = new Map<string, TemplateEntry>();
  /** URIs each session or connection subscribed to (resources/subscribe, 2025 revisions). */
  readonly #subscribed: ResourceSubscriptions;
  readonly #pendingAnnouncements = new Set<Kind>();
  /** How many times each kind's list has changed (listChanges): every change counts, announced or not. */
  readonly #changes: Record<Kind, number> = { tools: 0, prompts: 0, resources: 0 };
  /** The enabled entries of each list method, made on its first page after a change (one array per method: a page is a slice). */
  readonly #enabled = new Map<string, readonly Entry[]>();
  readonly #methods: ReadonlySet<string>;

  /** The tables as the requests read them (registry-requests.ts). */
  readonly #tables: RegistryTables = { tools: this.#tools, prompts: this.#prompts, resources: this.#resources, templates: this.#templates };
  readonly #serving: Serving;

  constructor(rules: RegistryRules, options: RegistryOptions = {}, announce: Announcer = () => {}) {
    this.#rules = rules;
    this.#methods = new Set(rules.methods);
    this.#validator = options.validator ?? defaultValidator;
    this.#validate = options.validate ?? true;
    this.#pageSize = numberOption("registrations.pageSize", options.pageSize, 100, { min: 1, max: 10_000 });
    this.#announce = options.announce ?? announce;
    this.#subscribed = new ResourceSubscriptions(rules.methods.includes("resources/subscribe") ? options.resourceBus : undefined, (uri, only) => this.#send(RESOURCE_UPDATED, { uri }, only));
    this.#serving = { validate: this.#validate, rules };
  }

  // --- registration -------------------------------------------------------------------------

  /** Registers a tool (its name unique among tools). Throws for a schema that cannot be used. */
  registerTool(name: string, config: ToolConfig<object, SchemaInput | undefined, SchemaInput | undefined>, handler: ToolEntry["handler"]): Registered<typeof config> {
    this.#require("tools/call", "tools");
    const entry = { name, enabled: true } as ToolEntry;
    const apply = (next: typeof config): void => {
      const where = `tool ${JSON.stringify(name)}`;
      const input = next.inputSchema === undefined ? undefined : prepareSchema(next.inputSchema, "input", this.#validator, `${where} inputSchema`);
      if (input !== undefined) requireObjectRoot(input.json, `${where} inputSchema`);
      if (next.outputSchema !== undefined && !this.#rules.structuredContent) throw new TypeError(`${where}: this revision has no outputSchema`);
      const output = next.outputSchema === undefined ? undefined : prepareSchema(next.outputSchema, "output", this.#validator, `${where} outputSchema`);
      const { inputSchema: _in, outputSchema: _out, ...fields } = next as JsonObject;
      entry.input = input;
      entry.output = output;
      entry.listed = {
        name,
        ...fields,
        inputSchema: input?.json ?? { type: "object", properties: {} },
        ...(output === undefined ? {} : { outputSchema: output.json }),
      };
    };
    apply(config);
    entry.handler = handler;
    return this.#add("tools", this.#tools, entry, (next) => {
      apply({ ...config, ...next });
      config = { ...config, ...next };
    });
  }

  /** Registers a prompt; `argsSchema` (an object schema of strings) lists its arguments and validates them. */
  registerPrompt(name: string, config: PromptConfig<object, SchemaInput | undefined>, handler: PromptEntry["handler"]): Registered<typeof config> {
    this.#require("prompts/get", "prompts");
    const entry = { name, enabled: true } as PromptEntry;
    const apply = (next: typeof config): void => {
      const args = next.argsSchema === undefined ? undefined : prepareSchema(next.argsSchema, "input", this.#validator, `prompt ${JSON.stringify(name)} argsSchema`);
      const { argsSchema: _a, complete: _c, ...fields } = next as JsonObject;
      const listedArgs = args === undefined ? (fields["arguments"] as JsonObject[] | undefined) : promptArguments(args.json);
      entry.args = args;
      entry.complete = next.complete;
      entry.required = (listedArgs ?? []).filter((a) => a["required"] === true).map((a) => String(a["name"]));
      entry.listed = { name, ...fields, ...(listedArgs === undefined ? {} : { arguments: listedArgs }) };
    };
    apply(config);
    entry.handler = handler;
    return this.#add("prompts", this.#prompts, entry, (next) => {
      apply({ ...config, ...next });
      config = { ...config, ...next };
    });
  }

  /** Registers a resource at a fixed URI. */
  registerResource(name: string, uri: string, config: ItemConfig<object, "name" | "uri">, read: ResourceEntry["read"]): Registered<typeof config> {
    this.#require("resources/read", "resources");
    if (typeof uri !== "string" || uri === "") throw new TypeError(`resource ${JSON.stringify(name)}: uri must be a non-empty string`);
    const entry: ResourceEntry = { name, enabled: true, uri, read, listed: { name, uri, ...config } };
    return this.#add("resources", this.#resources, entry, (next) => {
      config = { ...config, ...next };
      entry.listed = { name, uri, ...config };
    }, uri);
  }

  /** Registers a resource template: resources/read of a URI it matches calls `read` with its variables. */
  registerResourceTemplate(name: string, uriTemplate: string, config: TemplateConfig<object>, read: TemplateEntry["read"]): Registered<typeof config> {
    this.#require("resources/read", "resources");
    const matcher = uriMatcher(uriTemplate);
    const split = (c: typeof config): JsonObject => {
      const { complete: _c, list: _l, ...fields } = c as JsonObject;
      return { name, uriTemplate, ...fields };
    };
    const lister = (c: typeof config): TemplateEntry["list"] => {
      if (c.list !== undefined && typeof c.list !== "function") throw new TypeError(`resource template ${JSON.stringify(name)}: list must be a function`);
      return c.list as TemplateEntry["list"];
    };
    const entry: TemplateEntry = { name, enabled: true, matcher, read, complete: config.complete, list: lister(config), listed: split(config) };
    return this.#add("resources", this.#templates, entry, (next) => {
      const list = lister({ ...config, ...next });
      config = { ...config, ...next };
      entry.complete = config.complete;
      entry.list = list;
      entry.listed = split(config);
    });
  }

  /**
   * A resource's content changed: notifications/resources/updated, to the clients subscribed to
   * it (2025 revisions: resources/subscribe; 2026-07-28: listen streams that asked for its URI).
   */
  resourceUpdated(uri: string): void {
    if (!this.#rules.notifications.includes(RESOURCE_UPDATED)) return;
    // 2025 revisions: the sessions and connections subscribed to it, here and on every instance.
    if (this.#rules.announce === "notify") return this.#subscribed.updated(uri);
    this.#send(RESOURCE_UPDATED, { uri });
  }

  #require(method: string, kind: Kind): void {
    if (!this.#methods.has(method)) throw new TypeError(`this revision has no ${method}: ${kind} cannot be registered`);
  }

  #add<E extends Entry, C>(kind: Kind, table: Map<string, E>, entry: E, update: (config: C) => void, key: string = entry.name): Registered<C> {
    if (table.has(key)) throw new TypeError(`${kind}: ${JSON.stringify(key)} is already registered`);
    table.set(key, entry);
    this.#changed(kind);
    const registry = this;
    return {
      get name() {
        return entry.name;
      },
      get enabled() {
        return entry.enabled;
      },
      update(config) {
        update(config);
        registry.#changed(kind);
      },
      enable() {
        if (entry.enabled) return;
        entry.enabled = true;
        registry.#changed(kind);
      },
      disable() {
        if (!entry.enabled) return;
        entry.enabled = false;
        registry.#changed(kind);
      },
      remove() {
        if (table.get(key) !== entry) return;
        table.delete(key);
        registry.#changed(kind);
      },
    };
  }

  /** Counts a change of `kind` and announces it, once per burst (registrations made together announce once). */
  #changed(kind: Kind): void {
    this.#changes[kind]++;
    this.#enabled.clear();
    if (!this.#rules.notifications.includes(LIST_CHANGED[kind]) || this.#pendingAnnouncements.has(kind)) return;
    this.#pendingAnnouncements.add(kind);
    queueMicrotask(() => {
      this.#pendingAnnouncements.delete(kind);
      this.#send(LIST_CHANGED[kind]);
    });
  }

  #send(method: string, params?: JsonObject, only?: Recipients): void {
    try {
      this.#announce(method, params, only);
    } catch {
      // A throwing announcer (not connected, a hub without the kind) must not break a registration.
    }
  }

  // --- what the server declares and serves ---------------------------------------------------

  /** Whether anything of `kind` is registered (removed ones aside; disabled ones count: they may come back). */
  #has(kind: Kind): boolean {
    return kind === "resources" ? servesResources(this.#tables) : (kind === "tools" ? this.#tools : this.#prompts).size > 0;
  }

  /**
   * `capabilities` with the kinds that have registrations declared: `tools`, `prompts`,
   * `resources` (with `listChanged` where the registry announces by notification, and
   * `subscribe` where the revision has resources/subscribe), and `completions` where a completer
   * is registered. What `capabilities` already says is kept. Not modified: a copy.
   */
  declare(capabilities: JsonObject): JsonObject {
    const out: JsonObject = { ...capabilities };
    const notify = this.#rules.announce === "notify";
    for (const kind of ["tools", "prompts", "resources"] as const) {
      if (!this.#has(kind)) continue;
      const own = isObject(out[kind]) ? out[kind] : {};
      const flags: JsonObject = {};
      if (notify && this.#rules.notifications.includes(LIST_CHANGED[kind])) flags["listChanged"] = true;
      if (kind === "resources" && this.#methods.has("resources/subscribe")) flags["subscribe"] = true;
      out[kind] = { ...flags, ...own };
    }
    const completes = [...this.#prompts.values()].some((p) => p.complete !== undefined) || [...this.#templates.values()].some((t) => t.complete !== undefined);
    if (completes && this.#rules.completionsCapability && this.#methods.has("completion/complete") && !isObject(out["completions"])) out["completions"] = {};
    return out;
  }

  /**
   * How many times the list `method` answers (tools/list, prompts/list, resources/list,
   * resources/templates/list) has changed since the registry was made: a registration added,
   * updated, enabled, disabled or removed. Undefined for any other method. What reads a list once
   * and keeps it (the HTTP handler's tools/list annotations, http/stateless/tool-headers.ts)
   * reads it again when this number moves, not on every request.
   */
  listChanges(method: string): number | undefined {
    const kind = Object.hasOwn(LIST_KINDS, method) ? LIST_KINDS[method] : undefined;
    return kind === undefined || !this.#methods.has(method) ? undefined : this.#changes[kind];
  }

  /** The handlers of the methods the registry serves in this revision (a method whose kind has no registration answers -32601). */
  handlers(): Record<string, AnyRequestHandler> {
    const all: Record<string, AnyRequestHandler> = {
      "tools/list": (params) => this.#list("tools", "tools/list", "tools", [this.#tools], params),
      "tools/call": (params, ctx) => callTool(this.#tables, params, ctx, this.#serving),
      "prompts/list": (params) => this.#list("prompts", "prompts/list", "prompts", [this.#prompts], params),
      "prompts/get": (params, ctx) => getPrompt(this.#tables, params, ctx, this.#serving),
      "resources/list": (params, ctx) => this.#listResources(params, ctx),
      "resources/templates/list": (params) => this.#list("resources", "resources/templates/list", "resourceTemplates", [this.#templates], params),
      "resources/read": (params, ctx) => readResource(this.#tables, params, ctx, this.#serving),
      "resources/subscribe": (params, ctx) => this.#subscribe(params, true, ctx),
      "resources/unsubscribe": (params, ctx) => this.#subscribe(params, false, ctx),
      "completion/complete": (params) => complete(this.#tables, params),
    };
    return Object.fromEntries(Object.entries(all).filter(([method]) => this.#methods.has(method)));
  }

  /** One page of a list (basic/utilities/pagination): the cursor is the offset of the page, opaque to the client. */
  #list(kind: Kind, method: string, field: string, tables: ReadonlyArray<ReadonlyMap<string, Entry>>, params: JsonObject | undefined): JsonObject {
    if (!this.#has(kind)) throw notServed(method);
    let items = this.#enabled.get(method);
    if (items === undefined) {
      items = tables.flatMap((table) => [...table.values()]).filter((e) => e.enabled);
      this.#enabled.set(method, items);
    }
    const page = pageOf(items, params?.["cursor"], this.#pageSize);
    const result: JsonObject = { [field]: page.items.map((e) => e.listed) };
    if (page.nextCursor !== undefined) result["nextCursor"] = page.nextCursor;
    return result;
  }

  /**
   * resources/list: the fixed resources, then those the enabled templates' `list` callbacks give
   * (asked on every request: they change without a registration changing), one page of them all.
   */
  #listResources(params: JsonObject | undefined, ctx: HandlerContext): JsonObject | Promise<JsonObject> {
    const listers = [...this.#templates.values()].filter((t) => t.enabled && t.list !== undefined);
    if (listers.length === 0) return this.#list("resources", "resources/list", "resources", [this.#resources], params);
    if (!this.#has("resources")) throw notServed("resources/list");
    const fixed = [...this.#resources.values()].filter((e) => e.enabled).map((e) => e.listed);
    return listResources(fixed, listers, params, ctx, this.#pageSize);
  }

  /** Per session (or connection), bounded (resource-subscriptions.ts). */
  #subscribe(params: JsonObject | undefined, on: boolean, ctx: HandlerContext): Promise<JsonObject> {
    if (!this.#has("resources")) throw notServed(on ? "resources/subscribe" : "resources/unsubscribe");
    return this.#subscribed.change(params?.["uri"], on, ctx);
  }
}

/** A prompt's listed arguments from its object schema: each property, required where the schema says. */
function promptArguments(json: JsonObject): JsonObject[] {
  const properties = isObject(json["properties"]) ? json["properties"] : {};
  const required = Array.isArray(json["required"]) ? json["required"] : [];
  return Object.entries(properties).map(([name, schema]) => {
    const arg: JsonObject = { name };
    if (isObject(schema) && typeof schema["description"] === "string") arg["description"] = schema["description"];
    if (required.includes(name)) arg["required"] = true;
    return arg;
  });
}
