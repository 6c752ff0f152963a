/**
 * Helpers of the session server's wire tests: a generated 2025-11-25 McpServer behind
 * createSessionHttpHandler on a real node:http server on 127.0.0.1, on either face of the handler
 * (test/helpers/faces.ts: the native node:http face, or the web face through the bridge), raw
 * HTTP requests with exactly the headers a test names, a raw socket for what fetch cannot send,
 * and an SSE reader that hands events over as they arrive.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import * as R from "../../../generated/2025-11-25/index.js";
import { listen, send, type Answer, type Face, type Listening } from "../../../helpers/faces.js";

export { aborted, deferred, settle, waitFor, within } from "../../../helpers/async.js";
export { describeFaces, FACES, type Face } from "../../../helpers/faces.js";

export const LATEST = "2025-11-25";
export const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

export interface Served {
  readonly face: Face;
  readonly server: R.McpServer;
  readonly handler: R.SessionHttpHandler;
  readonly listening: Listening;
  readonly url: string;
  readonly errors: Error[];
  readonly events: R.CancellationEvent[];
  /** The sockets of the GET requests served so far (a test breaks one to break that stream). */
  readonly getSockets: Socket[];
  /** HTTP responses that closed before they were written whole (the client went away), so far. */
  readonly gone: { count: number };
  close(): Promise<void>;
}

/** A server with these handlers behind the session handler with these options, served on `face`. */
export async function serve(face: Face, serverOptions: R.McpServerOptions = {}, options: R.SessionHttpHandlerOptions = {}): Promise<Served> {
  const events: R.CancellationEvent[] = [];
  const errors: Error[] = [];
  const server = new R.McpServer({
    logger: null,
    protocolVersions: VERSIONS,
    onCancellation: (event) => events.push(event),
    onError: (error) => errors.push(error),
    ...serverOptions,
  });
  const handler = R.createSessionHttpHandler(server, { onError: (error) => errors.push(error), ...options });
  const getSockets: Socket[] = [];
  const gone = { count: 0 };
  const listening = await listen(face, handler, {
    wrap: (listener) => (request: IncomingMessage, response: ServerResponse) => {
      if (request.method === "GET") getSockets.push(request.socket);
      response.on("close", () => {
        if (!response.writableFinished) gone.count++;
      });
      listener(request, response);
    },
  });
  return {
    face,
    server,
    handler,
    listening,
    url: listening.url,
    errors,
    events,
    getSockets,
    gone,
    close: async () => {
      await handler.close();
      await listening.close();
    },
  };
}

export { send, type Answer };

/** A response read off a raw socket: its status, its head's header lines (lower-case names), its body. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * A raw HTTP/1.1 request on a node:net socket: exactly these request line and header lines, then
 * `body` (what fetch cannot do: declare a body and not send it). Resolves once a whole response
 * came (its head, and its Content-Length bytes or its last chunk), whatever the client still
 * owes; rejects when the connection ends first.
 */
export function rawRequest(url: string, lines: readonly string[], body = ""): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    let text = "";
    const done = (outcome: RawAnswer | Error): void => {
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    socket.on("connect", () => socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`));
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine, ...headerLines] = text.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = text.slice(end + 4);
      const body = headers["transfer-encoding"] === "chunked" ? unchunk(rest) : rest.length >= Number(headers["content-length"] ?? 0) ? rest : undefined;
      if (body !== undefined) done({ status: Number(statusLine!.split(" ")[1]), headers, body });
    });
    socket.on("error", (error) => done(error));
    socket.on("close", () => done(new Error(`the connection closed before a whole response came: ${JSON.stringify(text)}`)));
  });
}

/** A chunked body (RFC 9112 §7.1) decoded, or undefined while its last chunk has not come. */
function unchunk(text: string): string | undefined {
  let body = "";
  for (let at = 0; ; ) {
    const line = text.indexOf("\r\n", at);
    if (line < 0) return undefined;
    const size = Number.parseInt(text.slice(at, line), 16);
    if (size === 0) return text.startsWith("\r\n", line + 2) ? body : undefined;
    if (text.length < line + 2 + size + 2) return undefined;
    body += text.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}

export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" } as const;

/** Headers of a request in a session (undefined values are left out). */
export function sessionHeaders(sessionId: string | undefined, version: string | undefined = LATEST, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const headers: Record<string, string | undefined> = { ...POST_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": version, ...extra };
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
  return sent;
}

export function post(url: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
  return send(url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

export const CLIENT_INFO = { name: "wire-test", version: "1.0.0" } as const;

/** initialize + notifications/initialized; the session id and the negotiated version. */
export async function open(url: string, version: string = LATEST, headers: Record<string, string> = {}): Promise<{ sessionId: string; answer: Answer }> {
  const answer = await post(
    url,
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: { elicitation: {} }, clientInfo: CLIENT_INFO } },
    { ...POST_HEADERS, ...headers },
  );
  const sessionId = answer.headers.get("mcp-session-id");
  if (answer.status !== 200 || sessionId === null) throw new Error(`initialize answered ${answer.status}: ${answer.text}`);
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...sessionHeaders(sessionId, version), ...headers });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return { sessionId, answer };
}

/** A request in a session, read whole. */
export function rpc(url: string, sessionId: string | undefined, id: number | string, method: string, params: Record<string, unknown> = {}, headers: Record<string, string | undefined> = {}, version: string = LATEST): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", id, method, params }, sessionHeaders(sessionId, version, headers));
}

/** One SSE event as read: its fields as sent. */
export interface Event {
  readonly id: string | undefined;
  readonly retry: string | undefined;
  readonly data: string;
}

/** The events of an SSE body written whole. */
export function parseEvents(text: string): Event[] {
  return text
    .split("\n\n")
    .filter((block) => block.split("\n").some((line) => !line.startsWith(":") && line !== ""))
    .map(parseBlock);
}

function parseBlock(block: string): Event {
  let id: string | undefined;
  let retry: string | undefined;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("id: ")) id = line.slice(4);
    else if (line.startsWith("retry: ")) retry = line.slice(7);
    else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
  }
  return { id, retry, data: data.join("\n") };
}

/** The JSON-RPC messages among events (priming events carry none). */
export function messagesOf(events: readonly Event[]): Record<string, unknown>[] {
  return events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

/** An open response read event by event: `next()` is the next event, or null at the end of the body. */
export interface Stream {
  readonly status: number;
  readonly headers: Headers;
  next(): Promise<Event | null>;
  /** Every event until the end of the body. */
  rest(): Promise<Event[]>;
  /** The client goes away (aborts its request). */
  abort(): void;
}

export async function stream(url: string, init: RequestInit): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let done = false;
  const next = async (): Promise<Event | null> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.split("\n").every((line) => line.startsWith(":") || line === "")) continue; // keep-alive
        return parseBlock(block);
      }
      if (done || reader === undefined) return null;
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        done = true;
        return null;
      }
      if (chunk.done) done = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    next,
    rest: async () => {
      const events: Event[] = [];
      for (let e = await next(); e !== null; e = await next()) events.push(e);
      return events;
    },
    abort: () => controller.abort(),
  };
}

/** A request in a session whose answer is read as a stream. */
export function rpcStream(url: string, sessionId: string | undefined, id: number | string, method: string, params: Record<string, unknown> = {}, version: string = LATEST): Promise<Stream> {
  return stream(url, { method: "POST", headers: sessionHeaders(sessionId, version), body: JSON.stringify({ jsonrpc: "2.0", id, method, params }) });
}

/** The session's GET stream (with Last-Event-ID to resume). */
export function getStream(url: string, sessionId: string, lastEventId?: string, version: string = LATEST): Promise<Stream> {
  const headers: Record<string, string> = { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": version };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  return stream(url, { method: "GET", headers });
}

/** A notification in a session. */
export function notify(url: string, sessionId: string, method: string, params: Record<string, unknown> = {}, version: string = LATEST): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", method, params }, sessionHeaders(sessionId, version));
}

export function deleteSession(url: string, sessionId: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(url, { method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": LATEST, ...headers } });
}

/** A tool result with one text block. */
export function text(value: string): { content: { type: "text"; text: string }[] } {
  return { content: [{ type: "text", text: value }] };
}
