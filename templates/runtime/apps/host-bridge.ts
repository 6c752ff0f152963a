// The Host's bridge to an MCP server (MCP Apps, io.modelcontextprotocol/ui): the App's tools/call
// and resource reads, received over postMessage, are sent on to the server through a generated
// McpClient of any revision, with the handler's ctx.signal as the call's signal. A cancel in the
// App (notifications/cancelled over postMessage) aborts ctx.signal, which cancels the client's
// request (notifications/cancelled to the server), whose handler's ctx.signal then aborts.
// Browser-safe: types only from core/.

import type { AnyRequestHandler, HandlerContext } from "../core/endpoint.js";
import type { JsonObject } from "../core/json.js";

/** The request options the bridge passes: the App's request's signal. */
export interface BridgeCallOptions {
  signal?: AbortSignal | undefined;
}

/**
 * The calls the bridge makes, as every generated McpClient has them (method syntax: the revision's
 * own param types are accepted). Only `callTool` and `readResource` are required; the list
 * requests are bridged where the client has them.
 */
export interface BridgedMcpClient {
  callTool(params: never, options?: BridgeCallOptions): Promise<unknown>;
  readResource(params: never, options?: BridgeCallOptions): Promise<unknown>;
  listResources?(params?: never, options?: BridgeCallOptions): Promise<unknown>;
  listResourceTemplates?(params?: never, options?: BridgeCallOptions): Promise<unknown>;
  listPrompts?(params?: never, options?: BridgeCallOptions): Promise<unknown>;
}

/** App request method → the client method that sends it on. Data: one row per bridged request. */
const BRIDGED: ReadonlyArray<readonly [method: string, call: keyof BridgedMcpClient]> = [
  ["tools/call", "callTool"],
  ["resources/read", "readResource"],
  ["resources/list", "listResources"],
  ["resources/templates/list", "listResourceTemplates"],
  ["prompts/list", "listPrompts"],
];

/**
 * Handlers of the App's requests that go to the MCP server through `client`: one per row of
 * BRIDGED the client has. Each passes the App's params as they are and `ctx.signal`, and answers
 * the server's result; an error of the server's (McpError) reaches the App as the same error.
 */
export function bridgeToMcpClient(client: BridgedMcpClient): Record<string, AnyRequestHandler> {
  const handlers: Record<string, AnyRequestHandler> = {};
  for (const [method, call] of BRIDGED) {
    const send = client[call] as ((params: JsonObject | undefined, options: BridgeCallOptions) => Promise<unknown>) | undefined;
    if (typeof send !== "function") continue;
    handlers[method] = (params: JsonObject | undefined, ctx: HandlerContext) => send.call(client, params, { signal: ctx.signal });
  }
  return handlers;
}

/** The bridged request methods (for the host's capabilities and the docs). */
export const BRIDGED_METHODS: readonly string[] = BRIDGED.map(([method]) => method);
