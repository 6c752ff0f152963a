// What the stateless HTTP server (2026-07-28 and later revisions of its era) knows of the revision
// it serves: generated data, the server's `httpBinding` (HTTP in the catalog). The runtime knows
// no revision's facts itself.

import type { Connection } from "../../core/endpoint.js";
import type { Transport } from "../../core/protocol.js";

/** What createHttpHandler needs to know of a revision: generated data (HTTP_RULES in server.ts). */
export interface HttpBinding {
  /** The revision the server was generated from (the version of the server's own internal requests). */
  readonly revision: string;
  /** Protocol versions the server serves; anything else is UnsupportedProtocolVersion. */
  readonly supportedVersions: readonly string[];
  /** The request `_meta` keys (RULES.requestMeta) and those every request MUST carry (the schema's `required`). */
  readonly meta: {
    readonly protocolVersion: string;
    readonly clientCapabilities: string;
    readonly clientInfo: string;
    readonly required: readonly string[];
  };
  /** Method → the params field the `Mcp-Name` header mirrors (HTTP, Standard Request Headers). */
  readonly nameSources: { readonly [method: string]: string };
  /** The tool methods whose `x-mcp-header` annotations map arguments to `Mcp-Param-*` headers; null: none. */
  readonly toolHeaders: { readonly list: string; readonly call: string; readonly arguments: string } | null;
  /** The long-lived stream request (subscriptions/listen) a draining handler ends with a `retry` hint; null or absent: none. */
  readonly listen?: string | null | undefined;
  /** The schema's codes of HeaderMismatchError, UnsupportedProtocolVersionError, MissingRequiredClientCapabilityError. */
  readonly errors: {
    readonly headerMismatch: number;
    readonly unsupportedProtocolVersion: number;
    readonly missingRequiredClientCapability: number | null;
  };
}

/** A server createHttpHandler can serve: a generated McpServer of a revision with the stateless HTTP binding. */
export interface HttpServable {
  openConnection(transport: Transport): Connection;
  readonly httpBinding: HttpBinding;
  /**
   * How many times the list a method answers has changed (McpServer.listChanges); undefined, or
   * absent: the server cannot tell, and what was read of the list is kept for its `ttlMs`.
   */
  listChanges?(method: string): number | undefined;
}
