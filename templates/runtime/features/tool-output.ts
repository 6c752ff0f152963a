// The client's check of tools' structured results (server/tools, Output Schema: "Clients SHOULD
// validate structured results against this schema"): the output schema of each tool is taken from
// the tools/list results the client receives, compiled on the tool's first call, and every
// tools/call result that is not an error is checked against it before the caller sees it. A server
// bug (structuredContent missing, or breaking the schema) rejects the call with ToolOutputError.
//
// Bounded against a hostile server: at most `maxTools` schemas are remembered (the oldest go
// first), each compiled by the bounded validator; a schema that validator refuses is remembered as
// unusable and its tool's results are passed through unchecked (the client cannot check what it
// cannot compile; it does not fail calls for it).

import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import type { JsonObject } from "../core/protocol.js";
import { defaultValidator, type CompiledSchema, type ValidationIssue, type Validator } from "./json-schema.js";

/** A tools/call result whose structuredContent is missing or breaks the tool's outputSchema. */
export class ToolOutputError extends Error {
  override name = "ToolOutputError";
  /** The tool called. */
  readonly tool: string;
  /** Where structuredContent breaks the schema; null: it is missing. */
  readonly issue: ValidationIssue | null;
  /** The result as the server sent it. */
  readonly result: JsonObject;
  constructor(tool: string, issue: ValidationIssue | null, result: JsonObject) {
    super(
      issue === null
        ? `tool ${tool} has an outputSchema but its result has no structuredContent`
        : `tool ${tool}: structuredContent breaks its outputSchema at ${issue.pointer === "" ? "(root)" : issue.pointer}: ${issue.message}`,
    );
    this.tool = tool;
    this.issue = issue;
    this.result = result;
  }
}

/** Options of the client's check (McpClientOptions.toolOutput). */
export interface ToolOutputOptions {
  /** Validates the output schemas (default: the built-in validator). */
  readonly validator?: Validator | undefined;
  /** Most tools whose output schema is remembered (default 1000). */
  readonly maxTools?: number | undefined;
}

interface Known {
  readonly schema: JsonObject;
  compiled: CompiledSchema | null | undefined;
}

/** The `checkResult` of the client's endpoint: remembers output schemas from tools/list, checks tools/call results. */
export function createToolOutputCheck(options: ToolOutputOptions = {}): {
  wants(method: string, params: JsonObject | undefined): boolean;
  check(method: string, params: JsonObject | undefined, result: unknown): unknown;
} {
  const validator = options.validator ?? defaultValidator;
  const maxTools = numberOption("maxTools", options.maxTools, 1000, { min: 1 });
  const known = new Map<string, Known>();
  const remember = (result: unknown): void => {
    const tools = isObject(result) && Array.isArray(result["tools"]) ? result["tools"] : [];
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool["name"] !== "string") continue;
      known.delete(tool["name"]);
      if (!isObject(tool["outputSchema"])) continue;
      known.set(tool["name"], { schema: tool["outputSchema"], compiled: undefined });
      if (known.size > maxTools) known.delete(known.keys().next().value as string);
    }
  };
  const compiled = (entry: Known): CompiledSchema | null => {
    if (entry.compiled === undefined) {
      try {
        entry.compiled = validator.compile(entry.schema);
      } catch {
        entry.compiled = null;
      }
    }
    return entry.compiled;
  };
  const checkCall = (name: unknown, result: unknown): unknown => {
    const entry = typeof name === "string" ? known.get(name) : undefined;
    if (entry === undefined || !isObject(result) || result["isError"] === true || result["resultType"] === "task" || result["resultType"] === "input_required") return result;
    const schema = compiled(entry);
    if (schema === null) return result;
    if (result["structuredContent"] === undefined) throw new ToolOutputError(name as string, null, result);
    const settle = (checked: Awaited<ReturnType<CompiledSchema["validate"]>>): unknown => {
      if (!checked.valid) throw new ToolOutputError(name as string, checked.issue, result);
      return result;
    };
    const checked = schema.validate(result["structuredContent"]);
    return checked instanceof Promise ? checked.then(settle) : settle(checked);
  };
  return {
    // tools/list always (its schemas are remembered); tools/call of a tool with a schema remembered.
    wants: (method, params) => method === "tools/list" || (method === "tools/call" && typeof params?.["name"] === "string" && known.has(params["name"])),
    check(method, params, result) {
      if (method === "tools/list") {
        remember(result);
        return result;
      }
      return method === "tools/call" ? checkCall(params?.["name"], result) : result;
    },
  };
}
