// The HTTP client side, identical for both servers: plain fetch (Node's undici) with the same
// body and headers. A 2026-07-28 tools/call carries the per-request _meta (protocolVersion,
// clientCapabilities, clientInfo) and the standard headers (MCP-Protocol-Version, Mcp-Method,
// Mcp-Name), as the spec's Streamable HTTP transport and basic/index pages require.
import type { ToolName } from "../contender.js";

export const HTTP_REVISION = "2026-07-28";

const META = {
  "io.modelcontextprotocol/protocolVersion": HTTP_REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench-client", version: "1.0.0" },
};

/** The POST of tools/call `name`; with a progressToken when `progress` (the slow tool then streams). */
export function toolsCall(id: number, name: ToolName, progress: boolean, signal?: AbortSignal): RequestInit {
  const _meta = progress ? { ...META, progressToken: id } : META;
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": HTTP_REVISION,
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, _meta } }),
    ...(signal === undefined ? {} : { signal }),
  };
}

/**
 * The JSON-RPC response in a JSON body or the last `data:` of an SSE body (an event with empty
 * data, such as a priming event, is skipped). Shared by every HTTP client of the bench.
 */
export function responseOf(contentType: string, text: string): unknown {
  if (contentType.startsWith("application/json")) return JSON.parse(text);
  const data = text.split("\n").filter((line) => line.startsWith("data:") && line.length > "data:".length + 1);
  const last = data[data.length - 1];
  if (last === undefined) throw new Error(`no data in the event stream: ${text.slice(0, 200)}`);
  return JSON.parse(last.slice("data:".length));
}

/** Throws unless an answer (status, content type, body) is the echo tool's result for request `id`. */
export function checkEcho(id: number, status: number, contentType: string, text: string): void {
  const message = responseOf(contentType, text) as { id?: unknown; result?: { content?: { text?: unknown }[] } };
  if (status !== 200 || message.id !== id || message.result?.content?.[0]?.text !== "ok") {
    throw new Error(`unexpected answer to echo ${id}: ${status} ${text.slice(0, 300)}`);
  }
}

/** One echo call; throws unless the answer is the echo tool's result for this id. */
export async function callEcho(url: string, id: number): Promise<void> {
  const response = await fetch(url, toolsCall(id, "echo", false));
  checkEcho(id, response.status, response.headers.get("content-type") ?? "", await response.text());
}

/**
 * Starts a slow call and resolves once its response is an open event stream and the handler's
 * progress notification has arrived on it: the handler runs and the client is mid-stream. The
 * returned promise settles when the stream ends (after `signal` aborts it).
 */
export async function openSlow(url: string, id: number, signal: AbortSignal): Promise<{ readonly ended: Promise<void> }> {
  const response = await fetch(url, toolsCall(id, "slow", true, signal));
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
  const drain = async (): Promise<void> => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // Aborted: what the storm does.
    }
  };
  return { ended: drain() };
}

/**
 * One tools/call of a registered tool with `args` (the registration rows); throws unless the answer
 * is a success with the text "ok" for this id (a validation failure is no figure).
 */
export async function callRegistered(url: string, id: number, name: string, args: object): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": HTTP_REVISION,
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: META } }),
  });
  const text = await response.text();
  const message = responseOf(response.headers.get("content-type") ?? "", text) as { id?: unknown; result?: { isError?: unknown; content?: { text?: unknown }[] } };
  if (response.status !== 200 || message.id !== id || message.result?.isError === true || message.result?.content?.[0]?.text !== "ok") {
    throw new Error(`unexpected answer to ${name} ${id}: ${response.status} ${text.slice(0, 300)}`);
  }
}
