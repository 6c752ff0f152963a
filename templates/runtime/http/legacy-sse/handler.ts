// The HTTP+SSE transport of 2024-11-05 (basic/transports, "HTTP with SSE"), server side, bound to
// a generated McpServer. Two endpoints: `GET <ssePath>` opens a session, a long-lived SSE stream
// whose first event is `endpoint` with the URI to POST to; `POST <messagesPath>?sessionId=…`
// carries one client message, answered 202, and every server message goes on the session's stream
// as an SSE `message` event. Each session is one connection of the server (session.ts); the
// stream closing ends the session and aborts its handlers. Later revisions keep serving it for old
// clients (2025-03-26 basic/transports, "Backwards Compatibility": servers "continue to host both
// the SSE and POST endpoints of the old transport").
//
// Everything a client sends is untrusted: sessions are counted and expire when idle, a POST body
// is bounded, requests in flight per session are bounded, and a session whose client does not
// read its stream is ended once its unread bytes pass a bound. The revision has no DELETE (405).

import { isObject, isRequestId } from "../../core/json.js";
import { earlyCancelOptions } from "../../core/early-cancels.js";
import { numberOption } from "../../core/options.js";
import { describeValue, type JsonRpcMessage, type RequestId, type Transport } from "../../core/protocol.js";
import type { Connection } from "../../core/endpoint.js";
import type { HttpCall } from "../server/call.js";
import { pathOption, readServerOptions, type HttpServerOptions } from "../server/options.js";
import { authenticateStage, CallState, envelopeStage, hostOriginStage, runPipeline, type Pipeline, type Stage } from "../server/pipeline.js";
import { tooMany } from "../server/quota.js";
import { answer, type Refusal } from "../server/replies.js";
import { SessionTable } from "../server/session-table.js";
import { withFaces, type ServedHandler } from "../server/web-face.js";
import { LegacySession } from "./session.js";

/** A server the HTTP+SSE handler can serve: any generated McpServer (one connection per session). */
export interface LegacySseServable {
  openConnection(transport: Transport): Connection;
}

/** Options of createLegacySseHandler (the shared ones: HttpServerOptions; maxStreamBufferBytes defaults to 4 MiB, the one stream carrying everything). */
export interface LegacySseHandlerOptions extends HttpServerOptions {
  /** Path of the SSE endpoint (GET), default "/sse". */
  readonly ssePath?: string | undefined;
  /** Path of the message endpoint (POST), default "/messages"; the `endpoint` event names it with `?sessionId=`. */
  readonly messagesPath?: string | undefined;
  /** Sessions open at most (default 1024); one more GET is refused with 503. */
  readonly maxSessions?: number | undefined;
  /**
   * Sessions open at most of one principal (`authenticate`'s `id`; default 64), so that one
   * client cannot take every session; one more GET is refused with 503 naming this option, and
   * no other principal notices. Without `authenticate` each session is its own (only maxSessions
   * bounds them).
   */
  readonly maxSessionsPerPrincipal?: number | undefined;
  /**
   * A session with no POST for this long (ms), and no request of it in flight, is ended: its
   * stream closes (default 1 800 000, 30 minutes; Infinity: never). A session whose handlers wait
   * on the client (an elicitation, a sampling request unanswered) counts as idle: it ends
   * sessionIdleMs after the client last sent anything, or was last asked something.
   */
  readonly sessionIdleMs?: number | undefined;
  /** Requests of one session in flight at most (default 256); one more POST is refused with 429. */
  readonly maxInFlightPerSession?: number | undefined;
  /**
   * Cancels for request ids not (yet) seen that a session remembers (default 64): two POSTs may
   * arrive in either order, and a request that arrives after its cancel is cancelled at once
   * (its handler never runs, no response is sent). One more forgets the oldest.
   */
  readonly maxEarlyCancels?: number | undefined;
  /** How long (ms) such a cancel is remembered (default 10 000); a request arriving later runs. */
  readonly earlyCancelWindowMs?: number | undefined;
}

/** The HTTP+SSE handler, with the paths it owns (how createEraRouter knows them). */
export type LegacySseHandler = ServedHandler & {
  readonly ssePath: string;
  readonly messagesPath: string;
  readonly httpPipeline: Pipeline<LegacyState>;
};

/** What the stages learn of one request: which endpoint, and the session a POST names. */
export class LegacyState extends CallState {
  route: "sse" | "messages" = "sse";
  session: LegacySession | undefined = undefined;
}

const DEFAULTS = {
  ssePath: "/sse",
  messagesPath: "/messages",
  maxSessions: 1024,
  // A sixteenth of maxSessions (a user's many clients, IDE windows and agents, fit; 16 principals
  // at their quota are needed to fill the server), and as many as its listen streams may be.
  maxSessionsPerPrincipal: 64,
  sessionIdleMs: 30 * 60 * 1000,
  maxStreamBufferBytes: 4 * 1024 * 1024,
  maxInFlightPerSession: 256,
} as const;

const NOT_FOUND: Refusal = Object.freeze({ status: 404, message: "Not Found" });
const NO_SESSION: Refusal = Object.freeze({ status: 404, message: "Not Found: no such session" });
const invalid = (text: string): Refusal => ({ status: 400, message: `Invalid Request: ${text}` });

/** A POSTed message for its session (202), after the checks its own endpoint makes: one message, a sane id, the session's request bounds. */
function deliver(call: HttpCall, state: LegacyState, table: SessionTable<LegacySession>, maxInFlight: number): void | Promise<void> {
  const session = state.session!;
  const body = state.body;
  if (!isObject(body) || body["jsonrpc"] !== "2.0") return answer(call, invalid("the body must be one JSON-RPC 2.0 message"));
  const method = body["method"];
  const isRequest = typeof method === "string" && "id" in body;
  if (isRequest && !isRequestId(body["id"])) return answer(call, invalid("the id must be a string or an integer"));
  if (session.ended) return answer(call, NO_SESSION);
  if (isRequest) {
    const id = body["id"] as RequestId;
    // Refused here, not by the endpoint: its error response would carry the id and uncount the original.
    if (session.inFlight.has(id)) return answer(call, invalid(`id ${describeValue(id)} is already in flight`));
    if (session.inFlight.size >= maxInFlight) return answer(call, tooMany(`${maxInFlight} requests of this session are in flight (maxInFlightPerSession)`));
    session.inFlight.add(id);
  }
  table.touch(session);
  session.deliver(body as unknown as JsonRpcMessage);
  call.respond(202, { "content-type": "text/plain" }, "Accepted");
}

/**
 * The stages of the two endpoints around the shared ones: which endpoint (404 for another path,
 * first), its method and media type (GET for the stream; POST of JSON for messages: 2024-11-05
 * has no DELETE, a session ends when its stream closes), and the session a POST names, before
 * its body is read (another principal's is no session of this client).
 */
function endpointStages(ssePath: string, messagesPath: string, table: SessionTable<LegacySession>) {
  const route: Stage<LegacyState> = {
    name: "path",
    run(call, state) {
      const path = call.path;
      if (path === ssePath) state.route = "sse";
      else if (path === messagesPath) state.route = "messages";
      else return NOT_FOUND;
      return undefined;
    },
  };
  const sseEnvelope = envelopeStage({ GET: { body: false } }, ssePath);
  const messagesEnvelope = envelopeStage({ POST: { contentType: "application/json", body: true } }, messagesPath);
  const envelope: Stage<LegacyState> = { name: "envelope", run: (call, state) => (state.route === "sse" ? sseEnvelope : messagesEnvelope).run(call, state) };
  const session: Stage<LegacyState> = {
    name: "session",
    run(call, state) {
      if (state.route === "sse") return undefined;
      state.session = table.find(call.query("sessionId"), state.principal);
      return state.session === undefined ? NO_SESSION : undefined;
    },
  };
  return { route, envelope, session };
}

/**
 * The HTTP+SSE handler (2024-11-05) of a generated McpServer: `GET ssePath` opens a session
 * (its stream starts with the `endpoint` event), `POST messagesPath?sessionId=…` delivers one
 * JSON-RPC message to that session (202). `notifications/cancelled` (any request id of the
 * session, 0 included) aborts the handler's `ctx.signal` and no response is sent; the stream
 * closing ends the session and aborts every handler of it. Other paths answer 404.
 */
export function createLegacySseHandler(server: LegacySseServable, options: LegacySseHandlerOptions = {}): LegacySseHandler {
  const settings = readServerOptions(options, DEFAULTS);
  const ssePath = pathOption("ssePath", options.ssePath, DEFAULTS.ssePath);
  const messagesPath = pathOption("messagesPath", options.messagesPath, DEFAULTS.messagesPath);
  if (ssePath === messagesPath) throw new TypeError(`ssePath and messagesPath must differ, both are ${describeValue(ssePath)}`);
  const maxInFlight = numberOption("maxInFlightPerSession", options.maxInFlightPerSession, DEFAULTS.maxInFlightPerSession, { min: 1, infinity: true });
  const table = new SessionTable<LegacySession>({
    maxSessions: numberOption("maxSessions", options.maxSessions, DEFAULTS.maxSessions, { min: 1, infinity: true }),
    maxSessionsPerPrincipal: numberOption("maxSessionsPerPrincipal", options.maxSessionsPerPrincipal, DEFAULTS.maxSessionsPerPrincipal, { min: 1, infinity: true }),
    idleMs: numberOption("sessionIdleMs", options.sessionIdleMs, DEFAULTS.sessionIdleMs, { min: 1, infinity: true }),
  });
  const limits = { keepAliveMs: settings.keepAliveMs, maxBuffered: settings.maxStreamBufferBytes };
  const earlyCancels = earlyCancelOptions(options);

  const stages = endpointStages(ssePath, messagesPath, table);

  const open = (call: HttpCall, state: LegacyState): void | Promise<void> => {
    const full = table.full(state.principal);
    if (full !== undefined) return answer(call, full);
    // The client is gone already: nothing to open (the web face still settles its response).
    if (call.gone) return call.respond(499, {});
    // A session id is a capability: random (Web Crypto), never derived from anything the client sent.
    const id = globalThis.crypto.randomUUID();
    const session = new LegacySession(id, call, state.principal, `${messagesPath}?sessionId=${id}`, limits, table, earlyCancels);
    table.add(session);
    try {
      session.connection = server.openConnection(session);
    } catch (error) {
      session.end();
      throw error;
    }
  };

  const pipeline: Pipeline<LegacyState> = {
    admission: [stages.route, hostOriginStage(settings.guards), authenticateStage(settings.authenticate, settings.logger), stages.envelope, stages.session],
    settings,
    state: () => new LegacyState(),
    serve: (call, state) => (state.route === "sse" ? open(call, state) : deliver(call, state, table, maxInFlight)),
  };
  return withFaces({ serveCall: (call) => runPipeline(pipeline, call) }, { ssePath, messagesPath, httpPipeline: pipeline });
}
