/**
 * Issue 44, item 3: the stateless handler's graceful drain, close({ drainMs }), over a real
 * node:http server on loopback, on both faces. From the start every new request is refused with
 * 503, Retry-After and Connection: close; a request in flight finishes; a listen stream ends at
 * once with a `retry` hint (its handler is told: the hub frees the stream); a request still
 * unanswered at the deadline is 503; drainMs is validated.
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { call, deferred, describeFaces, headersFor, META, rawRequest, serve, type Served } from "./support.js";

/** A server whose `slow` tool waits for release() (or its abort), with a listen hub; `started` resolves when slow runs. */
function gated(hub: R.Subscriptions) {
  const gate = deferred<void>();
  const started = deferred<void>();
  const options: R.McpServerOptions = {
    subscriptions: hub,
    handlers: {
      "tools/list": () => ({ resultType: "complete", cacheScope: "public", ttlMs: 0, tools: [] }),
      "tools/call": async (params, ctx) => {
        if (params.name === "slow") {
          started.resolve();
          await Promise.race([gate.promise, new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }))]);
        }
        return { resultType: "complete", content: [{ type: "text", text: `${params.name} done` }] };
      },
    },
  };
  return { options, started: started.promise, release: () => gate.resolve() };
}

const tool = (name: string) => ({ name, arguments: {} });

/** The body of an SSE response read to its end (the server closes it). */
async function readAll(response: Response): Promise<string> {
  return new Response(response.body).text();
}

describeFaces("the stateless handler's close({ drainMs })", (face) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("ends a listen stream at once with a retry hint, lets a call in flight finish, and refuses new requests with 503, Retry-After and Connection: close", async () => {
    const ended = deferred<string>();
    const hub = new R.Subscriptions({ onEnd: (end) => ended.resolve(end.cause) });
    const g = gated(hub);
    served = await serve(face, g.options);
    const url = served.url;
    const listen = await fetch(url, {
      method: "POST",
      headers: headersFor("subscriptions/listen"),
      body: JSON.stringify({ jsonrpc: "2.0", id: "l1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: META } }),
    });
    expect(listen.headers.get("content-type")).toBe("text/event-stream");
    const inFlight = call(url, 1, "tools/call", tool("slow"));
    await g.started;

    const closing = served.handler.close({ drainMs: 30_000 });
    expect(served.handler.draining).toBe(true);
    const streamed = await readAll(listen);
    expect(streamed).toContain("notifications/subscriptions/acknowledged");
    expect(streamed.endsWith("retry: 500\n\n")).toBe(true);
    expect(await ended.promise).toBe("cancelled");
    expect(hub.size).toBe(0);

    const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { ...tool("quick"), _meta: META } });
    const headers = { ...headersFor("tools/call", tool("quick")), host: new URL(url).host, "content-length": String(body.length) };
    const refused = await rawRequest(url, "POST", headers, body).answer;
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.headers["connection"]).toBe("close");

    g.release();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.json).toMatchObject({ id: 1, result: { content: [{ text: "slow done" }] } });
    await closing;
  });

  it("answers a request still unanswered at the deadline with 503, its handler aborted", async () => {
    const g = gated(new R.Subscriptions());
    served = await serve(face, g.options);
    const inFlight = call(served.url, 1, "tools/call", tool("slow"));
    await g.started;
    await served.handler.close({ drainMs: 50 });
    expect((await inFlight).status).toBe(503);
  });

  it("answers a listen not yet acknowledged with 503 and Retry-After at once: opening it again elsewhere repeats nothing", async () => {
    const listening = deferred<void>();
    served = await serve(face, { handlers: { "subscriptions/listen": () => (listening.resolve(), new Promise(() => undefined)) } });
    const listen = fetch(served.url, {
      method: "POST",
      headers: headersFor("subscriptions/listen"),
      body: JSON.stringify({ jsonrpc: "2.0", id: "l1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: META } }),
    });
    await listening.promise;
    const closing = served.handler.close({ drainMs: 30_000 });
    const answered = await listen;
    expect([answered.status, answered.headers.get("retry-after")]).toEqual([503, "1"]);
    await closing;
  });

  it("validates drainMs (a RangeError naming it) before anything closes", async () => {
    served = await serve(face);
    for (const drainMs of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, "100"]) {
      expect(() => served!.handler.close({ drainMs: drainMs as number }), String(drainMs)).toThrow(/drainMs/);
      expect(() => served!.handler.close({ drainMs: drainMs as number })).toThrow(RangeError);
    }
    expect(() => served!.handler.close("soon" as never)).toThrow(TypeError);
    expect(served.handler.draining).toBe(false);
  });
});
