// Types only: the typed API of registrations (McpServer.registerTool and the others, served by
// features/registry.ts): what a registration's config holds, what its handler is given and
// returns (the fields the server fills left optional), and the handle a registration returns.
// The generated server.ts fills them with the revision's types (Tool, CallToolResult, …).

import type { HandlerContext } from "../core/endpoint.js";
import type { JsonObject } from "../core/json.js";
import type { Infer } from "./schema-input.js";

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

/**
 * A resource template's registration: its listed fields, completers of its variables, and `list`,
 * the concrete resources of the template that resources/list shows (as the SDK's
 * ResourceTemplate `list`): called on every resources/list, each resource listed after the fixed
 * ones with the template's listed fields under its own (`name` and `uri` are the resource's).
 */
export type TemplateConfig<Template, Resource = JsonObject, Ctx = HandlerContext> = ItemConfig<Template, "name" | "uriTemplate"> & {
  readonly complete?: { readonly [variable: string]: Completer } | undefined;
  readonly list?: TemplateLister<Resource, Ctx> | undefined;
};

/** A resource template's `list`: the resources it stands for now, as the SDK's list callback answers them. */
export type TemplateLister<Resource, Ctx = HandlerContext> = (ctx: Ctx) => { readonly resources: readonly Resource[] } | Promise<{ readonly resources: readonly Resource[] }>;

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
