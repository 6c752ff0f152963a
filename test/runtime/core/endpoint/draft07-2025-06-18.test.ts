/**
 * The same cancellation rules on a draft-07 revision (2025-06-18: `definitions`, inline params,
 * no tasks), at the wire level and through its typed API.
 */
import { describe, expect, it } from "vitest";
import * as R0618 from "../../../generated/2025-06-18/index.js";
import { aborted, cancelled, deferred, settle, TapTransport } from "../../../helpers/harness.js";

async function pair(serverHandlers: R0618.McpServerOptions["handlers"] = {}) {
  const [a, b] = R0618.createInMemoryTransportPair();
  const clientWire = new TapTransport(a);
  const serverWire = new TapTransport(b);
  const clientEvents: R0618.CancellationEvent[] = [];
  const serverEvents: R0618.CancellationEvent[] = [];
  const client = new R0618.McpClient({ logger: null, onCancellation: (e) => clientEvents.push(e) });
  const server = new R0618.McpServer({ logger: null, onCancellation: (e) => serverEvents.push(e), handlers: serverHandlers });
  await server.connect(serverWire);
  await client.connect(clientWire, { initialize: false });
  return { client, server, clientWire, serverWire, clientEvents, serverEvents };
}

const initParams = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } };

describe("2025-06-18 (draft-07 schema)", () => {
  it("an aborted tools/call sends one cancel, aborts the handler and gets no response", async () => {
    const started = deferred<AbortSignal>();
    const p = await pair({ "tools/call": async (_params, ctx) => (started.resolve(ctx.signal), await aborted(ctx.signal), { content: [] }) });
    const ac = new AbortController();
    const call = p.client.callTool({ name: "slow" }, { signal: ac.signal }).catch((e: unknown) => e);
    const signal = await started.promise;
    ac.abort("stop");
    expect(await call).toBeInstanceOf(R0618.RequestCancelledError);
    await settle();
    expect(signal.aborted).toBe(true);
    expect(p.clientWire.cancels()).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "stop" } }]);
    expect(p.serverWire.responsesTo(1)).toEqual([]);
    expect(p.serverEvents).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason: "stop" }]);
  });

  it("initialize refuses a signal from untyped code, sends nothing on timeout, and a server ignores a cancel of it", async () => {
    const release = deferred();
    let initSignal: AbortSignal | undefined;
    const p = await pair({
      initialize: async (_params, ctx) => {
        initSignal = ctx.signal;
        await release.promise;
        return { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } };
      },
    });
    const untyped = p.client.initialize as (params: unknown, options: unknown) => Promise<unknown>;
    await expect(untyped.call(p.client, initParams, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(R0618.CancellationForbiddenError);
    await settle();
    expect(p.clientWire.sent).toEqual([]);

    await expect(p.client.initialize(initParams, { timeoutMs: 10 })).rejects.toBeInstanceOf(R0618.RequestTimeoutError);
    expect(p.clientWire.cancels()).toEqual([]);
    // A (misbehaving) client cancels initialize anyway: the server ignores it and answers.
    await p.clientWire.inner.send(cancelled(1, "rude") as R0618.JsonRpcMessage);
    await settle();
    expect(initSignal?.aborted).toBe(false);
    expect(p.serverEvents).toEqual([{ type: "ignored", cause: "uncancellable", requestId: 1, reason: "rude", method: "initialize" }]);
    release.resolve();
    await settle();
    expect(p.serverWire.responsesTo(1)).toHaveLength(1);
  });

  it("ignores malformed and unknown cancels without a word to the peer", async () => {
    const p = await pair();
    for (const m of [cancelled(true), cancelled(1, 5), { jsonrpc: "2.0", method: "notifications/cancelled" }, cancelled(42)]) {
      await p.clientWire.inner.send(m as R0618.JsonRpcMessage);
    }
    await settle();
    expect(p.serverWire.sent).toEqual([]);
    expect(p.serverEvents.map((e) => (e.type === "ignored" ? e.cause : e.type))).toEqual(["malformed", "malformed", "malformed", "unknown-request"]);
    await expect(p.client.ping()).resolves.toEqual({});
  });

  it("has the typed methods of its catalog: elicitation from the server, no tasks", () => {
    const server = new R0618.McpServer();
    expect(typeof server.elicit).toBe("function");
    expect("cancelTask" in new R0618.McpClient()).toBe(false);
  });
});
