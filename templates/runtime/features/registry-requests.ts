// The requests a server's registrations answer (features/registry.ts serves them): tools/call
// (server/tools: arguments validated against the tool's input schema, its structured result
// against its output schema), prompts/get (server/prompts), resources/read (server/resources: a
// fixed URI, else the first resource template that matches) and completion/complete
// (server/utilities/completion). Each reads the tables of registrations the Registry keeps (the
// entries defined here); registering, listing and announcing are the Registry's.

import type { HandlerContext } from "../core/endpoint.js";
import { isObject } from "../core/json.js";
import { describeValue, ErrorCode, McpError, type JsonObject } from "../core/protocol.js";
import { asPrincipal } from "../core/request-scope.js";
import type { ValidationIssue } from "./json-schema.js";
import type { Completer } from "./registration-types.js";
import { describeIssue, type PreparedSchema } from "./schema-input.js";
import type { UriMatcher } from "./uri-template.js";
import { pageOf } from "./pagination.js";

/** A registration as the Registry keeps it: its name, whether it is enabled, and what the list shows of it. */
export interface Entry {
  name: string;
  enabled: boolean;
  /** What the list shows of it. */
  listed: JsonObject;
}

export interface ToolEntry extends Entry {
  input: PreparedSchema | undefined;
  output: PreparedSchema | undefined;
  handler: (args: never, ctx: HandlerContext) => unknown;
}

export interface PromptEntry extends Entry {
  args: PreparedSchema | undefined;
  required: readonly string[];
  complete: { readonly [argument: string]: Completer } | undefined;
  handler: (args: never, ctx: HandlerContext) => unknown;
}

export interface ResourceEntry extends Entry {
  uri: string;
  read: (uri: string, ctx: HandlerContext) => unknown;
}

export interface TemplateEntry extends Entry {
  matcher: UriMatcher;
  complete: { readonly [variable: string]: Completer } | undefined;
  /** The template's concrete resources for resources/list (TemplateConfig.list); undefined: none listed. */
  list: ((ctx: HandlerContext) => unknown) | undefined;
  read: (uri: string, variables: { [name: string]: string }, ctx: HandlerContext) => unknown;
}

/** One registry's registrations: tools and prompts by name, resources by URI, resource templates by name. */
export interface RegistryTables {
  readonly tools: ReadonlyMap<string, ToolEntry>;
  readonly prompts: ReadonlyMap<string, PromptEntry>;
  readonly resources: ReadonlyMap<string, ResourceEntry>;
  readonly templates: ReadonlyMap<string, TemplateEntry>;
}

/** How the requests are answered: whether to validate, and what differs between revisions. */
export interface Serving {
  /** Validate arguments before handlers and structured results after them (RegistryOptions.validate). */
  readonly validate: boolean;
  /** The registry's RegistryRules (features/registry.ts), of which these read two. */
  readonly rules: {
    /** A tool error, or -32602, for arguments that break a tool's input schema. */
    readonly invalidArguments: "tool-error" | "invalid-params";
    /** The error code of resources/read for a URI nothing serves. */
    readonly resourceNotFound: number;
  };
}

/** The most values one completion/complete result carries (server/utilities/completion: "maximum 100 items"). */
const MAX_COMPLETIONS = 100;

/** The answer to a method whose kind has no registration: -32601, as without the registry. */
export function notServed(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** Whether any resource or resource template is registered (disabled ones count: they may come back). */
export function servesResources(tables: RegistryTables): boolean {
  return tables.resources.size + tables.templates.size > 0;
}

/** Whether a handler's result is another kind than a complete result (InputRequiredResult, a task): sent as it is. */
function otherKind(result: JsonObject): boolean {
  return result["resultType"] !== undefined && result["resultType"] !== "complete";
}

/** tools/call: the tool's arguments validated, its handler called, its result checked (a throw other than McpError is a tool error). */
export async function callTool(tables: RegistryTables, params: JsonObject | undefined, ctx: HandlerContext, serving: Serving): Promise<JsonObject> {
  if (tables.tools.size === 0) throw notServed("tools/call");
  const name = params?.["name"];
  const tool = typeof name === "string" ? tables.tools.get(name) : undefined;
  if (tool === undefined || !tool.enabled) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${typeof name === "string" ? name : describeValue(name)}`);
  const raw = params?.["arguments"] ?? {};
  // Arguments that are not an object fail the CallToolRequest schema itself: a protocol error in every revision.
  if (!isObject(raw)) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${tool.name}: arguments must be an object, got ${describeValue(raw)}`);
  let args: unknown = raw;
  if (serving.validate && tool.input !== undefined) {
    const checked = await tool.input.validate(raw);
    if (!checked.valid) return invalidArguments(tool.name, checked.issue, serving);
    args = checked.value;
  }
  let result: unknown;
  try {
    // Run as the request's principal (after the validation's await, outside the server's own
    // scope): a task the handler starts without `{ principal }` is its caller's (core/request-scope.ts).
    const handler = tool.handler as (args: unknown, ctx: HandlerContext) => unknown;
    result = await asPrincipal(ctx.principal, () => handler(args, ctx));
  } catch (error) {
    // An McpError is the handler's protocol error; anything else failed in the tool: a tool
    // execution error the model can read (server/tools, Error Handling).
    if (error instanceof McpError) throw error;
    return { content: [{ type: "text", text: thrownMessage(error) }], isError: true };
  }
  if (!isObject(result)) throw new McpError(ErrorCode.InternalError, `tool ${tool.name} returned ${describeValue(result)}, not a result object`);
  return await checkStructured(tool, result, serving);
}

/**
 * The answer to arguments that break the input schema, as this revision prescribes
 * (RegistryRules.invalidArguments). Arguments the validator refused to check to their end (its
 * budget ran out: features/json-schema.ts) are not shown invalid: the request is refused, -32602
 * "validation budget exceeded", in every revision.
 */
function invalidArguments(tool: string, issue: ValidationIssue, serving: Serving): JsonObject {
  if (issue.budgetExceeded === true) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${tool}: validation budget exceeded at ${describeIssue(issue)}`, { pointer: issue.pointer });
  const message = `Invalid arguments for tool ${tool}: ${describeIssue(issue)}`;
  if (serving.rules.invalidArguments === "invalid-params") throw new McpError(ErrorCode.InvalidParams, message, { pointer: issue.pointer });
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * A result's structuredContent against the tool's output schema (server/tools, Output Schema:
 * "Servers MUST provide structured results that conform to this schema"). A result that breaks
 * it is a bug of the handler: -32603, never a success on the wire. A result without `content`
 * gets the structured content as text (for clients that read only content: SHOULD, same section).
 */
async function checkStructured(tool: ToolEntry, result: JsonObject, serving: Serving): Promise<JsonObject> {
  if (otherKind(result)) return result;
  const structured = result["structuredContent"];
  if (tool.output !== undefined && result["isError"] !== true && serving.validate) {
    if (structured === undefined) throw new McpError(ErrorCode.InternalError, `tool ${tool.name} has an outputSchema but returned no structuredContent`);
    const checked = await tool.output.validate(structured);
    if (!checked.valid) throw new McpError(ErrorCode.InternalError, `tool ${tool.name} returned structuredContent that breaks its outputSchema at ${describeIssue(checked.issue)}`);
  }
  if (result["content"] !== undefined) return result;
  return { ...result, content: structured === undefined ? [] : [{ type: "text", text: JSON.stringify(structured) }] };
}

/** prompts/get: the prompt's arguments checked (strings, the required ones given, its schema), then its handler. */
export async function getPrompt(tables: RegistryTables, params: JsonObject | undefined, ctx: HandlerContext, serving: Serving): Promise<JsonObject> {
  if (tables.prompts.size === 0) throw notServed("prompts/get");
  const name = params?.["name"];
  const prompt = typeof name === "string" ? tables.prompts.get(name) : undefined;
  if (prompt === undefined || !prompt.enabled) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${typeof name === "string" ? name : describeValue(name)}`);
  const raw = params?.["arguments"] ?? {};
  if (!isObject(raw) || !Object.values(raw).every((v) => typeof v === "string")) throw new McpError(ErrorCode.InvalidParams, `prompt ${prompt.name}: arguments must be an object of strings`);
  const missing = prompt.required.find((arg) => !Object.hasOwn(raw, arg));
  // server/prompts, Error Handling: "Missing required arguments: -32602".
  if (missing !== undefined) throw new McpError(ErrorCode.InvalidParams, `prompt ${prompt.name}: missing required argument ${JSON.stringify(missing)}`);
  let args: unknown = raw;
  if (serving.validate && prompt.args !== undefined) {
    const checked = await prompt.args.validate(raw);
    if (!checked.valid) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${prompt.name}: ${describeIssue(checked.issue)}`, { pointer: checked.issue.pointer });
    args = checked.value;
  }
  const result = await (prompt.handler as (args: unknown, ctx: HandlerContext) => unknown)(args, ctx);
  if (!isObject(result)) throw new McpError(ErrorCode.InternalError, `prompt ${prompt.name} returned ${describeValue(result)}, not a result object`);
  return result;
}

/** resources/read: the resource at that URI, else the first enabled resource template that matches it. */
export async function readResource(tables: RegistryTables, params: JsonObject | undefined, ctx: HandlerContext, serving: Serving): Promise<JsonObject> {
  if (!servesResources(tables)) throw notServed("resources/read");
  const uri = params?.["uri"];
  if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, `resources/read: uri must be a string, got ${describeValue(uri)}`);
  let result: unknown;
  const fixed = tables.resources.get(uri);
  if (fixed !== undefined && fixed.enabled) result = await fixed.read(uri, ctx);
  else {
    const found = matchTemplate(tables, uri);
    if (found === undefined) throw new McpError(serving.rules.resourceNotFound, `Resource not found: ${uri}`, { uri });
    result = await found.template.read(uri, found.variables, ctx);
  }
  if (!isObject(result)) throw new McpError(ErrorCode.InternalError, `resource ${uri}: the reader returned ${describeValue(result)}, not a result object`);
  return result;
}

function matchTemplate(tables: RegistryTables, uri: string): { template: TemplateEntry; variables: { [name: string]: string } } | undefined {
  for (const template of tables.templates.values()) {
    if (!template.enabled) continue;
    const variables = template.matcher.match(uri);
    if (variables !== null) return { template, variables };
  }
  return undefined;
}

/** completion/complete: the values of a prompt's argument or a resource template's variable, from its completer (none: no values). */
export async function complete(tables: RegistryTables, params: JsonObject | undefined): Promise<JsonObject> {
  const ref = params?.["ref"];
  const argument = params?.["argument"];
  if (!isObject(ref) || !isObject(argument) || typeof argument["name"] !== "string" || typeof argument["value"] !== "string") {
    throw new McpError(ErrorCode.InvalidParams, "completion/complete: ref and argument { name, value } are required");
  }
  const context = params?.["context"];
  const given = isObject(context) && isObject(context["arguments"]) ? context["arguments"] : {};
  const contextArgs = Object.fromEntries(Object.entries(given).filter((e): e is [string, string] => typeof e[1] === "string"));
  const completers = completersOf(tables, ref);
  const completer = completers !== undefined && Object.hasOwn(completers, argument["name"]) ? completers[argument["name"]] : undefined;
  const values = completer === undefined ? [] : [...(await completer(argument["value"], { arguments: contextArgs }))].filter((v) => typeof v === "string");
  return {
    completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS },
  };
}

/** The completers a completion/complete `ref` names: an enabled prompt's, or an enabled resource template's (by its uriTemplate). */
function completersOf(tables: RegistryTables, ref: JsonObject): { readonly [name: string]: Completer } | undefined {
  if (ref["type"] === "ref/prompt") {
    const prompt = typeof ref["name"] === "string" ? tables.prompts.get(ref["name"]) : undefined;
    if (prompt === undefined || !prompt.enabled) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${describeValue(ref["name"])}`);
    return prompt.complete;
  }
  if (ref["type"] === "ref/resource") {
    const template = [...tables.templates.values()].find((t) => t.enabled && t.listed["uriTemplate"] === ref["uri"]);
    if (template === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${describeValue(ref["uri"])}`);
    return template.complete;
  }
  throw new McpError(ErrorCode.InvalidParams, `completion/complete: unknown ref type ${describeValue(ref["type"])}`);
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

/**
 * resources/list with resource templates that list their resources (TemplateConfig.list, as the
 * SDK's ResourceTemplate `list`): `fixed` (the fixed resources' listed fields), then each
 * template's resources, in registration order, with the template's listed fields under the
 * resource's own; one page of them all (the cursor is the offset, as for every list). A
 * resource without a string `uri` and `name` is the server's fault: an error naming the template.
 */
export async function listResources(
  fixed: readonly JsonObject[],
  templates: readonly TemplateEntry[],
  params: JsonObject | undefined,
  ctx: HandlerContext,
  pageSize: number,
): Promise<JsonObject> {
  const lists = await Promise.all(templates.map((t) => t.list!(ctx)));
  const items = [...fixed];
  templates.forEach((template, i) => {
    const listed = lists[i];
    const resources = isObject(listed) ? listed["resources"] : undefined;
    if (!Array.isArray(resources)) throw new McpError(ErrorCode.InternalError, `resource template ${describeValue(template.name)}: list must answer { resources: [...] }`);
    const { name: _n, uriTemplate: _u, ...shared } = template.listed;
    for (const resource of resources) {
      if (!isObject(resource) || typeof resource["uri"] !== "string" || typeof resource["name"] !== "string") {
        throw new McpError(ErrorCode.InternalError, `resource template ${describeValue(template.name)}: a listed resource needs a string uri and name`);
      }
      items.push({ ...shared, ...resource });
    }
  });
  const page = pageOf(items, params?.["cursor"], pageSize);
  const result: JsonObject = { resources: page.items };
  if (page.nextCursor !== undefined) result["nextCursor"] = page.nextCursor;
  return result;
}
