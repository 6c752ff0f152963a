/**
 * What registrations do differently by revision (REGISTRY in the generated server.ts):
 * - 2024-11-05: invalid tool arguments are -32602 with the pointer in `data`; no outputSchema;
 *   no `completions` capability;
 * - 2026-07-28: invalid arguments are a tool execution error; results carry `resultType`, lists
 *   and resources/read the caching fields; a missing resource is -32602; list changes go out on
 *   subscriptions/listen streams (the Subscriptions hub), declared in server/discover.
 */
import { describe, expect, it } from "vitest";
import * as Legacy from "../../../generated/2024-11-05/index.js";
import * as R from "../../../generated/2026-07-28/index.js";
import { initializeParams, BASIC_META, META_KEYS } from "../../../helpers/fixtures.js";
import { connect, settle } from "../subscriptions/support.js";

const INPUT = { type: "object", properties: { n: { type: "integer", maximum: 9 } }, required: ["n"] } as const;

describe("2024-11-05", () => {
  it("answers invalid arguments with -32602 naming the pointer, and declares tools with listChanged, no completions", async () => {
    const [a, b] = Legacy.createInMemoryTransportPair();
    const server = new Legacy.McpServer({ logger: null });
    const client = new Legacy.McpClient({ logger: null });
    let calls = 0;
    server.registerTool("digit", { inputSchema: INPUT }, (args) => {
      calls++;
      return { content: [{ type: "text", text: String(args.n) }] };
    });
    server.registerPrompt("p", { complete: { x: () => ["y"] } }, () => ({ messages: [] }));
    await server.connect(b);
    await client.connect(a, { initialize: false });
    const init = await client.initialize(initializeParams("test-client", "2024-11-05") as never);
    expect(init.capabilities).toEqual({ tools: { listChanged: true }, prompts: { listChanged: true } });
    await expect(client.callTool({ name: "digit", arguments: { n: 10 } })).rejects.toMatchObject({
      code: -32602,
      message: "Invalid arguments for tool digit: /n: must be ≤ 9",
      data: { pointer: "/n" },
    });
    expect(await client.callTool({ name: "digit", arguments: { n: 9 } })).toEqual({ content: [{ type: "text", text: "9" }] });
    expect(calls).toBe(1);
    expect(() => server.registerTool("out", { outputSchema: { type: "object" } } as never, () => ({ content: [] }))).toThrow("this revision has no outputSchema");
    await client.close();
  });
});

describe("2026-07-28", () => {
  const request = (id: number, method: string, params: object = {}) => ({ jsonrpc: "2.0", id, method, params: { _meta: BASIC_META, ...params } });
  const response = (received: unknown[], id: number) => received.find((m) => (m as { id?: unknown }).id === id) as { result?: Record<string, unknown>; error?: Record<string, unknown> } | undefined;

  it("fills resultType and the caching fields, answers invalid arguments as a tool error and a missing resource with -32602", async () => {
    const hub = new R.Subscriptions();
    const conn = await connect(hub, { handlers: {}, resultDefaults: { ttlMs: 5000, cacheScope: "public" } });
    conn.server.registerTool("digit", { inputSchema: INPUT, outputSchema: { type: "object", properties: { n: { type: "integer" } } } }, (args) => ({ structuredContent: { n: args.n } }));
    conn.server.registerResource("r", "x://r", {}, (uri) => ({ contents: [{ uri, text: "r" }] }));
    await conn.send(request(1, "tools/list"));
    await conn.send(request(2, "tools/call", { name: "digit", arguments: { n: 3 } }));
    await conn.send(request(3, "tools/call", { name: "digit", arguments: { n: 30 } }));
    await conn.send(request(4, "resources/read", { uri: "x://r" }));
    await conn.send(request(5, "resources/read", { uri: "x://missing" }));
    await settle();
    const without = (result: Record<string, unknown> | undefined) => {
      const { _meta: _, ...rest } = result ?? {};
      return rest;
    };
    expect(without(response(conn.received, 1)?.result)).toMatchObject({ resultType: "complete", ttlMs: 5000, cacheScope: "public", tools: [{ name: "digit" }] });
    expect(without(response(conn.received, 2)?.result)).toEqual({ resultType: "complete", structuredContent: { n: 3 }, content: [{ type: "text", text: '{"n":3}' }] });
    expect(without(response(conn.received, 3)?.result)).toEqual({ resultType: "complete", isError: true, content: [{ type: "text", text: "Invalid arguments for tool digit: /n: must be ≤ 9" }] });
    expect(without(response(conn.received, 4)?.result)).toEqual({ resultType: "complete", ttlMs: 5000, cacheScope: "public", contents: [{ uri: "x://r", text: "r" }] });
    expect(response(conn.received, 5)?.error).toMatchObject({ code: -32602, message: "Resource not found: x://missing" });
    await conn.close();
  });

  it("declares the registered kinds in server/discover (listChanged from the hub) and publishes list changes on listen streams", async () => {
    const hub = new R.Subscriptions();
    const conn = await connect(hub, { handlers: {} });
    conn.server.registerTool("t", {}, () => ({ content: [] }));
    await settle();
    await conn.send(request(1, "server/discover"));
    await settle();
    expect(response(conn.received, 1)?.result?.["capabilities"]).toEqual({ tools: { listChanged: true } });
    await conn.listen(2, { toolsListChanged: true });
    await settle();
    conn.server.registerTool("u", {}, () => ({ content: [] }));
    await settle();
    const changes = conn.received.filter((m) => "method" in m && m.method === "notifications/tools/list_changed");
    expect(changes).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [META_KEYS.subscriptionId]: 2 } } }]);
    await conn.close();
  });
});

