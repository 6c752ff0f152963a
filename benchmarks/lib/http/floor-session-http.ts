// The session-era HTTP floor: the same exchanges as the session servers with no MCP at all, and
// the least a session can be: an id in a map. initialize answers with a random Mcp-Session-Id;
// echo answers the body's id with the echo result as one JSON body; slow opens an event stream,
// writes the progress event, and waits; notifications/cancelled for it aborts its signal and ends
// its stream; DELETE ends the session and its slow calls. What fetch, node:http and the bridge
// cost on their own: no MCP server on the same bridge can beat it.
import { randomUUID } from "node:crypto";
import { ECHO_RESULT, type Probe } from "../probe.js";
import type { WebHandler } from "./node-bridge.js";

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };
const encoder = new TextEncoder();

interface Message {
  readonly id?: number;
  readonly method?: string;
  readonly params?: { readonly name?: unknown; readonly requestId?: unknown; readonly _meta?: { readonly progressToken?: unknown } };
}

/** A session: the stop function of each of its slow calls, by request id. */
type Session = Map<unknown, () => void>;

function slow(probe: Probe, session: Session, message: Message): Response {
  const handler = new AbortController();
  probe.handlerStarted(handler.signal);
  const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: message.params?._meta?.progressToken, progress: 0 } };
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stop = (): void => {
    session.delete(message.id);
    handler.abort("cancelled");
    stream?.close();
  };
  session.set(message.id, stop);
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      stream = controller;
      controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(progress)}\n\n`));
    },
    // The client went away: a 2025-era disconnect is not a cancel, so the call stays (as a session server's does).
    cancel: () => {
      stream = undefined;
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

export function sessionFloorHandler(probe: Probe): WebHandler {
  const sessions = new Map<string, Session>();
  return async (request) => {
    const id = request.headers.get("mcp-session-id");
    if (id === null) {
      const message = (await request.json()) as Message;
      const sessionId = randomUUID();
      sessions.set(sessionId, new Map());
      const result = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "floor", version: "1.0.0" } };
      return Response.json({ jsonrpc: "2.0", id: message.id, result }, { headers: { "mcp-session-id": sessionId } });
    }
    const session = sessions.get(id);
    if (session === undefined) return new Response(null, { status: 404 });
    if (request.method === "DELETE") {
      sessions.delete(id);
      for (const stop of [...session.values()]) stop();
      return new Response(null, { status: 200 });
    }
    const message = (await request.json()) as Message;
    if (message.id === undefined) {
      if (message.method === "notifications/cancelled") session.get(message.params?.requestId)?.();
      return new Response(null, { status: 202 });
    }
    if (message.params?.name === "slow") return slow(probe, session, message);
    return Response.json({ jsonrpc: "2.0", id: message.id, result: ECHO_RESULT });
  };
}
