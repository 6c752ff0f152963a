/**
 * One registration set for the every-era tests: a tool with arguments, a tool without, a prompt,
 * a resource. Registered once on test/generated/every-era's McpServers; every revision serves it.
 */
import type { McpServers } from "../../../generated/every-era/index.js";

export const TOOL_NAMES: readonly string[] = ["echo", "ping_me"];

export function registerAll(server: McpServers): void {
  server.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } as const },
    ({ text }) => ({ content: [{ type: "text", text: `echo: ${String(text)}` }] }),
  );
  server.registerTool("ping_me", { description: "Answers pong" }, () => ({ content: [{ type: "text", text: "pong" }] }));
  server.registerPrompt("hello", { description: "Says hello" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "hello" } }] }));
  server.registerResource("a", "test://a", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, text: "A" }] }));
}
