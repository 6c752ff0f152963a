// The Streamable HTTP server of the session revisions (2025-03-26, 2025-06-18, 2025-11-25), bound
// to a generated McpServer. `initialize` opens a session (`Mcp-Session-Id`), served by one
// long-lived connection of the server (session.ts), so the endpoint's rules (cancellation by
// notifications/cancelled, in-flight ids) apply to the whole session as they do over stdio. One
// URL takes POST (one message; a request is answered with JSON or an SSE stream carrying the
// messages about it first), GET (the session's own stream for the rest, resume.ts) and DELETE (the
// end of the session).
//
// Spec pages: basic/transports.mdx of each revision, "Streamable HTTP" (abbreviated "HTTP" below:
// Sending Messages to the Server, Listening for Messages from the Server, Multiple Connections,
// Resumability and Redelivery, Session Management, Protocol Version Header), and
// basic/utilities/cancellation.mdx. What differs between the protocol versions a session may
// negotiate is the server's generated `sessionBinding` (versions.ts).

import { isObject } from "../../core/json.js";
import { earlyCancelOptions } from "../../core/early-cancels.js";
import { numberOption } from "../../core/options.js";
import { describeValue, type JsonObject, type RequestId } from "../../core/protocol.js";
import { choiceOption, flagOption, pathOption, readServerOptions, type HttpServerOptions } from "../server/options.js";
import { authenticateStage, CallState, envelopeStage, hostOriginStage, runPipeline, type MethodTable, type Pipeline, type Stage } from "../server/pipeline.js";
import { pathStage } from "../server/routes.js";
import { DRAINING, Drain, drainMsOf, type CloseOptions } from "../server/drain.js";
import { SessionTable } from "../server/session-table.js";
import { withFaces, type ServedHandler } from "../server/web-face.js";
import { EventStoreBudget } from "./event-budget.js";
import type { EventStore } from "./event-store.js";
import { SessionLookup, type NamedSession } from "./lookup.js";
import { SessionRoutes, type RouteSettings } from "./routes.js";
import { SESSION_HEADER, type Session, type SessionShared } from "./session.js";
import { sessionRegistryOption, type SessionRegistry } from "./session-registry.js";
import { VersionTable, type SessionServable } from "./versions.js";

export type { SessionBinding, SessionServable, SessionVersionRules } from "./versions.js";

/** Options of createSessionHttpHandler (the shared ones: HttpServerOptions; maxStreamBufferBytes defaults to 1 MiB). */
export interface SessionHttpHandlerOptions extends HttpServerOptions {
  /** The path of the MCP endpoint; another path is answered 404. Default: any path. */
  readonly path?: string | undefined;
  /**
   * Sessions: true (default), or false for the stateless mode of HTTP, Session Management ("a
   * server MAY assign a session ID"): no `Mcp-Session-Id`, every POST served on its own
   * connection, no GET stream, no DELETE, and a cancel only reaches a request of its own POST.
   */
  readonly sessions?: boolean | undefined;
  /** Sessions open at most (default 1024); one more `initialize` is refused with 503 naming this option. */
  readonly maxSessions?: number | undefined;
  /**
   * Sessions open at most of one principal (`authenticate`'s `id`; default 64), so that one
   * client cannot take every session; one more `initialize` is refused with 503 naming this
   * option, and no other principal notices. Without `authenticate` each session is its own
   * (only maxSessions bounds them).
   */
  readonly maxSessionsPerPrincipal?: number | undefined;
  /**
   * A session with nothing in flight and no stream open for this long (ms) ends, as by DELETE
   * (default 1 800 000, 30 minutes; Infinity: never). A session whose handlers wait on the
   * client (an elicitation, a sampling request unanswered) counts as idle: it ends sessionIdleMs
   * after the client last sent anything, or was last asked something, and its handlers abort.
   */
  readonly sessionIdleMs?: number | undefined;
  /** Requests of one session in flight at most (default 64); one more is refused with 429 naming this option. */
  readonly maxInFlightPerSession?: number | undefined;
  /**
   * Where the events of SSE streams are kept for resumption (HTTP, Resumability and
   * Redelivery). Default: an InMemoryEventStore per session, bounded by `maxStoredEvents`; a
   * store of yours is shared by every session (stream ids name their session); null: none (no
   * event ids, no priming events, no resumption).
   */
  readonly eventStore?: EventStore | null | undefined;
  /**
   * Cancels for request ids not (yet) seen that a session remembers (default 64): two POSTs may
   * arrive in either order, and a request that arrives after its cancel is cancelled at once
   * (its handler never runs, no response is sent). One more forgets the oldest.
   */
  readonly maxEarlyCancels?: number | undefined;
  /** How long (ms) such a cancel is remembered (default 10 000); a request arriving later runs. */
  readonly earlyCancelWindowMs?: number | undefined;
  /** Events the default store keeps per session (default 1000; its bytes are bounded at 4 MiB). */
  readonly maxStoredEvents?: number | undefined;
  /**
   * Bytes of event data the default stores keep over all sessions together, counted as UTF-16
   * code units × 2 (default 256 MiB; Infinity: no bound beyond each session's 4 MiB). Past it
   * the oldest events of all sessions are evicted first; a resumption from one is answered 400.
   */
  readonly maxEventStoreBytes?: number | undefined;
  /** The `retry:` (ms) sent with priming events: how long a client waits before it resumes (default 1000). */
  readonly retryMs?: number | undefined;
  /**
   * "auto" (default): a request is answered with JSON unless the server sends something about it
   * first, which turns the answer into an SSE stream; "sse": every request's answer is an SSE
   * stream (with a priming event where the revision has them, so the server may close it early
   * with closeStream and the client resumes it).
   */
  readonly responses?: "auto" | "sse" | undefined;
  /**
   * Sessions shared by every instance behind a load balancer (sessions/session-registry.ts): a
   * session opened here is recorded there, and an id this instance does not hold is looked up
   * there and continued here. Default none: an unknown id is 404.
   */
  readonly sessionRegistry?: SessionRegistry | undefined;
}

/** The handler, with what a server does with its sessions besides answering requests. */
export type SessionHttpHandler = ServedHandler & {
  /** Sessions open now. */
  readonly sessionCount: number;
  /** Bytes of event data the default stores keep now, over all sessions (at most maxEventStoreBytes). */
  readonly storedEventBytes: number;
  /** The protocol versions its sessions may negotiate, oldest first (the server's sessionBinding). */
  readonly versions: readonly string[];
  /** The path it serves; undefined: any. */
  readonly path: string | undefined;
  /** The pipeline the era router runs (its admission before it reads a body). */
  readonly httpPipeline: Pipeline<SessionState>;
  /**
   * Sends a notification on a session's GET stream (a `…/list_changed`, a resource update); with
   * no GET stream open it is only stored for a resumption. False: no such session.
   */
  notify(sessionId: string, method: string, params?: JsonObject): boolean;
  /**
   * Closes the SSE stream of a request without ending the request (2025-11-25 HTTP, Sending
   * Messages to the Server: the server MAY close the connection before the response, and the
   * client resumes with GET and `Last-Event-ID`). Only where the stream has an event id to
   * resume from; false otherwise (the stream stays open).
   */
  closeStream(sessionId: string, requestId: RequestId): boolean;
  /** Whether a session of this id is open here (how createEraRouter finds the handler of a session). */
  hasSession(sessionId: string): boolean;
  /** The protocol version the shared sessionRegistry records for a session (how createEraRouter routes one another instance opened); undefined: none, no registry, or it failed. */
  sessionVersion(sessionId: string): Promise<string | undefined>;
  /** Whether close() has begun: every new request is refused (503, Retry-After). */
  readonly draining: boolean;
  /**
   * Closes the handler: from now on every new request is refused (503 with Retry-After and
   * `Connection: close`: a load balancer or the client sends it again, to another instance);
   * GET streams end at once with a `retry` hint (their clients resume elsewhere with
   * Last-Event-ID); the requests in flight get up to `drainMs` to finish (the client's answers
   * to them and its cancels still reach them), then every session ends here, its handlers
   * aborted. With a sessionRegistry the sessions live on in it (another instance continues
   * them; a request still unanswered then is 503, not 404); without one they are over.
   * A drainMs that is not an integer from 0 to 2 147 483 647 is a RangeError.
   */
  close(options?: CloseOptions): Promise<void>;
};

/** What the stages learn of one request: the session its Mcp-Session-Id names, if any. */
export class SessionState extends CallState implements NamedSession {
  session: Session | undefined = undefined;
}

const DEFAULTS = {
  maxSessions: 1024,
  // A sixteenth of maxSessions (a user's many clients, IDE windows and agents, fit; 16 principals
  // at their quota are needed to fill the server), and as many as its listen streams may be.
  maxSessionsPerPrincipal: 64,
  sessionIdleMs: 30 * 60 * 1000,
  maxInFlightPerSession: 64,
  maxStoredEvents: 1000,
  retryMs: 1000,
  maxStreamBufferBytes: 1024 * 1024,
} as const;


/** POST one message (or a batch); GET the session's stream; DELETE the session (HTTP, Sending Messages 1-2, Listening 1, Session Management). */
const STATEFUL: MethodTable = {
  GET: { accept: "sse", body: false },
  POST: { contentType: "application/json", accept: "both", body: true },
  DELETE: { body: false },
};
/** Stateless (sessions: false): POST only; there is no session to stream or end. */
const STATELESS: MethodTable = { POST: STATEFUL["POST"]! };

function eventStoreOption(value: unknown): EventStore | null | undefined {
  if (value === undefined || value === null) return value;
  if (isObject(value) && typeof value["storeEvent"] === "function" && typeof value["replayEventsAfter"] === "function") return value as unknown as EventStore;
  throw new TypeError(`eventStore must be an EventStore (storeEvent, replayEventsAfter) or null, got ${describeValue(value)}`);
}

/** The options read into what every session shares; the settings the pipeline and the routes need. */
function readOptions(server: SessionServable, options: SessionHttpHandlerOptions, drain: Drain) {
  const settings = readServerOptions(options, DEFAULTS);
  const registry = sessionRegistryOption(options.sessionRegistry);
  const idleMs = numberOption("sessionIdleMs", options.sessionIdleMs, DEFAULTS.sessionIdleMs, { min: 1, infinity: true });
  const shared: SessionShared = {
    server,
    versions: new VersionTable(server.sessionBinding),
    table: new SessionTable<Session>({
      maxSessions: numberOption("maxSessions", options.maxSessions, DEFAULTS.maxSessions, { min: 1, infinity: true }),
      maxSessionsPerPrincipal: numberOption("maxSessionsPerPrincipal", options.maxSessionsPerPrincipal, DEFAULTS.maxSessionsPerPrincipal, { min: 1, infinity: true }),
      idleMs,
    }),
    store: eventStoreOption(options.eventStore),
    maxStoredEvents: numberOption("maxStoredEvents", options.maxStoredEvents, DEFAULTS.maxStoredEvents, { min: 1, infinity: true }),
    eventBudget: new EventStoreBudget({ maxBytes: options.maxEventStoreBytes }, "maxEventStoreBytes"),
    retryMs: numberOption("retryMs", options.retryMs, DEFAULTS.retryMs, { min: 0 }),
    limits: { keepAliveMs: settings.keepAliveMs, maxBuffered: settings.maxStreamBufferBytes },
    sseAlways: choiceOption("responses", options.responses, ["auto", "sse"], "auto") === "sse",
    onError: settings.onError,
    earlyCancels: earlyCancelOptions(options),
    outlives: registry !== undefined,
  };
  const routes: RouteSettings = {
    stateful: flagOption("sessions", options.sessions, true),
    maxInFlight: numberOption("maxInFlightPerSession", options.maxInFlightPerSession, DEFAULTS.maxInFlightPerSession, { min: 1, infinity: true }),
    draining: () => drain.draining,
  };
  return { settings, shared, routes, idleMs, path: pathOption("path", options.path, undefined), registry };
}

/**
 * While the handler drains, a request is refused (503) unless it is a POST of a session held here
 * (it may be the client's answer to a request of the server, or a cancel, for work in flight here:
 * a request among it is refused by the POST route, once its body says so), or it names a session
 * no longer held here while there is no registry: that session ended with this server (404).
 */
function drainStage(drain: Drain, shared: SessionShared): Stage<SessionState> {
  return {
    name: "drain",
    run(call) {
      if (!drain.draining) return undefined;
      const id = call.headers.get(SESSION_HEADER);
      if (id === null) return DRAINING;
      if (shared.table.get(id) !== undefined) return call.method === "POST" ? undefined : DRAINING;
      return shared.outlives ? DRAINING : undefined;
    },
  };
}

/** close({ drainMs }): refuse new requests, end the GET streams, wait for what is in flight, then end every session here. */
async function drainSessions(shared: SessionShared, drain: Drain, drainMs: number): Promise<void> {
  if (drain.start()) for (const session of shared.table.values()) session.endGetStream();
  const inFlight = (): number => {
    let count = 0;
    for (const session of shared.table.values()) count += session.requests.size;
    return count;
  };
  await drain.settle(() => inFlight() === 0, drainMs);
  await shared.table.closeAll();
}

/**
 * The Streamable HTTP handler of a generated McpServer of a session revision (2025-03-26,
 * 2025-06-18, 2025-11-25): POST, GET and DELETE on one URL, sessions opened by `initialize`, each
 * served by its own connection of the server. Serve it with any fetch-style runtime, or with
 * node:http through toNodeListener (its native face). Options are validated here.
 */
export function createSessionHttpHandler(server: SessionServable, options: SessionHttpHandlerOptions = {}): SessionHttpHandler {
  if (!isObject(server) || typeof server.openConnection !== "function") throw new TypeError("createSessionHttpHandler needs a generated McpServer (openConnection)");
  const drain = new Drain();
  const { settings, shared, routes, idleMs, path, registry } = readOptions(server, options, drain);
  const lookup = new SessionLookup(shared, registry, idleMs);
  const serve = new SessionRoutes(shared, lookup, routes).byMethod;
  const pipeline: Pipeline<SessionState> = {
    admission: [
      drainStage(drain, shared),
      ...(path === undefined ? [] : [pathStage([path])]),
      hostOriginStage(settings.guards),
      authenticateStage(settings.authenticate, settings.logger),
      envelopeStage(routes.stateful ? STATEFUL : STATELESS, "the MCP endpoint"),
      // Stateless: no session to name (an Mcp-Session-Id is ignored).
      ...(routes.stateful ? [lookup.stage()] : []),
    ],
    settings,
    state: () => new SessionState(),
    serve: (call, state) => serve[call.method]!(call, state),
  };
  const table = shared.table;
  const handler = withFaces(
    { serveCall: (call) => runPipeline(pipeline, call) },
    {
      versions: shared.versions.versions,
      path,
      httpPipeline: pipeline,
      notify(sessionId: string, method: string, params?: JsonObject): boolean {
        if (typeof method !== "string" || method === "") throw new TypeError(`notify: method must be a non-empty string, got ${describeValue(method)}`);
        if (params !== undefined && !isObject(params)) throw new TypeError(`notify: params must be an object, got ${describeValue(params)}`);
        const session = table.get(sessionId);
        if (session === undefined) return false;
        session.notify(method, params);
        return true;
      },
      closeStream(sessionId: string, requestId: RequestId): boolean {
        return table.get(sessionId)?.closeStream(requestId) ?? false;
      },
      hasSession(sessionId: string): boolean {
        const session = table.get(sessionId);
        return session !== undefined && !session.ended;
      },
      sessionVersion: (sessionId: string): Promise<string | undefined> => lookup.recordedVersion(sessionId),
      // The registry's removal notices are heard until the drain is over (a DELETE on another instance still ends a session here).
      close: (closeOptions?: CloseOptions): Promise<void> => drainSessions(shared, drain, drainMsOf(closeOptions)).finally(() => lookup.stopWatching()),
    },
  );
  // sessionCount and storedEventBytes are read live (Object.assign would copy a getter's value once).
  Object.defineProperty(handler, "sessionCount", { get: () => table.size, enumerable: true });
  Object.defineProperty(handler, "storedEventBytes", { get: () => shared.eventBudget.bytes, enumerable: true });
  Object.defineProperty(handler, "draining", { get: () => drain.draining, enumerable: true });
  return handler as SessionHttpHandler;
}
