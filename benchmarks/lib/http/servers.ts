// The HTTP servers: each builds a web-standard handler whose slow tool reports to a probe (served
// behind the bench's bridge), or a node:http listener of its own (node-servers.ts).
import type { Probe } from "../probe.js";
import { floorHandler } from "./floor-http.js";
import type { WebHandler } from "./node-bridge.js";
import { NODE_SERVERS, type NodeServerKey } from "./node-servers.js";
import { oursHandler, oursHasHttp } from "./ours-http.js";
import { REGISTERED_SERVERS, type RegisteredKey } from "./registered-servers.js";
import { sdk2Handler } from "./sdk2-http.js";
import { SESSION_SERVERS, type SessionSide } from "./session-servers.js";

/** Ours, SDK 2.x, and the floor: the same exchanges without MCP (floor-http.ts). */
export type HttpSide = "ours" | "sdk2" | "floor";

export const HTTP_SERVERS: Readonly<Record<HttpSide, (probe: Probe) => WebHandler>> = {
  ours: oursHandler,
  sdk2: sdk2Handler,
  floor: floorHandler,
};

/** The sides whose handler exists in this checkout (ours needs a generated createHttpHandler). */
export function availableHttpSides(): HttpSide[] {
  return oursHasHttp ? ["ours", "sdk2", "floor"] : ["sdk2", "floor"];
}

/** A web handler's server process: a 2026-07-28 side, a session-era side (`session-ours`, …), or a registered tool's (registered-servers.ts). */
export type WebServerKey = HttpSide | `session-${SessionSide}` | RegisteredKey;

export const WEB_SERVERS: Readonly<Record<WebServerKey, (probe: Probe) => WebHandler>> = {
  ...HTTP_SERVERS,
  "session-ours": SESSION_SERVERS.ours,
  "session-sdk1": SESSION_SERVERS.sdk1,
  "session-sdk2": SESSION_SERVERS.sdk2,
  "session-floor": SESSION_SERVERS.floor,
  ...REGISTERED_SERVERS,
};

/** A server process's key: a web handler's, or a node:http listener's (node-servers.ts). */
export type ServerKey = WebServerKey | NodeServerKey;

export function isServerKey(value: string | undefined): value is ServerKey {
  return value !== undefined && (Object.hasOwn(WEB_SERVERS, value) || Object.hasOwn(NODE_SERVERS, value));
}
