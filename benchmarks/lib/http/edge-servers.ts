// The servers of the edge table (edge-run.ts): our generated handlers behind an `authenticate`
// that admits only `Authorization: Bearer good` and answers anything else 401, as a server open to
// the internet would be set up. The bench only ever sends them unauthenticated requests: what they
// cost is what a stranger can make the server spend before it knows who is asking.
// - ours 2026-07-28 (createHttpHandler), on the native and the web face of toNodeListener (faces.ts);
// - ours 2025-11-25 sessions (createSessionHttpHandler), native face;
// - the era router (createEraRouter) over both, sharing the one authenticate, native face, when
//   out/ has it;
// - Node's own floor, no MCP: a plain node:http listener writing the same 401 at once, then either
//   closing the connection (what the native face does with a large unread body) or letting
//   node:http drain the body to keep the connection (what the web face's bridge does).
// No SDK rows: SDK 2.x's auth is a gate in front of its web handler (requireBearerAuth), and the
// bench serves a web handler on node:http only through its own bridge (node-bridge.ts), which
// reads the whole body before the handler sees the request: such a row would measure the bridge.
// Each is a node:http listener, run by child.ts like node-servers.ts's (which lists these keys),
// which tallies the statuses it answered (edgeStatuses): a client that is still writing when the
// server answers and closes may never read the answer (edge-run.ts), so the server says what it sent.
import type { RequestListener } from "node:http";
import * as v2025 from "../../../out/2025-11-25/index.js";
import * as v2026 from "../../../out/2026-07-28/index.js";
import { ECHO_RESULT, ECHO_RESULT_COMPLETE } from "../probe.js";

export type EdgeServerKey = "edge-floor-close" | "edge-floor-drain" | "edge-ours-native" | "edge-ours-web" | "edge-session-native" | "edge-router-native";

/** The only Authorization header the servers admit; the bench never sends it. */
export const GOOD_AUTHORIZATION: string = "Bearer good";

const UNAUTHORIZED_BODY = '{"error":"unauthorized"}';
const UNAUTHORIZED_HEADERS = { "content-type": "application/json", "www-authenticate": 'Bearer realm="mcp"' };

/** Admits GOOD_AUTHORIZATION; anything else (no header included) is a 401 with a Bearer challenge, the body never read. */
const authenticate: v2026.Authenticate = (head) =>
  head.headers.get("authorization") === GOOD_AUTHORIZATION
    ? { id: "good" }
    : new Response(UNAUTHORIZED_BODY, { status: 401, headers: UNAUTHORIZED_HEADERS });

function modernHandler(): v2026.StatelessHttpHandler {
  const server = new v2026.McpServer({ logger: null, serverInfo: { name: "bench-edge", version: "1.0.0" }, handlers: { "tools/call": () => ECHO_RESULT_COMPLETE } });
  return v2026.createHttpHandler(server, { authenticate });
}

function sessionHandler(): v2025.SessionHttpHandler {
  const server = new v2025.McpServer({ logger: null, serverInfo: { name: "bench-edge", version: "1.0.0" }, handlers: { "tools/call": () => ECHO_RESULT } });
  return v2025.createSessionHttpHandler(server, { authenticate });
}

/** Read at run time, as ours-http.ts reads createHttpHandler: an older out/ without the router leaves its row out. */
const generated: Readonly<Record<string, unknown>> = v2025;

/** Whether out/2025-11-25 has createEraRouter (else the router's row is left out). */
export const hasEraRouter: boolean = typeof generated["createEraRouter"] === "function";

/** Both handlers, each given the same authenticate (the router has none of its own: it asks theirs before any body). */
function routerHandler(): v2025.ServedHandler {
  return v2025.createEraRouter({ modern: modernHandler(), sessions: { "2025-11-25": sessionHandler() } });
}

/**
 * The floor: the 401 written at once, the body never looked at (the bench never authenticates, so
 * it answers nothing else). "close": with Connection: close, so node:http ends the connection
 * unread; "drain": kept alive, so node:http reads the body to its end and drops it.
 */
function floor401(then: "close" | "drain"): RequestListener {
  const headers = then === "close" ? { ...UNAUTHORIZED_HEADERS, connection: "close" } : UNAUTHORIZED_HEADERS;
  return (_request, response) => {
    response.writeHead(401, headers);
    response.end(UNAUTHORIZED_BODY);
  };
}

/** The responses of this process's edge server, by status (0: the connection closed before an answer). */
const statuses = new Map<number, number>();

/** What the edge server of this process has answered so far, by status ("0": closed unanswered). */
export function edgeStatuses(): Readonly<Record<string, number>> {
  return Object.fromEntries(statuses);
}

/** Counts each response's status once it is over (its "close", finished or not). */
function tallied(listener: RequestListener): RequestListener {
  return (request, response) => {
    response.once("close", () => {
      const status = response.headersSent ? response.statusCode : 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    listener(request, response);
  };
}

// The probe of node-servers.ts's signature is not needed: nothing here is slow or cancelled.
export const EDGE_SERVERS: Readonly<Record<EdgeServerKey, () => RequestListener>> = {
  "edge-floor-close": () => tallied(floor401("close")),
  "edge-floor-drain": () => tallied(floor401("drain")),
  "edge-ours-native": () => tallied(v2026.toNodeListener(modernHandler())),
  // A plain function: toNodeListener can only serve it the web-standard way (faces.ts).
  "edge-ours-web": () => {
    const handler = modernHandler();
    return tallied(v2026.toNodeListener((request, info) => handler(request, info)));
  },
  "edge-session-native": () => tallied(v2025.toNodeListener(sessionHandler())),
  "edge-router-native": () => tallied(v2025.toNodeListener(routerHandler())),
};

/** The rows of the edge table, in order, the floors first; the router's only where out/ has it. */
export const EDGE_ROWS: readonly EdgeServerKey[] = ["edge-floor-close", "edge-floor-drain", "edge-ours-native", "edge-ours-web", "edge-session-native", ...(hasEraRouter ? (["edge-router-native"] as const) : [])];

/** Whether the row is one of Node's floors (no target: it is what the targets are read against). */
export function isEdgeFloor(key: EdgeServerKey): boolean {
  return key === "edge-floor-close" || key === "edge-floor-drain";
}

export function edgeLabel(key: EdgeServerKey): string {
  switch (key) {
    case "edge-floor-close":
      return "node:http floor: 401, connection closed (no MCP)";
    case "edge-floor-drain":
      return "node:http floor: 401, body drained (no MCP)";
    case "edge-ours-native":
      return "ours 2026-07-28, native face";
    case "edge-ours-web":
      return "ours 2026-07-28, web face";
    case "edge-session-native":
      return "ours 2025-11-25 sessions, native face";
    case "edge-router-native":
      return "era router (both), native face";
  }
}
