/**
 * Routing what the peer sends (endpoint.ts #receive, #route, #onNotification) where an
 * in-process peer can send anything: a message that throws when read goes to onError and the
 * connection keeps serving; null is dropped without a word; an invalid response reaches onError
 * only when it settles a request of ours; progress comes from notifications/progress only.
 */
import { describe, expect, it } from "vitest";
import { InvalidResponseError } from "../../../generated/2025-11-25/index.js";
import { clientWithRawPeer, serverWithRawPeer, settle } from "../../../helpers/harness.js";

describe("a hostile in-process peer", () => {
  it("a message whose fields throw when read: the error goes to onError, nothing is sent, the server keeps serving", async () => {
    const errors: Error[] = [];
    const { server, wire, peer } = await serverWithRawPeer({ onError: (e) => errors.push(e) });
    await peer.send({
      get jsonrpc(): string {
        throw new Error("getter says no");
      },
    });
    await settle();
    expect(errors.map((e) => e.message)).toEqual(["getter says no"]);
    expect(wire.sent).toEqual([]);
    await peer.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await settle();
    expect(peer.received).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    await server.close();
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
  ])("%s is dropped: nothing sent, nothing reported", async (_name, message) => {
    const errors: Error[] = [];
    const { server, wire, peer } = await serverWithRawPeer({ onError: (e) => errors.push(e) });
    await peer.send(message);
    await settle();
    expect(errors).toEqual([]);
    expect(wire.sent).toEqual([]);
    await server.close();
  });
});

describe("responses and progress from the peer", () => {
  it("an invalid response for an id never sent is dropped without onError; for a pending request it rejects the call and reaches onError", async () => {
    const errors: Error[] = [];
    const { client, peer } = await clientWithRawPeer({ onError: (e) => errors.push(e) });
    const call = client.listTools(undefined, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    await settle();
    await peer.send({ jsonrpc: "2.0", id: 99, result: "not an object" });
    await settle();
    expect(errors).toEqual([]);
    await peer.send({ jsonrpc: "2.0", id: 1, result: "not an object" });
    const error = await call;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(errors).toEqual([error]);
    await client.close();
  });

  it("a notification other than notifications/progress that carries a request's progress token is not progress", async () => {
    const progress: unknown[] = [];
    const { client, peer } = await clientWithRawPeer({
      notificationHandlers: { "notifications/message": () => undefined },
    });
    const call = client.listTools(undefined, { timeoutMs: 10_000, onProgress: (p) => progress.push(p) });
    await settle();
    const token = (peer.requests("tools/list")[0]?.params?.["_meta"] as { progressToken?: unknown } | undefined)?.progressToken;
    expect(token).toBe(1);
    await peer.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x", progressToken: token, progress: 5 } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 6 } });
    await settle();
    expect(progress).toEqual([{ progress: 6 }]);
    await peer.send({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    await expect(call).resolves.toEqual({ tools: [] });
    await client.close();
  });
});
