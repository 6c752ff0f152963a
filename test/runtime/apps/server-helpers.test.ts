/**
 * The MCP Apps server helpers (templates/runtime/apps/server-helpers.ts, typed by the generated
 * apps/server-helpers.ts) on generated servers of every era, each connected to a generated client:
 * the UI resource is listed and read as `text/html;profile=mcp-app` with its `_meta.ui` (CSP,
 * permissions), the tool lists `_meta.ui.resourceUri` (and the flat `ui/resourceUri`), the server's
 * `extensions` capability reaches the client, and the client's reaches the server (in initialize,
 * or in each request's `_meta` in the stateless era).
 */
import { describe, expect, it } from "vitest";
import * as Apps from "../../generated/apps/index.js";
import * as Legacy from "../../generated/2024-11-05/index.js";
import * as Session from "../../generated/2025-11-25/index.js";
import * as Stateless from "../../generated/2026-07-28/index.js";
import { TapTransport } from "../../helpers/transports.js";

const URI = "ui://weather/app.html";
const UI_META: Apps.McpUiResourceMeta = {
  csp: { connectDomains: ["https://api.weather.test"], resourceDomains: ["https://cdn.weather.test"] },
  permissions: { geolocation: {} },
  prefersBorder: true,
};

describe.each([
  ["2024-11-05", Legacy],
  ["2025-11-25", Session],
  ["2026-07-28", Stateless],
] as const)("server helpers (%s)", (label, R) => {
  it("register a UI resource and a tool pointing at it, and negotiate the extension both ways", async () => {
    const server = new R.McpServer({ logger: null, serverInfo: { name: "weather", version: "1" }, capabilities: { ...Apps.uiServerCapabilities() } });
    const seenMeta: unknown[] = [];
    Apps.registerAppResource(server, "weather-ui", URI, { description: "the weather app", _meta: { ui: UI_META } }, (uri: string) => ({ contents: [{ uri, text: "<html></html>" }] }));
    Apps.registerAppTool(server, "forecast", { description: "shows the forecast", _meta: { ui: { resourceUri: URI, visibility: ["model", "app"] } } }, (_args: unknown, ctx: { _meta: unknown }) => {
      seenMeta.push(ctx._meta);
      return { content: [{ type: "text" as const, text: "sunny" }] };
    });
    const [a, b] = R.createInMemoryTransportPair();
    await server.connect(b);
    const tap = new TapTransport(a);
    const client = new R.McpClient({ logger: null, capabilities: { ...Apps.uiClientCapabilities() } });
    await client.connect(tap);

    // The server's capability, as the client got it.
    expect(Apps.getUiCapability(client.serverCapabilities)).toEqual({});
    // The client's capability, as the server gets it: in initialize (2024/2025), in every request's _meta (2026-07-28).
    const { tools } = await client.listTools();
    expect(tools).toEqual([expect.objectContaining({ name: "forecast", _meta: { ui: { resourceUri: URI, visibility: ["model", "app"] }, [Apps.UI_RESOURCE_URI_META_KEY]: URI } })]);
    await client.callTool({ name: "forecast", arguments: {} });
    if (label === "2026-07-28") {
      const key = Stateless.RULES.requestMeta!.clientCapabilities;
      expect(Apps.getUiCapability((seenMeta[0] as Record<string, unknown>)[key])).toEqual({ mimeTypes: [Apps.UI_RESOURCE_MIME_TYPE] });
    } else {
      const initialize = tap.sent.find((m) => "method" in m && m.method === "initialize") as unknown as { params: { capabilities: unknown } };
      expect(Apps.getUiCapability(initialize.params.capabilities)).toEqual({ mimeTypes: ["text/html;profile=mcp-app"] });
    }

    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: URI, name: "weather-ui", mimeType: "text/html;profile=mcp-app", _meta: { ui: UI_META } })]);
    const read = await client.readResource({ uri: URI });
    expect(read.contents).toEqual([{ uri: URI, text: "<html></html>", mimeType: "text/html;profile=mcp-app", _meta: { ui: UI_META } }]);
    await client.close();
    await server.close();
  });
});

describe("server helpers, checks", () => {
  it("a content's own mimeType and _meta.ui are kept; an async reader is filled the same way", async () => {
    const server = new Session.McpServer({ logger: null });
    const own = { csp: { connectDomains: [] } };
    Apps.registerAppResource(server, "ui", URI, { _meta: { ui: UI_META } }, async (uri: string) => ({ contents: [{ uri, text: "x", mimeType: "text/html;profile=mcp-app;v=2", _meta: { ui: own } }, { uri: `${uri}#2`, text: "y" }] }));
    const [a, b] = Session.createInMemoryTransportPair();
    await server.connect(b);
    const client = new Session.McpClient({ logger: null });
    await client.connect(a);
    const read = await client.readResource({ uri: URI });
    expect(read.contents).toEqual([
      { uri: URI, text: "x", mimeType: "text/html;profile=mcp-app;v=2", _meta: { ui: own } },
      { uri: `${URI}#2`, text: "y", mimeType: Apps.UI_RESOURCE_MIME_TYPE, _meta: { ui: UI_META } },
    ]);
    await client.close();
  });

  it("a tool without a resourceUri is refused", () => {
    const server = new Session.McpServer({ logger: null });
    expect(() => Apps.registerAppTool(server, "t", { _meta: { ui: { resourceUri: "" } } }, (() => ({ content: [] })) as never)).toThrow(/resourceUri/);
    expect(() => Apps.appToolConfig({ _meta: { ui: { resourceUri: "" } } })).toThrow(/resourceUri/);
  });

  it("appToolConfig keeps the server's typing of the handler and fills the tool's _meta", async () => {
    const server = new Session.McpServer({ logger: null });
    server.registerTool(
      "city",
      Apps.appToolConfig({ inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, _meta: { ui: { resourceUri: URI } } }),
      ({ city }) => ({ content: [{ type: "text", text: city.toUpperCase() }] }),
    );
    const [a, b] = Session.createInMemoryTransportPair();
    await server.connect(b);
    const client = new Session.McpClient({ logger: null });
    await client.connect(a);
    const { tools } = await client.listTools();
    expect(tools[0]?._meta).toEqual({ ui: { resourceUri: URI }, "ui/resourceUri": URI });
    expect((await client.callTool({ name: "city", arguments: { city: "paris" } })).content).toEqual([{ type: "text", text: "PARIS" }]);
    await client.close();
  });

  it("getUiCapability reads only an object under extensions", () => {
    expect(Apps.getUiCapability(undefined)).toBeUndefined();
    expect(Apps.getUiCapability({ extensions: { [Apps.UI_EXTENSION_ID]: true } })).toBeUndefined();
    expect(Apps.getUiCapability({ experimental: { [Apps.UI_EXTENSION_ID]: {} } })).toBeUndefined();
    expect(Apps.uiClientCapabilities(["text/html"])).toEqual({ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html"] } } });
  });
});
