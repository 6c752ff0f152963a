/**
 * The tools of the everything server whose behaviour is the same in every protocol era: their
 * definitions (what tools/list shows) and what they return, from nothing but their arguments,
 * the request's signal, progress and log. Both servers list them: the 2025-11-25 one
 * (examples/everything/tools.ts) and the 2026-07-28 one (examples/everything-2026/tools.ts), each
 * wrapping the result for its revision. Names, arguments and results follow the official
 * conformance suite's server scenarios.
 *
 * Typed with the 2025-11-25 stubs; the 2026-07-28 types of these values (Tool, ContentBlock)
 * accept them as they are.
 */
import { setTimeout as pause } from "node:timers/promises";
import type { ContentBlock, LoggingLevel, Tool } from "../../out/2025-11-25/index.js";
import { RED_PIXEL_PNG, SILENT_WAV } from "./media.js";

/** What a content tool may use of its request. */
export interface ContentEnv {
  /** Aborts when the request is cancelled. */
  readonly signal: AbortSignal;
  /** notifications/progress for this request (a no-op when the client gave no progressToken). */
  readonly progress: (progress: number, total: number, message: string) => Promise<void>;
  /** notifications/message for this request, when the client asked for that level (each era has its rule). */
  readonly log: (level: LoggingLevel, data: unknown) => Promise<void>;
}

export type ToolArgs = Readonly<Record<string, unknown>>;

/**
 * A tool's answer before its era adds what the revision requires (2026-07-28: resultType). A type
 * alias, not an interface: results have an index signature (as in the spec's Result), which only
 * an alias's object type satisfies implicitly.
 */
export type ContentResult = {
  content: ContentBlock[];
  isError?: boolean;
};

export interface ContentToolEntry {
  readonly tool: Tool;
  readonly run: (args: ToolArgs, env: ContentEnv) => ContentResult | Promise<ContentResult>;
}

export const text = (value: string): ContentBlock => ({ type: "text", text: value });
export const ok = (...content: ContentBlock[]): ContentResult => ({ content });
/** A tool execution error: reported in the result (isError), not as a JSON-RPC error (Tools, Error Handling). */
export const failure = (message: string): ContentResult => ({ content: [text(message)], isError: true });

export const NO_ARGS: Tool["inputSchema"] = { type: "object", properties: {} };
export const oneString = (name: string, description: string): Tool["inputSchema"] => ({
  type: "object",
  properties: { [name]: { type: "string", description } },
  required: [name],
});

/**
 * SEP-1613 and SEP-2106: JSON Schema 2020-12 keywords that tools/list must carry through
 * untouched ($schema, $defs with an $anchor, a $ref, composition, a conditional,
 * additionalProperties): the conformance suite's json-schema-2020-12 fixture.
 */
const SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object" as const,
  $defs: {
    address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

export const CONTENT_TOOLS: readonly ContentToolEntry[] = [
  {
    tool: { name: "test_simple_text", description: "Returns a simple text block.", inputSchema: NO_ARGS },
    run: () => ok(text("This is a simple text response for testing.")),
  },
  {
    tool: { name: "test_image_content", description: "Returns an image block (a 1x1 red PNG).", inputSchema: NO_ARGS },
    run: () => ok({ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }),
  },
  {
    tool: { name: "test_audio_content", description: "Returns an audio block (10 ms of silence, WAV).", inputSchema: NO_ARGS },
    run: () => ok({ type: "audio", data: SILENT_WAV, mimeType: "audio/wav" }),
  },
  {
    tool: { name: "test_embedded_resource", description: "Returns an embedded text resource.", inputSchema: NO_ARGS },
    run: () =>
      ok({
        type: "resource",
        resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
      }),
  },
  {
    tool: { name: "test_multiple_content_types", description: "Returns text, image and resource blocks together.", inputSchema: NO_ARGS },
    run: () =>
      ok(
        text("Multiple content types test:"),
        { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
        },
      ),
  },
  {
    tool: { name: "test_tool_with_logging", description: "Sends three info log messages while it runs.", inputSchema: NO_ARGS },
    run: async (_args, env) => {
      await env.log("info", "Tool execution started");
      await pause(50, undefined, { signal: env.signal });
      await env.log("info", "Tool processing data");
      await pause(50, undefined, { signal: env.signal });
      await env.log("info", "Tool execution completed");
      return ok(text("Tool with logging executed successfully"));
    },
  },
  {
    tool: { name: "test_error_handling", description: "Always fails, with a tool execution error.", inputSchema: NO_ARGS },
    run: () => failure("This tool intentionally returns an error for testing"),
  },
  {
    tool: { name: "test_tool_with_progress", description: "Reports progress 0, 50 and 100 of 100 (when asked for a progressToken).", inputSchema: NO_ARGS },
    run: async (_args, env) => {
      await env.progress(0, 100, "started");
      await pause(50, undefined, { signal: env.signal });
      await env.progress(50, 100, "halfway");
      await pause(50, undefined, { signal: env.signal });
      await env.progress(100, 100, "done");
      return ok(text("Tool with progress executed successfully"));
    },
  },
  {
    // Not a fresh object literal, so the keywords the generated Tool type does not spell out
    // ($defs, allOf, if, additionalProperties, ...) pass through to tools/list as they are.
    tool: { name: "json_schema_2020_12_tool", description: "Tool with JSON Schema 2020-12 features", inputSchema: SCHEMA_2020_12 },
    run: (args) => ok(text(`Received: ${JSON.stringify(args)}`)),
  },
];
