/**
 * The 2026-07-28 half of the everything server: a generated McpServer (out/2026-07-28) with the
 * handlers the conformance suite's `--requirements 2026-07-28` scenarios call. Nothing here
 * remembers anything between requests: every request carries its protocol version and the
 * client's capabilities in `_meta` (basic/index, _meta), and a multi round-trip request carries
 * its own state (basic/patterns/mrtr).
 *
 * The tools, resources and prompts are the tables of examples/everything/ where their content is
 * the same in both eras; what differs here:
 * - every result says `resultType` (Result: servers MUST include it);
 * - the lists and resources/read carry caching hints (server/utilities/caching);
 * - an unknown resource is -32602 with the URI in `data` (server/resources, Error Handling; SEP-2164);
 * - logs go out only for a request whose `_meta` asks for a level (server/utilities/logging);
 * - input from the client comes through multi round-trip requests (input.ts), under a
 *   requestState HMAC key of the runtime's (one random key per process: this server runs as one
 *   instance; behind a load balancer every instance would be given the same key);
 * - it implements the Tasks extension (tasks.ts, out/2026-07-28 is generated with --extension
 *   tasks): some tools answer a client that declared it with a task, kept in this process's
 *   memory (behind a load balancer the TaskManager would be given a shared TaskStore).
 */
import {
  ErrorCode,
  McpError,
  McpServer,
  Subscriptions,
  TaskManager,
  type LoggingLevel,
  type ServerCapabilities,
  type TypedContextBase,
  type ServerNotificationMap,
  type ServerRequestMap,
} from "../../out/2026-07-28/index.js";
import { complete } from "../everything/completion.js";
import { findPrompt, PROMPTS } from "../everything/prompts.js";
import { readResource, RESOURCES, TEMPLATES } from "../everything/resources.js";
import { INPUT_PROMPT } from "./input.js";
import { findTool, TOOLS, type ListChanges, type ToolEnv } from "./tools.js";
import type { SharedState } from "../everything/state.js";

export const SERVER_INFO = { name: "mcp-stubgen-everything", version: "0.1.0" };

/**
 * What this server offers. `listChanged`: subscriptions/listen streams hear of tool and prompt
 * list changes (the trigger tools make some). `logging` is deprecated in this revision but a
 * request may still ask for logs in its `_meta`, and test_tool_with_logging sends some.
 */
export const CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  resources: {},
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

/**
 * Caching hints of the cacheable results (server/utilities/caching: servers MUST include them
 * on tools/list, prompts/list, resources/list, resources/templates/list and resources/read).
 * Nothing here depends on who asks, so any cache may share them ("public"); the lists change only
 * when a trigger tool says so, and the list-changed notification invalidates a cached copy
 * earlier than the TTL.
 */
const CACHE = { ttlMs: 60_000, cacheScope: "public" } as const;

/** Severity order of the log levels (Logging, Log Levels: RFC 5424). */
const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

type Context = TypedContextBase<ServerRequestMap, ServerNotificationMap>;

/**
 * notifications/message on this request's response stream, at or above the level its `_meta`
 * asked for. "The server MUST NOT emit notifications/message for a request that does not
 * include this field" (Logging, Per-request log level).
 */
function requestLogger(ctx: Context): ToolEnv["log"] {
  const asked = ctx._meta?.[META_LOG_LEVEL];
  const threshold = typeof asked === "string" ? LOG_LEVELS.indexOf(asked as LoggingLevel) : -1;
  if (threshold < 0) return () => Promise.resolve();
  return (level, data) => (LOG_LEVELS.indexOf(level) >= threshold ? ctx.notify("notifications/message", { level, logger: "everything", data }) : Promise.resolve());
}

export interface Everything2026Options {
  readonly onError?: (error: Error) => void;
  /** Shared state for several instances (examples/everything/state.ts); default: this process's memory. */
  readonly state?: Pick<SharedState, "taskStore" | "bus" | "requestState"> | undefined;
}

export function createEverything2026Server(options: Everything2026Options = {}): McpServer {
  // subscriptions/listen (basic/patterns/subscriptions): the hub acknowledges each stream, then
  // sends it only the list changes it asked for. Nothing here changes on its own: the trigger
  // tools announce a change, as a server whose tools or prompts changed would.
  const subscriptions = new Subscriptions({ kinds: ["toolsListChanged", "promptsListChanged"], bus: options.state?.bus });
  const changes: ListChanges = {
    toolsChanged: () => void subscriptions.publish("notifications/tools/list_changed"),
    promptsChanged: () => void subscriptions.publish("notifications/prompts/list_changed"),
  };
  // Tasks extension (SEP-2663): tasks kept one hour in this process's memory; clients are told to
  // poll every half second.
  const tasks = new TaskManager({
    pollIntervalMs: 500,
    ...(options.state?.taskStore === undefined ? {} : { store: options.state.taskStore }),
    onError: (error) => options.onError?.(error instanceof Error ? error : new Error(String(error))),
  });
  return new McpServer({
    serverInfo: SERVER_INFO,
    capabilities: CAPABILITIES,
    subscriptions,
    tasks,
    requestState: options.state?.requestState,
    instructions: "The test_* tools, test:// resources and test_* prompts are those of the MCP conformance suite.",
    handlers: {
      "tools/list": () => ({ resultType: "complete", tools: TOOLS.map((entry) => entry.tool), ...CACHE }),
      "tools/call": (params, ctx) => {
        const entry = findTool(params.name);
        // An unknown tool is a protocol error; a tool that fails says so in its result (isError).
        if (entry === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
        return entry.run(params.arguments ?? {}, { ctx, log: requestLogger(ctx), changes, tasks });
      },

      "resources/list": () => ({ resultType: "complete", resources: RESOURCES.map((entry) => entry.resource), ...CACHE }),
      "resources/templates/list": () => ({ resultType: "complete", resourceTemplates: TEMPLATES.map((entry) => entry.template), ...CACHE }),
      "resources/read": ({ uri }) => {
        const contents = readResource(uri);
        // Resources, Error Handling (SEP-2164): an unknown resource is Invalid Params with the URI
        // in data, never an empty contents array.
        if (contents === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
        return { resultType: "complete", contents, ...CACHE };
      },

      "prompts/list": () => ({ resultType: "complete", prompts: [...PROMPTS.map((entry) => entry.prompt), INPUT_PROMPT.prompt], ...CACHE }),
      "prompts/get": ({ name, arguments: args = {} }, ctx) => {
        if (name === INPUT_PROMPT.prompt.name) {
          // prompts/get may answer an InputRequiredResult too (mrtr, Supported Requests).
          const got = ctx.input.responses(INPUT_PROMPT.ask);
          if (got === undefined) return ctx.input.required(INPUT_PROMPT.ask);
          const context = got.user_context.action === "accept" ? got.user_context.content?.["context"] : undefined;
          return INPUT_PROMPT.render(String(context ?? "none"));
        }
        const entry = findPrompt(name);
        if (entry === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
        const missing = (entry.prompt.arguments ?? []).filter((arg) => arg.required === true && args[arg.name] === undefined);
        if (missing.length > 0) throw new McpError(ErrorCode.InvalidParams, `Missing required arguments: ${missing.map((arg) => arg.name).join(", ")}`);
        return { resultType: "complete", messages: entry.messages(args) };
      },

      "completion/complete": ({ ref, argument }) => {
        const completion = complete(ref, argument);
        // Completion, Error Handling: an invalid prompt name is -32602.
        if (completion === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${ref.type === "ref/prompt" ? ref.name : ref.uri}`);
        return { resultType: "complete", completion };
      },
    },
    onError: options.onError,
  });
}
