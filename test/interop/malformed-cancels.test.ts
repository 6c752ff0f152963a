/**
 * Interop 3: malformed and stale notifications/cancelled, sent raw by the test as the peer, leave
 * both implementations serving. Against our McpServer and the SDK's McpServer (client→server
 * cancels), and against our McpClient and the SDK's Client (server→client cancels); over the
 * SDK's InMemoryTransport and over stdio (the peer in a child process).
 *
 * Cancellation (2025-11-25), Error Handling: "Invalid cancellation notifications SHOULD be
 * ignored: Unknown request IDs, Already completed requests, Malformed notifications". Each is
 * followed by a normal request, which must succeed; a request in flight throughout must not be
 * touched by any of them, and a well-formed cancel must still end it afterwards.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sampled, TEXT, type Observations, type Wire } from "./peers/common.js";

import type { PeerName } from "./peers/index.js";
import { SDK_ECHO_TEXT } from "./peers/sdk-server.js";
import { cancelled, closePeers, IN_MEMORY, INITIALIZE_PARAMS, isRequest, isResponse, openPeer, parseObservations, RawPeer, responsesIn, STDIO, waitFor } from "./support.js";

afterEach(closePeers);

/** The request that stays in flight while the bad cancels arrive; then cancelled for real. */
const IN_FLIGHT_ID = 2;
/** A request answered before the bad cancels: "id of a finished request". */
const FINISHED_ID = 3;

const cancel = (params?: unknown): Wire =>
  params === undefined ? { jsonrpc: "2.0", method: "notifications/cancelled" } : { jsonrpc: "2.0", method: "notifications/cancelled", params };

/** Each bad cancel, and how our runtime classifies it (its onCancellation "ignored" cause). */
const BAD_CANCELS: readonly { name: string; message: Wire; cause: string }[] = [
  { name: "no params", message: cancel(), cause: "malformed" },
  { name: "params without requestId", message: cancel({ reason: "no id" }), cause: "malformed" },
  { name: "requestId null", message: cancel({ requestId: null, reason: "null id" }), cause: "malformed" },
  { name: "requestId a boolean", message: cancel({ requestId: true }), cause: "malformed" },
  { name: "requestId an object", message: cancel({ requestId: { id: IN_FLIGHT_ID } }), cause: "malformed" },
  { name: "requestId an array", message: cancel({ requestId: [IN_FLIGHT_ID] }), cause: "malformed" },
  { name: "requestId a fraction", message: cancel({ requestId: IN_FLIGHT_ID + 0.5 }), cause: "malformed" },
  { name: "the in-flight id with a reason that is not a string", message: cancel({ requestId: IN_FLIGHT_ID, reason: 42 }), cause: "malformed" },
  { name: "params a string", message: cancel(`cancel ${IN_FLIGHT_ID}`), cause: "malformed" },
  { name: "params an array", message: cancel([IN_FLIGHT_ID]), cause: "malformed" },
  { name: "params null", message: cancel(null), cause: "malformed" },
  // A string id is not the number id of the request in flight (JSON-RPC ids keep their type).
  { name: "the in-flight id as a string", message: cancel({ requestId: String(IN_FLIGHT_ID) }), cause: "unknown-request" },
  { name: "unknown numeric id", message: cancel({ requestId: 987654, reason: "stale" }), cause: "unknown-request" },
  { name: "unknown string id", message: cancel({ requestId: "no-such-request" }), cause: "unknown-request" },
  { name: "id of a finished request", message: cancel({ requestId: FINISHED_ID, reason: "too late" }), cause: "finished" },
];

interface Target {
  readonly peer: PeerName;
  readonly role: "server" | "client";
  /** The generated runtime (reports its onCancellation events). */
  readonly ours: boolean;
  /** A normal request, labelled, and its expected result. */
  request(label: string): { method: string; params: Wire };
  result(label: string): unknown;
  /** The request kept in flight until its handler's signal fires. */
  readonly slow: { method: string; params: Wire };
  /** Asks the peer what it saw. */
  observe(peer: RawPeer, id: number): Promise<Observations>;
}

const observeServer = async (peer: RawPeer, id: number) =>
  parseObservations((await peer.request(id, "tools/call", { name: "observations" }))["result"]);
const observeClient = async (peer: RawPeer, id: number) =>
  ((await peer.request(id, "roots/list"))["result"] as { _meta: { observations: Observations } })._meta.observations;
const samplingParams = (text: string) => ({ messages: [{ role: "user", content: TEXT(text) }], maxTokens: 16 });

const TARGETS: readonly Target[] = [
  {
    peer: "our-server",
    role: "server",
    ours: true,
    request: (label) => ({ method: "tools/call", params: { name: "echo", arguments: { text: label } } }),
    result: (label) => ({ content: [TEXT(`echo: ${label}`)] }),
    slow: { method: "tools/call", params: { name: "slow" } },
    observe: observeServer,
  },
  {
    peer: "sdk-server",
    role: "server",
    ours: false,
    request: () => ({ method: "tools/call", params: { name: "echo" } }),
    result: () => ({ content: [TEXT(SDK_ECHO_TEXT)] }),
    slow: { method: "tools/call", params: { name: "slow" } },
    observe: observeServer,
  },
  {
    peer: "our-client",
    role: "client",
    ours: true,
    request: (label) => ({ method: "sampling/createMessage", params: samplingParams(label) }),
    result: (label) => sampled(label),
    slow: { method: "sampling/createMessage", params: samplingParams("slow") },
    observe: observeClient,
  },
  {
    peer: "sdk-client",
    role: "client",
    ours: false,
    request: (label) => ({ method: "sampling/createMessage", params: samplingParams(label) }),
    result: (label) => sampled(label),
    slow: { method: "sampling/createMessage", params: samplingParams("slow") },
    observe: observeClient,
  },
];

/** Opens the connection as the raw peer and goes through initialization, in either role. */
async function handshake(target: Target, peer: RawPeer): Promise<void> {
  if (target.role === "server") {
    expect(await peer.request(1, "initialize", INITIALIZE_PARAMS)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25" } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  } else {
    const initialize = await peer.message("the client's initialize", (m) => isRequest(m, "initialize"));
    await peer.send({
      jsonrpc: "2.0",
      id: initialize["id"],
      result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "raw-test-server", version: "1.0.0" } },
    });
    await peer.message("notifications/initialized", (m) => m["method"] === "notifications/initialized");
  }
}

describe.each([IN_MEMORY, STDIO])("malformed and stale cancels over $name", (mode) => {
  it.each(TARGETS)("leave the $peer serving; a request in flight is untouched until a valid cancel ends it", async (target) => {
    const link = await openPeer(target.peer, mode);
    const peer = new RawPeer(link.transport, () => `child stderr: ${link.stderr()}`);
    await peer.start();
    await handshake(target, peer);
    const start = peer.received.length; // what arrives from here on is checked message by message

    await peer.send({ jsonrpc: "2.0", id: IN_FLIGHT_ID, ...target.slow });
    const first = target.request("first");
    expect(await peer.request(FINISHED_ID, first.method, first.params)).toEqual({ jsonrpc: "2.0", id: FINISHED_ID, result: target.result("first") });

    const expected: Wire[] = [{ jsonrpc: "2.0", id: FINISHED_ID, result: target.result("first") }];
    for (const [i, bad] of BAD_CANCELS.entries()) {
      await peer.send(bad.message);
      const id = 10 + i;
      const next = target.request(bad.name);
      const response = await peer.request(id, next.method, next.params);
      expect(response, `the request after a cancel with ${bad.name}`).toEqual({ jsonrpc: "2.0", id, result: target.result(bad.name) });
      expected.push(response);
    }
    // Exactly one response per request, nothing for the notifications, none for the request in flight.
    expect(peer.received.slice(start)).toEqual(expected);
    expect(responsesIn(peer.received, IN_FLIGHT_ID)).toEqual([]);

    // The request in flight is still cancellable: a well-formed cancel reaches its handler.
    await peer.send(cancelled(IN_FLIGHT_ID, "now for real"));
    let observeId = 100;
    const seen = await waitFor("the in-flight handler to see its signal", async () => {
      const observations = await target.observe(peer, observeId++);
      return observations.handlers[String(IN_FLIGHT_ID)]?.returned ? observations : undefined;
    });
    expect(seen.handlers[String(IN_FLIGHT_ID)]).toEqual({ requestId: IN_FLIGHT_ID, signalReason: "now for real", returned: true });
    // No response for it, then or now (the handler returned: its result was dropped).
    const last = target.request("last");
    expect(await peer.request(999, last.method, last.params)).toEqual({ jsonrpc: "2.0", id: 999, result: target.result("last") });
    expect(responsesIn(peer.received, IN_FLIGHT_ID)).toEqual([]);
    expect(responsesIn(seen.sent, IN_FLIGHT_ID)).toEqual([]);
    // Nothing but responses came back: no error answers to notifications.
    expect(peer.received.slice(start).filter((m) => !isResponse(m))).toEqual([]);
    expect(peer.received.slice(start).filter((m) => "error" in m)).toEqual([]);

    if (target.ours) {
      // Our runtime classified every one of them, and cancelled only on the valid one.
      const causes = seen.events.map((e) => {
        const event = e as { type: string; cause?: string };
        return event.type === "ignored" ? event.cause : event.type;
      });
      expect(causes).toEqual([...BAD_CANCELS.map((b) => b.cause), "received"]);
      expect(seen.errors).toEqual([]);
    }
    expect(peer.errors).toEqual([]);
  });
});
