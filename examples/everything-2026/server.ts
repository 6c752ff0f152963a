/**
 * The 2026-07-28 half of the everything server: a generated McpServer (out/2026-07-28) with the
 * handlers the conformance suite's `--requirements 2026-07-28` scenarios call. Nothing here
 * remembers anything between requests: every request carries its protocol version and the
 * client's capabilities in `_meta` (basic/index, _meta), and a multi round-trip request carries
 * its own state (basic/patterns/mrtr).
 *
 * The resources and prompts are those of examples/everything/, registered once for both eras by
 * examples/everything-server.ts; what differs here (the tools, the server's options):
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
  Subscriptions,
  TaskManager,
  type LoggingLevel,
  type McpServer,
  type McpServerOptions,
  type ServerCapabilities,
  type TypedContextBase,
  type ServerNotificationMap,
  type ServerRequestMap,
} from "../../out/2026-07-28/index.js";
import { INPUT_PROMPT } from "./input.js";
import { registerTools, type ListChanges, type ToolEnv } from "./tools.js";
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

/** The 2026-07-28 half: the McpServer options of that revision, and what its own tools need. */
export interface Everything2026 {
  /** subscriptions, tasks, requestState, capabilities, instructions, resultDefaults: McpServers' `revisions["2026-07-28"]`. */
  readonly options: McpServerOptions;
  /** Registers the tools of this era (and the prompt that asks for input) on `server`: the tables of tools.ts and input.ts. */
  readonly register: (server: McpServer) => void;
}

export function everything2026(options: Everything2026Options = {}): Everything2026 {
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
  const serverOptions: McpServerOptions = {
    serverInfo: SERVER_INFO,
    capabilities: CAPABILITIES,
    subscriptions,
    tasks,
    requestState: options.state?.requestState,
    instructions: "The test_* tools, test:// resources and test_* prompts are those of the MCP conformance suite.",
    // The server fills resultType in every result, and these caching fields in the lists and in resources/read.
    resultDefaults: CACHE,
  };
  const register = (server: McpServer): void => {
    registerTools(server, (ctx) => ({ ctx, log: requestLogger(ctx), changes, tasks }));
    // prompts/get may answer an InputRequiredResult too (mrtr, Supported Requests).
    const { name: inputPrompt, ...inputConfig } = INPUT_PROMPT.prompt;
    server.registerPrompt(inputPrompt, inputConfig, (_args, ctx) => {
      const got = ctx.input.responses(INPUT_PROMPT.ask);
      if (got === undefined) return ctx.input.required(INPUT_PROMPT.ask);
      const context = got.user_context.action === "accept" ? got.user_context.content?.["context"] : undefined;
      return INPUT_PROMPT.render(String(context ?? "none"));
    });
  };
  return { options: serverOptions, register };
}
