// MCPx: MCP between many participants, each message inside an envelope
//   { protocol: "mcpx/v0.1", id, ts?, from, to: [...], kind, correlation_id?, payload: <JSON-RPC message> }
// in either shape of mcpx-envelope.ts: the ADR's draft `kind: "mcp"`, or v0.1's
// `mcp/request:METHOD` / `mcp/response:METHOD` with `correlation_id`.
// Cancellation passes through unchanged (MCPx ADR-001, option 1): the payload is a plain
// notifications/cancelled, gateways route it without reading it, envelopes keep the MCP request
// ids, nothing acknowledges a cancel, and each participant handles the races as MCP says
// (Cancellation, "Timing Considerations"). Progress notifications pass through the same way.
//
// One conversation = one pair (participant, peer) = one transport = one McpClient/McpServer.
// MCP request ids are unique only per sender, so every in-flight table lives in the endpoint
// of one conversation: a cancel from peer A can only ever reach the requests A sent.
//
// The gateway routes a snapshot, never the sender's object: at send() it reads each field of
// the envelope once, deep-copies and freezes it, and checks, routes and delivers only that
// copy. Otherwise a sender could change `from` (or answer differently from a getter or Proxy)
// after the check and speak, or cancel, as another participant.

import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import type { JsonRpcMessage, RequestId, Transport, TransportSendOptions } from "../core/protocol.js";
import { isMcpKind, isReservedKind, MCPX_GATEWAY_SENDER, mcpKind, mcpKindAgrees, mcpRequestContext, presenceOf, type McpxShape } from "./mcpx-envelope.js";

export const MCPX_PROTOCOL = "mcpx/v0.1";

/** One MCPx envelope. `to` empty or absent is a broadcast to every other participant. */
export interface McpxEnvelope {
  protocol: typeof MCPX_PROTOCOL;
  id: string;
  /** RFC 3339 time of sending (v0.1). */
  ts?: string | undefined;
  from: string;
  to?: string[] | undefined;
  kind: string;
  /** v0.1: the id of the envelope this one answers (a response's request). */
  correlation_id?: string | undefined;
  payload?: unknown;
  [extension: string]: unknown;
}

/** Why an envelope was dropped. */
export type McpxDropCause =
  /** Not an object, wrong `protocol`, missing `from`, `kind` not a string, bad `id` or `to`. */
  | "invalid-envelope"
  /** `from` is not the participant whose link sent it (gateway only). */
  | "spoofed-sender"
  /** A `system/*` kind from a participant: only gateways speak there (gateway only). */
  | "reserved-kind"
  /**
   * An MCP envelope whose payload is not a JSON-RPC 2.0 message, whose v0.1 kind disagrees with
   * its payload, or a response whose `correlation_id` is not our request's envelope (transport only).
   */
  | "invalid-payload"
  /**
   * Past a bound: an envelope that would leave more than `maxQueuedEnvelopes` waiting for one
   * participant (gateway: its send throws), or one more than `maxBacklog` arriving before
   * start() (transport: the conversation closes).
   */
  | "overflow";

/** A participant's attachment to an envelope bus (a gateway, a socket, a broker). */
export interface McpxLink {
  readonly participantId: string;
  /** The envelope shape this link's transports send by default (else "draft"). */
  readonly shape?: McpxShape | undefined;
  /**
   * Hands one envelope to the bus, which reads it at once: changing the object afterwards
   * changes nothing. Throws once the link is closed.
   */
  send(envelope: McpxEnvelope): void;
  /**
   * Receives every envelope the bus delivers to this participant; `onClose` runs once when
   * the link closes. Returns the unsubscribe function.
   */
  subscribe(listener: (envelope: unknown) => void, onClose?: () => void): () => void;
  close(): void;
}

/** What the gateway saw: envelopes routed and dropped, by cause. */
export interface McpxGatewayCounts {
  routed: number;
  dropped: number;
  droppedBy: { [Cause in McpxDropCause]: number };
}

export interface McpxGatewayOptions {
  /**
   * Called for every routed envelope (the gateway's frozen snapshot) with the participants it
   * is handed to. A throwing onRoute or onDrop is ignored.
   */
  onRoute?: ((envelope: McpxEnvelope, deliveredTo: readonly string[]) => void) | undefined;
  /** Called for every dropped envelope. */
  onDrop?: ((envelope: unknown, cause: McpxDropCause, from: string) => void) | undefined;
  /**
   * Envelopes at most routed to one participant and not yet delivered (default 1024; a whole
   * number ≥ 16). Deliveries wait for the next microtask, so only a sender that does not wait
   * for its sends (a synchronous loop) can fill it; the send that would exceed it for any of
   * its recipients throws, and the envelope is dropped for all of them (cause `overflow`).
   */
  maxQueuedEnvelopes?: number | undefined;
}

export interface McpxGateway {
  /** Attaches a participant; its id must be unused. */
  join(participantId: string): McpxLink;
  /** Ids of the participants currently attached, in join order. */
  participants(): string[];
  readonly counts: Readonly<McpxGatewayCounts>;
  onRoute: McpxGatewayOptions["onRoute"];
  onDrop: McpxGatewayOptions["onDrop"];
}

/** The envelope checks that gateways and transports share; the payload is not read. */
export function isMcpxEnvelope(value: unknown): value is McpxEnvelope {
  if (!isObject(value)) return false;
  if (value["protocol"] !== MCPX_PROTOCOL) return false;
  if (typeof value["from"] !== "string" || value["from"] === "") return false;
  if (typeof value["kind"] !== "string") return false;
  if (typeof value["id"] !== "string") return false;
  const correlation = value["correlation_id"];
  if (correlation !== undefined && typeof correlation !== "string") return false;
  const to = value["to"];
  return to === undefined || (Array.isArray(to) && to.every((p) => typeof p === "string"));
}

/**
 * Deep-freezes a structured clone in place when it is JSON data (plain objects, arrays,
 * strings, numbers, booleans, null; undefined as a property value) without cycles; false
 * otherwise (Dates, Maps, typed arrays, class instances, bigints, cycles), which a wire could
 * not carry.
 */
function freezeJson(value: unknown, ancestors: Set<object>): boolean {
  if (value === null || value === undefined) return true;
  const type = typeof value;
  if (type === "string" || type === "number" || type === "boolean") return true;
  if (type !== "object") return false;
  const object = value as object;
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  if (ancestors.has(object)) return false;
  ancestors.add(object);
  for (const child of Object.values(object)) if (!freezeJson(child, ancestors)) return false;
  ancestors.delete(object);
  Object.freeze(object);
  return true;
}

/**
 * The gateway's copy of an envelope, taken once at send(): each own enumerable field is read
 * exactly once (as JSON.stringify would see them), then the whole is structured-cloned (the
 * payload too) and frozen deep. A getter, Proxy or later mutation cannot change what was
 * checked. Undefined when it cannot be copied: a throwing getter or trap, a Proxy or function
 * inside, or data that is not JSON.
 */
function snapshotEnvelope(value: { [key: string]: unknown }): { [key: string]: unknown } | undefined {
  try {
    // A null prototype: a "__proto__" field is stored as data, not as the copy's prototype.
    const fields = Object.create(null) as { [key: string]: unknown };
    for (const key of Object.keys(value)) fields[key] = value[key];
    const copy = structuredClone(fields);
    return freezeJson(copy, new Set()) ? copy : undefined;
  } catch {
    return undefined;
  }
}

const noDrops = (): { [Cause in McpxDropCause]: number } => ({
  "invalid-envelope": 0,
  "spoofed-sender": 0,
  "reserved-kind": 0,
  "invalid-payload": 0,
  overflow: 0,
});

const DEFAULT_MAX_QUEUED_ENVELOPES = 1024;
const DEFAULT_MAX_BACKLOG = 1024;
/** The smallest sane queue bound: a burst of a few messages (a response and its notifications) must fit. */
const MIN_QUEUE = 16;

/** A queue bound option, read once: undefined is the default, else a whole number ≥ MIN_QUEUE. */
function queueBound(name: string, value: number | undefined, fallback: number): number {
  return numberOption(name, value, fallback, { min: MIN_QUEUE });
}

interface Member {
  readonly listeners: Set<(envelope: unknown) => void>;
  readonly closeListeners: Set<() => void>;
  /** Envelopes routed to it whose delivery microtask has not run yet. */
  queued: number;
}

/**
 * An in-memory MCPx gateway (tests, examples, single-process hosts). It routes each envelope
 * to the participants in `to` (all but the sender when `to` is empty or absent) without
 * interpreting the payload, each delivery on its own microtask and in send order. What it
 * checks, routes and delivers is a frozen deep copy taken at send() (every receiver gets the
 * same frozen object); an envelope that cannot be copied, or whose payload is not JSON data,
 * is dropped as invalid. Invalid envelopes are dropped and counted, never thrown. Deliveries
 * waiting for a participant are bounded (`maxQueuedEnvelopes`): a send past it throws.
 */
export function createMcpxGateway(options: McpxGatewayOptions = {}): McpxGateway {
  const maxQueued = queueBound("maxQueuedEnvelopes", options.maxQueuedEnvelopes, DEFAULT_MAX_QUEUED_ENVELOPES);
  const members = new Map<string, Member>();
  const counts: McpxGatewayCounts = { routed: 0, dropped: 0, droppedBy: noDrops() };

  const drop = (envelope: unknown, cause: McpxDropCause, from: string) => {
    counts.dropped++;
    counts.droppedBy[cause]++;
    try {
      gateway.onDrop?.(envelope, cause, from);
    } catch {
      // An observer's bug must not break routing.
    }
  };

  const route = (sender: string, sent: unknown) => {
    // From here on only the snapshot is read: the sender's object is never looked at again.
    const envelope = isObject(sent) ? snapshotEnvelope(sent) : undefined;
    if (envelope === undefined || !isMcpxEnvelope(envelope)) return drop(envelope ?? sent, "invalid-envelope", sender);
    // The gateway knows who is on each link: a participant cannot speak for another.
    if (envelope.from !== sender) return drop(envelope, "spoofed-sender", sender);
    if (isReservedKind(envelope.kind)) return drop(envelope, "reserved-kind", sender);
    const to = envelope.to === undefined || envelope.to.length === 0 ? [...members.keys()].filter((p) => p !== sender) : envelope.to;
    const deliveredTo: readonly string[] = Object.freeze([...new Set(to)].filter((p) => members.has(p)));
    // Bounded per participant: all or none of the recipients get it, and the sender hears why.
    const full = deliveredTo.find((p) => (members.get(p)?.queued ?? 0) >= maxQueued);
    if (full !== undefined) {
      drop(envelope, "overflow", sender);
      throw new Error(`MCPx: ${maxQueued} envelopes already wait for participant "${full}" (maxQueuedEnvelopes); wait for sends before sending more`);
    }
    counts.routed++;
    try {
      gateway.onRoute?.(envelope, deliveredTo);
    } catch {
      // An observer's bug must not break routing.
    }
    for (const participant of deliveredTo) {
      const member = members.get(participant);
      if (member === undefined) continue;
      member.queued++;
      queueMicrotask(() => {
        member.queued--;
        for (const listener of member.listeners) {
          try {
            listener(envelope);
          } catch {
            // A throwing receiver must not keep the envelope from the others, nor crash the
            // process from a microtask.
          }
        }
      });
    }
  };

  const gateway: McpxGateway = {
    counts,
    onRoute: options.onRoute,
    onDrop: options.onDrop,
    participants: () => [...members.keys()],
    join(participantId) {
      if (typeof participantId !== "string" || participantId === "") throw new TypeError("participantId must be a non-empty string");
      if (participantId.startsWith("system:")) throw new TypeError(`participant ids starting with "system:" are the gateway's (got "${participantId}")`);
      if (members.has(participantId)) throw new Error(`participant "${participantId}" has already joined`);
      const member: Member = { listeners: new Set(), closeListeners: new Set(), queued: 0 };
      members.set(participantId, member);
      let closed = false;
      return {
        participantId,
        send(envelope) {
          if (closed) throw new Error(`link of "${participantId}" is closed`);
          route(participantId, envelope);
        },
        subscribe(listener, onClose) {
          member.listeners.add(listener);
          if (onClose !== undefined) member.closeListeners.add(onClose);
          return () => {
            member.listeners.delete(listener);
            if (onClose !== undefined) member.closeListeners.delete(onClose);
          };
        },
        close() {
          if (closed) return;
          closed = true;
          members.delete(participantId);
          member.listeners.clear();
          const onClose = [...member.closeListeners];
          member.closeListeners.clear();
          for (const listener of onClose) {
            try {
              listener();
            } catch {
              // Every listener hears of the close, whatever one of them does.
            }
          }
        },
      };
    },
  };
  return gateway;
}

/** What one MCPx transport left alone or dropped. */
export interface McpxTransportCounts {
  /** Envelopes unwrapped and handed to the endpoint. */
  delivered: number;
  /** Dropped, by cause (invalid envelope or invalid payload). */
  dropped: number;
  droppedBy: { [Cause in McpxDropCause]: number };
  /** Valid envelopes of other conversations or other kinds: left alone, not an error. */
  ignored: number;
}

export interface McpxTransportOptions {
  /** This participant. */
  participantId: string;
  /** The one peer of this conversation. */
  peerId: string;
  /** The shared envelope link; closing the transport does not close it. */
  link: McpxLink;
  /**
   * The envelope shape it sends (mcpx-envelope.ts): "draft" (`kind: "mcp"`) or "v0.1"
   * (`mcp/request:METHOD`, `mcp/response:METHOD` with `correlation_id`). Default: the link's
   * `shape`, else "draft". Both shapes are read whatever this says.
   */
  shape?: McpxShape | undefined;
  /** Envelope ids (default: random UUIDs where available, else a per-transport counter). */
  newEnvelopeId?: (() => string) | undefined;
  /** Called for every envelope the transport drops; a throwing onDrop is ignored. */
  onDrop?: ((envelope: unknown, cause: McpxDropCause) => void) | undefined;
  /**
   * Messages at most held for the endpoint before start() (default 1024; a whole number ≥ 16).
   * One more from the peer is dropped (cause `overflow`) and the conversation closes: a peer
   * cannot grow a transport nobody started.
   */
  maxBacklog?: number | undefined;
}

/** A Transport for one conversation over an MCPx link; `counts` tells what it dropped. */
export interface McpxTransport extends Transport {
  readonly participantId: string;
  readonly peerId: string;
  readonly shape: McpxShape;
  readonly counts: Readonly<McpxTransportCounts>;
}

const isJsonRpcMessage = (payload: unknown): payload is JsonRpcMessage => isObject(payload) && payload["jsonrpc"] === "2.0";

/**
 * Requests remembered per conversation for v0.1 correlation (ours awaiting a response, the
 * peer's awaiting ours); past it the oldest is forgotten (its response then has no
 * correlation_id to check, or to give). Bounds what a peer that never answers can make us hold.
 */
export const MCPX_MAX_CORRELATIONS = 4096;

/** A JSON-RPC id as a map key: 7 and "7" are different requests. */
const idKey = (id: RequestId): string => `${typeof id}:${String(id)}`;

/** An insertion-ordered map that forgets its oldest entry past `max`. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MCPX_MAX_CORRELATIONS) map.delete(map.keys().next().value!);
}

interface PeerRequest {
  readonly envelopeId: string;
  readonly method: string;
  readonly context: string | undefined;
}

function envelopeIds(participantId: string): () => string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID;
  if (uuid !== undefined) return () => uuid.call((globalThis as { crypto?: unknown }).crypto);
  let next = 0;
  return () => `${participantId}-${++next}`;
}

class McpxConversationTransport implements McpxTransport {
  readonly participantId: string;
  readonly peerId: string;
  readonly shape: McpxShape;
  readonly counts: McpxTransportCounts = { delivered: 0, dropped: 0, droppedBy: noDrops(), ignored: 0 };
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  readonly #link: McpxLink;
  readonly #newId: () => string;
  readonly #onDrop: McpxTransportOptions["onDrop"];
  readonly #unsubscribe: () => void;
  readonly #backlog: JsonRpcMessage[] = [];
  readonly #maxBacklog: number;
  /** Our requests' envelope ids, by MCP request id (v0.1: the response must name it). */
  readonly #sent = new Map<string, string>();
  /** The peer's requests, by MCP request id: our response's kind and correlation_id. */
  readonly #received = new Map<string, PeerRequest>();
  #started = false;
  #closed = false;

  constructor(options: McpxTransportOptions) {
    this.participantId = options.participantId;
    this.peerId = options.peerId;
    this.#link = options.link;
    this.shape = options.shape ?? options.link.shape ?? "draft";
    this.#newId = options.newEnvelopeId ?? envelopeIds(options.participantId);
    this.#onDrop = options.onDrop;
    this.#maxBacklog = queueBound("maxBacklog", options.maxBacklog, DEFAULT_MAX_BACKLOG);
    // Subscribed at once, so nothing the peer sends before start() is lost.
    this.#unsubscribe = this.#link.subscribe(
      (envelope) => this.#receive(envelope),
      () => void this.close(),
    );
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    for (const message of this.#backlog.splice(0)) this.#deliver(message);
  }

  async send(message: JsonRpcMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#closed) throw new Error("transport closed");
    // The payload is the JSON-RPC message as is: request ids, cancels and progress untouched.
    const id = this.#newId();
    const envelope: McpxEnvelope = { protocol: MCPX_PROTOCOL, id, from: this.participantId, to: [this.peerId], kind: "mcp", payload: message };
    if (this.shape === "v0.1") this.#shapeV01(envelope, id, message);
    this.#link.send(envelope);
  }

  /** v0.1 (SPEC §3.1): the kind names the method; a response names its request's envelope. */
  #shapeV01(envelope: McpxEnvelope, id: string, message: JsonRpcMessage): void {
    envelope.ts = new Date().toISOString();
    if ("method" in message) {
      envelope.kind = mcpKind("v0.1", message);
      if ("id" in message) remember(this.#sent, idKey(message.id), id);
      return;
    }
    const key = message.id === undefined || message.id === null ? undefined : idKey(message.id);
    const request = key === undefined ? undefined : this.#received.get(key);
    if (key !== undefined) this.#received.delete(key);
    envelope.kind = mcpKind("v0.1", message, request);
    if (request !== undefined) envelope.correlation_id = request.envelopeId;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    this.#backlog.length = 0;
    this.#sent.clear();
    this.#received.clear();
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  }

  #drop(envelope: unknown, cause: McpxDropCause): void {
    this.counts.dropped++;
    this.counts.droppedBy[cause]++;
    try {
      this.#onDrop?.(envelope, cause);
    } catch {
      // An observer's bug must not break the conversation.
    }
  }

  #receive(envelope: unknown): void {
    if (this.#closed) return;
    if (!isMcpxEnvelope(envelope)) return this.#drop(envelope, "invalid-envelope");
    // Each field read once: what is checked is what is used (the gateway's envelopes are
    // frozen anyway; another link's may not be).
    const { from, to, kind, payload, id, correlation_id: correlation } = envelope;
    // The gateway says the peer left: its requests can never be answered nor cancelled, ours
    // will never be answered. Closing rejects the one and aborts the other (endpoint.close).
    if (from === MCPX_GATEWAY_SENDER && kind === "system/presence") {
      const presence = presenceOf(payload);
      if (presence?.event === "leave" && presence.participant.id === this.peerId) void this.close();
      else this.counts.ignored++;
      return;
    }
    // Other conversations on the shared link, and other kinds of envelope, are not ours.
    if (from !== this.peerId || to === undefined || !to.includes(this.participantId) || !isMcpKind(kind)) {
      this.counts.ignored++;
      return;
    }
    if (!isJsonRpcMessage(payload) || !mcpKindAgrees(kind, payload)) return this.#drop(envelope, "invalid-payload");
    if (!this.#correlate(payload, id, correlation)) return this.#drop(envelope, "invalid-payload");
    if (!this.#started && this.#backlog.length >= this.#maxBacklog) {
      this.#drop(envelope, "overflow");
      void this.close();
      return;
    }
    // The gateway shares one frozen envelope between its receivers: the endpoint gets its own
    // copy, which its handlers may change as they could a message parsed from a stream.
    const message = Object.isFrozen(payload) ? structuredClone(payload) : payload;
    this.counts.delivered++;
    if (this.#started) this.#deliver(message);
    else this.#backlog.push(message);
  }

  /**
   * Records a peer's request (for our response's kind and correlation_id); checks a response:
   * when it names a correlation_id, it must be the envelope of our request with that id.
   */
  #correlate(payload: JsonRpcMessage, envelopeId: string, correlation: string | undefined): boolean {
    if ("method" in payload) {
      if ("id" in payload) remember(this.#received, idKey(payload.id), { envelopeId, method: payload.method, context: mcpRequestContext(payload) });
      return true;
    }
    if (payload.id === undefined || payload.id === null) return true;
    const key = idKey(payload.id);
    const ours = this.#sent.get(key);
    // The draft shape has no correlation_id: nothing to check, but the request is answered.
    if (correlation !== undefined && ours !== undefined && ours !== correlation) return false;
    this.#sent.delete(key);
    return true;
  }

  #deliver(message: JsonRpcMessage): void {
    if (this.#closed) return;
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.#report(error);
    }
  }

  /** onerror is user code too: nowhere left to report its own failure. */
  #report(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Ignored.
    }
  }
}

/**
 * A Transport for the conversation between `participantId` and `peerId` over a shared MCPx
 * link. Outgoing messages are wrapped in fresh envelopes to [peerId]; incoming envelopes are
 * unwrapped only when they come from the peer, are addressed to us and are of kind "mcp".
 * A participant may hold many such transports on one link, one per peer.
 */
export function createMcpxTransport(options: McpxTransportOptions): McpxTransport {
  if (options.participantId === options.peerId) throw new Error("an MCPx conversation needs two different participants");
  return new McpxConversationTransport(options);
}
