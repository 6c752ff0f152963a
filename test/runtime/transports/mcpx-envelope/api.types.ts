// Type-level tests of the MCPx API (compiled by the typecheck, never run): every
// `@ts-expect-error` must stay an error, every other line must compile.
import * as R from "../../../generated/2025-11-25/index.js";
import type { McpxWsLink } from "../../../../templates/runtime/addons/mcpx-ws/link.js";
import type { McpxGrant } from "../../../../templates/runtime/addons/mcpx-ws/token.js";

declare const link: McpxWsLink;

// A WebSocket link is an McpxLink: a transport per peer over it.
export const transport: R.McpxTransport = R.createMcpxTransport({ participantId: link.participantId, peerId: "tools", link, shape: "v0.1" });
export const shape: R.McpxShape = transport.shape;
// @ts-expect-error two shapes only
export const noShape = R.createMcpxTransport({ participantId: "a", peerId: "b", link, shape: "v0.2" });
// @ts-expect-error a transport's shape is read-only
transport.shape = "draft";

// Refusal reasons are a closed set (the error of a system/error).
export const reason: R.McpxRefusalReason = "capability_violation";
// @ts-expect-error not a reason the gateway gives
export const noReason: R.McpxRefusalReason = "forbidden";

// Envelopes: correlation_id and ts are strings when present.
export const envelope: R.McpxEnvelope = { protocol: "mcpx/v0.1", id: "e", from: "a", kind: "mcp/response:ping", correlation_id: "r", ts: "2026-01-01T00:00:00Z" };
// @ts-expect-error correlation_id is an envelope id
export const badCorrelation: R.McpxEnvelope = { protocol: "mcpx/v0.1", id: "e", from: "a", kind: "chat", correlation_id: 7 };

// A grant's capabilities cannot be changed after verification.
declare const grant: McpxGrant;
// @ts-expect-error read-only
grant.capabilities.push("*");

// A hub sink must say how much it has buffered (backpressure is not optional).
// @ts-expect-error bufferedBytes is missing
export const sink: R.McpxHubSink = { send: () => undefined, close: () => undefined };
