/**
 * The tools of the 2025-11-25 everything server: one table entry per tool, its definition (what
 * tools/list shows) beside the function that runs it, registered on the server with
 * registerTools (McpServer.registerTool: the registrations list them, validate each call's
 * arguments against the tool's inputSchema, and run it). The era-neutral ones come from
 * content-tools.ts (shared with the 2026-07-28 server); the ones here ask the client for input
 * with server->client requests on the call's stream (sampling, elicitation) or close that stream
 * (SEP-1699), which only the session-based era has. Names, arguments and results follow the
 * official conformance suite's server scenarios (`npm run conformance`).
 */
import { setTimeout as pause } from "node:timers/promises";
import type {
  CallToolResult,
  ClientCapabilities,
  CreateMessageResult,
  ElicitRequestFormParams,
  LoggingLevel,
  McpServer,
  ServerNotificationMap,
  ServerRequestMap,
  Tool,
  TypedContextBase,
} from "../../out/2025-11-25/index.js";
import { CONTENT_TOOLS, failure, NO_ARGS, ok, oneString, text, type ToolArgs } from "./content-tools.js";

/** What a tool gets besides its arguments. */
export interface ToolEnv {
  /** The generated runtime's context of this tools/call: signal, sendProgress, notify, request. */
  readonly ctx: TypedContextBase<ServerRequestMap, ServerNotificationMap>;
  /** The capabilities the client declared in initialize. */
  readonly client: ClientCapabilities;
  /** notifications/message on this request's stream, unless below the level set by logging/setLevel. */
  readonly log: (level: LoggingLevel, data: unknown) => Promise<void>;
  /**
   * Closes the SSE stream this request's response was to travel on, so that the client resumes
   * it with Last-Event-ID (SEP-1699 polling). False when the client cannot resume (it got no
   * priming event id) and the stream stays open.
   */
  readonly closeStream: () => boolean;
}

export interface ToolEntry {
  readonly tool: Tool;
  readonly run: (args: ToolArgs, env: ToolEnv) => CallToolResult | Promise<CallToolResult>;
}

/** The text of a sampling reply, whatever kind of content it carries. */
function describeSampled(content: CreateMessageResult["content"]): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join(" ");
}

/** Form-mode elicitation: an empty `elicitation: {}` means form mode (Elicitation, Capabilities). */
function supportsFormElicitation(client: ClientCapabilities): boolean {
  const { elicitation } = client;
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/** Sends elicitation/create (form mode, not task-augmented) and describes the answer, or fails when the client cannot elicit. */
async function elicit(env: ToolEnv, params: Omit<ElicitRequestFormParams, "task">, prefix: string): Promise<CallToolResult> {
  if (!supportsFormElicitation(env.client)) return failure("The client did not declare the elicitation capability (form mode)");
  const answer = await env.ctx.request("elicitation/create", params);
  return ok(text(`${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`));
}

const RECONNECT_DELAY_MS = 200;

/** A content tool as a 2025-11-25 tool: progress through ctx.sendProgress, log through env.log. */
const adapt = ({ tool, run }: (typeof CONTENT_TOOLS)[number]): ToolEntry => ({
  tool,
  run: (args, env) => run(args, { signal: env.ctx.signal, progress: env.ctx.sendProgress, log: env.log }),
});

export const TOOLS: readonly ToolEntry[] = [
  ...CONTENT_TOOLS.map(adapt),
  {
    tool: { name: "test_sampling", description: "Asks the client's LLM (sampling/createMessage) and returns its reply.", inputSchema: oneString("prompt", "The prompt to send to the LLM") },
    run: async (args, env) => {
      const prompt = args["prompt"];
      if (typeof prompt !== "string") return failure('test_sampling: "prompt" must be a string');
      if (env.client.sampling === undefined) return failure("The client did not declare the sampling capability");
      // A request to the client from inside this handler: it travels on this call's stream and is
      // cancelled with it (ctx.request inherits the handler's signal).
      const reply = await env.ctx.request("sampling/createMessage", {
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      return ok(text(`LLM response: ${describeSampled(reply.content)}`));
    },
  },
  {
    tool: { name: "test_elicitation", description: "Asks the user (elicitation/create) for a username and an email.", inputSchema: oneString("message", "The message to show the user") },
    run: (args, env) => {
      const message = args["message"];
      if (typeof message !== "string") return failure('test_elicitation: "message" must be a string');
      return elicit(
        env,
        {
          message,
          requestedSchema: {
            type: "object",
            properties: {
              username: { type: "string", description: "User's response" },
              email: { type: "string", description: "User's email address" },
            },
            required: ["username", "email"],
          },
        },
        "User response",
      );
    },
  },
  {
    tool: { name: "test_elicitation_sep1034_defaults", description: "Elicits a form whose fields all have defaults (SEP-1034).", inputSchema: NO_ARGS },
    run: (_args, env) =>
      elicit(
        env,
        {
          message: "Please review your profile (defaults are filled in)",
          requestedSchema: {
            type: "object",
            properties: {
              name: { type: "string", description: "User name", default: "John Doe" },
              age: { type: "integer", description: "User age", default: 30 },
              score: { type: "number", description: "User score", default: 95.5 },
              status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
              verified: { type: "boolean", description: "Verification status", default: true },
            },
          },
        },
        "Elicitation completed",
      ),
  },
  {
    tool: { name: "test_elicitation_sep1330_enums", description: "Elicits a form with the five enum variants (SEP-1330).", inputSchema: NO_ARGS },
    run: (_args, env) =>
      elicit(
        env,
        {
          message: "Please pick some options",
          requestedSchema: {
            type: "object",
            properties: {
              // Single select, without and with titles; then the deprecated enumNames form.
              untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
              titledSingle: {
                type: "string",
                oneOf: [
                  { const: "value1", title: "First Option" },
                  { const: "value2", title: "Second Option" },
                  { const: "value3", title: "Third Option" },
                ],
              },
              legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
              // Multi select (arrays), without and with titles.
              untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
              titledMulti: {
                type: "array",
                items: {
                  anyOf: [
                    { const: "value1", title: "First Choice" },
                    { const: "value2", title: "Second Choice" },
                    { const: "value3", title: "Third Choice" },
                  ],
                },
              },
            },
          },
        },
        "Elicitation completed",
      ),
  },
  {
    tool: { name: "test_reconnection", description: "Closes its SSE stream mid-call and answers after the client reconnects (SEP-1699).", inputSchema: NO_ARGS },
    run: async (_args, env) => {
      if (!env.closeStream()) return ok(text("Reconnection test: the client cannot resume a stream, so it was kept open"));
      // The result goes to the event store and reaches the client on its GET with Last-Event-ID.
      await pause(RECONNECT_DELAY_MS, undefined, { signal: env.ctx.signal });
      return ok(text("Reconnection test completed: the result was sent after the stream was closed"));
    },
  },
];

/**
 * Registers every tool on `server`; `envOf` gives a call what it needs of its session besides the
 * runtime's context. The registrations answer tools/list and tools/call; an argument that breaks
 * a tool's inputSchema comes back as a tool execution error naming it, before the tool runs.
 */
export function registerTools(server: McpServer, envOf: (ctx: ToolEnv["ctx"]) => ToolEnv): void {
  for (const { tool, run } of TOOLS) {
    const { name, outputSchema: _none, ...config } = tool;
    server.registerTool(name, config, (args, ctx) => run(args, envOf(ctx)));
  }
}
