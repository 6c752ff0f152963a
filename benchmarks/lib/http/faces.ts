// Our generated handlers on node:http, through the runtime's own adapter, toNodeListener, on two
// faces:
// - native: toNodeListener(handler), the handler as generated: whatever path toNodeListener takes
//   for it by itself (a native IncomingMessage/ServerResponse path once the handler carries one;
//   until then the same web-standard bridge as the web face);
// - web: toNodeListener((request, info) => handler(request, info)), a plain function, which can
//   only be served the web-standard way (a Request built, a Response written back).
// The handlers are ours-http.ts's (2026-07-28) and session-servers.ts's (2025-11-25 sessions).
import type { RequestListener } from "node:http";
import * as v2025 from "../../../out/2025-11-25/index.js";
import * as v2026 from "../../../out/2026-07-28/index.js";
import type { Probe } from "../probe.js";
import { oursHandler } from "./ours-http.js";
import { oursSessionHandler } from "./session-servers.js";

export type Face = "native" | "web";

export function ours2026OnNode(face: Face, probe: Probe): RequestListener {
  const handler = oursHandler(probe);
  return face === "native" ? v2026.toNodeListener(handler) : v2026.toNodeListener((request, info) => handler(request, info));
}

export function oursSessionOnNode(face: Face, probe: Probe): RequestListener {
  const handler = oursSessionHandler(probe);
  return face === "native" ? v2025.toNodeListener(handler) : v2025.toNodeListener((request, info) => handler(request, info));
}
