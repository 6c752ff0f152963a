// One URL for every protocol era: a web-standard handler, `(request: Request) => Promise<Response>`,
// that hands each request to the handler of the era it belongs to. It serves no MCP itself and
// knows no revision's schema: it is given the handlers (each made from a generated McpServer of
// its revision) and routes by the few facts every era agrees on.
//
// Spec pages: 2026-07-28 basic/versioning, "Backward Compatibility with Initialization-Based
// Versions" ("A dual-era server selects its behavior from how the client opens: a request carrying
// modern per-request `_meta` is served statelessly according to this revision. An `initialize`
// request selects legacy semantics, scoped to ... the session (HTTP)"; "A dual-era server MAY serve
// both eras concurrently on the same endpoint"); basic/lifecycle of the session revisions,
// "Version Negotiation"; 2025-03-26 basic/transports, "Backwards Compatibility" (the HTTP+SSE
// transport of 2024-11-05 on its own endpoints).

import { isObject } from "../core/json.js";
import { describeValue, ErrorCode } from "../core/protocol.js";
import { numberOption } from "../core/options.js";
import { report } from "./fetch.js";
import { readRequestBody } from "./guards.js";
import type { HttpBinding, HttpHandler, HttpRequestInfo } from "./http-server.js";

/**
 * A session-era handler the router can send a session's requests to: createSessionHttpHandler's
 * answer (any revision's copy of it), which says whether a session id is one of its own and
 * which protocol versions its sessions may negotiate (its server's generated sessionBinding).
 */
export interface SessionRoute {
  (request: Request, info?: HttpRequestInfo): Promise<Response>;
  hasSession(sessionId: string): boolean;
  readonly versions: readonly string[];
}

/**
 * The stateless handler the router sends the modern era's POSTs to: createHttpHandler's answer,
 * with its server's generated binding (the request `_meta` key that names a protocol version).
 */
export interface ModernRoute {
  (request: Request, info?: HttpRequestInfo): Promise<Response>;
  readonly httpBinding: Pick<HttpBinding, "meta" | "supportedVersions">;
}

/** What tells the eras apart, from the handlers' generated bindings (the router knows no revision by name). */
export interface EraClaims {
  /** The request `_meta` key of the protocol version in the stateless era (the modern handler's). */
  readonly metaKey: string;
  /** The protocol versions of the session era (those the session handlers' sessions may negotiate). */
  readonly legacyVersions: ReadonlySet<string>;
}

/** The HTTP+SSE handler of 2024-11-05 (createLegacySseHandler) and the two paths it owns. */
export interface LegacySseRoute {
  readonly handler: HttpHandler;
  /** The path of its GET stream (default "/sse", as createLegacySseHandler's ssePath). */
  readonly ssePath?: string | undefined;
  /** The path of its POSTed messages (default "/messages", as createLegacySseHandler's messagesPath). */
  readonly messagesPath?: string | undefined;
}

/** What createEraRouter routes to; at least one of `modern` and `sessions`. */
export interface EraRouterOptions {
  /** The 2026-07-28 (or later) handler: createHttpHandler of that revision's McpServer. */
  readonly modern?: ModernRoute | undefined;
  /**
   * The session handlers (createSessionHttpHandler), keyed by the session revision each serves
   * (`"2025-11-25"`, `"2025-06-18"`, `"2025-03-26"`): `initialize` opens its session on the
   * newest of them not newer than the version the client asks for (the newest one when the
   * client asks for an older or an unknown version: Lifecycle, Version Negotiation).
   */
  readonly sessions?: { readonly [revision: string]: SessionRoute } | undefined;
  /** The 2024-11-05 HTTP+SSE handler, served on its own two paths (every other path is the others'). */
  readonly legacySse?: LegacySseRoute | undefined;
  /** Largest POST body the router reads to learn its era, in bytes (default 4 MiB, at least 128); a larger one is refused with 413. */
  readonly maxBodyBytes?: number | undefined;
  /** A handler that throws instead of answering (the request is answered 500). */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** Protocol versions are dates (basic/versioning of every revision: "YYYY-MM-DD"). */
const VERSION_FORMAT = /^\d{4}-\d{2}-\d{2}$/;
const SESSION_HEADER = "mcp-session-id";
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const JSON_HEADERS = { "content-type": "application/json" } as const;

const decoder = new TextDecoder("utf-8", { fatal: true });

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

function reject(status: number, message: string, headers?: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: status === 500 ? ErrorCode.InternalError : ErrorCode.InvalidRequest, message } }), {
    status,
    headers: { ...JSON_HEADERS, ...headers },
  });
}

function pathOption(name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value === "string" && value.startsWith("/")) return value;
  throw new TypeError(`legacySse.${name} must be a path starting with "/", got ${describeValue(value)}`);
}

function sessionTable(value: unknown): [string, SessionRoute][] {
  if (value === undefined) return [];
  if (!isObject(value)) throw new TypeError(`sessions must be an object of session handlers keyed by revision, got ${describeValue(value)}`);
  const entries = Object.entries(value);
  for (const [revision, handler] of entries) {
    const route = handler as Partial<SessionRoute>;
    if (typeof handler !== "function" || typeof route.hasSession !== "function" || !Array.isArray(route.versions)) {
      throw new TypeError(`sessions[${describeValue(revision)}] must be a handler from createSessionHttpHandler (with hasSession and versions), got ${describeValue(handler)}`);
    }
    // The key is the revision whose McpServer the handler serves: one of the versions it negotiates.
    if (!VERSION_FORMAT.test(revision) || !route.versions.includes(revision)) {
      throw new TypeError(`sessions: ${describeValue(revision)} is not a session revision of its handler (its sessions negotiate ${route.versions.join(", ")})`);
    }
  }
  // Newest first: sessionRevisionFor takes the first one not newer than the client's version.
  return entries.sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0)) as [string, SessionRoute][];
}

/**
 * One handler for every era on one URL:
 *
 * - the 2024-11-05 HTTP+SSE paths (`legacySse`) go to that handler, whatever the method;
 * - a request naming an `Mcp-Session-Id` goes to the session handler that owns the session (none
 *   does: the newest session handler, which answers 404 as for any ended session), and so do GET
 *   and DELETE (without a session id, to the newest session handler, which refuses them);
 * - a POST outside any session that claims 2026-07-28 (claimsModernEra) goes to `modern`;
 * - an `initialize` opens a session on the session revision sessionRevisionFor picks; any other
 *   POST goes to the newest session handler (a session is required there, or it is stateless).
 *
 * Without `modern`, every request is the session era's; without `sessions`, every request goes to
 * `modern`, which answers a legacy `initialize` with UnsupportedProtocolVersion naming the
 * versions it serves. The router reads a POST body (bounded by `maxBodyBytes`) to learn its era
 * and hands on a request with the same bytes, which the handler reads again under its own
 * bounds. Each handler keeps its own rules: Host/Origin, `authenticate`, `maxBodyBytes`.
 */
export function createEraRouter(options: EraRouterOptions): HttpHandler {
  if (typeof options !== "object" || options === null) throw new TypeError(`createEraRouter needs options ({ modern, sessions, legacySse }), got ${describeValue(options)}`);
  const modern = options.modern;
  if (modern !== undefined && (typeof modern !== "function" || !isObject(modern.httpBinding) || !isObject(modern.httpBinding.meta))) {
    throw new TypeError(`modern must be a handler from createHttpHandler (with httpBinding), got ${describeValue(modern)}`);
  }
  const sessions = sessionTable(options.sessions);
  const revisions = sessions.map(([revision]) => revision);
  const byRevision = new Map(sessions);
  if (modern === undefined && sessions.length === 0) throw new TypeError("createEraRouter needs a modern handler, session handlers, or both");
  const legacy = options.legacySse;
  if (legacy !== undefined && (typeof legacy !== "object" || legacy === null || typeof legacy.handler !== "function")) {
    throw new TypeError(`legacySse must be { handler, ssePath?, messagesPath? } with a handler from createLegacySseHandler, got ${describeValue(legacy)}`);
  }
  const legacyPaths = legacy === undefined ? new Set<string>() : new Set([pathOption("ssePath", legacy.ssePath, "/sse"), pathOption("messagesPath", legacy.messagesPath, "/messages")]);
  const maxBodyBytes = numberOption("maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, { min: 128 });
  const newest: HttpHandler | undefined = sessions[0]?.[1];
  const claims: EraClaims = {
    metaKey: modern?.httpBinding.meta.protocolVersion ?? "",
    legacyVersions: new Set(sessions.flatMap(([, handler]) => handler.versions)),
  };

  /** The session handler that owns `id`; the newest one (which answers 404) when none does. */
  const ownerOf = (id: string): HttpHandler | undefined => sessions.find(([, handler]) => handler.hasSession(id))?.[1] ?? newest;

  const route = async (request: Request, info: HttpRequestInfo | undefined): Promise<Response> => {
    if (legacy !== undefined && legacyPaths.has(new URL(request.url).pathname)) return legacy.handler(request, info);
    const sessionId = request.headers.get(SESSION_HEADER);
    // Only the session era has sessions, GET streams and DELETE.
    if (sessionId !== null) return (ownerOf(sessionId) ?? modern!)(request, info);
    if (request.method !== "POST" || newest === undefined) return (newest ?? modern!)(request, info);
    if (modern === undefined) return newest(request, info);

    const bytes = await readRequestBody(request, maxBodyBytes);
    if (!(bytes instanceof Uint8Array)) return reject(bytes.status, bytes.message, bytes.headers);
    let body: { readonly parsed: unknown } | undefined;
    try {
      body = { parsed: JSON.parse(decoder.decode(bytes)) };
    } catch {
      body = undefined; // the handler it goes to answers its own Parse error
    }
    // The body is read: the handler gets a request with the same bytes, which it reads under its
    // own bounds (its maxBodyBytes may be smaller than the router's), not the parsed value.
    const forwarded = new Request(request.url, { method: request.method, headers: request.headers, body: bytes as Uint8Array<ArrayBuffer>, signal: request.signal });
    if (claimsModernEra(request.headers.get("mcp-protocol-version"), body?.parsed, claims)) return modern(forwarded, info);
    const message = body?.parsed;
    const initialize = isObject(message) && message["method"] === "initialize" && "id" in message;
    if (!initialize) return newest(forwarded, info);
    const params = message["params"];
    const revision = sessionRevisionFor(isObject(params) ? params["protocolVersion"] : undefined, revisions);
    return byRevision.get(revision!)!(forwarded, info);
  };

  return async (request, info) => {
    try {
      return await route(request, info);
    } catch (error) {
      report(options.onError, error);
      return reject(500, "Internal error");
    }
  };
}
