/** General JSON-RPC hygiene of the runtime, and what a closing transport does to both paths. */
import { describe, expect, it } from "vitest";
import { ConnectionClosedError } from "../../../generated/2025-11-25/index.js";
import { aborted, connectPair, deferred, serverWithRawPeer, settle } from "../../../helpers/harness.js";

describe("JSON-RPC hygiene", () => {
  it("a duplicate id of an in-flight request gets -32600 and leaves the original alone", async () => {
    const release = deferred();
    let runs = 0;
    const { wire, peer } = await serverWithRawPeer({ handlers: { "tools/call": async () => (runs++, await release.promise, { content: [] }) } });
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } });
    await settle();
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "b" } });
    await settle();
    expect(wire.sent).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32600, message: "Invalid Request: id 1 is already in flight" } }]);
    release.resolve();
    await settle();
    expect(runs).toBe(1);
    expect(wire.sent[1]).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [] } });
  });

  it("an invalid message with an id gets -32600; without an id it is dropped; a response for an unknown id is dropped", async () => {
    const { server, wire, peer } = await serverWithRawPeer();
    await peer.send({ jsonrpc: "1.0", id: 1, method: "ping" });
    await peer.send({ jsonrpc: "2.0", id: 2 });
    await peer.send({ jsonrpc: "2.0", id: 3, method: "ping", params: "not an object" });
    await peer.send({ jsonrpc: "2.0", id: { bad: true }, method: "ping" });
    await peer.send({ jsonrpc: "2.0" });
    await peer.send("not even an object");
    await peer.send({ jsonrpc: "2.0", id: 999, result: {} });
    await settle();
    expect(wire.sent).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "Invalid Request" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32600, message: "Invalid Request" } },
      { jsonrpc: "2.0", id: 3, error: { code: -32600, message: "Invalid Request: params must be an object" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: bad id" } },
    ]);
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("an error response rejects with McpError carrying code, message and data", async () => {
    const pair = await connectPair();
    await expect(pair.client.listTools()).rejects.toMatchObject({ name: "McpError", code: -32601, message: "Method not found: tools/list" });
  });
});

describe("transport close", () => {
  it("aborts every in-flight handler and rejects every pending request with ConnectionClosedError, on both sides", async () => {
    const handlerSignal = deferred<AbortSignal>();
    const pair = await connectPair({
      server: { handlers: { "tools/call": async (_p, ctx) => (handlerSignal.resolve(ctx.signal), await aborted(ctx.signal), { content: [] }) } },
      client: { handlers: { "roots/list": async (_p, ctx) => (await aborted(ctx.signal), { roots: [] }) } },
    });
    const clientCall = pair.client.callTool({ name: "t" }, { timeoutMs: 200 }).catch((e: unknown) => e);
    const serverCall = pair.server.listRoots({ timeoutMs: 200 }).catch((e: unknown) => e);
    const signal = await handlerSignal.promise;
    await pair.client.close();
    expect(await clientCall).toBeInstanceOf(ConnectionClosedError);
    expect(await serverCall).toBeInstanceOf(ConnectionClosedError);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("Connection closed");
    await new Promise((r) => setTimeout(r, 250)); // past both timeouts: no timer fires, nothing is sent
    expect(pair.clientWire.cancels()).toEqual([]);
    expect(pair.serverWire.cancels()).toEqual([]);
    expect(pair.client.inFlight).toEqual({ sent: 0, received: 0 });
    expect(pair.server.inFlight).toEqual({ sent: 0, received: 0 });
  });
});
