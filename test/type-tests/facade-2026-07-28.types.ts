// Type-level tests of the generated 2026-07-28 McpClient and McpServer (issue 30, items 2 and 3).
// The test run (test/integration/typecheck-published.test.ts) copies this file into the generated
// out/2026-07-28/ folder and compiles it: every `@ts-expect-error` must still be an error, and
// every other line must compile.
import type * as G from "./index.js";
import { McpClient, McpServer, isComplete, isInputRequired } from "./index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T | undefined => undefined;
type Marked = G.InputRequiredMarked<G.InputRequiredResult>;
declare const flag: boolean;

// Results typed by who answers input rounds. The client answers them itself by default: callTool,
// readResource, getPrompt and request() resolve to the complete result.
export async function answeredByTheClient(client: McpClient): Promise<number> {
  const called = await client.callTool({ name: "x" });
  const requested = await client.request("tools/call", { name: "x" });
  const read = await client.readResource({ uri: "file:///a" });
  const prompt = await client.getPrompt({ name: "p" });
  assert<Equal<typeof called, G.CallToolResult>>();
  assert<Equal<typeof requested, G.CallToolResult>>();
  assert<Equal<typeof read, G.ReadResourceResult>>();
  assert<Equal<typeof prompt, G.GetPromptResult>>();
  // A call that drives its own rounds gets the union back.
  const own = await client.callTool({ name: "x" }, { returnInputRequired: true });
  const ownRequest = await client.request("tools/call", { name: "x" }, { returnInputRequired: true });
  assert<Equal<typeof own, G.CallToolResult | Marked>>();
  assert<Equal<typeof ownRequest, G.CallToolResult | Marked>>();
  // @ts-expect-error the union's InputRequiredResult has no content (its index signature gives unknown)
  own.content.length;
  // Requests that never meet InputRequiredResult are unchanged.
  assert<Equal<Awaited<ReturnType<typeof client.listTools>>, G.ListToolsResult>>();
  return called.content.length + read.contents.length + prompt.messages.length;
}

// Manual input handling: the option's literal selects the union, told apart by the exported guards.
export async function manual(): Promise<string> {
  const client = new McpClient({ returnInputRequired: true });
  assert<Equal<typeof client, McpClient<true>>>();
  const result = await client.callTool({ name: "x" });
  assert<Equal<typeof result, G.CallToolResult | Marked>>();
  // @ts-expect-error the result may be an InputRequiredResult: check which first
  result.content.length;
  if (isInputRequired(result)) {
    assert<Equal<typeof result, Marked>>();
    return result.requestState ?? "";
  }
  assert<Equal<typeof result, G.CallToolResult>>();
  const content: G.ContentBlock[] = result.content;
  const read = await client.readResource({ uri: "file:///a" });
  if (isComplete(read)) {
    const contents: G.ReadResourceResult["contents"] = read.contents;
    return String(contents.length + content.length);
  }
  assert<Equal<typeof read, Marked>>();
  // A call may hand its rounds back to the client.
  const answered = await client.callTool({ name: "x" }, { returnInputRequired: false });
  assert<Equal<typeof answered, G.CallToolResult>>();
  // A setting not known until run time: the union.
  const either = await new McpClient({ returnInputRequired: flag }).callTool({ name: "x" });
  assert<Equal<typeof either, G.CallToolResult | Marked>>();
  // Explicitly false (or left out): the complete result.
  const automatic = await new McpClient({ returnInputRequired: false }).callTool({ name: "x" });
  assert<Equal<typeof automatic, G.CallToolResult>>();
  return "";
}

// Params whose fields are all optional (`_meta` is filled by the client) may be left out.
export async function optionalParams(client: McpClient): Promise<void> {
  await client.listTools();
  await client.listPrompts();
  await client.listResources();
  await client.listResourceTemplates();
  await client.request("tools/list");
  await client.listTools({ cursor: "c" }, { timeoutMs: 5 });
  // @ts-expect-error tools/call needs a name
  await client.callTool();
  // @ts-expect-error so does its request()
  await client.request("tools/call");
}

// Handler results with defaults: resultType, and on cacheable results cacheScope and ttlMs, may be left out.
export const server = new McpServer({
  resultDefaults: { cacheScope: "public", ttlMs: 60_000 },
  handlers: {
    "tools/call": async () => ({ content: [{ type: "text", text: "hi" }] }),
    "tools/list": () => ({ tools: [] }),
    "prompts/list": () => ({ prompts: [], ttlMs: 5 }),
    "resources/read": (params, ctx) => (params.uri === "ask" ? ctx.input.required({}) : { contents: [] }),
    "completion/complete": () => ({ completion: { values: [] } }),
    // A handler may still give them itself.
    "resources/list": () => ({ resultType: "complete", resources: [], cacheScope: "private", ttlMs: 0 }),
  },
});

export const wrongResults = new McpServer({
  handlers: {
    // @ts-expect-error content is a ContentBlock[] (CallToolResult); the loose InputRequiredResult of the schema no longer lets it through
    "tools/call": () => ({ content: "oops" }),
    // @ts-expect-error tools/list must list its tools
    "tools/list": () => ({ ttlMs: 5 }),
    // @ts-expect-error cacheScope is "public" or "private"
    "prompts/list": () => ({ prompts: [], cacheScope: "shared" }),
    // @ts-expect-error tools/list answers ListToolsResult only: no InputRequiredResult
    "resources/list": () => ({ resultType: "input_required", requestState: "s" }),
  },
});

// @ts-expect-error cacheScope is "public" or "private"
export const badScope = new McpServer({ resultDefaults: { cacheScope: "shared" } });
// @ts-expect-error ttlMs is a number
export const badTtl = new McpServer({ resultDefaults: { ttlMs: "60s" } });
