/**
 * subscriptions/listen over the HTTP client transport (2026-07-28, basic/patterns/subscriptions),
 * against createHttpHandler on both faces (native node:http and web-standard, test/helpers/faces.ts):
 * the listen's SSE stream stays open and carries the acknowledgment and change notifications to
 * the client's notification handlers; aborting the listen closes its stream (the server's
 * handler sees "request stream closed", nothing is POSTed); the server ending it (ctx.end)
 * settles it with RequestEndedByPeerError.
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { abortOf, deferred, describeFaces, serve, type Served } from "../stateless/support.js";
import { connectClient } from "./support.js";

const served: Served[] = [];
afterEach(async () => {
  for (const s of served.splice(0)) await s.close();
});

const SUB = { "io.modelcontextprotocol/subscriptionId": "sub-1" };
const LISTEN = { notifications: { toolsListChanged: true } };

describeFaces("subscriptions/listen over HttpClientTransport", (face) => {
  it("delivers the stream's notifications; aborting closes the stream and nothing is POSTed", async () => {
    const serverSignal = deferred<AbortSignal>();
    const s = await serve(face, {
      handlers: {
        "subscriptions/listen": async (_p, ctx) => {
          await ctx.notify("notifications/subscriptions/acknowledged", { notifications: LISTEN.notifications, _meta: SUB });
          await ctx.notify("notifications/tools/list_changed", { _meta: SUB });
          serverSignal.resolve(ctx.signal);
          await abortOf(ctx.signal);
          return { resultType: "complete", _meta: SUB };
        },
      },
    });
    served.push(s);
    const changed = deferred<void>();
    const heard: string[] = [];
    const { client, posted } = await connectClient(s.url, {
      notificationHandlers: {
        "notifications/subscriptions/acknowledged": () => void heard.push("acknowledged"),
        "notifications/tools/list_changed": () => (heard.push("tools"), changed.resolve()),
      },
    });
    const stop = new AbortController();
    const listening = client.subscriptionsListen(LISTEN, { signal: stop.signal }).catch((e: unknown) => e);
    await changed.promise;
    expect(heard).toEqual(["acknowledged", "tools"]);
    stop.abort("done listening");
    expect(await listening).toBeInstanceOf(R.RequestCancelledError);
    expect(await abortOf(await serverSignal.promise)).toBe("request stream closed");
    expect(posted.map((p) => [p.body["method"], p.headers["mcp-method"]])).toEqual([["subscriptions/listen", "subscriptions/listen"]]);
    await client.close();
  });

  it("the server ending the listen settles it with RequestEndedByPeerError", async () => {
    const s = await serve(face, {
      handlers: {
        "subscriptions/listen": async (_p, ctx) => {
          await ctx.notify("notifications/subscriptions/acknowledged", { notifications: LISTEN.notifications, _meta: SUB });
          await ctx.end("shutting down");
          return { resultType: "complete", _meta: SUB };
        },
      },
    });
    served.push(s);
    const { client, errors } = await connectClient(s.url);
    const error = await client.subscriptionsListen(LISTEN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.RequestEndedByPeerError);
    expect((error as R.RequestEndedByPeerError).reason).toBe("shutting down");
    expect(errors).toEqual([]);
    await client.close();
  });
});
