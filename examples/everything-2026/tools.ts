/**
 * The tools of the 2026-07-28 everything server: the era-neutral ones of
 * examples/everything/content-tools.ts, plus the fixtures the conformance suite's 2026-07-28
 * scenarios call by name (server-stateless, the input-required-result-* scenarios, the
 * x-mcp-header validation). Each entry is a definition (what tools/list shows) beside the
 * function that runs it, registered with registerTools (McpServer.registerTool).
 *
 * There is no server->client request in this revision: a tool that needs the client (a sampling
 * reply, an answer from the user, its roots) answers an InputRequiredResult and reads the
 * client's responses on the retry (multi round-trip requests, basic/patterns/mrtr): those tools
 * are in input.ts.
 */
import type { CallToolResult, LoggingLevel, McpServer, McpServerOptions, TaskManager, Tool } from "../../out/2026-07-28/index.js";
import { CONTENT_TOOLS, NO_ARGS, ok, text, type ContentResult, type ToolArgs } from "../everything/content-tools.js";
import { INPUT_TOOLS } from "./input.js";
import { TASK_TOOLS } from "./tasks.js";

/** Lists whose change the server announces on subscriptions/listen streams. */
export interface ListChanges {
  toolsChanged(): void;
  promptsChanged(): void;
}

type Handlers = NonNullable<McpServerOptions["handlers"]>;
type ToolsCall = NonNullable<Handlers["tools/call"]>;

/** The context the runtime gives a tools/call handler: signal, sendProgress, notify, _meta, and input (multi round-trip requests). */
export type ToolsCallContext = Parameters<ToolsCall>[1];

/** What tools/call answers in this revision: a result, or an InputRequiredResult asking the client for input. */
export type ToolAnswer = Awaited<ReturnType<ToolsCall>>;

/** What a tool gets besides its arguments. */
export interface ToolEnv {
  /** The runtime's context of this tools/call: signal, sendProgress, notify, _meta, input (multi round-trip requests, which also check the client's capabilities). */
  readonly ctx: ToolsCallContext;
  /** notifications/message on this request's stream, at or above the level its `_meta` asked for; nothing when it asked for none. */
  readonly log: (level: LoggingLevel, data: unknown) => Promise<void>;
  readonly changes: ListChanges;
  /** The server's tasks (Tasks extension): a tool answers with `tasks.start(work)` for a client that declared it. */
  readonly tasks: TaskManager;
}

export interface ToolEntry {
  readonly tool: Tool;
  readonly run: (args: ToolArgs, env: ToolEnv) => ToolAnswer | Promise<ToolAnswer>;
}

/** A complete result of this revision: every result says what it is (Result: servers MUST include resultType). */
const complete = (result: ContentResult): CallToolResult => ({ resultType: "complete", ...result });

/** A content tool as a 2026-07-28 tool: the same answer, marked complete. */
const adapt = ({ tool, run }: (typeof CONTENT_TOOLS)[number]): ToolEntry => ({
  tool,
  run: async (args, env) => complete(await run(args, { signal: env.ctx.signal, progress: env.ctx.sendProgress, log: env.log })),
});

export const TOOLS: readonly ToolEntry[] = [
  ...CONTENT_TOOLS.map(adapt),
  {
    // SEP-2243: `region` is mirrored into the Mcp-Param-Region header, which the transport checks
    // against the body (http-custom-header-server-validation).
    tool: {
      name: "test_x_mcp_header",
      description: "Echoes its region argument, which the client also sends as the Mcp-Param-Region header.",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", description: "Mirrored into Mcp-Param-Region", "x-mcp-header": "Region" },
          level: { type: "integer", description: "Not mirrored" },
        },
      },
    },
    run: (args) => complete(ok(text(`region=${typeof args["region"] === "string" ? args["region"] : "<none>"}`))),
  },
  {
    // server-stateless: the response stream of a call carries its result (and notifications), never a request to the client.
    tool: { name: "test_streaming_elicitation", description: "Answers on its response stream with a result only: no request to the client travels there in this revision.", inputSchema: NO_ARGS },
    run: () => complete(ok(text("The response stream carried this result and no request to the client."))),
  },
  {
    // server-stateless: logs go out only for a request whose _meta asks for a level (Logging, Per-request log level).
    tool: { name: "test_logging_tool", description: "Logs one info message, which the client gets only if its request's _meta set a log level.", inputSchema: NO_ARGS },
    run: async (_args, env) => {
      await env.log("info", "test_logging_tool ran");
      return complete(ok(text("Logged one info message (sent only when the request set io.modelcontextprotocol/logLevel).")));
    },
  },
  {
    tool: { name: "test_trigger_tool_change", description: "Announces a change of the tool list to the subscriptions/listen streams that asked for it.", inputSchema: NO_ARGS },
    run: (_args, env) => {
      env.changes.toolsChanged();
      return complete(ok(text("notifications/tools/list_changed published")));
    },
  },
  {
    tool: { name: "test_trigger_prompt_change", description: "Announces a change of the prompt list to the subscriptions/listen streams that asked for it.", inputSchema: NO_ARGS },
    run: (_args, env) => {
      env.changes.promptsChanged();
      return complete(ok(text("notifications/prompts/list_changed published")));
    },
  },
  ...INPUT_TOOLS,
  ...TASK_TOOLS,
];

/**
 * Registers every tool on `server`; `envOf` gives a call what it needs besides the runtime's
 * context. The registrations answer tools/list (with the server's caching fields) and
 * tools/call; an argument that breaks a tool's inputSchema comes back as a tool execution error
 * naming it, before the tool runs. An InputRequiredResult or a task handle goes out as it is.
 */
export function registerTools(server: McpServer, envOf: (ctx: ToolsCallContext) => ToolEnv): void {
  for (const { tool, run } of TOOLS) {
    const { name, outputSchema: _none, ...config } = tool;
    server.registerTool(name, config, (args, ctx) => run(args, envOf(ctx)));
  }
}
