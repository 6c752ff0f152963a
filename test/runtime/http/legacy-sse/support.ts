/**
 * Helpers of the HTTP+SSE (2024-11-05) wire tests: a generated 2024-11-05 McpServer behind
 * createLegacySseHandler on a real node:http server at 127.0.0.1:0, on either face of the handler
 * (test/helpers/faces.ts: the native node:http face, or the web face through the bridge), and a
 * plain reader of an SSE stream (text split at blank lines, independent of the runtime's parser).
 */
import type { Server } from "node:http";
import * as R from "../../../generated/2024-11-05/index.js";
import { listen, type Face } from "../../../helpers/faces.js";

export { R };
export { describeFaces, FACES, type Face } from "../../../helpers/faces.js";

export interface Served {
  readonly face: Face;
  readonly server: R.McpServer;
  readonly handler: R.LegacySseHandler;
  readonly http: Server;
  /** http://127.0.0.1:port (no path). */
  readonly origin: string;
  readonly errors: Error[];
  readonly events: R.CancellationEvent[];
  close(): Promise<void>;
}

const open: Served[] = [];

/** Closes every server a test started (afterEach). */
export async function closeAll(): Promise<void> {
  for (const s of open.splice(0)) await s.close();
}

/** A 2024-11-05 server with `options` behind the HTTP+SSE handler with `handlerOptions`, served on `face`. */
export async function serve(face: Face, options: R.McpServerOptions = {}, handlerOptions: R.LegacySseHandlerOptions = {}): Promise<Served> {
  const errors: Error[] = [];
  const events: R.CancellationEvent[] = [];
  const server = new R.McpServer({ logger: null, onCancellation: (e) => events.push(e), onError: (e) => errors.push(e), ...options });
  const handler = R.createLegacySseHandler(server, { onError: (e) => errors.push(e), ...handlerOptions });
  const listening = await listen(face, handler);
  const served: Served = {
    face,
    server,
    handler,
    http: listening.http,
    origin: listening.origin,
    errors,
    events,
    close: async () => {
      await server.close().catch(() => undefined);
      await listening.close();
    },
  };
  open.push(served);
  return served;
}

/** One SSE event as the wire carried it: its `event:` (default "message") and its data lines joined. */
export interface WireEvent {
  readonly event: string;
  readonly data: string;
}

/** An open SSE stream read event by event. */
export interface Stream {
  readonly response: Response;
  /** The next event (comments skipped); rejects when the stream ends first. */
  next(): Promise<WireEvent>;
  /** The next `message` event's JSON. */
  nextMessage(): Promise<Record<string, unknown>>;
  /** Resolves when the server ends the stream (or it breaks). */
  readonly ended: Promise<void>;
  close(): void;
}

/** GETs `url` and reads its body as SSE. */
export async function openStream(url: string, headers: Record<string, string> = {}): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const queue: WireEvent[] = [];
  let waiting: ((done: boolean) => void) | undefined;
  let done = false;
  let endedResolve!: () => void;
  const ended = new Promise<void>((resolve) => (endedResolve = resolve));
  void (async () => {
    try {
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = block.split("\n").filter((l) => !l.startsWith(":"));
          if (lines.length === 0) continue;
          const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
          const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
          queue.push({ event, data });
          waiting?.(false);
        }
      }
    } catch {
      // broken: same as ended for the reader
    }
    done = true;
    endedResolve();
    waiting?.(true);
  })();
  const next = async (): Promise<WireEvent> => {
    for (;;) {
      const event = queue.shift();
      if (event !== undefined) return event;
      if (done) throw new Error("the stream ended");
      await new Promise<boolean>((resolve) => (waiting = resolve));
      waiting = undefined;
    }
  };
  const nextMessage = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const event = await next();
      if (event.event === "message") return JSON.parse(event.data) as Record<string, unknown>;
    }
  };
  return { response, next, nextMessage, ended, close: () => controller.abort() };
}

/** POSTs `body` (an object is serialised) to `url`; status and text back. */
export async function post(url: string, body: unknown, headers: Record<string, string> = { "content-type": "application/json" }): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Opens a session: the stream, and the absolute URL of its message endpoint. */
export async function session(served: Served, headers: Record<string, string> = {}): Promise<{ stream: Stream; endpoint: string }> {
  const stream = await openStream(`${served.origin}/sse`, headers);
  const first = await stream.next();
  if (first.event !== "endpoint") throw new Error(`first event ${first.event}`);
  return { stream, endpoint: new URL(first.data, `${served.origin}/sse`).href };
}

export const INITIALIZE = { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "legacy-wire-test", version: "1.0.0" } };
