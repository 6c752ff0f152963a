// What the session server does with a request that passed its pipeline, by method (HTTP, Sending
// Messages to the Server, Listening for Messages from the Server, Session Management): POST hands
// one message (or a 2025-03-26 batch) to its session, opening one for `initialize`; GET opens or
// resumes the session's stream; DELETE ends the session.

import { isObject } from "../../core/json.js";
import { describeValue } from "../../core/protocol.js";
import type { HttpCall } from "../server/call.js";
import { tooMany } from "../server/quota.js";
import { DRAINING } from "../server/drain.js";
import { answer, type Refusal } from "../server/replies.js";
import { serveBatch } from "./batch.js";
import { NEEDS_SESSION, NO_SESSION, type NamedSession, type SessionLookup } from "./lookup.js";
import { readMessages, type Read } from "./messages.js";
import { openGet, resume } from "./resume.js";
import { Session, SESSION_HEADER, type SessionShared } from "./session.js";

const INITIALIZE = "initialize";

/** How the routes serve: with sessions or stateless, and the bound on one session's requests. */
export interface RouteSettings {
  readonly stateful: boolean;
  readonly maxInFlight: number;
  /** Whether the handler drains (close()): a new request is refused, answers and notifications still go to their session. */
  readonly draining: () => boolean;
}

/** A route: serves a request the pipeline admitted (its body parsed, its session found). */
export type Route = (call: HttpCall, state: NamedSession) => void | Promise<void>;

export class SessionRoutes {
  readonly #shared: SessionShared;
  readonly #lookup: SessionLookup;
  readonly #settings: RouteSettings;
  /** The routes by HTTP method (the envelope's table admits only these). */
  readonly byMethod: { readonly [method: string]: Route };

  constructor(shared: SessionShared, lookup: SessionLookup, settings: RouteSettings) {
    this.#shared = shared;
    this.#lookup = lookup;
    this.#settings = settings;
    this.byMethod = { POST: (call, state) => this.#post(call, state), GET: (call, state) => this.#get(call, state), DELETE: (call, state) => this.#remove(call, state) };
  }

  #post(call: HttpCall, state: NamedSession): void | Promise<void> {
    const messages = readMessages(state.body);
    if (!Array.isArray(messages)) return answer(call, messages as Refusal);
    const request = messages.find((read) => read.hasId && read.method !== undefined);
    if (request !== undefined && this.#settings.draining()) return answer(call, { ...DRAINING, id: request.id });
    if (Array.isArray(state.body)) {
      const session = this.#settings.stateful ? named(state) : this.#oneShot(call, state, false);
      if (!(session instanceof Session)) return answer(call, session);
      return serveBatch(call, session, messages, this.#settings.maxInFlight);
    }
    const read = messages[0]!;
    const initialize = read.method === INITIALIZE && read.hasId;
    const session = this.#sessionFor(call, state, read, initialize);
    if (!(session instanceof Session)) return answer(call, session);
    if (!read.hasId || read.method === undefined) {
      // A notification or a response: 202 Accepted with no body (Sending Messages to the Server 4).
      session.deliver(read.message);
      if (!session.kept) void session.end();
      return call.respond(202, session.headers);
    }
    const id = read.id!;
    const maxInFlight = this.#settings.maxInFlight;
    // A second request with an id in flight would take over the first one's stream: refused here.
    if (session.requests.has(id)) return answer(call, { status: 400, id, message: `Invalid Request: id ${describeValue(id)} is already in flight in this session` });
    if (session.requests.size >= maxInFlight) return answer(call, tooMany(`${maxInFlight} requests of this session are in flight (maxInFlightPerSession)`, id));
    session.begin(id, read.message, call, initialize);
  }

  #get(call: HttpCall, state: NamedSession): void | Promise<void> {
    const session = state.session!;
    const lastEventId = call.headers.get("last-event-id");
    return lastEventId === null ? openGet(session, call) : resume(session, call, lastEventId);
  }

  async #remove(call: HttpCall, state: NamedSession): Promise<void> {
    const session = state.session!;
    // Session Management: DELETE ends the session; its handlers abort (Cancellation: closing is a cancel).
    // Answered once the registry has the tombstone: the client's next request is 404 on every instance.
    await Promise.all([this.#lookup.forget(session), session.end()]);
    call.respond(200, {});
  }

  /** The session of a single message: a new one for initialize, else the one named. */
  #sessionFor(call: HttpCall, state: NamedSession, read: Read, initialize: boolean): Session | Refusal {
    if (!this.#settings.stateful) return this.#oneShot(call, state, initialize);
    if (!initialize) return named(state);
    if (call.headers.has(SESSION_HEADER)) return { status: 400, id: read.id, message: "Invalid Request: initialize opens a new session and carries no Mcp-Session-Id" };
    const table = this.#shared.table;
    const full = table.full(state.principal);
    if (full !== undefined) return { ...full, id: read.id };
    // Session Management: the id "SHOULD be globally unique and cryptographically secure".
    const session = new Session(this.#shared, crypto.randomUUID(), state.principal, call);
    table.add(session);
    const capabilities = "params" in read.message ? read.message.params?.["capabilities"] : undefined;
    if (isObject(capabilities)) session.clientCapabilities = capabilities;
    return session;
  }

  /** A stateless session (sessions: false): one POST's connection, at the version its header asks. */
  #oneShot(call: HttpCall, state: NamedSession, initialize: boolean): Session | Refusal {
    const versions = this.#shared.versions;
    const session = new Session(this.#shared, undefined, state.principal, call);
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
  }
}

/** The session a request after initialize named (the lookup stage found it), or why there is none. */
function named(state: NamedSession): Session | Refusal {
  if (state.session === undefined) return NEEDS_SESSION;
  return state.session.ended ? NO_SESSION : state.session;
}
