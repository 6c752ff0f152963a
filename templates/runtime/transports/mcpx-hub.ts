// The MCPx v0.1 gateway's rules, apart from any socket: topics of participants, welcome and
// presence, the `from` check, reserved kinds, capability matching, directed and broadcast
// delivery, the topic cap, a duplicate id replacing the old connection, and the bounds (frame
// size, envelopes per second, queued bytes per connection). A network front (the mcpx-ws
// add-on's WebSocket gateway) hands it each connection as a `McpxHubSink` and each text frame to
// `receive`. The payload is never parsed apart from the one JSON.parse of the frame that reads
// the envelope's fields (and a scan of its text for a top-level key given twice), and the frame
// is forwarded as received.
//
// Many gateways can share topics through a `GatewayBus` (a pub/sub: Redis in the redis add-on,
// `createInProcessGatewayBus` here): each publishes its participants' joins and leaves, a roster
// every `heartbeatMs`, and each envelope that has a recipient elsewhere. A gateway unheard of
// for three heartbeats is dead: its participants leave for everyone else.

import { isObject } from "../core/json.js";
import { DEFAULT_MAX_MESSAGE_DEPTH, maxJsonDepthOption, parseJsonWithin, textNestsDeeperThan } from "../core/json-depth.js";
import { numberOption } from "../core/options.js";
import { capabilitiesAllow, duplicateTopLevelKey, isReservedKind, MCPX_GATEWAY_SENDER, shapeOfKind, type McpxParticipantInfo, type McpxRefusalReason, type McpxShape } from "./mcpx-envelope.js";
import { isMcpxEnvelope, MCPX_PROTOCOL, type McpxEnvelope } from "./mcpx.js";

/** A pub/sub between gateways, one channel per topic; messages are strings (JSON). */
export interface GatewayBus {
  /** Starts delivering the topic's messages (its own included); resolves once subscribed. Returns the unsubscribe. */
  subscribe(topic: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  publish(topic: string, message: string): Promise<void>;
  /** Ends its connections. The hub does not close a bus it was given. */
  close(): Promise<void>;
}

/** One connection as the hub sees it. */
export interface McpxHubSink {
  /** Sends one text frame. */
  send(frame: string): void;
  /** Bytes handed to `send` and not yet written out (backpressure). */
  bufferedBytes(): number;
  /** Closes the connection with a WebSocket close code and reason. */
  close(code: number, reason: string): void;
}

/** Something refused, for the gateway's owner (logs, metrics). */
export interface McpxRefusal {
  readonly reason: McpxRefusalReason;
  readonly topic: string;
  readonly participant: string;
  readonly detail: string;
}

export interface McpxHubOptions {
  /** Shares topics with other gateways (default: none, this gateway alone). */
  bus?: GatewayBus | undefined;
  /** This gateway's id on the bus (default: a random UUID). */
  gatewayId?: string | undefined;
  /** Which MCP envelope shape it admits: "draft", "v0.1" or "both" (default). */
  shape?: McpxShape | "both" | undefined;
  /** Participants at most in one topic, on all gateways (default 256; ≥ 1). The one past it is closed 1008 `topic_full`. */
  maxParticipantsPerTopic?: number | undefined;
  /** Bytes at most in one frame, in UTF-16 code units of the text (default 1 MiB; ≥ 1024). */
  maxFrameBytes?: number | undefined;
  /** Envelopes per second at most from one participant, in bursts of as many (default 200; ≥ 1). Past it: dropped, `rate_limited`. */
  maxEnvelopesPerSecond?: number | undefined;
  /** Bytes at most waiting to be written to one connection (default 4 MiB; ≥ 64 KiB). Past it the connection is closed 1013 `slow_consumer`. */
  maxQueuedBytes?: number | undefined;
  /** Roster period on the bus (default 2000 ms; ≥ 50); a gateway silent for 3 of them is dead. */
  heartbeatMs?: number | undefined;
  /**
   * Deepest nesting of arrays and objects in a frame (default 1000; 8 to 100 000). A deeper frame
   * is refused before it is parsed (`invalid_json`, dropped), and a bus message too (ignored).
   */
  maxJsonDepth?: number | undefined;
  /** Called for every refusal; a throwing onRefusal is ignored. */
  onRefusal?: ((refusal: McpxRefusal) => void) | undefined;
}

/** A participant attached to the hub through one connection. */
export interface McpxHubMember {
  readonly id: string;
  readonly topic: string;
  readonly capabilities: readonly string[];
  /** One text frame from the participant. */
  receive(frame: string): void;
  /** The connection ended: the participant leaves (idempotent). */
  leave(): void;
}

export interface McpxHubCounts {
  routed: number;
  refused: number;
  refusedBy: Partial<Record<McpxRefusalReason, number>>;
}

export interface McpxHub {
  readonly gatewayId: string;
  /**
   * Attaches a participant whose token gave `participant` for `topic`: sends it the welcome and
   * the others its join. Refuses (closes the sink 1008 and returns undefined) a full topic.
   */
  join(topic: string, participant: McpxParticipantInfo, sink: McpxHubSink): Promise<McpxHubMember | undefined>;
  /** Participants of a topic, on every gateway. */
  participants(topic: string): McpxParticipantInfo[];
  readonly counts: Readonly<McpxHubCounts>;
  /** Closes every connection (1001) and tells the other gateways (bye); leaves the bus open. */
  close(): Promise<void>;
}

/** Close codes (RFC 6455 §7.4.1; 4000-4999 private: 4401 the token expired, 4409 a newer connection replaced this one). */
export const MCPX_CLOSE = { policy: 1008, tooBig: 1009, goingAway: 1001, tryAgainLater: 1013, tokenExpired: 4401, replaced: 4409 } as const;

type BusMessage =
  | { t: "env"; g: string; from: string; to: string[] | null; frame: string }
  | { t: "join"; g: string; p: McpxParticipantInfo; since: number }
  | { t: "leave"; g: string; id: string }
  | { t: "roster"; g: string; ps: Array<McpxParticipantInfo & { since: number }> }
  | { t: "hello"; g: string }
  | { t: "bye"; g: string };

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");
const isInfo = (value: unknown): value is McpxParticipantInfo & { since?: unknown } =>
  isObject(value) && typeof value["id"] === "string" && isStrings(value["capabilities"]);

/** A bus message from another gateway, checked field by field: the bus is shared, not trusted blindly. */
function parseBusMessage(text: string, maxDepth: number): BusMessage | undefined {
  let value: unknown;
  try {
    value = parseJsonWithin(text, maxDepth);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value["g"] !== "string") return undefined;
  const g = value["g"];
  switch (value["t"]) {
    case "env": {
      const to = value["to"];
      if (typeof value["from"] !== "string" || typeof value["frame"] !== "string" || (to !== null && !isStrings(to))) return undefined;
      return { t: "env", g, from: value["from"], to, frame: value["frame"] };
    }
    case "join":
      return isInfo(value["p"]) && typeof value["since"] === "number" ? { t: "join", g, p: { id: value["p"].id, capabilities: value["p"].capabilities }, since: value["since"] } : undefined;
    case "leave":
      return typeof value["id"] === "string" ? { t: "leave", g, id: value["id"] } : undefined;
    case "roster": {
      const ps = value["ps"];
      if (!Array.isArray(ps) || !ps.every((p) => isInfo(p) && typeof p.since === "number")) return undefined;
      return { t: "roster", g, ps: ps as Array<McpxParticipantInfo & { since: number }> };
    }
    case "hello":
    case "bye":
      return { t: value["t"], g };
    default:
      return undefined;
  }
}

interface Local {
  readonly info: McpxParticipantInfo;
  readonly sink: McpxHubSink;
  readonly since: number;
  /** Token bucket: envelopes it may still send now. */
  tokens: number;
  refilledAt: number;
  /** The second of the last rate_limited error (at most one a second). */
  limitedAt: number;
  left: boolean;
}

interface Remote {
  readonly info: McpxParticipantInfo;
  readonly gateway: string;
  readonly since: number;
}

interface Topic {
  readonly name: string;
  readonly locals: Map<string, Local>;
  readonly remotes: Map<string, Remote>;
  /** Last time each other gateway was heard of on this topic. */
  readonly heardAt: Map<string, number>;
  unsubscribe?: (() => Promise<void>) | undefined;
}

const newId = (): string => globalThis.crypto.randomUUID();

/** A gateway's rules and topics, without sockets (see the module comment). */
export function createMcpxHub(options: McpxHubOptions = {}): McpxHub {
  const maxParticipants = numberOption("maxParticipantsPerTopic", options.maxParticipantsPerTopic, 256, { min: 1 });
  const maxFrame = numberOption("maxFrameBytes", options.maxFrameBytes, 1024 * 1024, { min: 1024 });
  const rate = numberOption("maxEnvelopesPerSecond", options.maxEnvelopesPerSecond, 200, { min: 1 });
  const maxQueued = numberOption("maxQueuedBytes", options.maxQueuedBytes, 4 * 1024 * 1024, { min: 64 * 1024 });
  const heartbeatMs = numberOption("heartbeatMs", options.heartbeatMs, 2000, { min: 50 });
  const maxDepth = maxJsonDepthOption(options.maxJsonDepth, DEFAULT_MAX_MESSAGE_DEPTH);
  const shape = options.shape ?? "both";
  const bus = options.bus;
  const gatewayId = options.gatewayId ?? newId();
  const topics = new Map<string, Topic>();
  const counts: McpxHubCounts = { routed: 0, refused: 0, refusedBy: {} };
  let closed = false;

  const report = (reason: McpxRefusalReason, topic: string, participant: string, detail: string) => {
    counts.refused++;
    counts.refusedBy[reason] = (counts.refusedBy[reason] ?? 0) + 1;
    try {
      options.onRefusal?.({ reason, topic, participant, detail });
    } catch {
      // An observer's bug must not break routing.
    }
  };

  const systemFrame = (kind: string, to: string[] | undefined, payload: unknown, correlation?: string): string => {
    const envelope: McpxEnvelope = { protocol: MCPX_PROTOCOL, id: newId(), ts: new Date().toISOString(), from: MCPX_GATEWAY_SENDER, kind, payload };
    if (to !== undefined) envelope.to = to;
    if (correlation !== undefined) envelope.correlation_id = correlation;
    return JSON.stringify(envelope);
  };

  /** Writes one frame, or closes a connection that does not read (backpressure, not a growing buffer). */
  const write = (topic: Topic, local: Local, frame: string): void => {
    if (local.left) return;
    if (local.sink.bufferedBytes() + frame.length > maxQueued) {
      report("slow_consumer", topic.name, local.info.id, `more than ${maxQueued} bytes wait to be written (maxQueuedBytes)`);
      drop(topic, local, MCPX_CLOSE.tryAgainLater, "slow_consumer");
      return;
    }
    try {
      local.sink.send(frame);
    } catch {
      drop(topic, local, MCPX_CLOSE.goingAway, "send failed");
    }
  };

  const refuse = (topic: Topic, local: Local, reason: McpxRefusalReason, message: string, extra: Record<string, unknown> = {}, correlation?: string) => {
    report(reason, topic.name, local.info.id, message);
    write(topic, local, systemFrame("system/error", [local.info.id], { error: reason, message, ...extra }, correlation));
  };

  const presence = (topic: Topic, event: "join" | "leave", info: McpxParticipantInfo, except: string | undefined) => {
    const frame = systemFrame("system/presence", undefined, { event, participant: event === "join" ? info : { id: info.id } });
    for (const local of [...topic.locals.values()]) if (local.info.id !== except) write(topic, local, frame);
  };

  const publish = (topic: Topic, message: BusMessage) => {
    if (bus === undefined) return;
    bus.publish(topic.name, JSON.stringify(message)).catch(() => {
      // The bus is down: the other gateways will miss this gateway's heartbeats and time it out.
    });
  };

  const everyone = (topic: Topic): McpxParticipantInfo[] => [
    ...[...topic.locals.values()].map((l) => l.info),
    ...[...topic.remotes.values()].map((r) => r.info),
  ];

  /** A local participant goes: the others hear it, the connection is closed. */
  function drop(topic: Topic, local: Local, code: number, reason: string): void {
    if (local.left) return;
    local.left = true;
    if (topic.locals.get(local.info.id) === local) {
      topic.locals.delete(local.info.id);
      presence(topic, "leave", local.info, undefined);
      publish(topic, { t: "leave", g: gatewayId, id: local.info.id });
    }
    try {
      local.sink.close(code, reason);
    } catch {
      // Already gone.
    }
    void release(topic);
  }

  async function release(topic: Topic): Promise<void> {
    if (topic.locals.size > 0 || topics.get(topic.name) !== topic) return;
    topics.delete(topic.name);
    const unsubscribe = topic.unsubscribe;
    topic.unsubscribe = undefined;
    await unsubscribe?.().catch(() => undefined);
  }

  const removeRemote = (topic: Topic, id: string) => {
    const remote = topic.remotes.get(id);
    if (remote === undefined) return;
    topic.remotes.delete(id);
    presence(topic, "leave", remote.info, undefined);
  };

  const addRemote = (topic: Topic, gateway: string, info: McpxParticipantInfo, since: number) => {
    const known = topic.remotes.get(info.id);
    if (known !== undefined && known.gateway === gateway && known.since === since) return;
    // The same id here too: the newer connection wins (SPEC: a second connection replaces the first).
    const local = topic.locals.get(info.id);
    if (local !== undefined) {
      if (local.since > since || (local.since === since && gatewayId > gateway)) return;
      report("replaced", topic.name, info.id, `a newer connection on gateway ${gateway}`);
      drop(topic, local, MCPX_CLOSE.replaced, "replaced");
    }
    if (known !== undefined) removeRemote(topic, info.id);
    topic.remotes.set(info.id, { info, gateway, since });
    presence(topic, "join", info, undefined);
  };

  const deliverLocally = (topic: Topic, from: string, to: readonly string[] | null, frame: string) => {
    if (to === null) {
      for (const local of [...topic.locals.values()]) if (local.info.id !== from) write(topic, local, frame);
      return;
    }
    for (const id of new Set(to)) {
      const local = topic.locals.get(id);
      if (local !== undefined && id !== from) write(topic, local, frame);
    }
  };

  const onBus = (topic: Topic, text: string) => {
    if (closed || topics.get(topic.name) !== topic) return;
    const message = parseBusMessage(text, maxDepth);
    if (message === undefined || message.g === gatewayId) return;
    topic.heardAt.set(message.g, Date.now());
    switch (message.t) {
      case "env":
        if (message.frame.length <= maxFrame) deliverLocally(topic, message.from, message.to, message.frame);
        return;
      case "join":
        return addRemote(topic, message.g, message.p, message.since);
      case "leave":
        if (topic.remotes.get(message.id)?.gateway === message.g) removeRemote(topic, message.id);
        return;
      case "roster": {
        const listed = new Set(message.ps.map((p) => p.id));
        for (const [id, remote] of [...topic.remotes]) if (remote.gateway === message.g && !listed.has(id)) removeRemote(topic, id);
        for (const p of message.ps) addRemote(topic, message.g, { id: p.id, capabilities: p.capabilities }, p.since);
        return;
      }
      case "hello":
        return publishRoster(topic);
      case "bye":
        return forgetGateway(topic, message.g);
    }
  };

  const forgetGateway = (topic: Topic, gateway: string) => {
    topic.heardAt.delete(gateway);
    for (const [id, remote] of [...topic.remotes]) if (remote.gateway === gateway) removeRemote(topic, id);
  };

  const publishRoster = (topic: Topic) =>
    publish(topic, { t: "roster", g: gatewayId, ps: [...topic.locals.values()].map((l) => ({ ...l.info, since: l.since })) });

  const heartbeat = setInterval(() => {
    const now = Date.now();
    for (const topic of topics.values()) {
      publishRoster(topic);
      for (const [gateway, at] of [...topic.heardAt]) if (now - at > 3 * heartbeatMs) forgetGateway(topic, gateway);
    }
  }, heartbeatMs);
  // Node's timers can be unref'd (the heartbeat alone must not keep a process up); a browser's are numbers.
  (heartbeat as { unref?: () => void }).unref?.();

  const topicOf = async (name: string): Promise<Topic> => {
    const existing = topics.get(name);
    if (existing !== undefined) return existing;
    const topic: Topic = { name, locals: new Map(), remotes: new Map(), heardAt: new Map() };
    topics.set(name, topic);
    if (bus !== undefined) {
      topic.unsubscribe = await bus.subscribe(name, (text) => onBus(topic, text));
      publish(topic, { t: "hello", g: gatewayId });
    }
    return topic;
  };

  /** The checks of one frame, in SPEC order; the frame is forwarded as received. */
  const receive = (topic: Topic, local: Local, frame: string) => {
    if (local.left) return;
    if (frame.length > maxFrame) return refuse(topic, local, "frame_too_large", `a frame of more than ${maxFrame} bytes`);
    const now = Date.now();
    local.tokens = Math.min(rate, local.tokens + ((now - local.refilledAt) / 1000) * rate);
    local.refilledAt = now;
    if (local.tokens < 1) {
      const second = Math.floor(now / 1000);
      if (local.limitedAt !== second) {
        local.limitedAt = second;
        refuse(topic, local, "rate_limited", `more than ${rate} envelopes a second`);
      } else {
        report("rate_limited", topic.name, local.info.id, "dropped (already told this second)");
      }
      return;
    }
    local.tokens--;
    // One pass over the frame before JSON.parse, which takes seconds on millions of levels.
    if (textNestsDeeperThan(frame, maxDepth)) return refuse(topic, local, "invalid_json", `the frame nests deeper than ${maxDepth} levels (maxJsonDepth)`);
    let value: unknown;
    try {
      value = JSON.parse(frame);
    } catch {
      return refuse(topic, local, "invalid_json", "the frame is not JSON");
    }
    if (!isMcpxEnvelope(value)) return refuse(topic, local, "invalid_envelope", `not an ${MCPX_PROTOCOL} envelope`);
    // Two `from`s (or `kind`s…): this parser sees the last, a receiver's may see the first.
    const duplicate = duplicateTopLevelKey(frame);
    if (duplicate !== undefined) return refuse(topic, local, "invalid_envelope", `not an ${MCPX_PROTOCOL} envelope: the key ${JSON.stringify(duplicate.slice(0, 64))} appears twice`);
    const envelope = value;
    if (envelope.from !== local.info.id) {
      return refuse(topic, local, "auth_violation", `from must be "${local.info.id}"`, { attempted_from: envelope.from }, envelope.id);
    }
    if (isReservedKind(envelope.kind)) return refuse(topic, local, "reserved_kind", "system/* is the gateway's", { attempted_kind: envelope.kind }, envelope.id);
    const kindShape = shapeOfKind(envelope.kind);
    if (kindShape !== undefined && shape !== "both" && kindShape !== shape) {
      return refuse(topic, local, "invalid_envelope", `this gateway carries MCP in the ${shape} shape`, { attempted_kind: envelope.kind }, envelope.id);
    }
    if (!capabilitiesAllow(local.info.capabilities, envelope.kind)) {
      return refuse(topic, local, "capability_violation", `You lack capability for '${envelope.kind}'`, { attempted_kind: envelope.kind, your_capabilities: local.info.capabilities }, envelope.id);
    }
    const to = envelope.to === undefined || envelope.to.length === 0 ? null : envelope.to;
    counts.routed++;
    deliverLocally(topic, local.info.id, to, frame);
    const remoteRecipient = to === null ? topic.remotes.size > 0 : to.some((id) => topic.remotes.has(id));
    if (remoteRecipient) publish(topic, { t: "env", g: gatewayId, from: local.info.id, to, frame });
  };

  return {
    gatewayId,
    counts,
    participants: (name) => {
      const topic = topics.get(name);
      return topic === undefined ? [] : everyone(topic);
    },
    async join(name, participant, sink) {
      if (closed) {
        sink.close(MCPX_CLOSE.goingAway, "gateway closing");
        return undefined;
      }
      const topic = await topicOf(name);
      const info: McpxParticipantInfo = { id: participant.id, capabilities: [...participant.capabilities] };
      const previous = topic.locals.get(info.id);
      const count = topic.locals.size + topic.remotes.size - (previous !== undefined || topic.remotes.has(info.id) ? 1 : 0);
      if (count >= maxParticipants) {
        report("topic_full", name, info.id, `${maxParticipants} participants already (maxParticipantsPerTopic)`);
        sink.close(MCPX_CLOSE.policy, "topic_full");
        void release(topic);
        return undefined;
      }
      if (previous !== undefined) {
        report("replaced", name, info.id, "a newer connection on this gateway");
        drop(topic, previous, MCPX_CLOSE.replaced, "replaced");
      }
      const local: Local = { info, sink, since: Date.now(), tokens: rate, refilledAt: Date.now(), limitedAt: -1, left: false };
      const others = everyone(topic).filter((p) => p.id !== info.id);
      topic.locals.set(info.id, local);
      write(topic, local, systemFrame("system/welcome", [info.id], { you: info, participants: others, ...(shape === "both" ? {} : { shape }) }));
      presence(topic, "join", info, info.id);
      publish(topic, { t: "join", g: gatewayId, p: info, since: local.since });
      return {
        id: info.id,
        topic: name,
        capabilities: info.capabilities,
        receive: (frame) => receive(topic, local, frame),
        leave: () => drop(topic, local, MCPX_CLOSE.goingAway, "left"),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      for (const topic of [...topics.values()]) {
        publish(topic, { t: "bye", g: gatewayId });
        for (const local of [...topic.locals.values()]) {
          local.left = true;
          try {
            local.sink.close(MCPX_CLOSE.goingAway, "gateway closing");
          } catch {
            // Already gone.
          }
        }
        topic.locals.clear();
        await topic.unsubscribe?.().catch(() => undefined);
      }
      topics.clear();
    },
  };
}

/**
 * A GatewayBus inside one process: hubs created with the same bus share their topics, as
 * gateways on one Redis do. Deliveries are asynchronous (a microtask), as over a network.
 */
export function createInProcessGatewayBus(): GatewayBus {
  const channels = new Map<string, Set<(message: string) => void>>();
  return {
    async subscribe(topic, listener) {
      const set = channels.get(topic) ?? new Set();
      channels.set(topic, set);
      const wrapped = (message: string) => listener(message);
      set.add(wrapped);
      return async () => {
        set.delete(wrapped);
        if (set.size === 0) channels.delete(topic);
      };
    },
    async publish(topic, message) {
      for (const listener of [...(channels.get(topic) ?? [])]) {
        queueMicrotask(() => {
          try {
            listener(message);
          } catch {
            // One subscriber's failure is not the publisher's.
          }
        });
      }
    },
    async close() {
      channels.clear();
    },
  };
}
