/**
 * A stdio MCP server on the generated 2025-11-25 stubs (run `npm run generate` first).
 *
 *   npm run example:server        # speaks newline-delimited JSON-RPC on stdin/stdout
 *
 * Tools: `echo` ({ text }) returns the text; `sleep` ({ ms }) waits that long, or until the
 * client cancels it with notifications/cancelled, and then writes `cancelled <requestId>
 * <reason>` to stderr. stdout carries JSON-RPC messages only; every log line goes to stderr
 * (the runtime's default logger writes its cancellation lines there too).
 */
import { ErrorCode, McpError, McpServer, type CallToolResult, type Tool } from "../out/2025-11-25/index.js";
import { StdioTransport } from "../out/2025-11-25/stdio.js";

const SERVER_INFO = { name: "mcp-stubgen-example", version: "0.1.0" };

const TOOLS: Tool[] = [
  {
    name: "echo",
    description: "Returns the text it is given.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "The text to return" } },
      required: ["text"],
    },
  },
  {
    name: "sleep",
    description: "Waits the given number of milliseconds (or until cancelled), then returns.",
    inputSchema: {
      type: "object",
      properties: { ms: { type: "number", minimum: 0, description: "How long to wait, in milliseconds" } },
      required: ["ms"],
    },
  },
];

const text = (value: string, isError = false): CallToolResult => (isError ? { content: [{ type: "text", text: value }], isError } : { content: [{ type: "text", text: value }] });

/** Resolves after `ms`, or as soon as `signal` aborts; true when it was aborted. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(true);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(false);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const server = new McpServer({
  // No logger option: the default one writes one line per cancellation event to stderr.
  handlers: {
    initialize: (params) => ({
      // This server speaks only the revision it was generated for.
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: SERVER_INFO,
      instructions: `Hello ${params.clientInfo.name}: try the echo and sleep tools.`,
    }),
    "tools/list": () => ({ tools: TOOLS }),
    "tools/call": async (params, ctx) => {
      const args = params.arguments ?? {};
      switch (params.name) {
        case "echo": {
          const value = args["text"];
          if (typeof value !== "string") return text('echo: "text" must be a string', true);
          return text(value);
        }
        case "sleep": {
          const ms = args["ms"];
          if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) return text('sleep: "ms" must be a number >= 0', true);
          if (await sleep(ms, ctx.signal)) {
            process.stderr.write(`cancelled ${String(ctx.requestId)} ${String(ctx.signal.reason)}\n`);
            // The runtime sends no response for a cancelled request: this value goes nowhere.
            return text("cancelled", true);
          }
          return text(`slept ${ms} ms`);
        }
        default:
          // Tools: an unknown tool is a protocol error (-32602), not a tool result.
          throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      }
    },
  },
  notificationHandlers: {
    "notifications/initialized": () => {},
  },
  onError: (error) => process.stderr.write(`[mcp server] ${error.message}\n`),
});

// The process ends by itself when stdin ends: the transport closes, running handlers abort.
await server.connect(new StdioTransport({ input: process.stdin, output: process.stdout }));
