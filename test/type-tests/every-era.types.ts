// Type-level tests of McpServers (test/generated/every-era): its registrations are typed as a
// generated McpServer's (arguments from the schema, results of the newest dated revision), and
// `requires` takes the features only. Checked in place by test/runtime/facade/every-era/types.test.ts:
// every `@ts-expect-error` must still be an error, and every other line must compile.
import { McpServers, type EraFeature } from "../generated/every-era/index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T | undefined => undefined;

const server = new McpServers({ logger: null });

server.registerTool(
  "add",
  { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } as const },
  ({ a, b }) => {
    assert<Equal<typeof a, number>>();
    return { content: [{ type: "text", text: String(a + b) }] };
  },
);
server.registerTool("ask", { requires: ["inputRequired", "serverRequests"] }, () => ({ content: [] }));
// @ts-expect-error: not a feature
server.registerTool("odd", { requires: ["telepathy"] }, () => ({ content: [] }));
// @ts-expect-error: a tool's result has content
server.registerTool("bad", {}, () => ({ text: "no content" }));
// @ts-expect-error: a prompt's result has messages
server.registerPrompt("p", {}, () => ({ content: [] }));
server.registerResource("r", "test://r", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, text: "r" }] }));
// @ts-expect-error: the URI is the second argument, the config the third
server.registerResource("r2", { uri: "test://r2" }, () => ({ contents: [] }));
assert<Equal<EraFeature, "inputRequired" | "tasks" | "structuredContent" | "resourceTemplates" | "serverRequests">>();
// @ts-expect-error: per-revision options are objects, or a function returning one
new McpServers({ revisions: { "2025-11-25": 42 } });
