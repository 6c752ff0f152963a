// The HTTP servers: each builds a web-standard handler whose slow tool reports to a probe.
import type { Probe } from "../probe.js";
import { floorHandler } from "./floor-http.js";
import type { WebHandler } from "./node-bridge.js";
import { oursHandler, oursHasHttp } from "./ours-http.js";
import { sdk2Handler } from "./sdk2-http.js";

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

export function isHttpSide(value: string | undefined): value is HttpSide {
  return value !== undefined && Object.hasOwn(HTTP_SERVERS, value);
}
