/**
 * Host page with the official AppBridge of @modelcontextprotocol/ext-apps 2.0.4, its MCP side an
 * official client (@modelcontextprotocol/client, Streamable HTTP) of the test's MCP server at
 * /mcp of this origin: the bridge forwards the app's tools/call to it, with the call's signal.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import { MALFORMED, type HostProbe } from "../harness/probe.js";
import { deferred, frame, log, page, param } from "./ui.js";

page("Host: official AppBridge");
const note = log();
const appFrame = frame("app", "app");
const sizes: Array<{ width: number; height: number }> = [];
const errors: string[] = [];
const initialized = deferred<string>();

const client = new Client({ name: "official-host-client", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.origin)));
const bridge = new AppBridge(client, { name: "official-host", version: "1.0.0" }, { openLinks: {}, serverTools: {}, logging: {} });
bridge.onsizechange = ({ width, height }) => {
  sizes.push({ width: width ?? 0, height: height ?? 0 });
  note(`size-changed ${String(width)}×${String(height)}`);
};
bridge.oninitialized = () => {
  const name = bridge.getAppVersion()?.name ?? "?";
  note(`initialized: ${name}`);
  initialized.resolve(name);
};
bridge.onerror = (error) => {
  errors.push(error.message);
  note(`error: ${error.message}`);
};
const appWindow = appFrame.contentWindow;
if (appWindow === null) throw new Error("no app window");
await bridge.connect(new PostMessageTransport(appWindow, appWindow));
appFrame.src = param("app");
// The intruders: a third origin's page, and a page of the app's own origin in another frame.
void initialized.promise.then(() => {
  frame("third", "third origin").src = param("third");
  frame("third", "app's origin, another frame").src = param("sibling");
});

const probe: HostProbe = {
  initialized: () => initialized.promise,
  sendToolInput: (args) => bridge.sendToolInput({ arguments: args }),
  sizes: () => sizes,
  postMalformed: () => {
    for (const message of MALFORMED) appWindow.postMessage(message, "*");
  },
  errors: () => errors,
  // The official transport keeps no count of what it ignores.
  ignored: () => null,
};
Object.assign(window, { hostProbe: probe });
