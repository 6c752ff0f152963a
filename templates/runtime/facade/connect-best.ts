// With several revisions generated, the client of the best revision both sides speak: each
// candidate is tried in the order given (newest first, as SDK v2 probes with server/discover
// before it falls back to initialize), each over a transport of its own, and the first whose
// connect() succeeds is kept. Where the server chose an older version of the candidate's era
// (initialize's answer), the candidate of that very revision is connected instead when one is
// given, so that the typed client matches the wire. A failure that says "not this era" moves on
// to the next candidate; anything else (an auth wall, a network failure, a timeout) is thrown at
// once, as SDK v2 never falls back on those. Over one connection that cannot be opened again
// (a stdio server spawned once), the candidates take turns on it: the server/discover that a
// session server refuses leaves it ready for initialize, as SDK v2's stdio client probes.

import { McpError, type JsonRpcMessage, type Transport, type TransportSendOptions } from "../core/protocol.js";
import { VersionNegotiationError } from "./client-connect.js";

/** What connectBest needs of a generated McpClient (any revision's is assignable). */
export interface NegotiatingClient {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  /** The protocol version in use once connect() resolved. */
  readonly protocolVersion: string | undefined;
}

/** One candidate: a revision's client. */
export interface ClientCandidate<C extends NegotiatingClient = NegotiatingClient> {
  /** The revision its client is generated from (that revision's REVISION). */
  readonly revision: string;
  /** A new, unconnected client of that revision. */
  create(): C;
}

/** The client connected, and the revision it was chosen for. */
export interface BestConnection<C extends NegotiatingClient = NegotiatingClient> {
  readonly client: C;
  /** The candidate's revision. */
  readonly revision: string;
  /** The version in use on the wire (the client's protocolVersion). */
  readonly protocolVersion: string;
  /** What each candidate tried before it failed with, in order. */
  readonly skipped: readonly { readonly revision: string; readonly error: Error }[];
}

/**
 * JSON-RPC errors that say the server does not know the handshake's method or shape (-32601
 * method not found, -32600 invalid request, -32602 invalid params, and -32000, which session
 * servers such as the SDK 1.x's answer, with HTTP 400, to anything but initialize outside a
 * session: "Bad Request: Server not initialized"); HTTP answers that say the same of the
 * endpoint's era (400: no session or a message it cannot take, 404, 405, 406, 415). Never
 * 401/403: an auth wall is the caller's to handle, on any era. Only connect()'s failures are
 * judged by it: the first request on a fresh transport.
 */
const NOT_THIS_ERA_CODES: ReadonlySet<number> = new Set([-32601, -32600, -32602, -32000]);
const NOT_THIS_ERA_STATUSES: ReadonlySet<number> = new Set([400, 404, 405, 406, 415]);

/** Whether a connect() failure means "try an older era" rather than "give up". */
export function isEraMismatch(error: unknown): boolean {
  if (error instanceof VersionNegotiationError) return true;
  if (error instanceof McpError) return NOT_THIS_ERA_CODES.has(error.code);
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && NOT_THIS_ERA_STATUSES.has(status);
}

/**
 * Connects the client of the best revision both sides speak. `candidates`: newest first (say
 * 2026-07-28, then 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05). `transport`:
 * - a function: a new transport for each attempt (over HTTP, one to the same URL; over stdio, a
 *   newly spawned server);
 * - a transport: one connection, taken in turn by each candidate (turns below); a failed
 *   attempt leaves it open for the next, and the client kept owns it (its close() closes it). On
 *   it the client that connected is kept even where the server chose an older version of its
 *   era: a second initialize on the same connection would be refused.
 * Rejects with the last candidate's error where none connects (the one connection is closed
 * then), or at once with an error that is not an era mismatch (isEraMismatch).
 */
export async function connectBest<C extends NegotiatingClient>(candidates: readonly ClientCandidate<C>[], transport: (() => Transport) | Transport): Promise<BestConnection<C>> {
  if (candidates.length === 0) throw new RangeError("candidates: give at least one client candidate");
  if (typeof transport !== "function") return overOneConnection(candidates, new Turns(transport));
  const skipped: { revision: string; error: Error }[] = [];
  for (const candidate of candidates) {
    const client = candidate.create();
    try {
      await client.connect(transport());
    } catch (error) {
      if (!isEraMismatch(error)) throw error;
      skipped.push({ revision: candidate.revision, error: error as Error });
      continue;
    }
    const version = client.protocolVersion ?? candidate.revision;
    const exact = version === candidate.revision ? undefined : candidates.find((c) => c.revision === version);
    if (exact === undefined) return { client, revision: candidate.revision, protocolVersion: version, skipped };
    // The server chose an older revision of this era that is also generated: its own client.
    await client.close();
    const matching = exact.create();
    await matching.connect(transport());
    return { client: matching, revision: exact.revision, protocolVersion: matching.protocolVersion ?? exact.revision, skipped };
  }
  throw skipped[skipped.length - 1]!.error;
}

/** connectBest over one connection: each candidate connects over its turn; the kept one owns it. */
async function overOneConnection<C extends NegotiatingClient>(candidates: readonly ClientCandidate<C>[], turns: Turns): Promise<BestConnection<C>> {
  const skipped: { revision: string; error: Error }[] = [];
  for (const candidate of candidates) {
    const client = candidate.create();
    const turn = turns.next();
    try {
      await client.connect(turn);
    } catch (error) {
      if (!isEraMismatch(error)) {
        await turns.closeAll();
        throw error;
      }
      skipped.push({ revision: candidate.revision, error: error as Error });
      continue;
    }
    turns.own(turn);
    return { client, revision: candidate.revision, protocolVersion: client.protocolVersion ?? candidate.revision, skipped };
  }
  await turns.closeAll();
  throw skipped[skipped.length - 1]!.error;
}

/**
 * One transport shared by successive attempts: each attempt gets a turn (a Transport of its
 * own) that sees the connection's messages only while it is the current one. The connection
 * starts once; a turn's close() ends the turn only, except the owner's, which closes the
 * connection. A message that arrives between turns is dropped (no attempt waits on it).
 */
class Turns {
  readonly #connection: Transport;
  #started: Promise<void> | undefined;
  #current: Transport | undefined;
  #owner: Transport | undefined;

  constructor(connection: Transport) {
    this.#connection = connection;
    connection.onmessage = (message) => this.#current?.onmessage?.(message);
    connection.onerror = (error) => this.#current?.onerror?.(error);
    connection.onclose = () => {
      const current = this.#current;
      this.#current = undefined;
      current?.onclose?.();
    };
  }

  /** The next attempt's turn (the previous one's messages stop reaching it). */
  next(): Transport {
    const turn: Transport = {
      start: () => (this.#started ??= this.#connection.start()),
      send: (message: JsonRpcMessage, options?: TransportSendOptions) =>
        this.#current === turn ? this.#connection.send(message, options) : Promise.reject(new Error("connectBest: this attempt's turn on the connection is over")),
      close: async () => {
        if (this.#owner === turn) return this.#connection.close();
        if (this.#current !== turn) return;
        this.#current = undefined;
        turn.onclose?.();
      },
    };
    this.#current = turn;
    return turn;
  }

  /** The kept attempt's turn: its close() closes the connection. */
  own(turn: Transport): void {
    this.#owner = turn;
  }

  closeAll(): Promise<void> {
    this.#current = undefined;
    return this.#connection.close();
  }
}
