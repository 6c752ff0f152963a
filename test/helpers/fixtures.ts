/**
 * Messages and `_meta` the runtime tests share: the 2026-07-28 request `_meta` keys
 * (basic/index, "Request metadata"), a request `_meta` built from them, initialize params of the
 * 2025-era handshake, and a notifications/cancelled. Plain JSON, typed loosely on purpose: tests
 * send them raw, including through revisions whose generated types differ.
 */

/** The reserved `_meta` keys of 2026-07-28 (one spelling for every test). */
export const META_KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

export const MODERN_VERSION = "2026-07-28";

export interface RequestMetaOptions {
  /** The client capabilities (default: none, `{}`). */
  readonly capabilities?: object;
  /** The client's name and version, when the test wants clientInfo sent. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly protocolVersion?: string;
}

/** A 2026-07-28 request `_meta`: protocol version and client capabilities, and clientInfo when given. */
export function requestMeta(options: RequestMetaOptions = {}): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [META_KEYS.protocolVersion]: options.protocolVersion ?? MODERN_VERSION,
    [META_KEYS.clientCapabilities]: options.capabilities ?? {},
  };
  if (options.clientInfo !== undefined) meta[META_KEYS.clientInfo] = options.clientInfo;
  return meta;
}

/** The `_meta` every 2026-07-28 request needs at least: version, and no capabilities. */
export const BASIC_META = {
  [META_KEYS.protocolVersion]: MODERN_VERSION,
  [META_KEYS.clientCapabilities]: {},
} as const;

/** initialize params of the 2025-era handshake, for a client named `clientName`. */
export const initializeParams = (clientName = "test-client", protocolVersion = "2025-11-25") =>
  ({
    protocolVersion,
    capabilities: {},
    clientInfo: { name: clientName, version: "1.0.0" },
  }) as const;

export const INITIALIZE_PARAMS = initializeParams();

/** A notifications/cancelled for `requestId`, with `reason` when given. */
export const cancelled = (requestId: unknown, reason?: unknown) => ({
  jsonrpc: "2.0" as const,
  method: "notifications/cancelled" as const,
  params: reason === undefined ? { requestId } : { requestId, reason },
});
