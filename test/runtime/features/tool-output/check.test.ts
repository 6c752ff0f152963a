/**
 * The client's check of tools' structured results (features/tool-output.ts) against a server
 * whose handlers answer whatever the test says (a buggy or hostile server): the outputSchema
 * remembered from tools/list, a result breaking it or missing structuredContent rejected with
 * ToolOutputError, error results and unknown tools passed through, a schema the validator refuses
 * passed through unchecked, the check off with `toolOutput: false`, the memory bounded.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { connectPair } from "../../../helpers/harness.js";

const OUTPUT = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };

function serverAnswering(result: () => R.CallToolResult, outputSchema: object = OUTPUT, tools = 1): R.McpServerOptions {
  return {
    handlers: {
      "tools/list": () => ({
        tools: Array.from({ length: tools }, (_, i) => ({ name: i === 0 ? "t" : `t${i}`, inputSchema: { type: "object" as const }, outputSchema: outputSchema as never })),
      }),
      "tools/call": () => result(),
    },
  };
}

describe("the client checks structuredContent against the tool's outputSchema", () => {
  it("passes a conforming result, and rejects one that breaks the schema with the pointer", async () => {
    let structured: Record<string, unknown> = { n: 1 };
    const { client } = await connectPair({ server: serverAnswering(() => ({ content: [], structuredContent: structured })) });
    await client.listTools({});
    expect(await client.callTool({ name: "t", arguments: {} })).toEqual({ content: [], structuredContent: { n: 1 } });
    structured = { n: 1.5 };
    const error = await client.callTool({ name: "t", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.ToolOutputError);
    expect(error).toMatchObject({ tool: "t", issue: { pointer: "/n", message: "must be integer, got number" }, message: "tool t: structuredContent breaks its outputSchema at /n: must be integer, got number" });
  });

  it("rejects a result without structuredContent, and lets error results through", async () => {
    let isError = false;
    const { client } = await connectPair({ server: serverAnswering(() => ({ content: [{ type: "text", text: "x" }], ...(isError ? { isError: true } : {}) })) });
    await client.listTools({});
    await expect(client.callTool({ name: "t", arguments: {} })).rejects.toThrow("tool t has an outputSchema but its result has no structuredContent");
    isError = true;
    expect(await client.callTool({ name: "t", arguments: {} })).toMatchObject({ isError: true });
  });

  it("checks nothing before tools/list, nor a tool whose schema the validator refuses, nor with toolOutput: false", async () => {
    const bad = () => ({ content: [], structuredContent: { n: "x" } });
    const before = await connectPair({ server: serverAnswering(bad) });
    expect(await before.client.callTool({ name: "t", arguments: {} })).toMatchObject({ structuredContent: { n: "x" } });
    const refused = await connectPair({ server: serverAnswering(bad, { type: "object", unevaluatedProperties: false }) });
    await refused.client.listTools({});
    expect(await refused.client.callTool({ name: "t", arguments: {} })).toMatchObject({ structuredContent: { n: "x" } });
    const off = await connectPair({ server: serverAnswering(bad), client: { toolOutput: false } });
    await off.client.listTools({});
    expect(await off.client.callTool({ name: "t", arguments: {} })).toMatchObject({ structuredContent: { n: "x" } });
  });

  it("remembers at most maxTools schemas, forgetting the oldest", async () => {
    const bad = () => ({ content: [], structuredContent: { n: "x" } });
    const { client } = await connectPair({ server: serverAnswering(bad, OUTPUT, 3), client: { toolOutput: { maxTools: 2 } } });
    await client.listTools({});
    // "t" was listed first of three: forgotten, so its call is not checked; "t2" is.
    expect(await client.callTool({ name: "t", arguments: {} })).toMatchObject({ structuredContent: { n: "x" } });
    await expect(client.callTool({ name: "t2", arguments: {} })).rejects.toBeInstanceOf(R.ToolOutputError);
  });

  it("accepts what a registered tool sends (our server and our client agree)", async () => {
    const { client, server } = await connectPair();
    server.registerTool("sum", { outputSchema: { type: "object", properties: { s: { type: "number" } }, required: ["s"] } }, () => ({ structuredContent: { s: 3 } }));
    await client.listTools({});
    expect(await client.callTool({ name: "sum", arguments: {} })).toMatchObject({ structuredContent: { s: 3 } });
  });
});
