/**
 * Races (Cancellation, Timing Considerations: "Both parties MUST handle these race conditions
 * gracefully"), forced deterministically by delivering messages synchronously to the
 * endpoint's transport callback at the exact moment of interest.
 */
import { describe, expect, it } from "vitest";
import { RequestCancelledError } from "../../../generated/2025-11-25/index.js";
import { aborted, cancelled, clientWithRawPeer, connectPair, deferred, serverWithRawPeer, settle } from "../../../helpers/harness.js";

const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t" } });

describe("cancel vs. the handler's lifecycle", () => {
  it("cancel before the handler starts: the handler never runs and nothing is sent", async () => {
    let ran = false;
    const { wire, events } = await serverWithRawPeer({ handlers: { "tools/call": () => ((ran = true), { content: [] }) } });
    // Request and cancel delivered in the same tick, before the handler's microtask.
    wire.onmessage!(call(1) as never);
    wire.onmessage!(cancelled(1, "changed my mind") as never);
    await settle();
    expect(ran).toBe(false);
    expect(wire.sent).toEqual([]);
    expect(events).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason: "changed my mind" }]);
  });

  it("cancel after the handler returned but before its response was written: no response", async () => {
    const release = deferred();
    const { server, wire } = await serverWithRawPeer({ handlers: { "tools/call": async () => (await release.promise, { content: [] }) } });
    wire.onmessage!(call(1) as never);
    await settle();
    release.resolve(); // the handler's promise settles; the response is written on a later microtask
    wire.onmessage!(cancelled(1) as never);
    await settle();
    expect(wire.sent).toEqual([]);
    expect(server.inFlight.received).toBe(0);
  });

  it("cancel after the response: ignored as finished, nothing more is sent", async () => {
    const { wire, events } = await serverWithRawPeer({ handlers: { "tools/call": () => ({ content: [] }) } });
    wire.onmessage!(call(1) as never);
    await settle();
    expect(wire.responsesTo(1)).toHaveLength(1);
    wire.onmessage!(cancelled(1) as never);
    await settle();
    expect(wire.sent).toHaveLength(1);
    expect(events).toEqual([{ type: "ignored", cause: "finished", requestId: 1, reason: undefined }]);
  });

  it("a handler that ignores its signal and returns later still sends no response", async () => {
    const release = deferred();
    const { wire } = await serverWithRawPeer({ handlers: { "tools/call": async () => (await release.promise, { content: [] }) } });
    wire.onmessage!(call(1) as never);
    await settle();
    wire.onmessage!(cancelled(1) as never);
    release.resolve();
    await settle();
    expect(wire.sent).toEqual([]);
  });
});

describe("response and cancel crossing on the wire", () => {
  it("the client rejects with AbortError and drops the response; the server ignores the cancel as finished", async () => {
    const pair = await connectPair({ server: { handlers: { "tools/call": () => ({ content: [{ type: "text", text: "result" }] }) } } });
    // Hold the server's response back until the client has aborted.
    const held: Array<() => void> = [];
    const inner = pair.serverWire.inner;
    const send = inner.send.bind(inner);
    inner.send = (m, o) => new Promise<void>((resolve) => held.push(() => void send(m, o).then(resolve)));
    const ac = new AbortController();
    const result = pair.client.callTool({ name: "t" }, { signal: ac.signal }).catch((e: unknown) => e);
    await settle();
    expect(held).toHaveLength(1); // the response is written, not yet delivered
    ac.abort("crossing");
    inner.send = send;
    held.forEach((deliver) => deliver());
    await settle();
    expect(await result).toBeInstanceOf(RequestCancelledError);
    expect(pair.clientEvents).toEqual([
      { type: "sent", requestId: 1, method: "tools/call", reason: "crossing", cause: "abort" },
      { type: "late-response", requestId: 1 },
    ]);
    expect(pair.serverEvents).toEqual([{ type: "ignored", cause: "finished", requestId: 1, reason: "crossing" }]);
    expect(pair.client.inFlight).toEqual({ sent: 0, received: 0 });
    expect(pair.server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("a response that arrives in the same tick as the abort: whichever the client saw first wins, exactly once", async () => {
    const { client, peer, wire, events } = await clientWithRawPeer();
    const ac = new AbortController();
    let settlements = 0;
    const result = client.callTool({ name: "t" }, { signal: ac.signal }).then(
      (r) => (settlements++, r),
      (e: unknown) => (settlements++, e),
    );
    await settle();
    wire.onmessage!({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    ac.abort("same tick");
    expect(await result).toEqual({ content: [] });
    await settle();
    expect(settlements).toBe(1);
    expect(wire.cancels()).toEqual([]); // the response came first: nothing to cancel
    expect(events).toEqual([]);
    void peer;
  });
});

describe("both directions at once", () => {
  it("client and server cancel their own requests to each other; each reaches only its own direction", async () => {
    const toolSignal = deferred<AbortSignal>();
    const rootsSignal = deferred<AbortSignal>();
    const pair = await connectPair({
      client: { handlers: { "roots/list": async (_p, ctx) => (rootsSignal.resolve(ctx.signal), await aborted(ctx.signal), { roots: [] }) } },
      server: { handlers: { "tools/call": async (_p, ctx) => (toolSignal.resolve(ctx.signal), await aborted(ctx.signal), { content: [] }) } },
    });
    const acClient = new AbortController();
    const acServer = new AbortController();
    // Both requests get id 1 on their own side.
    const toolCall = pair.client.callTool({ name: "t" }, { signal: acClient.signal }).catch((e: unknown) => e);
    const roots = pair.server.listRoots({ signal: acServer.signal }).catch((e: unknown) => e);
    const [ts, rs] = await Promise.all([toolSignal.promise, rootsSignal.promise]);
    acServer.abort("server gave up");
    await settle();
    expect(rs.aborted).toBe(true);
    expect(ts.aborted).toBe(false); // same id 1, other direction: untouched
    acClient.abort("client gave up");
    await settle();
    expect(ts.aborted).toBe(true);
    expect(await toolCall).toBeInstanceOf(RequestCancelledError);
    expect(await roots).toBeInstanceOf(RequestCancelledError);
    expect(pair.clientWire.cancels()).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "client gave up" } }]);
    expect(pair.serverWire.cancels()).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "server gave up" } }]);
    expect(pair.clientWire.sent.filter((m) => !("method" in m))).toEqual([]);
    expect(pair.serverWire.sent.filter((m) => !("method" in m))).toEqual([]);
  });
});
