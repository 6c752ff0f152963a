/**
 * MCP Apps against the official package (@modelcontextprotocol/ext-apps 2.0.4), in Node over the
 * runtime's in-memory transport pair (the browser suite runs the same pairings over postMessage
 * in Chromium): our generated McpUiApp against the official AppBridge, and the official App against
 * our McpUiHost bridged to a generated McpClient and McpServer. Each checks the handshake, a
 * notification each way, a tool call and its result, and a cancel that reaches the other side's
 * handler (for the official App, the MCP server's ctx.signal).
 */
import { App } from "@modelcontextprotocol/ext-apps";
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { afterEach, describe, expect, it } from "vitest";
import * as Apps from "../generated/apps/index.js";
import * as Session from "../generated/2025-11-25/index.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Resolves with the value the first call of the returned callback gets. */
function once<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("our McpUiApp against the official AppBridge", () => {
  it("handshakes, notifies each way, calls a tool, and its cancel aborts the bridge's handler", async () => {
    const bridge = new AppBridge(null, { name: "official-host", version: "2.0.4" }, { serverTools: {}, openLinks: {} });
    const initialized = once<void>();
    const sizes: unknown[] = [];
    const started = once<void>();
    const aborted = once<void>();
    bridge.addEventListener("initialized", () => initialized.resolve());
    bridge.addEventListener("sizechange", (params) => void sizes.push(params));
    bridge.oncalltool = async (params, extra) => {
      if (params.name === "echo") return { content: [{ type: "text", text: String(params.arguments?.["text"]) }] };
      started.resolve();
      const signal = extra.mcpReq.signal;
      if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      aborted.resolve();
      return { content: [] };
    };
    const inputs: unknown[] = [];
    const app = new Apps.McpUiApp({ appInfo: { name: "ours", version: "1.0.0" }, logger: null, notificationHandlers: { "ui/notifications/tool-input": (params) => void inputs.push(params) } });
    const [appSide, hostSide] = Apps.createInMemoryTransportPair();
    await bridge.connect(hostSide as never);
    const init = await app.connect(appSide);
    closers.push(() => app.close());
    expect(init).toMatchObject({ protocolVersion: Apps.PROTOCOL_VERSION, hostInfo: { name: "official-host" }, hostCapabilities: { serverTools: {}, openLinks: {} } });
    await initialized.promise;

    await bridge.sendToolInput({ arguments: { city: "Paris" } });
    await app.sendSizeChanged({ width: 320, height: 240 });
    await expect.poll(() => inputs).toEqual([{ arguments: { city: "Paris" } }]);
    await expect.poll(() => sizes).toEqual([{ width: 320, height: 240 }]);

    expect(await app.request("tools/call", { name: "echo", arguments: { text: "hi" } })).toEqual({ content: [{ type: "text", text: "hi" }] });
    const controller = new AbortController();
    const call = app.request("tools/call", { name: "slow" }, { signal: controller.signal });
    await started.promise;
    controller.abort("closed");
    await expect(call).rejects.toBeInstanceOf(Apps.RequestCancelledError);
    await aborted.promise;
  });
});

describe("the official App against our McpUiHost, bridged to an MCP server", () => {
  it("handshakes, notifies each way, proxies a tool call, and its cancel aborts the MCP server handler's ctx.signal", async () => {
    const started = once<void>();
    const aborted = once<void>();
    const server = new Session.McpServer({ logger: null });
    server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({ content: [{ type: "text", text }] }));
    server.registerTool("slow", {}, async (_args, ctx) => {
      started.resolve();
      if (!ctx.signal.aborted) await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      aborted.resolve();
      return { content: [] };
    });
    const [c, s] = Session.createInMemoryTransportPair();
    await server.connect(s);
    const client = new Session.McpClient({ logger: null });
    await client.connect(c);
    closers.push(() => client.close());

    const sizes: unknown[] = [];
    const host = new Apps.McpUiHost({
      hostInfo: { name: "ours", version: "1.0.0" },
      mcpClient: client,
      logger: null,
      notificationHandlers: { "ui/notifications/size-changed": (params) => void sizes.push(params) },
    });
    // autoResize off: it measures the page (requestAnimationFrame), and Node has none.
    const app = new App({ name: "official-app", version: "2.0.4" }, {}, { autoResize: false });
    const inputs: unknown[] = [];
    app.addEventListener("toolinput", (params) => void inputs.push(params));
    const [appSide, hostSide] = Apps.createInMemoryTransportPair();
    await host.connect(hostSide);
    await app.connect(appSide as never);
    closers.push(() => host.close());
    expect(await host.initialized).toMatchObject({ appInfo: { name: "official-app" } });
    expect(app.getHostVersion()).toMatchObject({ name: "ours" });

    await host.sendToolInput({ arguments: { city: "Paris" } });
    await app.sendSizeChanged({ width: 320, height: 240 });
    await expect.poll(() => inputs).toEqual([{ arguments: { city: "Paris" } }]);
    await expect.poll(() => sizes).toEqual([{ width: 320, height: 240 }]);

    expect((await app.callServerTool({ name: "echo", arguments: { text: "hi" } })).content).toEqual([{ type: "text", text: "hi" }]);
    const controller = new AbortController();
    const call = app.callServerTool({ name: "slow", arguments: {} }, { signal: controller.signal });
    await started.promise;
    controller.abort("closed");
    await expect(call).rejects.toThrow();
    await aborted.promise;
  });
});
