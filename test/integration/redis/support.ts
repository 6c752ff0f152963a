/**
 * What the Redis multi-instance tests send: raw 2026-07-28 requests (the headers and `_meta` the
 * HTTP binding asks for, the Tasks extension and elicitation declared) and raw 2025-11-25 session
 * requests, over real HTTP; and a reader of SSE answers.
 */
import { META_KEYS, requestMeta } from "../../helpers/fixtures.js";
import { sseEvents as rawSseEvents } from "../../helpers/sse-events.js";

export const TASKS = "io.modelcontextprotocol/tasks";
const NAME_FIELDS: Readonly<Record<string, string>> = { "tools/call": "name", "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" };
let ids = 0;

export interface Answer {
  readonly status: number;
  readonly instance: string | null;
  readonly headers: Headers;
  /** The JSON-RPC response (a JSON body, or the response event of an SSE body). */
  readonly message: Record<string, unknown> | undefined;
}

/** The SSE events of a body, as they come (test/helpers/sse-events.ts): their `id` and parsed `data` (undefined when empty); events with neither are skipped. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ id: string | undefined; data: unknown }> {
  for await (const event of rawSseEvents(body)) {
    if (event.data === "" && event.id === undefined) continue;
    yield { id: event.id, data: event.data === "" ? undefined : JSON.parse(event.data) };
  }
}

async function answerOf(response: Response): Promise<Answer> {
  const base = { status: response.status, instance: response.headers.get("x-instance"), headers: response.headers };
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream") && response.body !== null) {
    for await (const event of sseEvents(response.body)) {
      const data = event.data as Record<string, unknown> | undefined;
      if (data !== undefined && "id" in data && ("result" in data || "error" in data)) return { ...base, message: data };
    }
    return { ...base, message: undefined };
  }
  const text = await response.text();
  return { ...base, message: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

/** The headers of a 2026-07-28 request (HTTP, Standard Request Headers). */
export function modernHeaders(method: string, params: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  const field = NAME_FIELDS[method];
  if (field !== undefined && typeof params[field] === "string") headers["mcp-name"] = params[field];
  return headers;
}

export const modernMeta = () => requestMeta({ capabilities: { elicitation: {}, extensions: { [TASKS]: {} } } });

/** One 2026-07-28 request to `${origin}/mcp`, answered. */
export async function modern(origin: string, method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const response = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: modernHeaders(method, params),
    body: JSON.stringify({ jsonrpc: "2.0", id: ++ids, method, params: { ...params, _meta: modernMeta() } }),
  });
  return answerOf(response);
}

/** One 2025-11-25 session message to `${origin}/mcp-2025` (a request is answered; a notification gets 202). */
export async function legacy(origin: string, sessionId: string | undefined, message: Record<string, unknown>, signal?: AbortSignal): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (sessionId !== undefined) {
    headers["mcp-session-id"] = sessionId;
    headers["mcp-protocol-version"] = "2025-11-25";
  }
  const response = await fetch(`${origin}/mcp-2025`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", ...message }), ...(signal === undefined ? {} : { signal }) });
  return answerOf(response);
}

export const legacyRequest = (method: string, params: Record<string, unknown> = {}) => ({ id: ++ids, method, params });

export { META_KEYS };
