/**
 * notify("notifications/cancelled", ...) is no way around the send path: from either side, typed
 * or not, it is sent only where the request's signal would send it (Cancellation, Behavior
 * Requirements 1-3), and on 2026-07-28 a server's notify of it ends only its own live
 * subscriptions/listen, with ctx.end()'s bookkeeping. Checked at the wire level.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import * as S from "../../../generated/2026-07-28/index.js";
import type { CancellationEvent, Transport } from "../../../generated/2026-07-28/index.js";
import { aborted, cancelled, clientWithRawPeer, connectPair, deferred, INITIALIZE_PARAMS, settle, TapTransport } from "../../../helpers/harness.js";

/** The generic notify, as untyped code (or a cast) reaches it. */
type UntypedNotify = { notify(method: string, params?: object): Promise<void> };
const untyped = (side: object) => side as UntypedNotify;

describe("2025-11-25: the client's notify of notifications/cancelled follows the signal's rules", () => {
  it("initialize in flight: refused with CancellationForbiddenError (uncancellable), nothing on the wire", async () => {
    const { client, wire } = await clientWithRawPeer();
    void client.initialize(INITIALIZE_PARAMS).catch(() => {});
    await settle();
    const error = await untyped(client).notify("notifications/cancelled", { requestId: 1, reason: "nope" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.CancellationForbiddenError);
    expect(error).toMatchObject({ method: "initialize", why: "uncancellable" });
    expect(wire.cancels()).toEqual([]);
    expect(client.inFlight.sent).toBe(1);
  });

  it("a task-augmented request: refused (task-augmented): cancel it with tasks/cancel", async () => {
    const { client, wire } = await clientWithRawPeer();
    void client.callTool({ name: "t", task: { ttl: 1000 } }).catch(() => {});
    await settle();
    await expect(untyped(client).notify("notifications/cancelled", { requestId: 1 })).rejects.toMatchObject({ name: "CancellationForbiddenError", why: "task-augmented" });
    expect(wire.cancels()).toEqual([]);
  });

  it.each([
    ["an id never sent", 42],
    ["an id the peer used for its own request", "s1"],
  ])("%s: refused (not-in-flight)", async (_name, requestId) => {
    const { client, wire, peer } = await clientWithRawPeer({ handlers: { "roots/list": async (_p, ctx) => (await aborted(ctx.signal), { roots: [] }) } });
    await peer.send({ jsonrpc: "2.0", id: "s1", method: "roots/list" });
    await settle();
    const error = await untyped(client).notify("notifications/cancelled", { requestId }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.CancellationForbiddenError);
    expect(error).toMatchObject({ why: typeof requestId === "number" ? "not-in-flight" : "not-permitted" });
    expect(wire.cancels()).toEqual([]);
  });

  it("a finished request: refused (not-in-flight)", async () => {
    const { client, wire, peer } = await clientWithRawPeer();
    const call = client.ping();
    await settle();
    await peer.send({ jsonrpc: "2.0", id: 1, result: {} });
    await call;
    await expect(untyped(client).notify("notifications/cancelled", { requestId: 1 })).rejects.toMatchObject({ why: "not-in-flight" });
    expect(wire.cancels()).toEqual([]);
  });

  it("malformed params: a TypeError, nothing on the wire", async () => {
    const { client, wire } = await clientWithRawPeer();
    for (const params of [undefined, {}, { requestId: 1.5 }, { requestId: [] }, { requestId: 1, reason: 7 }]) {
      await expect(untyped(client).notify("notifications/cancelled", params)).rejects.toBeInstanceOf(TypeError);
    }
    expect(wire.sent).toEqual([]);
  });

  it("a cancellable request in flight: cancelled exactly as by its signal (one notification, rejection, late response ignored)", async () => {
    const { client, wire, peer, events } = await clientWithRawPeer();
    const call = client.callTool({ name: "slow" }).catch((e: unknown) => e);
    await settle();
    await untyped(client).notify("notifications/cancelled", { requestId: 1, reason: "changed my mind" });
    const error = await call;
    expect(error).toBeInstanceOf(R.RequestCancelledError);
    expect(error).toMatchObject({ method: "tools/call", requestId: 1, reason: "changed my mind" });
    expect(wire.cancels()).toEqual([cancelled(1, "changed my mind")]);
    expect(client.inFlight.sent).toBe(0);
    await peer.send({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    await settle();
    expect(events).toEqual([
      { type: "sent", requestId: 1, method: "tools/call", reason: "changed my mind", cause: "notify" },
      { type: "late-response", requestId: 1 },
    ]);
    // A second notify for the same id is refused: it is no longer in flight.
    await expect(untyped(client).notify("notifications/cancelled", { requestId: 1 })).rejects.toMatchObject({ why: "not-in-flight" });
    expect(wire.cancels()).toHaveLength(1);
  });

  it("a server handler's ctx.notify of a cancel for its own request is refused (a receiver cancels nothing in 2025 revisions)", async () => {
    let refusal: unknown;
    const { client, serverWire } = await connectPair({
      server: {
        handlers: {
          "tools/call": async (_params, ctx) => {
            refusal = await untyped(ctx).notify("notifications/cancelled", { requestId: ctx.requestId }).catch((e: unknown) => e);
            return { content: [] };
          },
        },
      },
    });
    await expect(client.callTool({ name: "t" })).resolves.toEqual({ content: [] });
    expect(refusal).toMatchObject({ name: "CancellationForbiddenError", method: "tools/call", why: "not-permitted" });
    expect(serverWire.cancels()).toEqual([]);
  });
});

describe("2026-07-28: a server's notify of notifications/cancelled", () => {
  async function pair(handlers: NonNullable<S.McpServerOptions["handlers"]>) {
    const [a, b] = S.createInMemoryTransportPair();
    const clientWire = new TapTransport(a as never);
    const serverWire = new TapTransport(b as never);
    const clientEvents: CancellationEvent[] = [];
    const serverEvents: CancellationEvent[] = [];
    const client = new S.McpClient({ logger: null, onCancellation: (e) => clientEvents.push(e) });
    const server = new S.McpServer({ logger: null, onCancellation: (e) => serverEvents.push(e), handlers });
    await server.connect(serverWire as unknown as Transport);
    await client.connect(clientWire as unknown as Transport, { initialize: false });
    return { client, server, clientWire, serverWire, clientEvents, serverEvents };
  }
  const LISTEN = { notifications: { toolsListChanged: true } };

  it("ends a live subscriptions/listen with ctx.end()'s bookkeeping: handler aborted, nothing left in flight, no response after", async () => {
    const started = deferred<AbortSignal>();
    const { client, server, serverWire, serverEvents, clientEvents } = await pair({
      "subscriptions/listen": async (_params, ctx) => {
        started.resolve(ctx.signal);
        await aborted(ctx.signal);
        return { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "s" } };
      },
    });
    const listen = client.subscriptionsListen(LISTEN).catch((e: unknown) => e);
    const signal = await started.promise;
    await untyped(server).notify("notifications/cancelled", { requestId: 1, reason: "shutting down" });
    expect(await listen).toBeInstanceOf(S.RequestEndedByPeerError);
    await settle();
    expect(signal.aborted).toBe(true);
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
    expect(serverWire.sent).toEqual([cancelled(1, "shutting down")]);
    expect(serverEvents).toEqual([{ type: "sent", requestId: 1, method: "subscriptions/listen", reason: "shutting down", cause: "end" }]);
    expect(clientEvents).toEqual([{ type: "ended", requestId: 1, method: "subscriptions/listen", reason: "shutting down" }]);
  });

  it("an id it never received is refused (not-in-flight), and the client's listen goes on", async () => {
    const release = deferred();
    const { client, server, serverWire } = await pair({
      "subscriptions/listen": async () => (await release.promise, { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "s" } }),
    });
    const listen = client.subscriptionsListen(LISTEN);
    await settle();
    await expect(untyped(server).notify("notifications/cancelled", { requestId: 99 })).rejects.toMatchObject({ why: "not-in-flight" });
    expect(serverWire.cancels()).toEqual([]);
    release.resolve();
    await expect(listen).resolves.toMatchObject({ resultType: "complete" });
  });

  it("a request that is not subscriptions/listen is refused (not-permitted)", async () => {
    const release = deferred();
    const { client, server, serverWire } = await pair({ "tools/call": async () => (await release.promise, { resultType: "complete", content: [] }) });
    const call = client.callTool({ name: "t" });
    await settle();
    await expect(untyped(server).notify("notifications/cancelled", { requestId: 1 })).rejects.toMatchObject({ method: "tools/call", why: "not-permitted" });
    expect(serverWire.cancels()).toEqual([]);
    release.resolve();
    await expect(call).resolves.toMatchObject({ resultType: "complete" });
  });
});
