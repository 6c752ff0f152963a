/**
 * Which era a request to the dual-era endpoint belongs to (basic/versioning, "Backward
 * Compatibility with Initialization-Based Versions": "A request carrying modern per-request
 * `_meta` is served statelessly according to this revision. An `initialize` request selects
 * legacy semantics, scoped to ... the session (HTTP)").
 *
 * Modern (2026-07-28) is a POST that claims the per-request mechanism and belongs to no session:
 * its `MCP-Protocol-Version` header names a version that is not one of the session-based ones
 * (an unknown version is modern too: it gets UnsupportedProtocolVersionError, which only the
 * modern path speaks), or its params `_meta` carry `io.modelcontextprotocol/protocolVersion`.
 * A malformed claim (a modern header with no `_meta`, a `_meta` version that contradicts the
 * header) is modern as well, so that it gets the modern errors (HeaderMismatch, -32602).
 *
 * Everything else is legacy (2025-11-25 and earlier): GET and DELETE (standalone SSE streams and
 * session ends exist only there), any request naming an `Mcp-Session-Id`, and a request without a
 * claim, such as a 2025 client's `initialize`, which carries no version header and no `_meta` key.
 */

/** The protocol versions that open a session with `initialize` (the legacy era). */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);

const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/** What the router sees of a request: its HTTP method, the headers it routes by, its parsed JSON body. */
export interface RoutedRequest {
  readonly method: string;
  /** The `MCP-Protocol-Version` header, if any (the first one of a repeated header). */
  readonly protocolVersion: string | undefined;
  readonly sessionId: string | undefined;
  /** The parsed POST body (anything JSON.parse gave), undefined for other methods. */
  readonly body: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** True when the body is one JSON-RPC message whose params `_meta` names a protocol version (any value). */
function claimsMetaVersion(body: unknown): boolean {
  if (!isObject(body)) return false;
  const params = body["params"];
  if (!isObject(params)) return false;
  const meta = params["_meta"];
  return isObject(meta) && Object.hasOwn(meta, META_PROTOCOL_VERSION);
}

export function isModern(request: RoutedRequest): boolean {
  if (request.method !== "POST" || request.sessionId !== undefined) return false;
  if (claimsMetaVersion(request.body)) return true;
  return request.protocolVersion !== undefined && !LEGACY_VERSIONS.has(request.protocolVersion.trim());
}
