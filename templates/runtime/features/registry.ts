// Registrations: tools, prompts, resources and resource templates registered one by one on a
// server (McpServer.registerTool and the others), with the handlers of the requests that list and
// use them made from the registrations: tools/list and tools/call, prompts/list and prompts/get,
// resources/list, resources/templates/list and resources/read, resources/subscribe and
// unsubscribe, completion/complete. A tool's arguments are validated against its input schema
// before its handler runs, and its structured result against its output schema after; a
// registration that is added, changed or removed is announced (list_changed).
//
// Revision-independent: what differs between revisions comes in as RegistryRules (server.ts's
// REGISTRY), rendered from the catalog. A schema is a plain JSON Schema object or a Standard
// Schema with a JSON Schema view (`~standard.jsonSchema`: zod v4, valibot, arktype); plain ones
// are validated by a Validator (json-schema.ts's built-in one unless told otherwise), Standard
// ones by their own `validate`.

import type { AnyRequestHandler, HandlerContext } from "../core/endpoint.js";
import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import { describeValue, ErrorCode, McpError, type JsonObject } from "../core/protocol.js";
import { defaultValidator, type FromSchema, type ValidationIssue, type ValidationResult, type Validator } from "./json-schema.js";

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
export type Announcer = (method: string, params?: JsonObject) => void;

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
}

/** A Standard Schema (standardschema.dev, v1) with a JSON Schema view (Standard JSON Schema): zod v4, valibot, arktype. */
export interface StandardSchemaWithJson<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

type StandardPathSegment = PropertyKey | { readonly key: PropertyKey };
type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<StandardPathSegment> | undefined }> };

/** A schema a registration takes: a plain JSON Schema object, or a Standard Schema with a JSON Schema view. */
export type SchemaInput = StandardSchemaWithJson<unknown, unknown> | { readonly [keyword: string]: unknown };

/** The type a schema validates to: a Standard Schema's output type, or FromSchema of a plain one (written `as const` or inline). */
export type Infer<S> = S extends { readonly "~standard": { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : unknown
  : FromSchema<S>;

/**
 * The fields the server fills in a result when the handler leaves them out (2026-07-28
 * `resultType`, and the caching hints of its `resultDefaults` option): facade/server.ts
 * completingHandlers completes every handler's results, registrations' included.
 */
type FilledKey = "resultType" | "ttlMs" | "cacheScope";

/** A result as a registration's handler writes it: the fields the registry fills (`Keys`) are optional. */
export type Filled<R, Keys extends PropertyKey = FilledKey> = { [K in keyof R as K extends Keys ? never : K]: R[K] } & { [K in keyof R & Keys]?: R[K] };

/**
 * What a tool's handler returns. With an output schema: `structuredContent` of its type (unless
 * `isError`), and `content` optional (the registry writes the structured content as text).
 */
export type ToolReturn<Result, Out> = [Out] extends [undefined]
  ? Filled<Result>
  :
      | (Filled<Result, FilledKey | "content" | "structuredContent" | "isError"> & { readonly structuredContent: Infer<Out>; readonly isError?: false | undefined })
      | (Filled<Result, FilledKey | "structuredContent" | "isError"> & { readonly isError: true; readonly structuredContent?: undefined });

/**
 * A tool's handler: its arguments typed by the input schema (validated before the call). `Ctx` is
 * the revision's tools/call context (ctx.input where the revision has multi round-trip requests),
 * `Other` what tools/call may answer besides a CallToolResult (InputRequiredResult, a task):
 * those go out as they are, unchecked.
 */
export type ToolHandler<In, Out, Result, Ctx = HandlerContext, Other = never> = (
  args: [In] extends [undefined] ? { readonly [key: string]: unknown } : Infer<In>,
  ctx: Ctx,
) => ToolReturn<Result, Out> | Other | Promise<ToolReturn<Result, Out> | Other>;

/** A registration's config: the listed fields of `Item` (the revision's Tool, Prompt, …) but those the registry sets. */
export type ItemConfig<Item, Set extends string> = { readonly [K in keyof Item as K extends Set ? never : K]?: Item[K] };

/** A tool's registration: its listed fields, and its schemas as JSON Schema or Standard Schema. */
export type ToolConfig<Tool, In, Out> = ItemConfig<Tool, "name" | "inputSchema" | "outputSchema"> & {
  readonly inputSchema?: In;
  readonly outputSchema?: Out;
};

/** Completes one argument's value (completion/complete): the values that fit, best first (at most 100 are sent). */
export type Completer = (value: string, context: { readonly arguments: { readonly [name: string]: string } }) => readonly string[] | Promise<readonly string[]>;

/** A prompt's registration: its listed fields, its arguments as a schema (object of strings) or as a list, and completers by argument. */
export type PromptConfig<Prompt, Args> = ItemConfig<Prompt, "name"> & {
  readonly argsSchema?: Args;
  readonly complete?: { readonly [argument: string]: Completer } | undefined;
};

export type PromptHandler<Args, Result, Ctx = HandlerContext, Other = never> = (
  args: [Args] extends [undefined] ? { readonly [name: string]: string } : Infer<Args>,
  ctx: Ctx,
) => Filled<Result> | Other | Promise<Filled<Result> | Other>;

/** A resource template's registration: its listed fields, and completers of its variables. */
export type TemplateConfig<Template> = ItemConfig<Template, "name" | "uriTemplate"> & {
  readonly complete?: { readonly [variable: string]: Completer } | undefined;
};

export type ResourceReader<Result, Ctx = HandlerContext, Other = never> = (uri: string, ctx: Ctx) => Filled<Result> | Other | Promise<Filled<Result> | Other>;
export type TemplateReader<Result, Ctx = HandlerContext, Other = never> = (
  uri: string,
  variables: { readonly [name: string]: string },
  ctx: Ctx,
) => Filled<Result> | Other | Promise<Filled<Result> | Other>;

/** A registration: change it, take it off the lists for a while, or remove it. Each announces the change. */
export interface Registered<Config> {
  readonly name: string;
  readonly enabled: boolean;
  /** Replaces the named fields of its config (a schema is compiled again). */
  update(config: Config): void;
  enable(): void;
  disable(): void;
  remove(): void;
}

type Kind = "tools" | "prompts" | "resources";

/** The list_changed notification of each kind. */
const LIST_CHANGED: Readonly<Record<Kind, string>> = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
};
const RESOURCE_UPDATED = "notifications/resources/updated";

/** A schema, ready: its JSON Schema (what lists show) and how a value is checked against it. */
interface PreparedSchema {
  readonly json: JsonObject;
  validate(value: unknown): ValidationResult | Promise<ValidationResult>;
}

function isStandard(schema: unknown): schema is StandardSchemaWithJson<unknown, unknown> {
  return isObject(schema) && isObject(schema["~standard"]) && typeof schema["~standard"]["validate"] === "function";
}

/** RFC 6901 pointer of a Standard Schema issue's path. */
function pointerOfPath(path: ReadonlyArray<StandardPathSegment> | undefined): string {
  return (path ?? [])
    .map((segment) => String(typeof segment === "object" && segment !== null ? segment.key : segment))
    .map((part) => `/${part.replaceAll("~", "~0").replaceAll("/", "~1")}`)
    .join("");
}

/**
 * A schema as a registration uses it. A Standard Schema validates with its own `validate` and is
 * listed as its JSON Schema view (`input` for arguments, `output` for results); a plain one is
 * compiled once by `validator`. A schema that is neither, or that the validator refuses, throws.
 */
function prepareSchema(schema: SchemaInput, side: "input" | "output", validator: Validator, where: string): PreparedSchema {
  if (isStandard(schema)) {
    const standard = schema["~standard"];
    if (!isObject(standard.jsonSchema) || typeof standard.jsonSchema[side] !== "function") {
      throw new TypeError(`${where}: a Standard Schema needs a JSON Schema view (~standard.jsonSchema) to be listed`);
    }
    const json = standard.jsonSchema[side]({ target: "draft-2020-12" }) as JsonObject;
    return {
      json,
      async validate(value) {
        const result = await standard.validate(value);
        if (result.issues === undefined) return { valid: true, value: result.value };
        const first = result.issues[0];
        return { valid: false, issue: { pointer: pointerOfPath(first?.path), message: first?.message ?? "invalid" } };
      },
    };
  }
  if (!isObject(schema)) throw new TypeError(`${where}: a schema must be a JSON Schema object or a Standard Schema, got ${describeValue(schema)}`);
  const compiled = validator.compile(schema);
  return { json: schema, validate: (value) => compiled.validate(value) };
}

/** A tool's input schema must describe an object (server/tools: "`type: "object"` is required at the root"). */
function requireObjectRoot(json: JsonObject, where: string): void {
  if (json["type"] !== "object") throw new TypeError(`${where}: the input schema's root must be { type: "object" }, got type ${describeValue(json["type"])}`);
}

function describeIssue(issue: ValidationIssue): string {
  return `${issue.pointer === "" ? "(root)" : issue.pointer}: ${issue.message}`;
}

/** A URI template's variables, matched in linear time: `{name}` (no `/`) and `{+name}` (anything). */
interface UriMatcher {
  readonly variables: readonly string[];
  match(uri: string): { [name: string]: string } | null;
}

/**
 * A matcher of an RFC 6570 template, level 1 and 2 (`{var}`, `{+var}`). Two variables must be
 * separated by literal text (else the split is ambiguous); each takes the text up to the first
 * occurrence of the literal after it, so a match is one scan of the URI.
 */
function uriMatcher(template: string): UriMatcher {
  const parts: Array<{ readonly literal: string } | { readonly name: string; readonly reserved: boolean }> = [];
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf("{");
    if (open < 0) {
      parts.push({ literal: rest });
      break;
    }
    if (open > 0) parts.push({ literal: rest.slice(0, open) });
    const close = rest.indexOf("}", open);
    if (close < 0) throw new TypeError(`URI template ${JSON.stringify(template)}: an unclosed {`);
    const expression = rest.slice(open + 1, close);
    const reserved = expression.startsWith("+");
    const name = reserved ? expression.slice(1) : expression;
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new TypeError(`URI template ${JSON.stringify(template)}: {${expression}} is not supported (only {name} and {+name})`);
    const last = parts[parts.length - 1];
    if (last !== undefined && !("literal" in last)) throw new TypeError(`URI template ${JSON.stringify(template)}: two variables must be separated by literal text`);
    parts.push({ name, reserved });
    rest = rest.slice(close + 1);
  }
  return {
    variables: parts.flatMap((p) => ("name" in p ? [p.name] : [])),
    match(uri) {
      const values: { [name: string]: string } = {};
      let at = 0;
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] as (typeof parts)[number];
        if ("literal" in part) {
          if (!uri.startsWith(part.literal, at)) return null;
          at += part.literal.length;
          continue;
        }
        const next = parts[i + 1];
        const end = next === undefined ? uri.length : uri.indexOf((next as { literal: string }).literal, at);
        if (end < 0) return null;
        const value = uri.slice(at, end);
        if (!part.reserved && value.includes("/")) return null;
        try {
          values[part.name] = part.reserved ? value : decodeURIComponent(value);
        } catch {
          return null;
        }
        at = end;
      }
      return at === uri.length ? values : null;
    },
  };
}

interface Entry {
  name: string;
  enabled: boolean;
  /** What the list shows of it. */
  listed: JsonObject;
}

interface ToolEntry extends Entry {
  input: PreparedSchema | undefined;
  output: PreparedSchema | undefined;
  handler: (args: never, ctx: HandlerContext) => unknown;
}

interface PromptEntry extends Entry {
  args: PreparedSchema | undefined;
  required: readonly string[];
  complete: { readonly [argument: string]: Completer } | undefined;
  handler: (args: never, ctx: HandlerContext) => unknown;
}

interface ResourceEntry extends Entry {
  uri: string;
  read: (uri: string, ctx: HandlerContext) => unknown;
}

interface TemplateEntry extends Entry {
  matcher: UriMatcher;
  complete: { readonly [variable: string]: Completer } | undefined;
  read: (uri: string, variables: { [name: string]: string }, ctx: HandlerContext) => unknown;
}

/** The most values one completion/complete result carries (server/utilities/completion: "maximum 100 items"). */
const MAX_COMPLETIONS = 100;

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
  /** URIs a client subscribed to (resources/subscribe, 2025 revisions). */
  readonly #subscribed = new Set<string>();
  readonly #pendingAnnouncements = new Set<Kind>();
  readonly #methods: ReadonlySet<string>;

  constructor(rules: RegistryRules, options: RegistryOptions = {}, announce: Announcer = () => {}) {
    this.#rules = rules;
    this.#methods = new Set(rules.methods);
    this.#validator = options.validator ?? defaultValidator;
    this.#validate = options.validate ?? true;
    this.#pageSize = numberOption("registrations.pageSize", options.pageSize, 100, { min: 1, max: 10_000 });
    this.#announce = options.announce ?? announce;
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
      const { complete: _c, ...fields } = c as JsonObject;
      return { name, uriTemplate, ...fields };
    };
    const entry: TemplateEntry = { name, enabled: true, matcher, read, complete: config.complete, listed: split(config) };
    return this.#add("resources", this.#templates, entry, (next) => {
      config = { ...config, ...next };
      entry.complete = config.complete;
      entry.listed = split(config);
    });
  }

  /**
   * A resource's content changed: notifications/resources/updated, to the clients subscribed to
   * it (2025 revisions: resources/subscribe; 2026-07-28: listen streams that asked for its URI).
   */
  resourceUpdated(uri: string): void {
    if (!this.#rules.notifications.includes(RESOURCE_UPDATED)) return;
    if (this.#rules.announce === "notify" && !this.#subscribed.has(uri)) return;
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

  /** Announces a change of `kind`, once per burst (registrations made together announce once). */
  #changed(kind: Kind): void {
    if (!this.#rules.notifications.includes(LIST_CHANGED[kind]) || this.#pendingAnnouncements.has(kind)) return;
    this.#pendingAnnouncements.add(kind);
    queueMicrotask(() => {
      this.#pendingAnnouncements.delete(kind);
      this.#send(LIST_CHANGED[kind]);
    });
  }

  #send(method: string, params?: JsonObject): void {
    try {
      this.#announce(method, params);
    } catch {
      // A throwing announcer (not connected, a hub without the kind) must not break a registration.
    }
  }

  // --- what the server declares and serves ---------------------------------------------------

  /** Whether anything of `kind` is registered (removed ones aside; disabled ones count: they may come back). */
  #has(kind: Kind): boolean {
    return kind === "resources" ? this.#resources.size + this.#templates.size > 0 : (kind === "tools" ? this.#tools : this.#prompts).size > 0;
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

  /** The handlers of the methods the registry serves in this revision (a method whose kind has no registration answers -32601). */
  handlers(): Record<string, AnyRequestHandler> {
    const all: Record<string, AnyRequestHandler> = {
      "tools/list": (params) => this.#list("tools", "tools/list", "tools", [this.#tools], params),
      "tools/call": (params, ctx) => this.#call(params, ctx),
      "prompts/list": (params) => this.#list("prompts", "prompts/list", "prompts", [this.#prompts], params),
      "prompts/get": (params, ctx) => this.#getPrompt(params, ctx),
      "resources/list": (params) => this.#list("resources", "resources/list", "resources", [this.#resources], params),
      "resources/templates/list": (params) => this.#list("resources", "resources/templates/list", "resourceTemplates", [this.#templates], params),
      "resources/read": (params, ctx) => this.#read(params, ctx),
      "resources/subscribe": (params) => this.#subscribe(params, true),
      "resources/unsubscribe": (params) => this.#subscribe(params, false),
      "completion/complete": (params) => this.#complete(params),
    };
    return Object.fromEntries(Object.entries(all).filter(([method]) => this.#methods.has(method)));
  }

  #notServed(method: string): McpError {
    return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  /** Whether a handler's result is another kind than a complete result (InputRequiredResult, a task): sent as it is. */
  static #otherKind(result: JsonObject): boolean {
    return result["resultType"] !== undefined && result["resultType"] !== "complete";
  }

  /** One page of a list (basic/utilities/pagination): the cursor is the offset of the page, opaque to the client. */
  #list(kind: Kind, method: string, field: string, tables: ReadonlyArray<ReadonlyMap<string, Entry>>, params: JsonObject | undefined): JsonObject {
    if (!this.#has(kind)) throw this.#notServed(method);
    const items = tables.flatMap((table) => [...table.values()]).filter((e) => e.enabled);
    const cursor = params?.["cursor"];
    let start = 0;
    if (cursor !== undefined) {
      const decoded = typeof cursor === "string" && cursor.length <= 32 ? /^o(\d{1,9})$/.exec(decodeCursor(cursor)) : null;
      if (decoded === null) throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
      start = Number(decoded[1]);
    }
    const page = items.slice(start, start + this.#pageSize).map((e) => e.listed);
    const result: JsonObject = { [field]: page };
    if (start + this.#pageSize < items.length) result["nextCursor"] = btoa(`o${start + this.#pageSize}`);
    return result;
  }

  async #call(params: JsonObject | undefined, ctx: HandlerContext): Promise<JsonObject> {
    if (this.#tools.size === 0) throw this.#notServed("tools/call");
    const name = params?.["name"];
    const tool = typeof name === "string" ? this.#tools.get(name) : undefined;
    if (tool === undefined || !tool.enabled) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${typeof name === "string" ? name : describeValue(name)}`);
    const raw = params?.["arguments"] ?? {};
    // Arguments that are not an object fail the CallToolRequest schema itself: a protocol error in every revision.
    if (!isObject(raw)) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${tool.name}: arguments must be an object, got ${describeValue(raw)}`);
    let args: unknown = raw;
    if (this.#validate && tool.input !== undefined) {
      const checked = await tool.input.validate(raw);
      if (!checked.valid) return this.#invalidArguments(tool.name, checked.issue);
      args = checked.value;
    }
    let result: unknown;
    try {
      result = await (tool.handler as (args: unknown, ctx: HandlerContext) => unknown)(args, ctx);
    } catch (error) {
      // An McpError is the handler's protocol error; anything else failed in the tool: a tool
      // execution error the model can read (server/tools, Error Handling).
      if (error instanceof McpError) throw error;
      return { content: [{ type: "text", text: thrownMessage(error) }], isError: true };
    }
    if (!isObject(result)) throw new McpError(ErrorCode.InternalError, `tool ${tool.name} returned ${describeValue(result)}, not a result object`);
    return await this.#checkStructured(tool, result);
  }

  /** The answer to arguments that break the input schema, as this revision prescribes (RegistryRules.invalidArguments). */
  #invalidArguments(tool: string, issue: ValidationIssue): JsonObject {
    const message = `Invalid arguments for tool ${tool}: ${describeIssue(issue)}`;
    if (this.#rules.invalidArguments === "invalid-params") throw new McpError(ErrorCode.InvalidParams, message, { pointer: issue.pointer });
    return { content: [{ type: "text", text: message }], isError: true };
  }

  /**
   * A result's structuredContent against the tool's output schema (server/tools, Output Schema:
   * "Servers MUST provide structured results that conform to this schema"). A result that breaks
   * it is a bug of the handler: -32603, never a success on the wire. A result without `content`
   * gets the structured content as text (for clients that read only content: SHOULD, same section).
   */
  async #checkStructured(tool: ToolEntry, result: JsonObject): Promise<JsonObject> {
    if (Registry.#otherKind(result)) return result;
    const structured = result["structuredContent"];
    if (tool.output !== undefined && result["isError"] !== true && this.#validate) {
      if (structured === undefined) throw new McpError(ErrorCode.InternalError, `tool ${tool.name} has an outputSchema but returned no structuredContent`);
      const checked = await tool.output.validate(structured);
      if (!checked.valid) throw new McpError(ErrorCode.InternalError, `tool ${tool.name} returned structuredContent that breaks its outputSchema at ${describeIssue(checked.issue)}`);
    }
    if (result["content"] !== undefined) return result;
    return { ...result, content: structured === undefined ? [] : [{ type: "text", text: JSON.stringify(structured) }] };
  }

  async #getPrompt(params: JsonObject | undefined, ctx: HandlerContext): Promise<JsonObject> {
    if (this.#prompts.size === 0) throw this.#notServed("prompts/get");
    const name = params?.["name"];
    const prompt = typeof name === "string" ? this.#prompts.get(name) : undefined;
    if (prompt === undefined || !prompt.enabled) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${typeof name === "string" ? name : describeValue(name)}`);
    const raw = params?.["arguments"] ?? {};
    if (!isObject(raw) || !Object.values(raw).every((v) => typeof v === "string")) throw new McpError(ErrorCode.InvalidParams, `prompt ${prompt.name}: arguments must be an object of strings`);
    const missing = prompt.required.find((arg) => !Object.hasOwn(raw, arg));
    // server/prompts, Error Handling: "Missing required arguments: -32602".
    if (missing !== undefined) throw new McpError(ErrorCode.InvalidParams, `prompt ${prompt.name}: missing required argument ${JSON.stringify(missing)}`);
    let args: unknown = raw;
    if (this.#validate && prompt.args !== undefined) {
      const checked = await prompt.args.validate(raw);
      if (!checked.valid) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${prompt.name}: ${describeIssue(checked.issue)}`, { pointer: checked.issue.pointer });
      args = checked.value;
    }
    const result = await (prompt.handler as (args: unknown, ctx: HandlerContext) => unknown)(args, ctx);
    if (!isObject(result)) throw new McpError(ErrorCode.InternalError, `prompt ${prompt.name} returned ${describeValue(result)}, not a result object`);
    return result;
  }

  async #read(params: JsonObject | undefined, ctx: HandlerContext): Promise<JsonObject> {
    if (!this.#has("resources")) throw this.#notServed("resources/read");
    const uri = params?.["uri"];
    if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, `resources/read: uri must be a string, got ${describeValue(uri)}`);
    let result: unknown;
    const fixed = this.#resources.get(uri);
    if (fixed !== undefined && fixed.enabled) result = await fixed.read(uri, ctx);
    else {
      const found = this.#matchTemplate(uri);
      if (found === undefined) throw new McpError(this.#rules.resourceNotFound, `Resource not found: ${uri}`, { uri });
      result = await found.template.read(uri, found.variables, ctx);
    }
    if (!isObject(result)) throw new McpError(ErrorCode.InternalError, `resource ${uri}: the reader returned ${describeValue(result)}, not a result object`);
    return result;
  }

  #matchTemplate(uri: string): { template: TemplateEntry; variables: { [name: string]: string } } | undefined {
    for (const template of this.#templates.values()) {
      if (!template.enabled) continue;
      const variables = template.matcher.match(uri);
      if (variables !== null) return { template, variables };
    }
    return undefined;
  }

  #subscribe(params: JsonObject | undefined, on: boolean): JsonObject {
    if (!this.#has("resources")) throw this.#notServed(on ? "resources/subscribe" : "resources/unsubscribe");
    const uri = params?.["uri"];
    if (typeof uri !== "string" || uri.length > 4096) throw new McpError(ErrorCode.InvalidParams, "uri must be a string of at most 4096 characters");
    if (on) {
      // Bounded: a peer cannot grow the set without limit.
      if (!this.#subscribed.has(uri) && this.#subscribed.size >= 1024) throw new McpError(ErrorCode.InvalidParams, "too many subscriptions");
      this.#subscribed.add(uri);
    } else this.#subscribed.delete(uri);
    return {};
  }

  async #complete(params: JsonObject | undefined): Promise<JsonObject> {
    const ref = params?.["ref"];
    const argument = params?.["argument"];
    if (!isObject(ref) || !isObject(argument) || typeof argument["name"] !== "string" || typeof argument["value"] !== "string") {
      throw new McpError(ErrorCode.InvalidParams, "completion/complete: ref and argument { name, value } are required");
    }
    const context = params?.["context"];
    const given = isObject(context) && isObject(context["arguments"]) ? context["arguments"] : {};
    const contextArgs = Object.fromEntries(Object.entries(given).filter((e): e is [string, string] => typeof e[1] === "string"));
    let completers: { readonly [name: string]: Completer } | undefined;
    if (ref["type"] === "ref/prompt") {
      const prompt = typeof ref["name"] === "string" ? this.#prompts.get(ref["name"]) : undefined;
      if (prompt === undefined || !prompt.enabled) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${describeValue(ref["name"])}`);
      completers = prompt.complete;
    } else if (ref["type"] === "ref/resource") {
      const template = [...this.#templates.values()].find((t) => t.enabled && t.listed["uriTemplate"] === ref["uri"]);
      if (template === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${describeValue(ref["uri"])}`);
      completers = template.complete;
    } else throw new McpError(ErrorCode.InvalidParams, `completion/complete: unknown ref type ${describeValue(ref["type"])}`);
    const completer = completers !== undefined && Object.hasOwn(completers, argument["name"]) ? completers[argument["name"]] : undefined;
    const values = completer === undefined ? [] : [...(await completer(argument["value"], { arguments: contextArgs }))].filter((v) => typeof v === "string");
    return {
      completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS },
    };
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

/** A cursor's text (base64 of `o<offset>`); "" for one that is not base64. */
function decodeCursor(cursor: string): string {
  try {
    return atob(cursor);
  } catch {
    return "";
  }
}

/** The message of a value a handler threw, without trusting it (a getter may throw). */
function thrownMessage(error: unknown): string {
  try {
    if (error instanceof Error && typeof error.message === "string") return error.message;
  } catch {
    // fall through
  }
  return "the tool failed";
}
