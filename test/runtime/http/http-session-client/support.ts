/**
 * Helpers of the session HTTP client tests: a scripted server (a `fetch` stub that records every
 * HTTP request and answers it with what the test's script returns) and SSE responses whose body
 * the test writes, ends or breaks event by event.
 */
import * as R from "../../../generated/2025-11-25/index.js";

export { waitFor, within } from "../../../helpers/async.js";

/** One HTTP request the transport made. */
export interface Call {
  readonly method: string;
  /** Header names lower-cased. */
  readonly headers: Record<string, string>;
  /** The JSON body of a POST, else undefined. */
  readonly body: Record<string, unknown> | undefined;
  readonly signal: AbortSignal | undefined;
}

/** The script: the Response for a call (the n-th of its kind counts from 0). */
export type Script = (call: Call, index: number) => Response | Promise<Response>;

/** A `fetch` that records each call and answers it with `script`. */
export function scriptedFetch(script: Script): { fetch: R.FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: R.FetchLike = async (_input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = typeof init.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const call: Call = { method: init.method ?? "GET", headers, body, signal: init.signal ?? undefined };
    calls.push(call);
    return script(call, calls.length - 1);
  };
  return { fetch, calls };
}

export const SESSION = "session-1";

/** A JSON response (with the session header unless `sessionId` is null). */
export function json(message: unknown, status = 200, sessionId: string | null = SESSION): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (sessionId !== null) headers["mcp-session-id"] = sessionId;
  return new Response(JSON.stringify(message), { status, headers });
}

export const accepted = (): Response => new Response(null, { status: 202 });

/** An SSE response whose body the test drives; `cancelled` resolves when the reader cancels it. */
export interface Sse {
  readonly response: Response;
  write(text: string): void;
  /** A graceful end of the stream. */
  end(): void;
  /** The connection breaks. */
  fail(): void;
  readonly cancelled: Promise<void>;
  readonly isCancelled: () => boolean;
}

export function sse(): Sse {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelledFlag = false;
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      cancelledFlag = true;
      onCancel();
    },
  });
  const encoder = new TextEncoder();
  const guard = (f: () => void) => {
    try {
      f();
    } catch {
      // already closed or cancelled
    }
  };
  return {
    response: new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "mcp-session-id": SESSION } }),
    write: (text) => guard(() => controller.enqueue(encoder.encode(text))),
    end: () => guard(() => controller.close()),
    fail: () => guard(() => controller.error(new Error("connection reset"))),
    cancelled,
    isCancelled: () => cancelledFlag,
  };
}

/** A response whose body is `chunks` (each enqueued apart), left open unless `close`; `cancelled` tells whether the reader cancelled it. */
export function streamed(chunks: readonly string[], init: ResponseInit, close = false) {
  let cancelled = false;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (close) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body, init), cancelled: () => cancelled };
}

/** One SSE event carrying a JSON-RPC message. */
export const event = (message: unknown, id?: string): string => `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "session-test", version: "1.0.0" } },
} as const;

export const initializeResult = (protocolVersion = "2025-06-18") => ({
  jsonrpc: "2.0",
  id: 0,
  result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "scripted", version: "1.0.0" } },
});

/** A transport with onmessage/onerror recorded. */
export function openTransport(fetch: R.FetchLike, options: Partial<R.SessionHttpClientTransportOptions> = {}) {
  const transport = R.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch, listen: false, ...options });
  const received: Record<string, unknown>[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => received.push(m as unknown as Record<string, unknown>);
  transport.onerror = (e) => errors.push(e);
  return { transport, received, errors };
}

/** Sends initialize and notifications/initialized through `transport`. */
export async function handshake(transport: R.SessionHttpClientTransport): Promise<void> {
  await transport.send(INITIALIZE as unknown as R.JsonRpcMessage);
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

/** A script answering initialize (JSON, session id) and notifications (202), else `rest`. */
export function sessionScript(rest: Script, protocolVersion = "2025-06-18"): Script {
  return (call, index) => {
    if (call.method === "POST" && call.body?.["method"] === "initialize") return json({ ...initializeResult(protocolVersion), id: call.body["id"] });
    if (call.method === "POST" && call.body !== undefined && !("id" in call.body)) return accepted();
    return rest(call, index);
  };
}
