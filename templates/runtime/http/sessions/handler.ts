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
import { numberOption } from "../../core/options.js";
import { describeValue, type JsonObject, type Principal, type RequestId } from "../../core/protocol.js";
import { report as guarded } from "../fetch.js";
import type { HttpCall } from "../server/call.js";
import { choiceOption, flagOption, pathOption, readServerOptions, type HttpServerOptions } from "../server/options.js";
import { authenticateStage, CallState, envelopeStage, hostOriginStage, runPipeline, type MethodTable, type Pipeline, type Stage } from "../server/pipeline.js";
import { tooMany } from "../server/quota.js";
import { answer, type Refusal } from "../server/replies.js";
import { pathStage } from "../server/routes.js";
import { SessionTable } from "../server/session-table.js";
import { withFaces, type ServedHandler } from "../server/web-face.js";
import { serveBatch } from "./batch.js";
import type { EventStore } from "./event-store.js";
import { readMessages, type Read } from "./messages.js";
import { openGet, resume } from "./resume.js";
import { Session, SESSION_HEADER, type SessionShared } from "./session.js";
import { RegistryLink, SessionRegistryError, sessionRegistryOption, type SessionRecord, type SessionRegistry } from "./session-registry.js";
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
   * A session with nothing in flight and no stream open for this long (ms) ends, as by DELETE
   * (default 1 800 000, 30 minutes; Infinity: never).
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
  /** Events the default store keeps per session (default 1000; its bytes are bounded at 4 MiB). */
  readonly maxStoredEvents?: number | undefined;
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
  /** Ends every session (handlers abort, streams close) and refuses new ones from then on. */
  close(): Promise<void>;
};

/** What the stages learn of one request: the session its Mcp-Session-Id names, if any. */
export class SessionState extends CallState {
  session: Session | undefined = undefined;
}

const DEFAULTS = {
  maxSessions: 1024,
  sessionIdleMs: 30 * 60 * 1000,
  maxInFlightPerSession: 64,
  maxStoredEvents: 1000,
  retryMs: 1000,
  maxStreamBufferBytes: 1024 * 1024,
} as const;

const INITIALIZE = "initialize";
const NEEDS_SESSION: Refusal = Object.freeze({ status: 400, message: "Bad Request: the Mcp-Session-Id header is required (initialize opens a session)" });
const NO_SESSION: Refusal = Object.freeze({ status: 404, message: "Not Found: no such session (it ended, or it never existed)" });

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

/**
 * The Streamable HTTP handler of a generated McpServer of a session revision (2025-03-26,
 * 2025-06-18, 2025-11-25): POST, GET and DELETE on one URL, sessions opened by `initialize`, each
 * served by its own connection of the server. Serve it with any fetch-style runtime, or with
 * node:http through toNodeListener (its native face). Options are validated here.
 */
export function createSessionHttpHandler(server: SessionServable, options: SessionHttpHandlerOptions = {}): SessionHttpHandler {
  if (!isObject(server) || typeof server.openConnection !== "function") throw new TypeError("createSessionHttpHandler needs a generated McpServer (openConnection)");
  const versions = new VersionTable(server.sessionBinding);
  const settings = readServerOptions(options, DEFAULTS);
  const path = pathOption("path", options.path, undefined);
  const stateful = flagOption("sessions", options.sessions, true);
  const maxInFlight = numberOption("maxInFlightPerSession", options.maxInFlightPerSession, DEFAULTS.maxInFlightPerSession, { min: 1, infinity: true });
  const idleMs = numberOption("sessionIdleMs", options.sessionIdleMs, DEFAULTS.sessionIdleMs, { min: 1, infinity: true });
  const table = new SessionTable<Session>({ maxSessions: numberOption("maxSessions", options.maxSessions, DEFAULTS.maxSessions, { min: 1, infinity: true }), idleMs });
  const registryOption = sessionRegistryOption(options.sessionRegistry);
  const shared: SessionShared = {
    server,
    versions,
    table,
    store: eventStoreOption(options.eventStore),
    maxStoredEvents: numberOption("maxStoredEvents", options.maxStoredEvents, DEFAULTS.maxStoredEvents, { min: 1, infinity: true }),
    retryMs: numberOption("retryMs", options.retryMs, DEFAULTS.retryMs, { min: 0 }),
    limits: { keepAliveMs: settings.keepAliveMs, maxBuffered: settings.maxStreamBufferBytes },
    sseAlways: choiceOption("responses", options.responses, ["auto", "sse"], "auto") === "sse",
    onError: settings.onError,
  };
  const registry = registryOption === undefined ? undefined : new RegistryLink<Session>(registryOption, idleMs, (error) => guarded(settings.onError, error));
  const recordOf = (session: Session): Omit<SessionRecord, "expiresAt"> | undefined =>
    !session.kept || session.version === undefined || session.ended
      ? undefined
      : { sessionId: session.sessionId, protocolVersion: session.version, clientCapabilities: session.clientCapabilities, ...(session.principal === undefined ? {} : { principal: session.principal.id }) };
  // A successful initialize is recorded before its response goes out: the client's next request may reach another instance.
  if (registry !== undefined) shared.opened = (session) => registry.save(session, recordOf(session)!);

  /** A session another instance opened, continued here from the registry's record (undefined: unknown there, or another principal's). */
  const restore = async (id: string, call: HttpCall, principal: Principal | undefined): Promise<Session | Refusal | undefined> => {
    let record;
    try {
      record = await registry?.load(id);
    } catch (error) {
      if (!(error instanceof SessionRegistryError)) throw error;
      return { status: 503, message: `Service Unavailable: ${error.message}`, headers: { "retry-after": "1" } };
    }
    if (record === undefined || record.principal !== principal?.id) return undefined;
    const raced = table.get(id);
    if (raced !== undefined) return raced;
    const full = table.full();
    if (full !== undefined) return full;
    const session = new Session(shared, id, principal, call);
    session.version = record.protocolVersion;
    session.rules = versions.of(record.protocolVersion);
    session.clientCapabilities = record.clientCapabilities;
    session.streamTag = `${crypto.randomUUID().slice(0, 8)}.`;
    table.add(session);
    void registry?.save(session, recordOf(session)!);
    return session;
  };

  /** The session a request names: 400 without the header, 404 unknown, ended or another principal's; then its version header. */
  const sessionOf = async (call: HttpCall, principal: Principal | undefined): Promise<Session | Refusal> => {
    const id = call.headers.get(SESSION_HEADER);
    if (id === null) return NEEDS_SESSION;
    let session: Session | Refusal | undefined = table.get(id);
    if (session === undefined && registry !== undefined) session = await restore(id, call, principal);
    if (session !== undefined && !(session instanceof Session)) return session;
    // Session Management: an unknown or ended session is 404, and so is another principal's (it is none of theirs).
    if (session === undefined || table.find(id, principal) !== session) return NO_SESSION;
    const found = session;
    registry?.touch(found, () => recordOf(found), () => void found.end());
    return versions.headerProblem(call.headers, session) ?? session;
  };

  /** The session named, before any body is read: required for GET and DELETE; a POST names one after its initialize. */
  const sessionStage: Stage<SessionState> = {
    name: "session",
    run(call, state) {
      if (!stateful || (call.method === "POST" && !call.headers.has(SESSION_HEADER))) return undefined;
      return sessionOf(call, state.principal).then((found) => {
        if (!(found instanceof Session)) return found;
        state.session = found;
        return undefined;
      });
    },
  };

  /** A stateless session (sessions: false): one POST's connection, at the version its header asks. */
  const oneShot = (call: HttpCall, principal: Principal | undefined, initialize: boolean): Session | Refusal => {
    const session = new Session(shared, undefined, principal, call);
    const asked = call.headers.get("mcp-protocol-version");
    const rules = asked === null ? undefined : versions.get(asked);
    if (rules !== undefined) {
      session.version = asked!;
      session.rules = rules;
    } else if (asked !== null && !initialize) {
      void session.end();
      return versions.unsupported(asked);
    }
    return session;
  };

  /** The session of a single message: a new one for initialize, else the one named. */
  const sessionFor = (call: HttpCall, state: SessionState, read: Read, initialize: boolean): Session | Refusal => {
    if (!stateful) return oneShot(call, state.principal, initialize);
    if (initialize) {
      if (call.headers.has(SESSION_HEADER)) return { status: 400, id: read.id, message: "Invalid Request: initialize opens a new session and carries no Mcp-Session-Id" };
      const full = table.full();
      if (full !== undefined) return { ...full, id: read.id };
      // Session Management: the id "SHOULD be globally unique and cryptographically secure".
      const session = new Session(shared, crypto.randomUUID(), state.principal, call);
      table.add(session);
      const capabilities = "params" in read.message ? read.message.params?.["capabilities"] : undefined;
      if (isObject(capabilities)) session.clientCapabilities = capabilities;
      return session;
    }
    if (state.session === undefined) return NEEDS_SESSION;
    return state.session.ended ? NO_SESSION : state.session;
  };

  const post = (call: HttpCall, state: SessionState): void | Promise<void> => {
    const messages = readMessages(state.body);
    if (!Array.isArray(messages)) return answer(call, messages as Refusal);
    if (Array.isArray(state.body)) {
      const session = stateful ? (state.session === undefined ? NEEDS_SESSION : state.session.ended ? NO_SESSION : state.session) : oneShot(call, state.principal, false);
      if (!(session instanceof Session)) return answer(call, session);
      return serveBatch(call, session, messages, maxInFlight);
    }
    const read = messages[0]!;
    const initialize = read.method === INITIALIZE && read.hasId;
    const session = sessionFor(call, state, read, initialize);
    if (!(session instanceof Session)) return answer(call, session);
    if (!read.hasId || read.method === undefined) {
      // A notification or a response: 202 Accepted with no body (Sending Messages to the Server 4).
      session.deliver(read.message);
      if (!session.kept) void session.end();
      return call.respond(202, session.headers);
    }
    const id = read.id!;
    // A second request with an id in flight would take over the first one's stream: refused here.
    if (session.requests.has(id)) return answer(call, { status: 400, id, message: `Invalid Request: id ${describeValue(id)} is already in flight in this session` });
    if (session.requests.size >= maxInFlight) return answer(call, tooMany(`${maxInFlight} requests of this session are in flight (maxInFlightPerSession)`, id));
    session.begin(id, read.message, call, initialize);
  };

  const get = (call: HttpCall, state: SessionState): void | Promise<void> => {
    const session = state.session!;
    const lastEventId = call.headers.get("last-event-id");
    return lastEventId === null ? openGet(session, call) : resume(session, call, lastEventId);
  };

  const remove = async (call: HttpCall, state: SessionState): Promise<void> => {
    const session = state.session!;
    // Session Management: DELETE ends the session; its handlers abort (Cancellation: closing is a cancel).
    registry?.remove(session.sessionId);
    await session.end();
    call.respond(200, {});
  };

  const ROUTES: { readonly [method: string]: (call: HttpCall, state: SessionState) => void | Promise<void> } = { POST: post, GET: get, DELETE: remove };

  const pipeline: Pipeline<SessionState> = {
    admission: [
      ...(path === undefined ? [] : [pathStage([path])]),
      hostOriginStage(settings.guards),
      authenticateStage(settings.authenticate),
      envelopeStage(stateful ? STATEFUL : STATELESS, "the MCP endpoint"),
      sessionStage,
    ],
    settings,
    state: () => new SessionState(),
    serve: (call, state) => ROUTES[call.method]!(call, state),
  };

  const handler = withFaces(
    { serveCall: (call) => runPipeline(pipeline, call) },
    {
      versions: versions.versions,
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
      close: (): Promise<void> => table.closeAll(),
    },
  );
  // sessionCount is read live (Object.assign would copy the getter's value once).
  Object.defineProperty(handler, "sessionCount", { get: () => table.size, enumerable: true });
  return handler as SessionHttpHandler;
}
