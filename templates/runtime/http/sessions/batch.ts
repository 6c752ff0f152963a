// A JSON-RPC batch (2025-03-26 sessions only; HTTP, Sending Messages to the Server 4-5): its
// notifications and responses are handed over in order; with requests in it, the answer is one
// JSON array of their responses once all have come (messages about them go on the GET stream); a
// batch whose requests were all cancelled is answered 202, with nothing (JSON-RPC 2.0 §6: never an
// empty array). Bounded by maxInFlightPerSession like single requests. The rules a batch must
// meet are core/batch.ts's, shared with the endpoint (stdio, in memory).

import { batchProblem } from "../../core/batch.js";
import type { HttpCall } from "../server/call.js";
import { answer, JSON_HEADERS, type Refusal } from "../server/replies.js";
import { tooMany } from "../server/quota.js";
import type { Read } from "./messages.js";
import type { Session } from "./session.js";

/** Why a batch is refused (the rules of core/batch.ts, with this session's version and in-flight ids), or null. */
const problemOf = (session: Session, messages: readonly Read[]): string | null =>
  batchProblem(messages, session.rules.batches, (id) => session.requests.has(id));

/** Serves a batch on `session` (a stateless one ends with it); the call is answered when its requests are. */
export async function serveBatch(call: HttpCall, session: Session, messages: readonly Read[], maxInFlight: number): Promise<void> {
  const requests = messages.filter((m) => m.hasId && m.method !== undefined);
  const problem = problemOf(session, messages);
  let refused: Refusal | undefined;
  if (problem !== null) refused = { status: 400, message: `Invalid Request: ${problem}` };
  else if (session.requests.size + requests.length > maxInFlight) refused = tooMany(`${maxInFlight} requests of this session may be in flight (maxInFlightPerSession)`);
  if (refused !== undefined) {
    if (!session.kept) void session.end();
    return answer(call, refused);
  }
  const answers: (string | undefined)[] = [];
  let left = requests.length;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  for (const { message, method, id, hasId } of messages) {
    if (hasId && method !== undefined) {
      const slot = answers.push(undefined) - 1;
      session.begin(id!, message, undefined, false, (text) => {
        answers[slot] = text;
        if (--left === 0) done();
      });
    } else session.deliver(message);
  }
  if (requests.length === 0) {
    if (!session.kept) void session.end();
    return call.respond(202, session.headers);
  }
  await all;
  const texts = answers.filter((t): t is string => t !== undefined);
  if (texts.length === 0) return call.respond(202, session.headers);
  call.respond(200, { ...JSON_HEADERS, ...session.headers }, `[${texts.join(",")}]`);
}
