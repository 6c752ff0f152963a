// One URL for every protocol era: a handler that hands each request to the handler of the era it
// belongs to. It serves no MCP itself and knows no revision's schema: it is given the handlers
// (each made from a generated McpServer of its revision) and asks each what it serves (its
// path, its versions, its binding's `_meta` key, its sessions), routing by the few facts every
// era agrees on.
//
// Spec pages: 2026-07-28 basic/versioning, "Backward Compatibility with Initialization-Based
// Versions" ("A dual-era server selects its behavior from how the client opens: a request carrying
// modern per-request `_meta` is served statelessly according to this revision. An `initialize`
// request selects legacy semantics, scoped to ... the session (HTTP)"; "A dual-era server MAY serve
// both eras concurrently on the same endpoint"); basic/lifecycle of the session revisions,
// "Version Negotiation"; 2025-03-26 basic/transports, "Backwards Compatibility" (the HTTP+SSE
// transport of 2024-11-05 on its own endpoints).

import { isObject } from "../../core/json.js";
import { describeValue } from "../../core/protocol.js";
import { report } from "../fetch.js";
import { BodyRouting } from "./body-routing.js";
import type { HttpCall } from "./call.js";
import { VERSION_FORMAT, type EraClaims, type LegacySseRoute, type ModernRoute, type Routed, type SessionRoute } from "./eras.js";
import { failed } from "./pipeline.js";
import { answer, type Answer } from "./replies.js";
import { withFaces, type ServedHandler } from "./web-face.js";

export { claimsModernEra, sessionRevisionFor, type EraClaims, type LegacySseRoute, type ModernRoute, type SessionRoute } from "./eras.js";

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
  /** The 2024-11-05 HTTP+SSE handler (createLegacySseHandler), served on the two paths it names. */
  readonly legacySse?: LegacySseRoute | undefined;
  /** A handler that throws instead of answering (the request is answered 500). */
  readonly onError?: ((error: Error) => void) | undefined;
}

const SESSION_HEADER = "mcp-session-id";
const NOT_FOUND: Answer = Object.freeze({ status: 404, message: "Not Found" });

const isRouted = (value: unknown): value is Routed =>
  typeof value === "function" && typeof (value as Partial<Routed>).serveCall === "function" && isObject((value as Partial<Routed>).httpPipeline);

function sessionTable(value: unknown): [string, SessionRoute][] {
  if (value === undefined) return [];
  if (!isObject(value)) throw new TypeError(`sessions must be an object of session handlers keyed by revision, got ${describeValue(value)}`);
  const entries = Object.entries(value);
  for (const [revision, handler] of entries) {
    const route = handler as Partial<SessionRoute>;
    if (!isRouted(handler) || typeof route.hasSession !== "function" || !Array.isArray(route.versions) || (route.sessionVersion !== undefined && typeof route.sessionVersion !== "function")) {
      throw new TypeError(`sessions[${describeValue(revision)}] must be a handler from createSessionHttpHandler (with hasSession and versions), got ${describeValue(handler)}`);
    }
    // The key is the revision whose McpServer the handler serves: one of the versions it negotiates.
    if (!VERSION_FORMAT.test(revision) || !route.versions!.includes(revision)) {
      throw new TypeError(`sessions: ${describeValue(revision)} is not a session revision of its handler (its sessions negotiate ${route.versions!.join(", ")})`);
    }
  }
  // Newest first: sessionRevisionFor takes the first one not newer than the client's version.
  return entries.sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0)) as [string, SessionRoute][];
}

/**
 * The handler of a session: the one that holds it here, else the one of the protocol version the
 * shared registry records for it (another instance opened it): the handler keyed by that
 * revision, else the newest whose sessions negotiate it. Undefined: none (the newest answers 404).
 */
async function ownerOf(handlers: readonly [string, SessionRoute][], sessionId: string): Promise<SessionRoute | undefined> {
  const holder = handlers.find(([, handler]) => handler.hasSession(sessionId));
  if (holder !== undefined) return holder[1];
  // One handler: the session is its or nobody's, and it reads the registry itself (no read here).
  if (handlers.length < 2) return undefined;
  // Every handler of one instance shares the registry; the first that can ask it does.
  const asking = handlers.find(([, handler]) => typeof handler.sessionVersion === "function");
  const version = await asking?.[1].sessionVersion?.(sessionId);
  if (version === undefined) return undefined;
  return (handlers.find(([revision]) => revision === version) ?? handlers.find(([, handler]) => handler.versions.includes(version)))?.[1];
}

/**
 * One handler for every era on one URL:
 *
 * - the 2024-11-05 HTTP+SSE paths (`legacySse`) go to that handler, whatever the method;
 * - a path none of the Streamable handlers serves (each may name its `path`) is 404;
 * - a request naming an `Mcp-Session-Id` goes to the session handler that owns the session: the
 *   one holding it, else, with a shared sessionRegistry, the one of the revision its record names
 *   (a session another instance opened; ownerOf); none: the newest session handler, which
 *   answers 404 as for any ended session. So do GET
 *   and DELETE (without a session id, to the newest session handler, which refuses them);
 * - a POST that claims 2026-07-28 by its `MCP-Protocol-Version` header goes to `modern`;
 * - any other POST needs its body to say: the router runs the admission of each handler it may go
 *   to (Host/Origin, authenticate, method, …: nothing of the body is read for a request they all
 *   refuse), reads and parses the body once, within the bounds of the handler it then picks, and
 *   hands it over parsed: a POST that claims 2026-07-28 by its `_meta` (claimsModernEra) to
 *   `modern`, an `initialize` to the session revision sessionRevisionFor picks, anything else to
 *   the newest session handler.
 *
 * Without `modern`, every request is the session era's; without `sessions`, every request goes to
 * `modern`, which answers a legacy `initialize` with UnsupportedProtocolVersion naming the
 * versions it serves. Each handler keeps its own rules: Host/Origin, `authenticate`, bounds.
 */
export function createEraRouter(options: EraRouterOptions): ServedHandler {
  if (typeof options !== "object" || options === null) throw new TypeError(`createEraRouter needs options ({ modern, sessions, legacySse }), got ${describeValue(options)}`);
  const modern = options.modern;
  if (modern !== undefined && (!isRouted(modern) || !isObject(modern.httpBinding) || !isObject(modern.httpBinding.meta))) {
    throw new TypeError(`modern must be a handler from createHttpHandler (with httpBinding), got ${describeValue(modern)}`);
  }
  const sessions = sessionTable(options.sessions);
  if (modern === undefined && sessions.length === 0) throw new TypeError("createEraRouter needs a modern handler, session handlers, or both");
  const legacy = options.legacySse;
  if (legacy !== undefined && (!isRouted(legacy) || typeof legacy.ssePath !== "string" || typeof legacy.messagesPath !== "string")) {
    throw new TypeError(`legacySse must be a handler from createLegacySseHandler, got ${describeValue(legacy)}`);
  }
  const legacyPaths: ReadonlySet<string> = new Set(legacy === undefined ? [] : [legacy.ssePath, legacy.messagesPath]);
  const claims: EraClaims = {
    metaKey: modern?.httpBinding.meta.protocolVersion ?? "",
    legacyVersions: new Set(sessions.flatMap(([, handler]) => handler.versions)),
  };
  const serves = (handler: { readonly path: string | undefined }, path: string): boolean => handler.path === undefined || handler.path === path;
  const byBody = new BodyRouting(modern, sessions, claims);

  // Async: whatever a handler's hasSession or serveCall throws is a rejection, answered 500 below.
  const route = async (call: HttpCall): Promise<void> => {
    const path = call.path;
    if (legacy !== undefined && legacyPaths.has(path)) return legacy.serveCall(call);
    const ownPairs = sessions.filter(([, handler]) => serves(handler, path));
    const own = ownPairs.map(([, handler]) => handler);
    const mine = modern !== undefined && serves(modern, path) ? modern : undefined;
    if (own.length === 0 && mine === undefined) return answer(call, NOT_FOUND);
    const newest = own[0];
    // Only the session era has sessions, GET streams and DELETE.
    const sessionId = call.headers.get(SESSION_HEADER);
    if (sessionId !== null && newest !== undefined) return ((await ownerOf(ownPairs, sessionId)) ?? newest).serveCall(call);
    if (newest === undefined) return mine!.serveCall(call);
    if (call.method !== "POST" || mine === undefined) return newest.serveCall(call);
    const header = call.headers.get("mcp-protocol-version");
    if (header !== null && !claims.legacyVersions.has(header.trim())) return mine.serveCall(call);
    return byBody.route(call, newest, [mine, ...own]);
  };

  return withFaces(
    {
      serveCall: (call) =>
        route(call).catch((error: unknown) => {
          report(options.onError, error);
          failed(call, undefined, error);
        }),
    },
    {},
  );
}
