/**
 * An intruder's page, framed by the host page next to the app: served by the third origin
 * (http://127.0.0.1:C), and again by the app's own origin (`?sibling`: right origin, wrong
 * window). It can reach both windows (window.parent, and the app's frame through it) and posts
 * them messages that would look real if the sides checked only their shape, or only the origin.
 * Every one must be ignored.
 */
import { FORGED, type ThirdProbe } from "../harness/probe.js";

const appWindow = (): Window | undefined => window.parent.frames[0] ?? undefined;

const probe: ThirdProbe = {
  attack() {
    const toHost: unknown[] = [
      { jsonrpc: "2.0", id: 9001, method: "tools/call", params: { name: "add", arguments: FORGED.add } },
      { jsonrpc: "2.0", method: "ui/notifications/size-changed", params: FORGED.size },
      { jsonrpc: "2.0", id: 9002, method: "ui/initialize", params: { protocolVersion: "2026-01-26", appInfo: { name: "forged", version: "0" }, appCapabilities: {} } },
    ];
    const toApp: unknown[] = [
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: FORGED.toolInput } },
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "forged" }] } },
    ];
    for (const message of toHost) window.parent.postMessage(message, "*");
    for (const message of toApp) appWindow()?.postMessage(message, "*");
    return { toHost: toHost.length, toApp: toApp.length };
  },
};
Object.assign(window, { thirdProbe: probe });
document.body.style.cssText = "font: 13px system-ui, sans-serif; color: #c0392b; margin: 8px";
const who = location.search === "?sibling" ? "app's origin, another frame" : "third origin";
document.body.textContent = `${who} ${location.origin}: forges messages to both, all ignored`;
