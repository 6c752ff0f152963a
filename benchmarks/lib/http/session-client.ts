// The HTTP client of the session-era rows (2025-11-25 Streamable HTTP with sessions), identical
// for every server: plain fetch with the same bodies and headers. A session is opened by
// `initialize` (its `Mcp-Session-Id` comes back in the answer's headers) and
// `notifications/initialized`; every later POST carries `Mcp-Session-Id` and
// `MCP-Protocol-Version` (2025-11-25 basic/transports, Session Management and Protocol Version
// Header). A request is answered with JSON or an SSE stream, whichever the server picks.
import type { ToolName } from "../contender.js";
import { checkEcho, responseOf } from "./client.js";

export const SESSION_REVISION = "2025-11-25";

const INITIALIZE = {
  protocolVersion: SESSION_REVISION,
  capabilities: {},
  clientInfo: { name: "bench-client", version: "1.0.0" },
};

function headers(sessionId: string | undefined): Record<string, string> {
  const base: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": SESSION_REVISION,
  };
  if (sessionId !== undefined) base["mcp-session-id"] = sessionId;
  return base;
}

function post(sessionId: string | undefined, message: object, signal?: AbortSignal): RequestInit {
  return { method: "POST", headers: headers(sessionId), body: JSON.stringify({ jsonrpc: "2.0", ...message }), ...(signal === undefined ? {} : { signal }) };
}

/** Opens a session (initialize, then notifications/initialized); its id. */
export async function openSession(url: string): Promise<string> {
  const response = await fetch(url, post(undefined, { id: 0, method: "initialize", params: INITIALIZE }));
  const text = await response.text();
  const sessionId = response.headers.get("mcp-session-id");
  const message = responseOf(response.headers.get("content-type") ?? "", text) as { result?: { protocolVersion?: unknown } };
  if (response.status !== 200 || sessionId === null || message.result?.protocolVersion !== SESSION_REVISION) {
    throw new Error(`initialize: unexpected answer ${response.status} (session ${String(sessionId)}): ${text.slice(0, 300)}`);
  }
  const initialized = await fetch(url, post(sessionId, { method: "notifications/initialized" }));
  await initialized.text();
  if (initialized.status !== 202) throw new Error(`notifications/initialized: expected 202, got ${initialized.status}`);
  return sessionId;
}

/** Ends a session (DELETE); a session already gone is fine. */
export async function closeSession(url: string, sessionId: string): Promise<void> {
  const response = await fetch(url, { method: "DELETE", headers: headers(sessionId) });
  await response.text();
  if (response.status >= 300 && response.status !== 404) throw new Error(`DELETE: unexpected ${response.status}`);
}

/** The POST of tools/call `name` on a session; with a progressToken when `progress` (the slow tool then streams). */
export function sessionToolsCall(sessionId: string, id: number, name: ToolName, progress: boolean, signal?: AbortSignal): RequestInit {
  const params = progress ? { name, arguments: {}, _meta: { progressToken: id } } : { name, arguments: {} };
  return post(sessionId, { id, method: "tools/call", params }, signal);
}

/** One echo call on a session; throws unless the answer is the echo tool's result for this id. */
export async function callEchoInSession(url: string, sessionId: string, id: number): Promise<void> {
  const response = await fetch(url, sessionToolsCall(sessionId, id, "echo", false));
  checkEcho(id, response.status, response.headers.get("content-type") ?? "", await response.text());
}

/** Sends notifications/cancelled for request `id` of a session (2025-11-25 basic/utilities/cancellation). */
export async function cancelInSession(url: string, sessionId: string, id: number): Promise<void> {
  const response = await fetch(url, post(sessionId, { method: "notifications/cancelled", params: { requestId: id, reason: "bench storm" } }));
  await response.text();
  if (response.status !== 202) throw new Error(`notifications/cancelled ${id}: expected 202, got ${response.status}`);
}

export interface OpenStream {
  /** Settles when the response stream ends (the server closed it, or `signal` aborted it). */
  readonly ended: Promise<void>;
  /** Whether the server ended the stream (false while it is open, or if the client aborted it). */
  readonly endedByServer: () => boolean;
}

/**
 * Starts a slow call with a progressToken on a session and resolves once its response is an
 * event stream and the handler's progress notification has arrived on it: the handler runs and
 * the client is mid-stream.
 */
export async function openSlowInSession(url: string, sessionId: string, id: number, signal: AbortSignal): Promise<OpenStream> {
  const response = await fetch(url, sessionToolsCall(sessionId, id, "slow", true, signal));
  const type = response.headers.get("content-type") ?? "";
  if (response.status !== 200 || !type.startsWith("text/event-stream") || response.body === null) {
    throw new Error(`slow ${id}: expected an event stream, got ${response.status} ${type}: ${(await response.text()).slice(0, 300)}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes('"notifications/progress"')) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`slow ${id}: the stream ended before the handler's progress: ${seen.slice(0, 300)}`);
    seen += decoder.decode(chunk.value, { stream: true });
  }
  let byServer = false;
  const drain = async (): Promise<void> => {
    try {
      while (!(await reader.read()).done);
      byServer = true;
    } catch {
      // Aborted by the client: the cleanup of a stream the server left open.
    }
  };
  return { ended: drain(), endedByServer: () => byServer };
}
