// The servers that are node:http request listeners themselves, not web handlers behind the bench's
// bridge: the raw floors (raw-floor.ts) and our handlers on both faces of toNodeListener
// (faces.ts), each era's; and the edge table's, behind an authenticate (edge-servers.ts). Run by
// child.ts like the others.
import type { RequestListener } from "node:http";
import type { Probe } from "../probe.js";
import { EDGE_SERVERS, type EdgeServerKey } from "./edge-servers.js";
import { ours2026OnNode, oursSessionOnNode } from "./faces.js";
import { rawFloorListener, rawSessionFloorListener } from "./raw-floor.js";

export type NodeServerKey = "raw-floor" | "ours-native" | "ours-web" | "session-raw-floor" | "session-ours-native" | "session-ours-web" | EdgeServerKey;

export const NODE_SERVERS: Readonly<Record<NodeServerKey, (probe: Probe) => RequestListener>> = {
  "raw-floor": rawFloorListener,
  "ours-native": (probe) => ours2026OnNode("native", probe),
  "ours-web": (probe) => ours2026OnNode("web", probe),
  "session-raw-floor": rawSessionFloorListener,
  "session-ours-native": (probe) => oursSessionOnNode("native", probe),
  "session-ours-web": (probe) => oursSessionOnNode("web", probe),
  ...EDGE_SERVERS,
};

export function isNodeServerKey(value: string): value is NodeServerKey {
  return Object.hasOwn(NODE_SERVERS, value);
}
