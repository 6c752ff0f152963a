/**
 * Cancels that overtake their request on HTTP+SSE (issue 41, finding 4; core/early-cancels.ts,
 * legacy-sse/session.ts): every client message is its own POST to /messages, so a cancel may
 * arrive before its request. The session remembers it (maxEarlyCancels, earlyCancelWindowMs) and
 * the request is cancelled as it arrives: no handler, nothing on the stream, its slot of
 * maxInFlightPerSession free at once. On aa78207 the cancel was ignored and the handler ran.
 */
import { afterEach, expect, it } from "vitest";
import { aborted, deferred } from "../../../helpers/async.js";
import { closeAll, post, R, serve, session, describeFaces } from "./support.js";

afterEach(closeAll);

/** tools/call waits for its cancel or `release`; which ids ran. */
function hanging(release: Promise<void>) {
  const ran: unknown[] = [];
  const options: R.McpServerOptions = {
    handlers: {
      "tools/call": async (_params, ctx) => {
        ran.push(ctx.requestId);
        await Promise.race([release, aborted(ctx.signal)]);
        return { content: [] };
      },
    },
  };
  return { ran, options };
}

const call = (id: number | string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "hang" } });
const cancel = (id: number | string, reason?: string) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } });

describeFaces("HTTP+SSE: a cancel that overtakes its request", (face) => {
  it("sent first, then the request: its handler never runs, nothing for it on the stream, its slot free at once", async () => {
    const release = deferred();
    const { ran, options } = hanging(release.promise);
    const served = await serve(face, options, { maxInFlightPerSession: 1 });
    const { stream, endpoint } = await session(served);
    expect((await post(endpoint, cancel(4, "too soon"))).status).toBe(202);
    expect((await post(endpoint, call(4))).status).toBe(202);
    // Not 429: the cancelled request holds no slot. The next message on the stream is the ping's answer.
    expect((await post(endpoint, { jsonrpc: "2.0", id: 5, method: "ping" })).status).toBe(202);
    expect(await stream.nextMessage()).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
    expect(ran).toEqual([]);
    expect(served.events).toEqual([
      { type: "ignored", cause: "unknown-request", requestId: 4, reason: "too soon", early: true },
      { type: "received", requestId: 4, method: "tools/call", reason: "too soon", early: true },
    ]);
    release.resolve();
    stream.close();
  });

  it("maxEarlyCancels and earlyCancelWindowMs bound what is remembered: a forgotten or expired cancel's request runs", async () => {
    const release = deferred();
    const { ran, options } = hanging(release.promise);
    const served = await serve(face, options, { maxEarlyCancels: 2, earlyCancelWindowMs: 200 });
    const { stream, endpoint } = await session(served);
    for (const id of [1, 2, 3]) await post(endpoint, cancel(id)); // 1 is forgotten: 2 are kept
    await new Promise((resolve) => setTimeout(resolve, 300)); // 2 and 3 expire
    await post(endpoint, cancel(4));
    for (const id of [1, 2, 3, 4]) expect((await post(endpoint, call(id))).status).toBe(202);
    release.resolve();
    const answered = [await stream.nextMessage(), await stream.nextMessage(), await stream.nextMessage()].map((m) => m["id"]).sort();
    expect(answered).toEqual([1, 2, 3]);
    expect(ran).toEqual([1, 2, 3]);
    expect(() => R.createLegacySseHandler(served.server, { maxEarlyCancels: 1.5 })).toThrow(/^maxEarlyCancels must be an integer/);
    stream.close();
  });
});
