/**
 * An App and a Host (generated test/generated/apps/) over the postMessage transport between two
 * fake windows, the Host bridged to a generated McpClient connected in memory to a generated
 * McpServer (2025-11-25 and 2026-07-28): the handshake, a notification each way, a ui/* request
 * each way, a proxied tools/call and resources/read with their results, and a tools/call
 * cancelled in the App whose cancel reaches the MCP server's handler (its ctx.signal aborts).
 */
import { afterEach, describe, expect, it } from "vitest";
import * as Apps from "../../generated/apps/index.js";
import * as Session from "../../generated/2025-11-25/index.js";
import * as Stateless from "../../generated/2026-07-28/index.js";
import { PostMessageTransport } from "../../../templates/runtime/apps/post-message.js";
import { windows } from "./fake-windows.js";

/** What the MCP server's slow tool saw: it started, and its ctx.signal aborted. */
interface Slow {
  started: Promise<void>;
  aborted: Promise<unknown>;
}

/** A generated server of `R` with a slow tool and a UI resource, and a connected client. */
async function mcp(R: typeof Session | typeof Stateless): Promise<{ client: Session.McpClient | Stateless.McpClient; slow: Slow; close: () => Promise<void> }> {
  let started!: () => void;
  let aborted!: (reason: unknown) => void;
  const slow: Slow = { started: new Promise((r) => (started = r)), aborted: new Promise((r) => (aborted = r)) };
  const server = new R.McpServer({ logger: null, serverInfo: { name: "s", version: "1" } });
  server.registerTool("slow", { description: "waits for its cancel" }, async (_args: unknown, ctx: { signal: AbortSignal }) => {
    started();
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    aborted(ctx.signal.reason);
    return { content: [] };
  });
  server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, (args: { text: string }) => ({ content: [{ type: "text", text: args.text }] }));
  server.registerResource("page", "ui://demo/page.html", { mimeType: "text/html" }, (uri: string) => ({ contents: [{ uri, text: "<p>hi</p>" }] }));
  const [a, b] = R.createInMemoryTransportPair();
  await server.connect(b);
  const client = new R.McpClient({ logger: null });
  await client.connect(a);
  return { client, slow, close: async () => { await client.close(); await server.close(); } };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The App and Host of a fake page, the Host bridged to `client`. */
async function page(client: Apps.BridgedMcpClient) {
  const w = windows();
  const seen = { toolInput: [] as unknown[], sizes: [] as unknown[], links: [] as string[], teardown: 0 };
  const host = new Apps.McpUiHost({
    hostInfo: { name: "host", version: "1.0.0" },
    hostContext: { theme: "dark" },
    mcpClient: client,
    logger: null,
    handlers: { "ui/open-link": (params) => (seen.links.push(params.url), {}) },
    notificationHandlers: { "ui/notifications/size-changed": (params) => void seen.sizes.push(params) },
  });
  const app = new Apps.McpUiApp({
    appInfo: { name: "app", version: "0.1.0" },
    logger: null,
    handlers: { "ui/resource-teardown": () => (seen.teardown++, {}) },
    notificationHandlers: { "ui/notifications/tool-input": (params) => void seen.toolInput.push(params) },
  });
  await host.connect(new PostMessageTransport({ target: w.app.as(w.host), peerOrigin: w.app.origin, listen: w.host }));
  const init = await app.connect(new PostMessageTransport({ target: w.host.as(w.app), peerOrigin: w.host.origin, listen: w.app }));
  closers.push(() => app.close(), () => host.close());
  return { app, host, init, seen, w };
}

describe.each([
  ["2025-11-25", Session],
  ["2026-07-28", Stateless],
] as const)("App → Host → MCP server (%s)", (_label, R) => {
  it("handshakes, notifies each way, requests each way, and proxies tools/call and resources/read", async () => {
    const m = await mcp(R);
    closers.push(m.close);
    const { app, host, init, seen } = await page(m.client);
    expect(init).toMatchObject({ protocolVersion: Apps.PROTOCOL_VERSION, hostInfo: { name: "host" }, hostCapabilities: { serverTools: {}, serverResources: {} }, hostContext: { theme: "dark" } });
    expect(app.hostContext?.theme).toBe("dark");
    expect(await host.initialized).toMatchObject({ appInfo: { name: "app", version: "0.1.0" }, protocolVersion: Apps.PROTOCOL_VERSION });

    await host.sendToolInput({ arguments: { text: "hi" } });
    await app.sendSizeChanged({ width: 300, height: 200 });
    expect(await app.openLink({ url: "https://example.com/" })).toEqual({});
    expect(await host.resourceTeardown({})).toEqual({});
    await expect.poll(() => seen.toolInput).toEqual([{ arguments: { text: "hi" } }]);
    expect(seen.sizes).toEqual([{ width: 300, height: 200 }]);
    expect(seen.links).toEqual(["https://example.com/"]);
    expect(seen.teardown).toBe(1);

    const echoed = await app.request("tools/call", { name: "echo", arguments: { text: "through" } });
    expect(echoed.content).toEqual([{ type: "text", text: "through" }]);
    const read = await app.request("resources/read", { uri: "ui://demo/page.html" });
    expect(read.contents).toEqual([expect.objectContaining({ uri: "ui://demo/page.html", text: "<p>hi</p>" })]);
    // An error of the MCP server reaches the App as a JSON-RPC error.
    await expect(app.request("resources/read", { uri: "ui://demo/none.html" })).rejects.toMatchObject({ code: expect.any(Number) });
  });

  it("a tools/call cancelled in the App aborts the MCP server handler's ctx.signal", async () => {
    const m = await mcp(R);
    closers.push(m.close);
    const { app, host } = await page(m.client);
    const controller = new AbortController();
    const call = app.request("tools/call", { name: "slow", arguments: {} }, { signal: controller.signal });
    await m.slow.started;
    expect(host.inFlight.received).toBe(1);
    controller.abort("user closed the app");
    await expect(call).rejects.toBeInstanceOf(Apps.RequestCancelledError);
    // The App's notifications/cancelled aborted the Host's handler, whose signal cancelled the
    // client's request, whose notifications/cancelled aborted the server's handler.
    await expect(m.slow.aborted).resolves.toBeDefined();
    await expect.poll(() => host.inFlight.received).toBe(0);
    expect(m.client.inFlight.sent).toBe(0);
  });
});

describe("McpUiHost bridged to a client without listPrompts", () => {
  it("answers the App's prompts/list -32601 (nothing to bridge it to), and declares the bridged capabilities", async () => {
    const { app, init } = await page({ callTool: () => Promise.reject(new Error("unused")), readResource: () => Promise.reject(new Error("unused")) });
    expect(init.hostCapabilities).toEqual({ serverTools: {}, serverResources: {} });
    await expect(app.request("prompts/list")).rejects.toMatchObject({ code: -32601 });
  });
});
