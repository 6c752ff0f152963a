// The HTTP floor: the same exchanges with no MCP at all. Echo answers the body's id with the
// echo result as one JSON body; slow opens an event stream, writes the progress event, and waits
// until the client goes away (the Request's signal or the stream's cancel, whichever the bridge
// reports first). What fetch, node:http and the bridge cost on their own: no MCP server on the
// same bridge can beat it.
import { ECHO_RESULT, type Probe } from "../probe.js";
import type { WebHandler } from "./node-bridge.js";

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };

function slow(probe: Probe, progressToken: unknown, request: Request): Response {
  const handler = new AbortController();
  probe.handlerStarted(handler.signal);
  const stop = (): void => handler.abort("client gone");
  request.signal.addEventListener("abort", stop, { once: true });
  const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress: 0 } };
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(progress)}\n\n`)),
    cancel: stop,
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

export function floorHandler(probe: Probe): WebHandler {
  return async (request) => {
    const message = (await request.json()) as { id?: unknown; params?: { name?: unknown; _meta?: { progressToken?: unknown } } };
    if (message.params?.name === "slow") return slow(probe, message.params._meta?.progressToken, request);
    return Response.json({ jsonrpc: "2.0", id: message.id, result: ECHO_RESULT });
  };
}
