// A session's GET: its own stream for the messages outside any request (HTTP, Listening for
// Messages from the Server), and the resumption of a broken stream with `Last-Event-ID`
// (Resumability and Redelivery): the events of that stream after the id, on a new response that
// then carries the stream on.

import { isObject } from "../../core/json.js";
import { describeValue } from "../../core/protocol.js";
import { report as guarded } from "../fetch.js";
import type { HttpCall } from "../server/call.js";
import { answer, type Refusal } from "../server/replies.js";
import { sseEventWithId, type SseStream } from "../server/sse-stream.js";
import type { EventReplay, StoredEvent } from "./event-store.js";
import { VALID_EVENT_ID, type Session } from "./session.js";

function refusal(session: Session, status: number, message: string): Refusal {
  return { status, message, headers: session.headers };
}

/** The GET stream's end on its client's side: the session may idle out again. */
function getGone(session: Session, out: SseStream): void {
  if (session.getSse !== out) return;
  session.getSse = undefined;
  session.touch();
}

/** GET without Last-Event-ID: the session's stream for messages outside requests; one at a time (409). */
export function openGet(session: Session, call: HttpCall): Promise<void> | void {
  if (session.getSse?.open === true) return answer(call, refusal(session, 409, "Conflict: this session's GET stream is already open"));
  const out = session.sse(call, () => getGone(session, out));
  session.getSse = out;
  session.touch();
  session.getChain = session.getChain
    .then(async () => {
      if (!session.rules.priming) return;
      const id = await session.storeEvent(session.getStreamId, "");
      if (id !== undefined) out.write(sseEventWithId(id, "", session.shared.retryMs));
    })
    .catch((error: unknown) => guarded(session.shared.onError, error));
}

/**
 * GET with Last-Event-ID: the events of that stream after the id, on a new SSE response that
 * then carries the stream on: the GET stream, or a request's stream still unanswered (replacing a
 * connection the server still believes open). A stream already finished ends after its replay.
 *
 * An id the store no longer holds (evicted: the per-session bounds, or maxEventStoreBytes over
 * all sessions), never issued, or of another session's stream: 400, and nothing is replayed.
 * Not 404: "the server MUST respond to requests containing that session ID with HTTP 404" only
 * once it has terminated the session, and a client that gets 404 "MUST start a new session"
 * (Session Management 3-4), while this session lives on. Not what remains of the stream: the
 * server may replay "messages that would have been sent after the last event ID" (Resumability
 * and Redelivery), and those after an evicted id are no longer all there, so a replay would
 * skip some without the client knowing (a lost response would leave its request waiting). The
 * request that stream answers fails on the client's side; its session and other streams do not.
 * (The TypeScript SDK's server, too, answers 400 to an event id it cannot map to a stream.)
 */
export async function resume(session: Session, call: HttpCall, lastEventId: string): Promise<void> {
  const store = session.store;
  if (store === null) return openGet(session, call);
  let replay: EventReplay | undefined;
  try {
    replay = await store.replayEventsAfter(lastEventId);
  } catch (error) {
    guarded(session.shared.onError, error);
    replay = undefined;
  }
  if (replay === undefined || typeof replay.streamId !== "string" || !replay.streamId.startsWith(`${session.sessionId}/`) || !Array.isArray(replay.events)) {
    return answer(call, refusal(session, 400, `Bad Request: no stream of this session can be resumed from event ${describeValue(lastEventId)} (evicted from the event store, or never issued here)`));
  }
  const events = replay.events.filter((e: StoredEvent) => isObject(e) && typeof e.id === "string" && VALID_EVENT_ID.test(e.id) && typeof e.data === "string" && e.data !== "");
  const replayInto = (out: SseStream): void => {
    for (const event of events) out.write(sseEventWithId(event.id, event.data, session.shared.retryMs));
  };
  if (replay.streamId === session.getStreamId) {
    session.getChain = session.getChain
      .then(() => {
        session.getSse?.close();
        const out = session.sse(call, () => getGone(session, out));
        session.getSse = out;
        replayInto(out);
        session.touch();
      })
      .catch((error: unknown) => guarded(session.shared.onError, error));
    return;
  }
  const stream = session.byStream.get(replay.streamId);
  if (stream === undefined || stream.state === "done") {
    const out = session.sse(call, () => undefined);
    replayInto(out);
    out.close();
    return;
  }
  session.queue(stream, () => {
    // Unanswered and never streamed: its own POST still carries it (no event id was given out for it).
    if (stream.state === "pending") return void answer(call, refusal(session, 409, "Conflict: that stream is still open on its own request"));
    stream.sse?.close();
    const out = session.sse(call, () => {
      if (stream.sse !== out || stream.state !== "sse") return;
      stream.sse = undefined;
      stream.state = "detached";
    });
    replayInto(out);
    if (stream.state === "done") out.close();
    else {
      stream.sse = out;
      stream.state = "sse";
    }
  });
}
