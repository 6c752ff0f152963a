/**
 * A small 2026-07-28 server over the generated Streamable HTTP runtime, for the wire tests of
 * test/runtime/http/stateless and for running the conformance scenarios that concern the transport
 * (served on the native face):
 *
 *   npx tsx test/runtime/http/stateless/fixture-server.ts [--port N]   # prints "listening on http://127.0.0.1:N/mcp"
 *   /work/notes/conf.sh http://127.0.0.1:N/mcp --requirements 2026-07-28 --scenario server-stateless
 *
 * Tools: `echo` (its `region` argument is mirrored into `Mcp-Param-Region`), `slow` (sends
 * progress, then waits for its signal), `test_missing_capability` (needs `sampling`),
 * `test_logging_tool` (logs only when the request asked for a level) and `test_streaming_elicitation`
 * (streams a progress notification, then answers).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as R from "../../../generated/2026-07-28/index.js";

export type ServerHandlers = NonNullable<R.McpServerOptions["handlers"]>;

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const MISSING_CAPABILITY = -32021;

export const TOOLS: R.Tool[] = [
  {
    name: "echo",
    description: "Echoes its text",
    inputSchema: {
      type: "object",
      properties: {
        text: { type: "string" },
        region: { type: "string", "x-mcp-header": "Region" },
        count: { type: "integer", "x-mcp-header": "Count" },
        options: { type: "object", properties: { verbose: { type: "boolean", "x-mcp-header": "Verbose" } } },
      },
    },
  },
  { name: "slow", description: "Works until cancelled", inputSchema: { type: "object" } },
  { name: "test_missing_capability", description: "Needs the sampling capability", inputSchema: { type: "object" } },
  { name: "test_logging_tool", description: "Logs where asked to", inputSchema: { type: "object" } },
  { name: "test_streaming_elicitation", description: "Streams before answering", inputSchema: { type: "object" } },
];

const text = (t: string): R.CallToolResult => ({ resultType: "complete", content: [{ type: "text", text: t }] });

/** The fixture's handlers; `slow` reports its context to `onSlow` so tests can watch its signal. */
export function fixtureHandlers(onSlow?: (ctx: { readonly signal: AbortSignal }) => void): ServerHandlers {
  return {
    "tools/list": () => ({ resultType: "complete", tools: TOOLS, ttlMs: 60_000, cacheScope: "public" }),
    "tools/call": async (params, ctx) => {
      switch (params.name) {
        case "echo":
          return text(String(params.arguments?.["text"] ?? ""));
        case "slow":
          await ctx.sendProgress(1, 2, "started");
          onSlow?.(ctx);
          await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
          await ctx.sendProgress(2, 2, "after the abort"); // must never reach the wire
          return text("unreachable");
        case "test_missing_capability": {
          const capabilities = ctx._meta?.[CAPABILITIES];
          if (typeof capabilities !== "object" || capabilities === null || !("sampling" in capabilities)) {
            // MissingRequiredClientCapabilityError (the schema's code; on HTTP it is sent with 400).
            throw new R.McpError(MISSING_CAPABILITY, "Missing required client capability: sampling", {
              requiredCapabilities: { sampling: {} },
            });
          }
          return text("sampled");
        }
        case "test_logging_tool":
          if (ctx._meta?.[LOG_LEVEL] !== undefined) await ctx.notify("notifications/message", { level: "info", data: "logged" });
          return text("done");
        case "test_streaming_elicitation":
          await ctx.notify("notifications/progress", { progressToken: "p", progress: 1 });
          return text("streamed");
        default:
          throw new R.McpError(R.ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      }
    },
    "prompts/list": () => ({ resultType: "complete", prompts: [], ttlMs: 0, cacheScope: "public" }),
  };
}

export function fixtureServer(options: R.McpServerOptions = {}): R.McpServer {
  return new R.McpServer({ serverInfo: { name: "http-fixture", version: "1.0.0" }, logger: null, handlers: fixtureHandlers(), ...options });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const portArg = process.argv.indexOf("--port");
  const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 0;
  const http = createServer(R.toNodeListener(R.createHttpHandler(fixtureServer())));
  http.listen(port, "127.0.0.1", () => {
    const { port: bound } = http.address() as AddressInfo;
    console.log(`listening on http://127.0.0.1:${bound}/mcp`);
  });
}
