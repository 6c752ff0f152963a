/**
 * Host page with this project's generated Host side (test/generated/apps: McpUiHost over the generated
 * PostMessageTransport), whose bridge proxies the app's tools/call to a generated McpClient
 * (2026-07-28, Streamable HTTP) of the test's MCP server at /mcp of this origin, the call's
 * signal passed on: a cancel in the app aborts the server handler's ctx.signal.
 */
import { McpUiHost, PostMessageTransport, type PostMessageProblem } from "../../generated/apps/index.js";
import { createHttpClientTransport, McpClient } from "../../generated/2026-07-28/index.js";
import { MALFORMED, type HostProbe } from "../harness/probe.js";
import { deferred, frame, log, page, param } from "./ui.js";

page("Host: mcp-stubgen McpUiHost → McpClient → MCP server");
const appFrame = frame("app", "app");
const note = log();
const sizes: Array<{ width: number; height: number }> = [];
const errors: string[] = [];
const initialized = deferred<string>();

const client = new McpClient({ clientInfo: { name: "stubgen-host-client", version: "1.0.0" } });
await client.connect(createHttpClientTransport({ url: new URL("/mcp", location.origin).href }));
note("MCP client connected to /mcp");

const host = new McpUiHost({
  hostInfo: { name: "stubgen-host", version: "1.0.0" },
  hostCapabilities: { serverTools: {}, openLinks: {} },
  mcpClient: client,
  notificationHandlers: {
    "ui/notifications/size-changed": ({ width, height }) => {
      sizes.push({ width: width ?? 0, height: height ?? 0 });
      note(`size-changed ${String(width)}×${String(height)}`);
    },
  },
});
const appUrl = param("app");
const appWindow = appFrame.contentWindow;
if (appWindow === null) throw new Error("no app window");
const transport = new PostMessageTransport({
  target: appWindow,
  peerOrigin: new URL(appUrl).origin,
  onReport: (problem: PostMessageProblem) => {
    errors.push(`${problem.kind}: ${problem.detail}`);
    note(`reported ${problem.kind} from ${problem.origin}`);
  },
});
await host.connect(transport);
appFrame.src = appUrl;
void host.initialized.then((init) => {
  note(`initialized: ${init.appInfo.name}`);
  initialized.resolve(init.appInfo.name);
  // The intruders: a third origin's page, and a page of the app's own origin in another frame.
  frame("third", "third origin").src = param("third");
  frame("third", "app's origin, another frame").src = param("sibling");
});

const probe: HostProbe = {
  initialized: () => initialized.promise,
  sendToolInput: async (args) => {
    note(`tool-input ${JSON.stringify(args)}`);
    await host.notify("ui/notifications/tool-input", { arguments: args });
  },
  sizes: () => sizes,
  postMalformed: () => {
    for (const message of MALFORMED) appWindow.postMessage(message, "*");
  },
  errors: () => errors,
  ignored: () => transport.ignored,
};
Object.assign(window, { hostProbe: probe });
