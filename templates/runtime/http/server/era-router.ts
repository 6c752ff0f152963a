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
import { nestsDeeperThan, parseBody, bodyRefusal } from "./body.js";
import { TOO_LARGE, type HttpCall } from "./call.js";
import { admit, failed, serveAdmitted, shareAdmission, type CallState, type Pipeline } from "./pipeline.js";
import { answer, type Answer } from "./replies.js";
import { withFaces, type ServedHandler } from "./web-face.js";

/** What every handler the router routes to offers: its faces and the pipeline it runs (the router runs its admission before reading a body). */
interface Routed extends ServedHandler {
  readonly httpPipeline: Pipeline<CallState>;
}

/**
 * A session-era handler the router can send a session's requests to: createSessionHttpHandler's
 * answer (any revision's copy of it), which says whether a session id is one of its own, which
 * protocol versions its sessions may negotiate, and its path.
 */
export interface SessionRoute extends Routed {
  hasSession(sessionId: string): boolean;
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

/** Protocol versions are dates (basic/versioning of every revision: "YYYY-MM-DD"). */
const VERSION_FORMAT = /^\d{4}-\d{2}-\d{2}$/;
const SESSION_HEADER = "mcp-session-id";
const NOT_FOUND: Answer = Object.freeze({ status: 404, message: "Not Found" });

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

const isRouted = (value: unknown): value is Routed =>
  typeof value === "function" && typeof (value as Partial<Routed>).serveCall === "function" && isObject((value as Partial<Routed>).httpPipeline);

function sessionTable(value: unknown): [string, SessionRoute][] {
  if (value === undefined) return [];
  if (!isObject(value)) throw new TypeError(`sessions must be an object of session handlers keyed by revision, got ${describeValue(value)}`);
  const entries = Object.entries(value);
  for (const [revision, handler] of entries) {
    const route = handler as Partial<SessionRoute>;
    if (!isRouted(handler) || typeof route.hasSession !== "function" || !Array.isArray(route.versions)) {
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

/** A handler's admission for one request: the state to go on with, or its answer. */
type Admission = { readonly handler: Routed; readonly state: CallState; readonly refused: Answer | undefined };

/**
 * One handler for every era on one URL:
 *
 * - the 2024-11-05 HTTP+SSE paths (`legacySse`) go to that handler, whatever the method;
 * - a path none of the Streamable handlers serves (each may name its `path`) is 404;
 * - a request naming an `Mcp-Session-Id` goes to the session handler that owns the session (none
 *   does: the newest session handler, which answers 404 as for any ended session), and so do GET
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
  const revisions = sessions.map(([revision]) => revision);
  const byRevision = new Map(sessions);
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

  /** Admission of each handler the request may go to, in order; stops at none (each is asked once). */
  const admitAll = async (call: HttpCall, handlers: readonly Routed[]): Promise<Admission[]> => {
    const admissions: Admission[] = [];
    // An authenticate the handlers share is asked once for the request, whatever their number.
    shareAdmission(call);
    try {
      for (const handler of handlers) {
        const pipeline = handler.httpPipeline;
        const state = pipeline.state();
        admissions.push({ handler, state, refused: await admit(pipeline.admission, call, state) });
      }
    } catch (error) {
      // One admission failed (a throwing authenticate): what the earlier ones held is theirs again.
      for (const earlier of admissions) earlier.state.held?.release();
      throw error;
    }
    return admissions;
  };

  /** A POST whose era its body says: admitted first, its body read once, handed over parsed. */
  const byBody = async (call: HttpCall, newest: SessionRoute, candidates: readonly Routed[]): Promise<void> => {
    const admissions = await admitAll(call, candidates);
    let chosen: Admission | undefined;
    try {
      const admitted = admissions.filter((a) => a.refused === undefined);
      // Every handler refused it (unauthenticated, a bad Host, …): its body is never read.
      if (admitted.length === 0) return await answer(call, admissions[0]!.refused!);
      const maxBytes = Math.max(...admitted.map((a) => a.handler.httpPipeline.settings.maxBodyBytes));
      const maxDepth = Math.max(...admitted.map((a) => a.handler.httpPipeline.settings.maxJsonDepth));
      const read = await call.readBody(maxBytes);
      const parsed = parseBody(read, maxBytes, maxDepth);
      const target = chooseByBody(call, "value" in parsed ? parsed.value : undefined, "value" in parsed, newest);
      const admission = admissions.find((a) => a.handler === target)!;
      if (admission.refused !== undefined) return await answer(call, admission.refused);
      if (!("value" in parsed)) return await answer(call, parsed);
      // The body within the bounds of the handler it goes to.
      const settings = target.httpPipeline.settings;
      const bytes = read as Uint8Array;
      if (bytes.byteLength > settings.maxBodyBytes) return await answer(call, bodyRefusal(TOO_LARGE, settings.maxBodyBytes));
      if (nestsDeeperThan(bytes, settings.maxJsonDepth)) return await answer(call, { status: 400, message: `Bad Request: the body nests deeper than ${settings.maxJsonDepth} levels (maxJsonDepth)` });
      chosen = admission;
      admission.state.body = parsed.value;
      admission.state.readsBody = false;
      return await serveAdmitted(target.httpPipeline, call, admission.state);
    } finally {
      // What the others held for it (a quota slot) is theirs again.
      for (const other of admissions) if (other !== chosen) other.state.held?.release();
    }
  };

  /** The handler a parsed body goes to (an unparseable one: the newest session handler, which refuses it). */
  const chooseByBody = (call: HttpCall, body: unknown, ok: boolean, newest: SessionRoute): Routed => {
    if (!ok) return newest;
    if (modern !== undefined && claimsModernEra(call.headers.get("mcp-protocol-version"), body, claims)) return modern;
    const initialize = isObject(body) && body["method"] === "initialize" && "id" in body;
    if (!initialize) return newest;
    const params = body["params"];
    return byRevision.get(sessionRevisionFor(isObject(params) ? params["protocolVersion"] : undefined, revisions)!)!;
  };

  // Async: whatever a handler's hasSession or serveCall throws is a rejection, answered 500 below.
  const route = async (call: HttpCall): Promise<void> => {
    const path = call.path;
    if (legacy !== undefined && legacyPaths.has(path)) return legacy.serveCall(call);
    const own = sessions.filter(([, handler]) => serves(handler, path)).map(([, handler]) => handler);
    const mine = modern !== undefined && serves(modern, path) ? modern : undefined;
    if (own.length === 0 && mine === undefined) return answer(call, NOT_FOUND);
    const newest = own[0];
    // Only the session era has sessions, GET streams and DELETE.
    const sessionId = call.headers.get(SESSION_HEADER);
    if (sessionId !== null && newest !== undefined) return (own.find((handler) => handler.hasSession(sessionId)) ?? newest).serveCall(call);
    if (newest === undefined) return mine!.serveCall(call);
    if (call.method !== "POST" || mine === undefined) return newest.serveCall(call);
    const header = call.headers.get("mcp-protocol-version");
    if (header !== null && !claims.legacyVersions.has(header.trim())) return mine.serveCall(call);
    return byBody(call, newest, [mine, ...own]);
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
