/**
 * Notifications from the peer (endpoint.ts #route, #onNotification): each goes to its handler
 * with its params; a handler that throws or rejects hands its error to onError and the connection
 * keeps serving; a notification whose params are not an object reaches no handler (a cancel of
 * that kind is ignored as malformed); nothing ever goes back to the peer.
 */
import { describe, expect, it } from "vitest";
import { deferred, serverWithRawPeer, settle } from "../../../helpers/harness.js";

const note = (method: string, params?: unknown) => (params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });

describe("notification handlers", () => {
  it("get the params; a throw and a rejection go to onError as they are, and the server keeps serving", async () => {
    const seen: unknown[] = [];
    const errors: Error[] = [];
    const { server, wire, peer } = await serverWithRawPeer({
      onError: (e) => errors.push(e),
      notificationHandlers: {
        "notifications/initialized": (params) => {
          seen.push(["initialized", params]);
          throw new Error("sync failure");
        },
        "notifications/roots/list_changed": async (params) => {
          seen.push(["roots", params]);
          throw new Error("async failure");
        },
      },
    });
    await peer.send(note("notifications/initialized"));
    await peer.send(note("notifications/roots/list_changed", { _meta: { k: 1 } }));
    await settle();
    expect(seen).toEqual([
      ["initialized", undefined],
      ["roots", { _meta: { k: 1 } }],
    ]);
    expect(errors.map((e) => e.message)).toEqual(["sync failure", "async failure"]);
    expect(wire.sent).toEqual([]);
    await peer.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await settle();
    expect(peer.received).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    await server.close();
  });

  it("a notification without a handler, or with params that are not an object, reaches no handler and gets no answer", async () => {
    const seen: unknown[] = [];
    const errors: Error[] = [];
    const { server, wire, peer, events } = await serverWithRawPeer({
      onError: (e) => errors.push(e),
      notificationHandlers: { "notifications/initialized": (params) => void seen.push(params) },
    });
    await peer.send(note("notifications/initialized", "not an object"));
    await peer.send(note("notifications/initialized", [1, 2]));
    await peer.send(note("notifications/initialized", null));
    await peer.send(note("notifications/roots/list_changed", {}));
    await peer.send(note("notifications/initialized", { ok: true }));
    await settle();
    expect(seen).toEqual([{ ok: true }]);
    expect(wire.sent).toEqual([]);
    expect(errors).toEqual([]);
    expect(events).toEqual([]); // none of them is taken for a cancel
    await server.close();
  });
});

describe("a cancel whose params are not an object", () => {
  it.each([
    ["an array", [7]],
    ["a string", "7"],
  ])("(%s) is ignored as malformed: the handler runs on and answers", async (_name, params) => {
    const release = deferred();
    let signal: AbortSignal | undefined;
    const { server, wire, peer, events } = await serverWithRawPeer({
      handlers: {
        "tools/call": async (_p, ctx) => {
          signal = ctx.signal;
          await release.promise;
          return { content: [] };
        },
      },
    });
    await peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t" } });
    await settle();
    await peer.send(note("notifications/cancelled", params));
    await settle();
    expect(events).toEqual([{ type: "ignored", cause: "malformed", requestId: undefined, reason: undefined }]);
    expect(signal?.aborted).toBe(false);
    release.resolve();
    await settle();
    expect(wire.sent).toEqual([{ jsonrpc: "2.0", id: 7, result: { content: [] } }]);
    await server.close();
  });
});
