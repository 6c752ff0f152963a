/**
 * A host page for the example app (examples/apps/dice), doing what an MCP Apps host does: find
 * the tool's UI resource (`_meta.ui.resourceUri`), read it from the MCP server, render it in a
 * sandboxed iframe (`srcdoc`, scripts only: an opaque origin, "null"), complete the handshake,
 * then call the tool as the model would and send the app its input and result. The app's own
 * tools/call ("Roll again") is proxied to the server by the bridge.
 */
import { McpUiHost, PostMessageTransport } from "../../generated/apps/index.js";
import { createHttpClientTransport, McpClient } from "../../generated/2026-07-28/index.js";
import type { ExampleProbe } from "../harness/probe.js";
import { deferred, firstText, log, page } from "./ui.js";

page("Host: the dice example app (examples/apps/dice)");
const note = log();
const ready = deferred<Awaited<ReturnType<ExampleProbe["ready"]>>>();
Object.assign(window, { exampleProbe: { ready: () => ready.promise } satisfies ExampleProbe });

const client = new McpClient({ clientInfo: { name: "example-host-client", version: "1.0.0" } });
await client.connect(createHttpClientTransport({ url: new URL("/mcp", location.origin).href }));
const { tools } = await client.listTools();
const ui = tools.find((tool) => tool.name === "roll_dice")?._meta?.["ui"] as { resourceUri?: string } | undefined;
if (ui?.resourceUri === undefined) throw new Error("roll_dice has no _meta.ui.resourceUri");
const { contents } = await client.readResource({ uri: ui.resourceUri });
const content = contents[0];
if (content === undefined || !("text" in content)) throw new Error("the UI resource has no text");
note(`read ${ui.resourceUri} (${String(content.mimeType)})`);

const iframe = document.createElement("iframe");
iframe.className = "app";
iframe.title = "dice";
iframe.sandbox.add("allow-scripts");
document.body.insertBefore(iframe, document.querySelector("ol.log"));
const appWindow = iframe.contentWindow;
if (appWindow === null) throw new Error("no app window");

const host = new McpUiHost({
  hostInfo: { name: "example-host", version: "1.0.0" },
  hostCapabilities: { serverTools: {} },
  mcpClient: client,
  notificationHandlers: {
    "ui/notifications/size-changed": ({ height }) => {
      if (height !== undefined) iframe.style.height = `${String(Math.min(height, 400))}px`;
    },
  },
});
// A sandboxed srcdoc frame's origin is opaque: its messages come from "null", and only from it.
await host.connect(new PostMessageTransport({ target: appWindow, peerOrigin: "null", onReport: (problem) => note(`reported ${problem.kind}`) }));
iframe.srcdoc = content.text;
const init = await host.initialized;
note(`initialized: ${init.appInfo.name}`);

const args = { sides: 6, count: 3 };
await host.notify("ui/notifications/tool-input", { arguments: args });
const result = await client.callTool({ name: "roll_dice", arguments: args });
await host.notify("ui/notifications/tool-result", result);
note(`roll_dice → ${firstText(result)}`);
ready.resolve({ resourceUri: ui.resourceUri, mimeType: String(content.mimeType), appName: init.appInfo.name, firstText: firstText(result) });
