/**
 * The in-memory transport pair (templates/runtime/transports/in-memory.ts), which tests and single-process
 * hosts use: the behaviours mutation testing showed no test pinned.
 */
import { describe, expect, it } from "vitest";
import { createInMemoryTransportPair } from "../../../templates/runtime/transports/in-memory.js";
import type { JsonRpcMessage } from "../../../templates/runtime/core/protocol.js";

const ping = (id: number): JsonRpcMessage => ({ jsonrpc: "2.0", id, method: "ping" });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createInMemoryTransportPair", () => {
  it("holds what arrives before start() and delivers it in order once started", async () => {
    const [a, b] = createInMemoryTransportPair();
    await a.start();
    await a.send(ping(1));
    await a.send(ping(2));
    const got: unknown[] = [];
    b.onmessage = (m) => got.push(m);
    await tick();
    expect(got).toEqual([]);
    await b.start();
    await tick();
    expect(got).toEqual([ping(1), ping(2)]);
  });

  it("closing one end closes both, once: onclose fires once per end, and neither end can send any more", async () => {
    const [a, b] = createInMemoryTransportPair();
    let closedA = 0;
    let closedB = 0;
    a.onclose = () => closedA++;
    b.onclose = () => closedB++;
    await a.start();
    await b.start();
    await a.close();
    await a.close();
    await b.close();
    expect([closedA, closedB]).toEqual([1, 1]);
    await expect(a.send(ping(1))).rejects.toThrow("transport closed");
    await expect(b.send(ping(1))).rejects.toThrow("transport closed");
  });

  it("a message for an end with no onmessage is dropped quietly, and nothing arrives after close", async () => {
    const [a, b] = createInMemoryTransportPair();
    await a.start();
    await b.start();
    await a.send(ping(1)); // b has no onmessage: no error anywhere
    await tick();
    const got: unknown[] = [];
    b.onmessage = (m) => got.push(m);
    const sent = a.send(ping(2)); // queued for delivery on a microtask
    await b.close(); // closed before that microtask runs
    await sent;
    await tick();
    expect(got).toEqual([]);
  });
});
