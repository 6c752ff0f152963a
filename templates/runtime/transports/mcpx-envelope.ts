// The two MCPx envelope shapes for MCP messages, and the kind rules gateways enforce.
//
// - "draft" (MCPx ADR-001's examples): every MCP message, request, notification or response,
//   is `kind: "mcp"`.
// - "v0.1" (MCPx v0.1 SPEC §3.1): requests and notifications are `mcp/request:METHOD[:CONTEXT]`;
//   responses are `mcp/response:METHOD[:CONTEXT]` and MUST carry `correlation_id`, the id of the
//   request's envelope (§3.1.2). CONTEXT is the tool or prompt name when there is one.
//
// In both the payload is the JSON-RPC message untouched: a cancel (notifications/cancelled) names
// the MCP request id and passes through as any notification, progress likewise (ADR-001 option 1).
// Gateways match `kind` against the sender's capabilities (§4.1, `*` is a wildcard) and reserve
// `system/*` for themselves; they never read the payload. Receivers check that the kind agrees
// with the payload (§4.3): that is this module's `mcpKindAgrees`.

import { isObject } from "../core/json.js";
import type { JsonRpcMessage } from "../core/protocol.js";

export type McpxShape = "draft" | "v0.1";
export const MCPX_SHAPES: readonly McpxShape[] = ["draft", "v0.1"];

/** The `from` of everything a gateway says itself (welcome, presence, errors). */
export const MCPX_GATEWAY_SENDER = "system:gateway";
export const MCPX_DRAFT_KIND = "mcp";
const REQUEST_PREFIX = "mcp/request:";
const RESPONSE_PREFIX = "mcp/response:";
/** Methods whose CONTEXT is `params.name` (a tool, a prompt). */
const NAMED_CONTEXT: ReadonlySet<string> = new Set(["tools/call", "prompts/get"]);

/** The participant info of welcome and presence (SPEC §3.4, §3.5.1). */
export interface McpxParticipantInfo {
  id: string;
  capabilities: string[];
}

/** Why a gateway refused something: the `error` of its `system/error`, or the reason of a close. */
export type McpxRefusalReason =
  | "invalid_json"
  | "invalid_envelope"
  | "frame_too_large"
  | "auth_violation"
  | "reserved_kind"
  | "capability_violation"
  | "rate_limited"
  | "slow_consumer"
  | "topic_full"
  | "unauthorized"
  | "missing_topic"
  | "replaced"
  | "token_expired";

/** The CONTEXT of a request, when its method has one and it fits in a kind (no `:`). */
function contextOf(message: JsonRpcMessage): string | undefined {
  if (!("method" in message) || !NAMED_CONTEXT.has(message.method)) return undefined;
  const name = isObject(message.params) ? message.params["name"] : undefined;
  return typeof name === "string" && name !== "" && !name.includes(":") ? name : undefined;
}

/**
 * The kind of an MCP message in `shape`. A response's kind names the method of the request it
 * answers (`requestMethod`), with that request's CONTEXT (`requestContext`).
 */
export function mcpKind(shape: McpxShape, message: JsonRpcMessage, request?: { method: string; context?: string | undefined }): string {
  if (shape === "draft") return MCPX_DRAFT_KIND;
  if ("method" in message) {
    const context = contextOf(message);
    return `${REQUEST_PREFIX}${message.method}${context === undefined ? "" : `:${context}`}`;
  }
  const method = request?.method ?? "unknown";
  return `${RESPONSE_PREFIX}${method}${request?.context === undefined ? "" : `:${request.context}`}`;
}

/** The CONTEXT a request's response kind repeats. */
export const mcpRequestContext: (message: JsonRpcMessage) => string | undefined = contextOf;

/** Whether `kind` carries an MCP message in either shape. */
export function isMcpKind(kind: string): boolean {
  return kind === MCPX_DRAFT_KIND || kind.startsWith(REQUEST_PREFIX) || kind.startsWith(RESPONSE_PREFIX);
}

/** The shape a kind belongs to, for MCP kinds. */
export function shapeOfKind(kind: string): McpxShape | undefined {
  if (kind === MCPX_DRAFT_KIND) return "draft";
  return kind.startsWith(REQUEST_PREFIX) || kind.startsWith(RESPONSE_PREFIX) ? "v0.1" : undefined;
}

/**
 * SPEC §4.3, receiver side: a v0.1 kind must agree with its payload. `mcp/request:M[:C]` carries a
 * request or notification whose method is M (and, for a named method, whose `params.name` is C
 * when C is given); `mcp/response:…` carries a response. Draft `mcp` carries any JSON-RPC message.
 */
export function mcpKindAgrees(kind: string, payload: JsonRpcMessage): boolean {
  if (kind === MCPX_DRAFT_KIND) return true;
  if (kind.startsWith(RESPONSE_PREFIX)) return !("method" in payload);
  if (!kind.startsWith(REQUEST_PREFIX) || !("method" in payload)) return false;
  const rest = kind.slice(REQUEST_PREFIX.length);
  const colon = rest.indexOf(":");
  const method = colon < 0 ? rest : rest.slice(0, colon);
  if (method !== payload.method) return false;
  if (colon < 0) return true;
  return contextOf(payload) === rest.slice(colon + 1);
}

/**
 * SPEC §4.1: whether one capability pattern admits `kind`. `*` stands for any run of characters
 * (`/` and `:` included: `mcp/*` admits `mcp/request:tools/call`); everything else is literal.
 */
export function capabilityMatches(pattern: string, kind: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === kind;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (kind.length < first.length + last.length || !kind.startsWith(first) || !kind.endsWith(last)) return false;
  // Greedy-free scan of the middle parts, left to right: each at its earliest place.
  let at = first.length;
  const end = kind.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = kind.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** Whether any of `capabilities` admits `kind`. */
export function capabilitiesAllow(capabilities: readonly string[], kind: string): boolean {
  return capabilities.some((pattern) => capabilityMatches(pattern, kind));
}

/** SPEC §4.1 "Reserved Namespace": only the gateway sends `system/*`. */
export function isReservedKind(kind: string): boolean {
  return kind === "system" || kind.startsWith("system/");
}

/** A `system/presence` payload, or undefined. */
export function presenceOf(payload: unknown): { event: "join" | "leave"; participant: McpxParticipantInfo } | undefined {
  if (!isObject(payload)) return undefined;
  const event = payload["event"];
  const participant = payload["participant"];
  if ((event !== "join" && event !== "leave") || !isObject(participant) || typeof participant["id"] !== "string") return undefined;
  const capabilities = participant["capabilities"];
  const list = Array.isArray(capabilities) ? capabilities.filter((c): c is string => typeof c === "string") : [];
  return { event, participant: { id: participant["id"], capabilities: list } };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** The index of the quote that closes the JSON string opening at `start` (a quote), or -1. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end >= 0) {
    let backslashes = 0;
    for (let k = end - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * The first key that appears twice at the top level of `frame`, a JSON text that JSON.parse has
 * read as an object; undefined when none does. JSON.parse keeps the last of duplicate keys while
 * other parsers keep the first (RFC 8259 §4: names SHOULD be unique, and behaviour then is
 * unpredictable), so a frame with two `from`s or two `kind`s would be checked by the gateway as one
 * envelope and read by a receiver as another: such a frame is not an envelope. Keys are compared
 * as decoded (`"\u0066rom"` is `from`). One pass over the text, strings skipped by `indexOf`:
 * linear in the frame's length, which maxFrameBytes bounds.
 */
export function duplicateTopLevelKey(frame: string): string | undefined {
  const seen = new Set<string>();
  let depth = 0;
  let topIsObject = false;
  let expectKey = false;
  for (let i = 0; i < frame.length; i++) {
    const c = frame.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(frame, i);
      if (end < 0) return undefined; // not JSON: JSON.parse has refused it already
      if (depth === 1 && expectKey) {
        const raw = frame.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (seen.has(key)) return key;
        seen.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth === 1) expectKey = topIsObject = c === OPEN_BRACE;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COMMA && depth === 1) {
      expectKey = topIsObject;
    }
  }
  return undefined;
}
