/**
 * ctx.end() (endpoint.ts #endReceived, 2026-07-28: the server ends subscriptions/listen): without
 * a reason the notification says which request ended and by whom; a second end, or a notify of
 * the same cancel after it, sends nothing more and reports nothing more.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import type { CancellationEvent, JsonRpcMessage } from "../../../generated/2026-07-28/index.js";
import { deferred, settle, TapTransport } from "../../../helpers/harness.js";

const LISTEN_REQUEST = {
  jsonrpc: "2.0",
  id: 1,
  method: "subscriptions/listen",
  params: {
    notifications: { toolsListChanged: true },
    _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
  },
};

describe("ctx.end()", () => {
  it("without a reason: one notifications/cancelled naming the method and the server; a second end sends nothing", async () => {
    const ends: unknown[] = [];
    const done = deferred();
    const events: CancellationEvent[] = [];
    const server = new R.McpServer({
      logger: null,
      onCancellation: (e) => events.push(e),
      handlers: {
        "subscriptions/listen": async (_params, ctx) => {
          ends.push(await ctx.end());
          ends.push(await ctx.end("again"));
          ends.push(await (ctx as unknown as R.HandlerContext).notify("notifications/cancelled", { requestId: 1, reason: "once more" }).catch((e: unknown) => e));
          done.resolve();
          return { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "s" } };
        },
      },
    });
    const [a, b] = R.createInMemoryTransportPair();
    const wire = new TapTransport(b);
    const received: JsonRpcMessage[] = [];
    a.onmessage = (m) => void received.push(m);
    await a.start();
    await server.connect(wire);
    await a.send(LISTEN_REQUEST as JsonRpcMessage);
    await done.promise;
    await settle();
    const reason = "subscriptions/listen ended by the server";
    expect(wire.sent).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason } }]);
    expect(events).toEqual([{ type: "sent", requestId: 1, method: "subscriptions/listen", reason, cause: "end" }]);
    // Both later attempts settle; the notify finds the request no longer in flight.
    expect(ends[0]).toBeUndefined();
    expect(ends[1]).toBeUndefined();
    expect(ends[2]).toBeInstanceOf(R.CancellationForbiddenError);
    expect(ends[2]).toMatchObject({ why: "not-in-flight" });
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
    await server.close();
  });
});
