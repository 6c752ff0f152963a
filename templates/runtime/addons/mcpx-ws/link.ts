// A participant's WebSocket link to an MCPx gateway (SPEC §6.2): one socket, one JSON envelope
// per text frame, the participant id and capabilities from the gateway's welcome. It is an
// McpxLink, so createMcpxTransport gives each peer its own conversation (its own request ids)
// over it, as over the in-memory gateway.
//
// Presence is surfaced (participants(), onPresence) and drives the conversations: a peer's
// `leave` closes its transports (their pending requests reject, their handlers abort). When the
// socket drops, every participant has left as far as this side knows: the link delivers a leave
// for each, then reconnects with exponential backoff; the new welcome brings them back as joins.
// No reconnect after a refusal (1008) or a replacement (4409): the same token would fail again
// or fight the newer connection. After the gateway closed it because its token expired (4401), it
// reconnects only when `token` is a function (a fresh token for the new connection).

import WebSocket from "ws";
import { DEFAULT_MAX_MESSAGE_DEPTH, maxJsonDepthOption, parseJsonWithin } from "../../core/json-depth.js";
import { numberOption } from "../../core/options.js";
import { duplicateTopLevelKey, MCPX_GATEWAY_SENDER, presenceOf, type McpxParticipantInfo, type McpxShape } from "../../transports/mcpx-envelope.js";
import { MCPX_PROTOCOL, type McpxEnvelope, type McpxLink } from "../../transports/mcpx.js";
import { isObject } from "../../core/json.js";

export interface McpxWsLinkOptions {
  /** The gateway's WebSocket URL, e.g. `ws://127.0.0.1:8080/ws`. */
  url: string | URL;
  topic: string;
  /** The bearer token, or a function that gives a fresh one for each (re)connection. */
  token: string | (() => string | Promise<string>);
  /** The shape this link's transports send (default: the gateway's, from its welcome, else "v0.1"). */
  shape?: McpxShape | undefined;
  /** Reconnect after the socket drops (default true). */
  reconnect?: boolean | undefined;
  /** First reconnect delay (default 100 ms; ≥ 1); doubles each failed attempt, with jitter. */
  initialBackoffMs?: number | undefined;
  /** Longest reconnect delay (default 5000 ms; ≥ 1). */
  maxBackoffMs?: number | undefined;
  /** Largest frame accepted from the gateway (default 2 MiB; ≥ 1024); a larger one closes the socket. */
  maxFrameBytes?: number | undefined;
  /** Deepest nesting of arrays and objects in a frame from the gateway (default 1000; 8 to 100 000); a deeper one is ignored, unparsed. */
  maxJsonDepth?: number | undefined;
  /** How long the first connection may take to be welcomed (default 10000 ms; ≥ 1). */
  connectTimeoutMs?: number | undefined;
  /** A gateway's `system/error` addressed to us (a refusal of something we sent). */
  onError?: ((error: { error: string; message: string; correlation_id?: string | undefined }) => void) | undefined;
}

export type McpxPresenceListener = (event: "join" | "leave", participant: McpxParticipantInfo) => void;

export interface McpxWsLink extends McpxLink {
  readonly shape: McpxShape;
  /** Our capabilities, as the gateway's welcome gave them. */
  readonly capabilities: readonly string[];
  /** Whether the socket is open now (false while reconnecting). */
  readonly connected: boolean;
  /** The other participants present, as far as this side knows. */
  participants(): McpxParticipantInfo[];
  /** Hears joins and leaves (including the leaves a dropped socket implies). Returns the unsubscribe. */
  onPresence(listener: McpxPresenceListener): () => void;
}

/** Why the first connection failed: the gateway's close code and reason. */
export class McpxConnectError extends Error {
  constructor(readonly code: number, readonly reason: string) {
    super(`MCPx gateway refused the connection (${code}${reason === "" ? "" : ` ${reason}`})`);
    this.name = "McpxConnectError";
  }
}

const NO_RECONNECT = new Set([1008, 4409]);
/** The gateway's close when the token expired (gateway.ts, MCPX_CLOSE.tokenExpired). */
const TOKEN_EXPIRED = 4401;

interface Welcome {
  you: McpxParticipantInfo;
  participants: McpxParticipantInfo[];
  shape: McpxShape | undefined;
}

function welcomeOf(payload: unknown): Welcome | undefined {
  if (!isObject(payload) || !isObject(payload["you"]) || typeof payload["you"]["id"] !== "string") return undefined;
  const caps = (value: unknown) => (Array.isArray(value) ? value.filter((c): c is string => typeof c === "string") : []);
  const list = Array.isArray(payload["participants"]) ? payload["participants"] : [];
  const participants = list.filter(isObject).filter((p) => typeof p["id"] === "string").map((p) => ({ id: p["id"] as string, capabilities: caps(p["capabilities"]) }));
  const shape = payload["shape"] === "draft" || payload["shape"] === "v0.1" ? payload["shape"] : undefined;
  return { you: { id: payload["you"]["id"], capabilities: caps(payload["you"]["capabilities"]) }, participants, shape };
}

class WsLink implements McpxWsLink {
  participantId = "";
  shape: McpxShape = "v0.1";
  capabilities: readonly string[] = [];
  readonly #options: McpxWsLinkOptions;
  readonly #initialBackoff: number;
  readonly #maxBackoff: number;
  readonly #maxFrame: number;
  readonly #maxDepth: number;
  readonly #listeners = new Set<(envelope: unknown) => void>();
  readonly #closeListeners = new Set<() => void>();
  readonly #presence = new Set<McpxPresenceListener>();
  readonly #roster = new Map<string, McpxParticipantInfo>();
  #socket: WebSocket | undefined;
  #welcomed = false;
  #closed = false;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: McpxWsLinkOptions) {
    this.#options = options;
    this.#initialBackoff = numberOption("initialBackoffMs", options.initialBackoffMs, 100, { min: 1 });
    this.#maxBackoff = numberOption("maxBackoffMs", options.maxBackoffMs, 5000, { min: 1 });
    this.#maxFrame = numberOption("maxFrameBytes", options.maxFrameBytes, 2 * 1024 * 1024, { min: 1024 });
    this.#maxDepth = maxJsonDepthOption(options.maxJsonDepth, DEFAULT_MAX_MESSAGE_DEPTH);
  }

  get connected(): boolean {
    return this.#welcomed && this.#socket?.readyState === WebSocket.OPEN;
  }

  participants(): McpxParticipantInfo[] {
    return [...this.#roster.values()];
  }

  onPresence(listener: McpxPresenceListener): () => void {
    this.#presence.add(listener);
    return () => this.#presence.delete(listener);
  }

  send(envelope: McpxEnvelope): void {
    if (this.#closed) throw new Error(`link of "${this.participantId}" is closed`);
    const socket = this.#socket;
    if (!this.connected || socket === undefined) throw new Error(`link of "${this.participantId}" is not connected (reconnecting)`);
    socket.send(JSON.stringify(envelope));
  }

  subscribe(listener: (envelope: unknown) => void, onClose?: () => void): () => void {
    this.#listeners.add(listener);
    if (onClose !== undefined) this.#closeListeners.add(onClose);
    return () => {
      this.#listeners.delete(listener);
      if (onClose !== undefined) this.#closeListeners.delete(onClose);
    };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#socket?.close(1000, "bye");
    this.#dropRoster();
    this.#listeners.clear();
    const onClose = [...this.#closeListeners];
    this.#closeListeners.clear();
    for (const listener of onClose) guard(() => listener());
  }

  /** Opens one socket; resolves on its welcome, rejects when it closes first. */
  async open(): Promise<void> {
    const token = typeof this.#options.token === "function" ? await this.#options.token() : this.#options.token;
    const url = new URL(String(this.#options.url));
    url.searchParams.set("topic", this.#options.topic);
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, maxPayload: this.#maxFrame, perMessageDeflate: false });
    this.#socket = socket;
    return new Promise<void>((resolve, reject) => {
      let welcomed = false;
      socket.on("message", (data, isBinary) => {
        if (isBinary) return;
        const text = String(data);
        let value: unknown;
        try {
          value = parseJsonWithin(text, this.#maxDepth);
        } catch {
          return; // not JSON, or nested deeper than maxJsonDepth: nothing a gateway should send; ignored
        }
        // A key given twice is no envelope (mcpx-envelope.ts duplicateTopLevelKey): ignored as well.
        if (duplicateTopLevelKey(text) !== undefined) return;
        if (!welcomed && isObject(value) && value["from"] === MCPX_GATEWAY_SENDER && value["kind"] === "system/welcome") {
          const welcome = welcomeOf(value["payload"]);
          if (welcome === undefined) return;
          if (this.participantId !== "" && welcome.you.id !== this.participantId) {
            socket.close(1000, "a different participant");
            return reject(new Error(`the gateway welcomed "${welcome.you.id}", this link is "${this.participantId}"`));
          }
          welcomed = true;
          this.#welcomed = true;
          this.#attempt = 0;
          this.participantId = welcome.you.id;
          this.capabilities = welcome.you.capabilities;
          this.shape = this.#options.shape ?? welcome.shape ?? "v0.1";
          for (const p of welcome.participants) this.#join(p);
          resolve();
          return;
        }
        this.#receive(value);
      });
      socket.on("error", () => undefined); // the close event follows and decides
      socket.on("close", (code, reason) => {
        if (this.#socket === socket) this.#socket = undefined;
        this.#welcomed = false;
        if (!welcomed) return reject(new McpxConnectError(code, String(reason)));
        this.#lost(code);
      });
    });
  }

  #receive(value: unknown): void {
    if (isObject(value) && value["from"] === MCPX_GATEWAY_SENDER) {
      if (value["kind"] === "system/presence") {
        const presence = presenceOf(value["payload"]);
        if (presence !== undefined && presence.participant.id !== this.participantId) {
          if (presence.event === "join") this.#join(presence.participant);
          else if (this.#roster.delete(presence.participant.id)) this.#emit("leave", presence.participant);
        }
      } else if (value["kind"] === "system/error" && isObject(value["payload"])) {
        const payload = value["payload"];
        const correlation = value["correlation_id"];
        guard(() => this.#options.onError?.({ error: String(payload["error"]), message: String(payload["message"]), correlation_id: typeof correlation === "string" ? correlation : undefined }));
      }
    }
    for (const listener of [...this.#listeners]) guard(() => listener(value));
  }

  #join(participant: McpxParticipantInfo): void {
    if (participant.id === this.participantId) return;
    this.#roster.set(participant.id, participant);
    this.#emit("join", participant);
  }

  #emit(event: "join" | "leave", participant: McpxParticipantInfo): void {
    for (const listener of [...this.#presence]) guard(() => listener(event, participant));
  }

  /** Everyone left, as far as we know: the conversations hear it as the gateway's leave. */
  #dropRoster(): void {
    for (const participant of [...this.#roster.values()]) {
      this.#roster.delete(participant.id);
      this.#emit("leave", participant);
      const leave: McpxEnvelope = { protocol: MCPX_PROTOCOL, id: `local-leave-${participant.id}`, from: MCPX_GATEWAY_SENDER, kind: "system/presence", payload: { event: "leave", participant: { id: participant.id } } };
      for (const listener of [...this.#listeners]) guard(() => listener(leave));
    }
  }

  #lost(code: number): void {
    this.#dropRoster();
    if (this.#closed) return;
    if (this.#options.reconnect === false || NO_RECONNECT.has(code)) return this.close();
    // The same token would be refused: only a token function can bring a fresh one.
    if (code === TOKEN_EXPIRED && typeof this.#options.token !== "function") return this.close();
    this.#schedule();
  }

  #schedule(): void {
    const base = Math.min(this.#maxBackoff, this.#initialBackoff * 2 ** Math.min(this.#attempt, 20));
    this.#attempt++;
    const delay = Math.round(base / 2 + Math.random() * (base / 2));
    this.#timer = setTimeout(() => {
      if (this.#closed) return;
      this.open().catch((error: unknown) => {
        if (error instanceof McpxConnectError && NO_RECONNECT.has(error.code)) return this.close();
        if (!this.#closed && this.#socket === undefined) this.#schedule();
      });
    }, delay);
  }
}

function guard(run: () => void): void {
  try {
    run();
  } catch {
    // A listener's failure is its own: the others still hear, the link keeps running.
  }
}

/**
 * Joins a topic through an MCPx gateway: resolves with the link once the gateway's welcome has
 * come (our id and capabilities), or rejects (McpxConnectError: 1008 for a missing topic, a bad
 * token or a full topic).
 */
export async function connectMcpxLink(options: McpxWsLinkOptions): Promise<McpxWsLink> {
  const link = new WsLink(options);
  const timeoutMs = numberOption("connectTimeoutMs", options.connectTimeoutMs, 10_000, { min: 1 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      link.open(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no welcome from the MCPx gateway within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    link.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return link;
}
