// Type-level tests of the MCP Apps output (test/generated/apps): every message and definition type
// generated from the apps schema is assignable both ways with the type of the same name the
// official package @modelcontextprotocol/ext-apps 2.0.4 exports (its spec.types.ts), and so are
// the catalog's params and results of every ui/* method and of the proxied core methods (against
// the official App's own request types, from @modelcontextprotocol/client). Checked in place by
// test/runtime/apps/types.test.ts: every line must compile and every `@ts-expect-error` must be an error.
import type * as Official from "@modelcontextprotocol/ext-apps";
import type * as Client from "@modelcontextprotocol/client";
import type * as Ours from "../generated/apps/index.js";
import { McpUiApp, McpUiHost } from "../generated/apps/index.js";

/** True when A and B are assignable to each other. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const both = <T extends true>(): T | undefined => undefined;

// Every definition of the schema that the official package exports.
both<Mutual<Ours.McpUiAppCapabilities, Official.McpUiAppCapabilities>>();
both<Mutual<Ours.McpUiClientCapabilities, Official.McpUiClientCapabilities>>();
both<Mutual<Ours.McpUiDisplayMode, Official.McpUiDisplayMode>>();
both<Mutual<Ours.McpUiDownloadFileRequest, Official.McpUiDownloadFileRequest>>();
both<Mutual<Ours.McpUiDownloadFileResult, Official.McpUiDownloadFileResult>>();
both<Mutual<Ours.McpUiHostCapabilities, Official.McpUiHostCapabilities>>();
both<Mutual<Ours.McpUiHostContext, Official.McpUiHostContext>>();
both<Mutual<Ours.McpUiHostContextChangedNotification, Official.McpUiHostContextChangedNotification>>();
both<Mutual<Ours.McpUiHostCss, Official.McpUiHostCss>>();
both<Mutual<Ours.McpUiHostStyles, Official.McpUiHostStyles>>();
both<Mutual<Ours.McpUiInitializeRequest, Official.McpUiInitializeRequest>>();
both<Mutual<Ours.McpUiInitializeResult, Official.McpUiInitializeResult>>();
both<Mutual<Ours.McpUiInitializedNotification, Official.McpUiInitializedNotification>>();
both<Mutual<Ours.McpUiMessageRequest, Official.McpUiMessageRequest>>();
both<Mutual<Ours.McpUiMessageResult, Official.McpUiMessageResult>>();
both<Mutual<Ours.McpUiOpenLinkRequest, Official.McpUiOpenLinkRequest>>();
both<Mutual<Ours.McpUiOpenLinkResult, Official.McpUiOpenLinkResult>>();
both<Mutual<Ours.McpUiRequestDisplayModeRequest, Official.McpUiRequestDisplayModeRequest>>();
both<Mutual<Ours.McpUiRequestDisplayModeResult, Official.McpUiRequestDisplayModeResult>>();
both<Mutual<Ours.McpUiRequestTeardownNotification, Official.McpUiRequestTeardownNotification>>();
both<Mutual<Ours.McpUiResourceCsp, Official.McpUiResourceCsp>>();
both<Mutual<Ours.McpUiResourceMeta, Official.McpUiResourceMeta>>();
both<Mutual<Ours.McpUiResourcePermissions, Official.McpUiResourcePermissions>>();
both<Mutual<Ours.McpUiResourceTeardownRequest, Official.McpUiResourceTeardownRequest>>();
both<Mutual<Ours.McpUiResourceTeardownResult, Official.McpUiResourceTeardownResult>>();
both<Mutual<Ours.McpUiSandboxProxyReadyNotification, Official.McpUiSandboxProxyReadyNotification>>();
both<Mutual<Ours.McpUiSandboxResourceReadyNotification, Official.McpUiSandboxResourceReadyNotification>>();
both<Mutual<Ours.McpUiSizeChangedNotification, Official.McpUiSizeChangedNotification>>();
both<Mutual<Ours.McpUiStyleVariableKey, Official.McpUiStyleVariableKey>>();
both<Mutual<Ours.McpUiStyles, Official.McpUiStyles>>();
both<Mutual<Ours.McpUiSupportedContentBlockModalities, Official.McpUiSupportedContentBlockModalities>>();
both<Mutual<Ours.McpUiTheme, Official.McpUiTheme>>();
both<Mutual<Ours.McpUiToolCancelledNotification, Official.McpUiToolCancelledNotification>>();
both<Mutual<Ours.McpUiToolInputNotification, Official.McpUiToolInputNotification>>();
both<Mutual<Ours.McpUiToolInputPartialNotification, Official.McpUiToolInputPartialNotification>>();
both<Mutual<Ours.McpUiToolMeta, Official.McpUiToolMeta>>();
both<Mutual<Ours.McpUiToolResultNotification, Official.McpUiToolResultNotification>>();
both<Mutual<Ours.McpUiToolVisibility, Official.McpUiToolVisibility>>();
both<Mutual<Ours.McpUiUpdateModelContextRequest, Official.McpUiUpdateModelContextRequest>>();

// The catalog's maps: each ui/* method's params and result, as the official types give them.
both<Mutual<Ours.AppRequestMap["ui/open-link"]["params"], Official.McpUiOpenLinkRequest["params"]>>();
both<Mutual<Ours.AppRequestMap["ui/open-link"]["result"], Official.McpUiOpenLinkResult>>();
both<Mutual<Ours.AppRequestMap["ui/message"]["params"], Official.McpUiMessageRequest["params"]>>();
both<Mutual<Ours.AppRequestMap["ui/initialize"]["result"], Official.McpUiInitializeResult>>();
both<Mutual<Ours.HostRequestMap["ui/resource-teardown"]["result"], Official.McpUiResourceTeardownResult>>();
both<Mutual<Ours.HostNotificationMap["ui/notifications/tool-result"]["params"], Official.McpUiToolResultNotification["params"]>>();
both<Mutual<Ours.AppNotificationMap["ui/notifications/size-changed"]["params"], Official.McpUiSizeChangedNotification["params"]>>();
// The proxied core methods, as the official App sends them (callServerTool, readServerResource).
both<Mutual<Ours.AppRequestMap["tools/call"]["params"], Client.CallToolRequest["params"]>>();
both<Mutual<Ours.AppRequestMap["resources/read"]["params"], Client.ReadResourceRequest["params"]>>();
// Results: what the server answers reaches the official App's types, and theirs ours.
// CallToolResult one way: SDK v2 types `structuredContent` as `unknown` (any JSON value, as
// 2026-07-28 allows), wider than the base revision's (2025-11-25) object.
const _toolResult: Client.CallToolResult = null! as Ours.AppRequestMap["tools/call"]["result"];
void _toolResult;
// @ts-expect-error: the official result's structuredContent may be a non-object
const _wider: Ours.AppRequestMap["tools/call"]["result"] = null! as Client.CallToolResult;
void _wider;
both<Mutual<Ours.AppRequestMap["resources/read"]["result"], Client.ReadResourceResult>>();

// Wrong uses are compile errors.
const app = new McpUiApp({ appInfo: { name: "a", version: "1" } });
// @ts-expect-error: ui/open-link needs a url
void app.request("ui/open-link", {});
// @ts-expect-error: the App does not send the Host's notifications
void app.notify("ui/notifications/tool-input", { arguments: {} });
// @ts-expect-error: a display mode the schema does not have
void app.requestDisplayMode({ mode: "maximised" });
void app.request("tools/call", { name: "t" }, { signal: AbortSignal.timeout(1000) });
const host = new McpUiHost({ hostInfo: { name: "h", version: "1" }, handlers: { "ui/open-link": (params, ctx) => (void ctx.signal, void params.url, {}) } });
// @ts-expect-error: the Host does not send ui/open-link
void host.request("ui/open-link", { url: "https://x.test" });
// @ts-expect-error: a handler of ui/message answers a McpUiMessageResult, not a string
new McpUiHost({ hostInfo: { name: "h", version: "1" }, handlers: { "ui/message": () => "sent" } });
