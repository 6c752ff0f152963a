// What the era router knows of the eras: the handlers it routes to, as it asks them what they
// serve, and the few facts every era agrees on that tell a request's era (2026-07-28
// basic/versioning, "Backward Compatibility with Initialization-Based Versions"; the session
// revisions' basic/lifecycle, "Version Negotiation"). Pure.

import { isObject } from "../../core/json.js";
import type { CallState, Pipeline } from "./pipeline.js";
import type { ServedHandler } from "./web-face.js";

/** What every handler the router routes to offers: its faces and the pipeline it runs (the router runs its admission before reading a body). */
export interface Routed extends ServedHandler {
  readonly httpPipeline: Pipeline<CallState>;
}

/**
 * A session-era handler the router can send a session's requests to: createSessionHttpHandler's
 * answer (any revision's copy of it), which says whether a session id is one of its own, which
 * protocol versions its sessions may negotiate, and its path.
 */
export interface SessionRoute extends Routed {
  hasSession(sessionId: string): boolean;
  /**
   * The protocol version of a session this handler does not hold, as the registry every instance
   * shares records it (sessionRegistry); undefined: unknown there, no registry, or it failed (the
   * handler then answers for itself). Optional: a handler without it routes by hasSession alone.
   */
  sessionVersion?(sessionId: string): Promise<string | undefined>;
  readonly versions: readonly string[];
  readonly path: string | undefined;
}

/** The stateless handler the router sends the modern era's POSTs to: createHttpHandler's answer, with its binding. */
export interface ModernRoute extends Routed {
  readonly httpBinding: { readonly meta: { readonly protocolVersion: string }; readonly supportedVersions: readonly string[] };
  readonly path: string | undefined;
}

/** The HTTP+SSE handler of 2024-11-05 (createLegacySseHandler), which names the two paths it owns. */
export interface LegacySseRoute extends Routed {
  readonly ssePath: string;
  readonly messagesPath: string;
}

/** What tells the eras apart, from the handlers' generated bindings (the router knows no revision by name). */
export interface EraClaims {
  /** The request `_meta` key of the protocol version in the stateless era (the modern handler's). */
  readonly metaKey: string;
  /** The protocol versions of the session era (those the session handlers' sessions may negotiate). */
  readonly legacyVersions: ReadonlySet<string>;
}

/** Protocol versions are dates (basic/versioning of every revision: "YYYY-MM-DD"). */
export const VERSION_FORMAT: RegExp = /^\d{4}-\d{2}-\d{2}$/;
/** True when the body is one JSON-RPC message whose params `_meta` names a protocol version (any value). */
function claimsMetaVersion(body: unknown, metaKey: string): boolean {
  if (!isObject(body)) return false;
  const params = body["params"];
  if (!isObject(params)) return false;
  const meta = params["_meta"];
  return isObject(meta) && Object.hasOwn(meta, metaKey);
}

/**
 * Whether a POST outside any session belongs to the stateless era: it claims the per-request
 * mechanism by its `_meta` version (`claims.metaKey`), or by an `MCP-Protocol-Version` header that
 * names no session-era version (`claims.legacyVersions`; an unknown one included: only the modern
 * handler answers it, with UnsupportedProtocolVersion). A malformed claim (a modern header and no
 * `_meta`) is modern too, so that it gets the modern errors. A request with neither, such as a
 * 2025 client's `initialize`, which carries no version header and no `_meta` key, is of the
 * session era.
 */
export function claimsModernEra(protocolVersionHeader: string | null, body: unknown, claims: EraClaims): boolean {
  if (claimsMetaVersion(body, claims.metaKey)) return true;
  return protocolVersionHeader !== null && !claims.legacyVersions.has(protocolVersionHeader.trim());
}

/**
 * The session revision an `initialize` asking for `requested` opens its session on: the newest
 * of `revisions` (sorted newest first) not newer than it; the newest when it asks for an older or
 * an unknown version (Lifecycle, Version Negotiation: the server answers "with another protocol
 * version it supports", which "SHOULD be the latest"). Pure.
 */
export function sessionRevisionFor(requested: unknown, revisions: readonly string[]): string | undefined {
  if (typeof requested === "string" && VERSION_FORMAT.test(requested)) {
    const fit = revisions.find((revision) => revision <= requested);
    if (fit !== undefined) return fit;
  }
  return revisions[0];
}
