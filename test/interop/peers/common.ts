/**
 * Shared by the interop peers (run in-process over the SDK's InMemoryTransport, or in a child
 * process over stdio) and the interop tests: a transport wrapper that records the wire in both
 * directions, and the shape of what a peer reports about itself.
 */
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Transport } from "../../generated/2026-07-28/index.js";
import { TapTransport } from "../../helpers/transports.js";

/** A JSON-RPC message as recorded: a plain JSON object. */
export type Wire = { [key: string]: unknown };

/**
 * Wraps any SDK-shaped transport (which the generated Transport is, structurally) and records
 * every message sent and received through it, as JSON. Works under the SDK's Protocol and under
 * the generated runtime alike (the one forwarding transport, test/helpers/transports.ts).
 */
export class WireTap extends TapTransport<Wire> implements SdkTransport {
  constructor(inner: SdkTransport) {
    super(inner as Transport, { received: true, record: (message) => asWire(message) });
  }
}

export const asWire = (message: unknown): Wire => JSON.parse(JSON.stringify(message)) as Wire;

/** Resolves with the abort reason once the signal aborts (the stub tests' helper). */
export { aborted } from "../../helpers/async.js";

/** What a handler that waits for its cancellation saw. */
export interface HandlerRecord {
  requestId: string | number;
  /** The abort reason of the handler's signal, once it fired. */
  signalReason?: unknown;
  /** How a request the handler started itself ended (error name and reason, or "resolved"). */
  nested?: { outcome: string; name?: string; reason?: unknown } | undefined;
  /** The handler returned (its result is then dropped by its runtime, being cancelled). */
  returned: boolean;
}

/** What a peer reports about itself (the "observations" tool of the servers, roots/list `_meta` of the clients). */
export interface Observations {
  /** Messages this peer's transport sent and received. */
  sent: Wire[];
  received: Wire[];
  /** Handlers that waited for their cancellation, by request id (JSON-encoded). */
  handlers: Record<string, HandlerRecord>;
  /** The generated runtime's onCancellation events (our peers only). */
  events: unknown[];
  /** Errors the implementation reported (onerror / onError), as text. */
  errors: string[];
  /** The generated runtime's in-flight counts (our peers only). */
  inFlight?: { sent: number; received: number } | undefined;
}

export const TEXT = (text: string) => ({ type: "text" as const, text });

/** The one sampling request of the tests, as both servers send it. */
export const SAMPLING_PARAMS = { messages: [{ role: "user" as const, content: TEXT("hello") }], maxTokens: 16 };

/** The text of a sampling request's first message (the client peers answer by it). */
export function samplingText(params: unknown): string {
  const messages = (params as { messages?: { content?: unknown }[] } | undefined)?.messages;
  const content = messages?.[0]?.content;
  const block = Array.isArray(content) ? (content[0] as unknown) : content;
  const text = (block as { text?: unknown } | undefined)?.text;
  return typeof text === "string" ? text : "";
}

export const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export const SAMPLING_MODEL = "interop-model";
/** How the client peers answer a sampling request whose first message is `text`. */
export const sampled = (text: string) => ({ role: "assistant" as const, content: TEXT(`sampled: ${text}`), model: SAMPLING_MODEL });
