/**
 * Pinned HTTP+SSE sessions (issue 41, finding 1; templates/runtime/http/legacy-sse/session.ts
 * busy()): a client that calls a tool whose handler asks it something (sampling/createMessage:
 * 2024-11-05 has no elicitation) and never answers, while it keeps its stream open, used to pin
 * its session for ever (its request was in flight, and the server's request had no timeout). Now
 * the session counts as idle when nothing arrives from its client: it ends sessionIdleMs after
 * the client last POSTed (or was last asked), its stream closes and the handler's signal aborts.
 *
 * Figures: 20 pinned sessions, sessionIdleMs 300: each stream ended within sessionIdleMs + 1 s of
 * the request reaching its client, and each handler saw its signal abort (aa78207: none ended).
 */
import { afterEach, expect, it } from "vitest";
import { closeAll, INITIALIZE, post, serve, session, describeFaces, type Served, type Stream } from "./support.js";

afterEach(closeAll);

const SESSIONS = 20;
const IDLE_MS = 300;
const BOUND_MS = IDLE_MS + 1000;

/**
 * One pinned client: a session (opened again should it idle out before it is pinned while a fresh
 * server warms up: the setup is not what is measured), initialize, then a call whose handler's
 * sampling request reaches the stream and is never answered. Resolves with its stream and whether
 * it ended within `BOUND_MS` of being pinned.
 */
async function pin(served: Served, id: number): Promise<{ stream: Stream; ended: Promise<"ended" | "open"> }> {
  for (let attempt = 1; ; attempt++) {
    const { stream, endpoint } = await session(served);
    try {
      for (const message of [
        { jsonrpc: "2.0", id: 0, method: "initialize", params: { ...INITIALIZE, capabilities: { sampling: {} } } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id, method: "tools/call", params: { name: "ask" } },
      ]) {
        const { status } = await post(endpoint, message);
        if (status !== 202) throw new Error(`${message.method} answered ${status}`);
      }
      for (;;) {
        if ((await stream.nextMessage())["method"] !== "sampling/createMessage") continue;
        // Watched from now on: the others may still be pinning when this one ends.
        return { stream, ended: endedWithin(stream, Date.now(), BOUND_MS) };
      }
    } catch (error) {
      stream.close();
      if (attempt === 5) throw error;
    }
  }
}

/** "ended" when the stream ends within `bound` ms of `from`, else "open". */
async function endedWithin(stream: Stream, from: number, bound: number): Promise<"ended" | "open"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"open">((resolve) => (timer = setTimeout(() => resolve("open"), Math.max(0, from + bound - Date.now()) + 1)));
  const first = await Promise.race([stream.ended.then(() => Date.now() - from), late]);
  clearTimeout(timer);
  return first === "open" || first > bound ? "open" : "ended";
}

describeFaces("HTTP+SSE: a session whose client never answers the server (pinned)", (face) => {
  it(`${SESSIONS} pinned sessions end within sessionIdleMs (${IDLE_MS} ms) + 1 s of being pinned, and every handler's signal aborts`, async () => {
    const aborts: unknown[] = [];
    let asked = 0;
    const served = await serve(
      face,
      {
        handlers: {
          "tools/call": async (_params, ctx) => {
            ctx.signal.addEventListener("abort", () => aborts.push(ctx.signal.reason), { once: true });
            asked++;
            await ctx.request("sampling/createMessage", { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 }).catch(() => undefined);
            return { content: [] };
          },
        },
      },
      { sessionIdleMs: IDLE_MS },
    );
    const pinned = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => pin(served, i + 1)));
    const ended = await Promise.all(pinned.map((client) => client.ended));
    expect(ended.filter((state) => state === "open")).toEqual([]);
    expect(aborts).toHaveLength(asked);
    expect(asked).toBeGreaterThanOrEqual(SESSIONS);
    expect(served.errors).toEqual([]);
  });
});
