// The session a request names (HTTP, Session Management): the `Mcp-Session-Id` header, looked up in
// this instance's table and, with a SessionRegistry, in the one every instance shares, where a
// session another instance opened is found and continued here. Run before the body is read: a
// request naming a session that is none of its sender's costs no body.

import { report as guarded } from "../fetch.js";
import type { Principal } from "../../core/protocol.js";
import type { HttpCall } from "../server/call.js";
import type { CallState, Stage } from "../server/pipeline.js";
import type { Refusal } from "../server/replies.js";
import { Session, SESSION_HEADER, type SessionShared } from "./session.js";
import { RegistryLink, SessionRegistryError, type SessionRecord, type SessionRegistry } from "./session-registry.js";

/** 400: a request after initialize must name its session. */
export const NEEDS_SESSION: Refusal = Object.freeze({ status: 400, message: "Bad Request: the Mcp-Session-Id header is required (initialize opens a session)" });
/** 404: an unknown or ended session, or another principal's (it is none of theirs). */
export const NO_SESSION: Refusal = Object.freeze({ status: 404, message: "Not Found: no such session (it ended, or it never existed)" });

/** What the stages learn of one request: the session its Mcp-Session-Id names, if any. */
export interface NamedSession extends CallState {
  session: Session | undefined;
}

/** The sessions of one handler as requests name them, with the registry every instance shares (if any). */
export class SessionLookup {
  readonly #shared: SessionShared;
  readonly #registry: RegistryLink<Session> | undefined;
  /** Stops hearing of removals on other instances (close). */
  readonly stopWatching: () => void = () => undefined;

  constructor(shared: SessionShared, registry: SessionRegistry | undefined, idleMs: number) {
    this.#shared = shared;
    this.#registry = registry === undefined ? undefined : new RegistryLink<Session>(registry, idleMs, (error) => guarded(shared.onError, error));
    // A successful initialize is recorded before its response goes out: the client's next request may reach another instance.
    if (this.#registry !== undefined) {
      const link = this.#registry;
      shared.opened = (session) => link.save(session, this.#recordOf(session)!);
      // A DELETE on another instance ends this instance's copy at once (Session Management: 404 from then on).
      this.stopWatching = link.watch((id) => void shared.table.get(id)?.end());
    }
  }

  /**
   * The stage that finds the session a request names: required for GET and DELETE; a POST names
   * one after its initialize (a POST without the header is an initialize, or refused later).
   */
  stage(): Stage<NamedSession> {
    return {
      name: "session",
      run: (call, state) => {
        if (call.method === "POST" && !call.headers.has(SESSION_HEADER)) return undefined;
        return this.#named(call, state.principal).then((found) => {
          if (!(found instanceof Session)) return found;
          state.session = found;
          return undefined;
        });
      },
    };
  }

  /** The protocol version the registry records for a session; undefined: none there, no registry, or it failed (the request then meets the failure itself). */
  async recordedVersion(sessionId: string): Promise<string | undefined> {
    if (this.#registry === undefined) return undefined;
    try {
      return (await this.#registry.load(sessionId))?.protocolVersion;
    } catch {
      return undefined;
    }
  }

  /** DELETE ended a session: the registry forgets it for good (resolves once every instance can tell; never rejects). */
  forget(session: Session): Promise<void> {
    return this.#registry?.remove(session.sessionId) ?? Promise.resolve();
  }

  /** The session a request names: 400 without the header, 404 unknown, ended or another principal's; then its version header. */
  async #named(call: HttpCall, principal: Principal | undefined): Promise<Session | Refusal> {
    const table = this.#shared.table;
    const id = call.headers.get(SESSION_HEADER);
    if (id === null) return NEEDS_SESSION;
    let session: Session | Refusal | undefined = table.get(id);
    const held = session !== undefined;
    if (session === undefined && this.#registry !== undefined) session = await this.#restore(this.#registry, id, call, principal);
    if (session !== undefined && !(session instanceof Session)) return session;
    if (session === undefined || table.find(id, principal) !== session) return NO_SESSION;
    const found = session;
    // A copy held here is confirmed against the registry (one just continued from it was read there now).
    if (held && this.#registry !== undefined && !(await this.#registry.confirm(found, () => this.#recordOf(found)))) {
      // Deleted on another instance: this copy ends, and the request is 404 like any after it.
      void found.end();
      return NO_SESSION;
    }
    return this.#shared.versions.headerProblem(call.headers, session) ?? session;
  }

  /** A session another instance opened, continued here from the registry's record (undefined: unknown there, or another principal's). */
  async #restore(registry: RegistryLink<Session>, id: string, call: HttpCall, principal: Principal | undefined): Promise<Session | Refusal | undefined> {
    const { table, versions } = this.#shared;
    let record;
    try {
      record = await registry.load(id);
    } catch (error) {
      if (!(error instanceof SessionRegistryError)) throw error;
      return { status: 503, message: `Service Unavailable: ${error.message}`, headers: { "retry-after": "1" } };
    }
    if (record === undefined || record.principal !== principal?.id) return undefined;
    const raced = table.get(id);
    if (raced !== undefined) return raced;
    const full = table.full(principal);
    if (full !== undefined) return full;
    const session = new Session(this.#shared, id, principal, call);
    session.version = record.protocolVersion;
    session.rules = versions.of(record.protocolVersion);
    session.clientCapabilities = record.clientCapabilities;
    session.streamTag = `${crypto.randomUUID().slice(0, 8)}.`;
    table.add(session);
    void registry.save(session, this.#recordOf(session)!);
    return session;
  }

  /** What any instance needs to continue a session; undefined before initialize succeeded, or once it ended. */
  #recordOf(session: Session): Omit<SessionRecord, "expiresAt"> | undefined {
    if (!session.kept || session.version === undefined || session.ended) return undefined;
    const record = { sessionId: session.sessionId, protocolVersion: session.version, clientCapabilities: session.clientCapabilities };
    return session.principal === undefined ? record : { ...record, principal: session.principal.id };
  }
}
