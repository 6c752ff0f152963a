/**
 * Our 2026-07-28 McpClient over HttpClientTransport against the official SDK v2 server
 * (`@modelcontextprotocol/server` 2.4.0, createMcpHandler, a fresh McpServer per POST), served
 * on 127.0.0.1 by our own toNodeListener: the SDK accepts the headers we send, a mid-stream abort
 * reaches the SDK handler's signal with no notifications/cancelled POSTed, and one MRTR round
 * trip (the SDK's inputRequired() answered through our handlers).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { abortOf, deferred } from "../stateless/support.js";
import { connectClient } from "./support.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function sdkServer(onSlow: (signal: AbortSignal) => void): Promise<string> {
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: "sdk-v2", version: "2.4.0" });
    mcp.registerTool("echo", { description: "answers at once" }, () => ({ content: [{ type: "text", text: "echo" }] }));
    mcp.registerTool("slow", { description: "waits for its signal" }, async (ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined) await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: 1 } });
      onSlow(ctx.mcpReq.signal);
      await abortOf(ctx.mcpReq.signal);
      return { content: [] };
    });
    mcp.registerTool("who", { description: "asks for a name" }, (ctx) => {
      const answer = ctx.mcpReq.inputResponses?.["who"] as { action?: string; content?: { name?: string } } | undefined;
      if (answer?.action === "accept") return { content: [{ type: "text", text: `hello ${answer.content?.name}` }] };
      return inputRequired({
        inputRequests: { who: inputRequired.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } }) },
      });
    });
    return mcp;
  });
  const http = createServer(R.toNodeListener((request) => handler.fetch(request)));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

describe("our HTTP client against the SDK v2 server", () => {
  it("sends the headers the SDK checks, and reads its answers", async () => {
    const url = await sdkServer(() => {});
    const { client, posted, errors } = await connectClient(url);
    const { tools } = await client.listTools({});
    expect(tools.map((t) => t.name).sort()).toEqual(["echo", "slow", "who"]);
    await expect(client.callTool({ name: "echo", arguments: {} })).resolves.toMatchObject({ content: [{ type: "text", text: "echo" }] });
    expect(posted.map((p) => [p.headers["mcp-protocol-version"], p.headers["mcp-method"], p.headers["mcp-name"]])).toEqual([
      ["2026-07-28", "tools/list", undefined],
      ["2026-07-28", "tools/call", "echo"],
    ]);
    expect(errors).toEqual([]);
    await client.close();
  });

  it("a mid-stream abort reaches the SDK handler's signal; no notifications/cancelled is POSTed", async () => {
    const started = deferred<AbortSignal>();
    const url = await sdkServer((signal) => started.resolve(signal));
    const { client, posted, events } = await connectClient(url);
    const stop = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, { signal: stop.signal, onProgress: () => {} }).catch((e: unknown) => e);
    const signal = await started.promise;
    stop.abort("stop");
    expect(await call).toBeInstanceOf(R.RequestCancelledError);
    await abortOf(signal);
    expect(signal.aborted).toBe(true);
    expect(events).toMatchObject([{ type: "sent", method: "tools/call", via: "stream-close" }]);
    expect(posted.map((p) => p.body["method"])).toEqual(["tools/call"]);
    await client.close();
  });

  it("one MRTR round trip: the SDK's inputRequired() answered by our elicitation handler", async () => {
    const url = await sdkServer(() => {});
    const { client, posted } = await connectClient(url, {
      capabilities: { elicitation: {} },
      handlers: { "elicitation/create": (params) => ({ action: "accept", content: { name: params.message === "Name?" ? "Ada" : "?" } }) },
    });
    await expect(client.callTool({ name: "who", arguments: {} })).resolves.toMatchObject({ content: [{ type: "text", text: "hello Ada" }] });
    expect(posted).toHaveLength(2);
    expect(posted[1]!.body["params"]).toMatchObject({ inputResponses: { who: { action: "accept", content: { name: "Ada" } } } });
    await client.close();
  });
});
