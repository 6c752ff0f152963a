// With several revisions generated, the client of the best revision both sides speak: each
// candidate is tried in the order given (newest first, as SDK v2 probes with server/discover
// before it falls back to initialize), each over a transport of its own, and the first whose
// connect() succeeds is kept. Where the server chose an older version of the candidate's era
// (initialize's answer), the candidate of that very revision is connected instead when one is
// given, so that the typed client matches the wire. A failure that says "not this era" moves on
// to the next candidate; anything else (an auth wall, a network failure, a timeout) is thrown at
// once, as SDK v2 never falls back on those.

import { McpError, type Transport } from "../core/protocol.js";
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
 * 2026-07-28, then 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05); `transport`: a new transport
 * for each attempt (over HTTP, one to the same URL; over stdio, a newly spawned server). Rejects
 * with the last candidate's error where none connects, or at once with an error that is not an
 * era mismatch (isEraMismatch).
 */
export async function connectBest<C extends NegotiatingClient>(candidates: readonly ClientCandidate<C>[], transport: () => Transport): Promise<BestConnection<C>> {
  if (candidates.length === 0) throw new RangeError("candidates: give at least one client candidate");
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
