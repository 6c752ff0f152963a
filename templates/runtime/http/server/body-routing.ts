// The era router's one case that needs a body: a POST outside any session with no version header
// (an `initialize`, or a request that claims 2026-07-28 by its `_meta` alone). Authentication still
// comes first: the router runs the admission of every handler the request may go to (Host/Origin,
// authenticate, method, their own checks) and reads nothing of a body they all refuse; then it
// reads and parses the body once, within the bounds of the handlers that admitted it, picks the
// handler by what the body says, holds the body to that handler's own bounds, and hands it over.

import { isObject } from "../../core/json.js";
import { nestsDeeperThan } from "../../core/json-depth.js";
import { bodyRefusal, parseBody } from "./body.js";
import { TOO_LARGE, type HttpCall } from "./call.js";
import { claimsModernEra, sessionRevisionFor, type EraClaims, type ModernRoute, type Routed, type SessionRoute } from "./eras.js";
import { admit, serveAdmitted, shareAdmission, type CallState } from "./pipeline.js";
import { answer, type Answer } from "./replies.js";

/** A handler's admission for one request: the state to go on with, or its answer. */
interface Admission {
  readonly handler: Routed;
  readonly state: CallState;
  readonly refused: Answer | undefined;
}

/** What the router knows to choose by a body: its modern handler, its session handlers by revision (newest first), the claims. */
export class BodyRouting {
  readonly #modern: ModernRoute | undefined;
  readonly #byRevision: ReadonlyMap<string, SessionRoute>;
  readonly #revisions: readonly string[];
  readonly #claims: EraClaims;

  constructor(modern: ModernRoute | undefined, sessions: readonly (readonly [string, SessionRoute])[], claims: EraClaims) {
    this.#modern = modern;
    this.#byRevision = new Map(sessions);
    this.#revisions = sessions.map(([revision]) => revision);
    this.#claims = claims;
  }

  /** Serves a POST whose era its body says: admitted by each of `candidates` first, its body read once, handed over parsed. */
  async route(call: HttpCall, newest: SessionRoute, candidates: readonly Routed[]): Promise<void> {
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
      const target = this.#choose(call, "value" in parsed ? parsed.value : undefined, "value" in parsed, newest);
      const admission = admissions.find((a) => a.handler === target)!;
      if (admission.refused !== undefined) return await answer(call, admission.refused);
      if (!("value" in parsed)) return await answer(call, parsed);
      const overBounds = ownBounds(target, read as Uint8Array);
      if (overBounds !== undefined) return await answer(call, overBounds);
      chosen = admission;
      admission.state.body = parsed.value;
      admission.state.readsBody = false;
      return await serveAdmitted(target.httpPipeline, call, admission.state);
    } finally {
      // What the others held for it (a quota slot) is theirs again.
      for (const other of admissions) if (other !== chosen) other.state.held?.release();
    }
  }

  /** The handler a parsed body goes to (an unparseable one: the newest session handler, which refuses it). */
  #choose(call: HttpCall, body: unknown, ok: boolean, newest: SessionRoute): Routed {
    if (!ok) return newest;
    if (this.#modern !== undefined && claimsModernEra(call.headers.get("mcp-protocol-version"), body, this.#claims)) return this.#modern;
    const initialize = isObject(body) && body["method"] === "initialize" && "id" in body;
    if (!initialize) return newest;
    const params = body["params"];
    return this.#byRevision.get(sessionRevisionFor(isObject(params) ? params["protocolVersion"] : undefined, this.#revisions)!)!;
  }
}

/** Admission of each handler the request may go to, in order (an authenticate they share is asked once). */
async function admitAll(call: HttpCall, handlers: readonly Routed[]): Promise<Admission[]> {
  const admissions: Admission[] = [];
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
}

/** The refusal of a body the chosen handler's own bounds do not take (its maxBodyBytes, its maxJsonDepth), or undefined. */
function ownBounds(target: Routed, bytes: Uint8Array): Answer | undefined {
  const settings = target.httpPipeline.settings;
  if (bytes.byteLength > settings.maxBodyBytes) return bodyRefusal(TOO_LARGE, settings.maxBodyBytes);
  if (nestsDeeperThan(bytes, settings.maxJsonDepth)) return { status: 400, message: `Bad Request: the body nests deeper than ${settings.maxJsonDepth} levels (maxJsonDepth)` };
  return undefined;
}
