// The MCPx v0.1 WebSocket gateway (SPEC §6.2): `GET <path>?topic=<name>` with
// `Authorization: Bearer <JWT>` (or `?token=`), one JSON envelope per text frame. It attaches to a
// node:http server's `upgrade` event; the rules (welcome, presence, `from` check, reserved kinds,
// capabilities, delivery, bounds, other gateways through a GatewayBus) are the hub's
// (transports/mcpx-hub.ts). A missing topic, a bad or expired token or a full topic closes the
// socket with 1008, as the v0.1 reference gateway does; a participant whose token expires while
// it is connected is closed then, with 4401 `token_expired` (a link with a token function
// reconnects with a fresh token).

import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { numberOption } from "../../core/options.js";
import { createMcpxHub, MCPX_CLOSE, type McpxHub, type McpxHubOptions } from "../../transports/mcpx-hub.js";
import type { McpxRefusalReason } from "../../transports/mcpx-envelope.js";
import { participantOf, type McpxTokenVerifier } from "./token.js";

export interface McpxWsGatewayOptions extends McpxHubOptions {
  /** Turns a bearer token into `{ participantId, topic, capabilities }` (createMcpxTokenVerifier). */
  verify: McpxTokenVerifier;
  /** The WebSocket path (default "/ws"). */
  path?: string | undefined;
  /** A socket still closing this long after its close frame was queued is destroyed (default 1000 ms; ≥ 10). */
  closeGraceMs?: number | undefined;
}

export interface McpxWsGateway {
  readonly hub: McpxHub;
  /** Detaches from the server and closes every participant's socket (1001). */
  close(): Promise<void>;
}

const DEFAULT_MAX_FRAME = 1024 * 1024;
/** Frames up to this many times maxFrameBytes get a system/error; larger ones close the socket (1009) before they are buffered whole. */
const HARD_FRAME_FACTOR = 2;

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days); a later moment is reached in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/** Calls `then` at `at` (ms since the epoch), however far off; returns the function that cancels it. */
function atTime(at: number, then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const arm = (): void => {
    const wait = at - Date.now();
    timer = setTimeout(wait > MAX_TIMER_MS ? arm : then, Math.min(Math.max(wait, 0), MAX_TIMER_MS));
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}

/** The bearer token of an upgrade request: the Authorization header, else `?token=`. */
function tokenOf(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === "string" ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? url.searchParams.get("token") ?? undefined;
}

const text = (data: RawData): string => (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)).toString("utf8");

/** Attaches an MCPx gateway to `server` (see the module comment). */
export function attachMcpxGateway(server: Server, options: McpxWsGatewayOptions): McpxWsGateway {
  if (typeof options.verify !== "function") throw new TypeError("attachMcpxGateway needs a token verifier (verify)");
  const path = options.path ?? "/ws";
  const graceMs = numberOption("closeGraceMs", options.closeGraceMs, 1000, { min: 10 });
  const hub = createMcpxHub(options);
  const maxFrame = options.maxFrameBytes ?? DEFAULT_MAX_FRAME;
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxFrame * HARD_FRAME_FACTOR, perMessageDeflate: false });
  const sockets = new Set<WebSocket>();

  const refused = (reason: McpxRefusalReason, topic: string, participant: string, detail: string) => {
    try {
      options.onRefusal?.({ reason, topic, participant, detail });
    } catch {
      // An observer's bug must not break the gateway.
    }
  };

  const closeSocket = (socket: WebSocket, code: number, reason: string) => {
    socket.resume(); // read the peer's close frame (a socket refused before it joined is paused)
    socket.close(code, reason);
    // A peer that does not read never completes the close handshake: its socket is destroyed.
    setTimeout(() => socket.terminate(), graceMs).unref();
  };

  async function accept(socket: WebSocket, request: IncomingMessage, url: URL): Promise<void> {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.pause(); // nothing is read before the participant is known
    const topic = url.searchParams.get("topic") ?? "";
    if (topic === "") {
      refused("missing_topic", "", "", "no ?topic=");
      return closeSocket(socket, MCPX_CLOSE.policy, "missing_topic");
    }
    const token = tokenOf(request, url);
    let grant;
    try {
      if (token === undefined) throw new Error("no bearer token");
      grant = await options.verify(token);
      if (grant.topic !== topic) throw new Error(`the token is for topic "${grant.topic}"`);
      const expiresAt = grant.expiresAt;
      if (expiresAt !== undefined && !(typeof expiresAt === "number" && expiresAt > Date.now())) throw new Error("the token has expired");
    } catch (error) {
      refused("unauthorized", topic, "", error instanceof Error ? error.message : String(error));
      return closeSocket(socket, MCPX_CLOSE.policy, "unauthorized");
    }
    if (socket.readyState !== socket.OPEN) return;
    const member = await hub.join(topic, participantOf(grant), {
      send: (frame) => socket.send(frame),
      bufferedBytes: () => socket.bufferedAmount,
      close: (code, reason) => closeSocket(socket, code, reason),
    });
    if (member === undefined) return;
    // Closed while it joined: no close event is coming for the listeners below.
    if (socket.readyState !== socket.OPEN) return member.leave();
    // The grant ends with its token: the socket closes then (the timer goes with the socket).
    const expiresAt = grant.expiresAt;
    const stopExpiry =
      expiresAt === undefined
        ? undefined
        : atTime(expiresAt, () => {
            refused("token_expired", topic, member.id, "closed 4401");
            closeSocket(socket, MCPX_CLOSE.tokenExpired, "token_expired");
            member.leave();
          });
    socket.on("message", (data) => member.receive(text(data)));
    socket.on("close", () => {
      stopExpiry?.();
      member.leave();
    });
    socket.on("error", (error) => {
      if ((error as { code?: string }).code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") refused("frame_too_large", topic, member.id, "closed 1009");
      member.leave();
    });
    socket.resume();
  }

  const onUpgrade = (request: IncomingMessage, duplex: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? "/", "http://gateway.invalid");
    if (url.pathname !== path) {
      // Another upgrade listener may own this path; alone, we answer it.
      if (server.listenerCount("upgrade") === 1) duplex.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    wss.handleUpgrade(request, duplex, head, (socket) => {
      socket.on("error", () => socket.terminate()); // before join: nothing else listens yet
      accept(socket, request, url).catch(() => socket.terminate());
    });
  };
  server.on("upgrade", onUpgrade);

  return {
    hub,
    async close() {
      server.off("upgrade", onUpgrade);
      await hub.close();
      for (const socket of sockets) closeSocket(socket, MCPX_CLOSE.goingAway, "gateway closing");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
