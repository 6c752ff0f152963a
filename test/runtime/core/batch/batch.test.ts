/**
 * JSON-RPC batches received by the endpoint (core/batch.ts), at the wire: a generated 2025-03-26
 * McpServer (its schema admits batches: "MCP implementations ... MUST support receiving JSON-RPC
 * batches") over a real stdio child process, and in memory, with exact messages out: a mixed batch
 * is answered with one array of its requests' responses, in the requests' order; a batch of
 * notifications only gets nothing; an empty batch is -32600 with id null (JSON-RPC 2.0 §6); a
 * request cancelled by a cancel in the same batch (or a later message) leaves its batch, and a
 * batch whose requests were all cancelled gets nothing; a batch longer than MAX_BATCH_LENGTH is
 * refused whole, nothing of it run. A 2025-06-18 server (no batches in its schema) keeps refusing
 * them with -32600.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MAX_BATCH_LENGTH } from "../../../../templates/runtime/core/batch.js";
import { call, cancel, INITIALIZE, memoryPeer, notification, request, stdioPeer, type Peer } from "./support.js";

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

const text = (value: string) => ({ content: [{ type: "text", text: value }] });
const result = (id: number | string, value: object) => ({ jsonrpc: "2.0", id, result: value });
const invalidRequest = (message: string) => JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: ${message}` } });
/** A ping sent alone, and its answer: what shows that nothing else was sent before it. */
async function pingAlone(id: number): Promise<void> {
  peer!.send(request(id, "ping"));
  expect(await peer!.next()).toBe(JSON.stringify(result(id, {})));
}

const FACES = { "a stdio child process": stdioPeer, "in memory": memoryPeer } as const;

describe.each(Object.entries(FACES))("2025-03-26 batches, %s", (_face, open) => {
  async function initialized(): Promise<Peer> {
    peer = await open("2025-03-26");
    peer.send(INITIALIZE);
    expect(JSON.parse(await peer.next())).toMatchObject({ id: 0, result: { protocolVersion: "2025-03-26" } });
    peer.send(notification("notifications/initialized"));
    return peer;
  }

  it("a mixed batch: one array of the requests' responses, in the requests' order (errors included), the notification handled", async () => {
    const p = await initialized();
    p.send([call(1, "echo", "a"), notification("notifications/roots/list_changed"), request("b", "ping"), request(3, "nope"), call(4, "echo", "d")]);
    expect(await p.next()).toBe(
      JSON.stringify([
        result(1, text("a")),
        result("b", {}),
        { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found: nope" } },
        result(4, text("d")),
      ]),
    );
    await pingAlone(90);
  });

  it("a batch of notifications only, and a batch of responses only, get nothing back", async () => {
    const p = await initialized();
    p.send([notification("notifications/roots/list_changed"), notification("notifications/roots/list_changed")]);
    p.send([result("nobody-asked", {})]);
    await pingAlone(91);
  });

  it("an empty batch is one -32600 with id null; so is a batch with initialize, mixing requests with responses, repeating an id, or holding a non-message", async () => {
    const p = await initialized();
    p.send([]);
    expect(await p.next()).toBe(invalidRequest("an empty batch"));
    p.send([request(5, "ping"), request(5, "ping")]);
    expect(await p.next()).toBe(invalidRequest("a request id of the batch is repeated or already in flight"));
    p.send([request(6, "ping"), result(7, {})]);
    expect(await p.next()).toBe(invalidRequest("a batch holds requests and notifications, or responses, not both"));
    p.send([INITIALIZE]);
    expect(await p.next()).toBe(invalidRequest("initialize is never part of a batch"));
    p.send([request(8, "ping"), 1]);
    expect(await p.next()).toBe(invalidRequest("each message must be a JSON-RPC 2.0 object"));
    await pingAlone(92); // none of the refused batches' pings was answered
  });

  it("a cancel in the same batch: the cancelled request leaves the batch; all cancelled: nothing back; a later cancel releases the rest", async () => {
    const p = await initialized();
    p.send([call(10, "slow"), request(11, "ping"), cancel(10)]);
    expect(await p.next()).toBe(JSON.stringify([result(11, {})]));
    p.send([call(12, "slow"), cancel(12)]);
    await pingAlone(93);
    p.send([call(13, "slow"), call(14, "echo", "e")]);
    p.send(cancel(13));
    expect(await p.next()).toBe(JSON.stringify([result(14, text("e"))]));
  });

  it(`a batch of MAX_BATCH_LENGTH (${MAX_BATCH_LENGTH}) requests is answered whole; one more message is refused whole, nothing of it run`, async () => {
    const p = await initialized();
    const pings = (count: number, from: number) => Array.from({ length: count }, (_, i) => request(from + i, "ping"));
    p.send(pings(MAX_BATCH_LENGTH, 1000));
    expect(await p.next()).toBe(JSON.stringify(pings(MAX_BATCH_LENGTH, 1000).map((r) => result(r.id, {}))));
    p.send([...pings(MAX_BATCH_LENGTH, 5000), call(9999, "echo", "never")]);
    expect(await p.next()).toBe(invalidRequest(`a batch of ${MAX_BATCH_LENGTH + 1} messages (at most ${MAX_BATCH_LENGTH})`));
    await pingAlone(94);
  });
});

describe.each(Object.entries(FACES))("2025-06-18 refuses batches, %s", (_face, open) => {
  it("a batch, even of one ping, is one -32600 with id null; the ping alone is answered", async () => {
    peer = await open("2025-06-18");
    peer.send([request(1, "ping")]);
    expect(await peer.next()).toBe(invalidRequest("JSON-RPC batches are not part of this protocol version"));
    peer.send([]);
    expect(await peer.next()).toBe(invalidRequest("JSON-RPC batches are not part of this protocol version"));
    await pingAlone(2);
  });
});
