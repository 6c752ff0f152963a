/**
 * MCPx delivery bounds (issue 28, item 1): the in-memory gateway bounds the envelopes waiting
 * for each participant (`maxQueuedEnvelopes`: a send past it throws, the envelope is dropped as
 * `overflow`), and a transport bounds what a peer can make it hold before start() (`maxBacklog`:
 * the conversation closes). Memory is asserted as a bound on growth, never a time.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import type { McpxEnvelope } from "../../../generated/2026-07-28/index.js";
import { MiB, retained } from "../../retained.js";

const FLOOD = 200_000;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const mcp = (from: string, to: string, n: number): McpxEnvelope => ({
  protocol: "mcpx/v0.1",
  id: `${from}-${n}`,
  from,
  to: [to],
  kind: "mcp",
  payload: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `flood ${n} ${"x".repeat(64)}` } },
});

describe("the MCPx gateway's queue per participant", () => {
  it("a sender that never waits gets a throw past maxQueuedEnvelopes; the receiver gets what was accepted, in order, and the heap stays bounded", async () => {
    let firstDrop: [string, R.McpxDropCause] | undefined;
    const gateway = R.createMcpxGateway({ maxQueuedEnvelopes: 100, onDrop: (_envelope, cause, from) => void (firstDrop ??= [from, cause]) });
    const flooder = gateway.join("flooder");
    const victim = gateway.join("victim");
    const received: string[] = [];
    victim.subscribe((envelope) => received.push((envelope as McpxEnvelope).id));
    const before = retained();
    let accepted = 0;
    let refused = 0;
    let message = "";
    for (let i = 0; i < FLOOD; i++) {
      try {
        flooder.send(mcp("flooder", "victim", i));
        accepted++;
      } catch (error) {
        refused++;
        message = (error as Error).message;
      }
    }
    // Measured before a single delivery ran: what the gateway holds is the bound, not the flood.
    expect(retained() - before).toBeLessThan(4 * MiB);
    expect(accepted).toBe(100);
    expect(refused).toBe(FLOOD - 100);
    expect(message).toBe('MCPx: 100 envelopes already wait for participant "victim" (maxQueuedEnvelopes); wait for sends before sending more');
    expect(gateway.counts.droppedBy.overflow).toBe(FLOOD - 100);
    expect(firstDrop).toEqual(["flooder", "overflow"]);
    await turn();
    expect(received).toEqual(Array.from({ length: 100 }, (_, i) => `flooder-${i}`));
    // Once delivered, there is room again: a sender that waits is never refused.
    for (let i = 0; i < 1_000; i++) {
      flooder.send(mcp("flooder", "victim", FLOOD + i));
      await Promise.resolve();
    }
    await turn();
    expect(received).toHaveLength(1_100);
  });

  it("a broadcast is refused for all when one recipient is full, and the others are untouched", async () => {
    const gateway = R.createMcpxGateway({ maxQueuedEnvelopes: 16 });
    const a = gateway.join("a");
    gateway.join("b");
    const c = gateway.join("c");
    const seen: string[] = [];
    c.subscribe((envelope) => seen.push((envelope as McpxEnvelope).id));
    for (let i = 0; i < 16; i++) a.send({ ...mcp("a", "b", i), to: ["b"] });
    expect(() => a.send({ protocol: "mcpx/v0.1", id: "all", from: "a", kind: "chat" })).toThrow(/participant "b"/);
    await turn();
    expect(seen).toEqual([]);
    c.send({ protocol: "mcpx/v0.1", id: "c-1", from: "c", to: ["a"], kind: "chat" });
    expect(gateway.counts.routed).toBe(17);
  });

  it("a handler that floods notifications without waiting is refused past the bound, and its server keeps serving", async () => {
    const gateway = R.createMcpxGateway({ maxQueuedEnvelopes: 64 });
    const serverLink = gateway.join("server");
    const clientLink = gateway.join("client");
    const refusals: unknown[] = [];
    const server = new R.McpServer({
      logger: null,
      handlers: {
        "tools/list": () => ({ resultType: "complete", cacheScope: "public", ttlMs: 0, tools: [] }),
        "tools/call": async (_params, ctx) => {
          for (let i = 0; i < 10_000; i++) ctx.notify("notifications/message", { level: "info", data: i }).catch((error: unknown) => refusals.push(error));
          await turn();
          return { resultType: "complete", content: [{ type: "text", text: "done" }] };
        },
      },
    });
    await server.connect(R.createMcpxTransport({ participantId: "server", peerId: "client", link: serverLink }));
    const got: unknown[] = [];
    clientLink.subscribe((envelope) => got.push((envelope as McpxEnvelope).payload));
    const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    clientLink.send({ protocol: "mcpx/v0.1", id: "c1", from: "client", to: ["server"], kind: "mcp", payload: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: META, name: "x", arguments: {} } } });
    for (let i = 0; i < 10 && !got.some((p) => (p as { id?: unknown }).id === 1); i++) await turn();
    expect(refusals).toHaveLength(10_000 - 64);
    expect(got.filter((p) => (p as { method?: unknown }).method === "notifications/message")).toHaveLength(64);
    expect(got).toContainEqual(expect.objectContaining({ id: 1, result: expect.objectContaining({ content: [{ type: "text", text: "done" }] }) }));
  });

  it("maxQueuedEnvelopes is validated: a whole number ≥ 16, else a RangeError naming it", () => {
    for (const bad of [Number.NaN, -1, 0, 15, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => R.createMcpxGateway({ maxQueuedEnvelopes: bad }), String(bad)).toThrow(RangeError);
      expect(() => R.createMcpxGateway({ maxQueuedEnvelopes: bad }), String(bad)).toThrow(/^maxQueuedEnvelopes must be an integer ≥ 16, got /);
    }
    expect(() => R.createMcpxGateway({ maxQueuedEnvelopes: 16 })).not.toThrow();
  });
});

describe("an MCPx transport before start()", () => {
  it("holds at most maxBacklog messages; one more is dropped as overflow and the conversation closes", async () => {
    const gateway = R.createMcpxGateway();
    const peer = gateway.join("peer");
    const link = gateway.join("me");
    const drops: R.McpxDropCause[] = [];
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "peer", link, maxBacklog: 32, onDrop: (_e, cause) => drops.push(cause) });
    let closed = 0;
    transport.onclose = () => closed++;
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 16; i++) peer.send(mcp("peer", "me", round * 16 + i));
      await turn();
    }
    expect(drops).toEqual(["overflow"]);
    expect(transport.counts.delivered).toBe(32);
    expect(transport.counts.droppedBy.overflow).toBe(1);
    expect(closed).toBe(1);
    await expect(transport.send({ jsonrpc: "2.0", method: "notifications/initialized" })).rejects.toThrow("transport closed");
  });

  it("maxBacklog is validated: a whole number ≥ 16, else a RangeError naming it", () => {
    const gateway = R.createMcpxGateway();
    const link = gateway.join("me");
    for (const bad of [Number.NaN, -1, 0, 15, 2.5, Number.POSITIVE_INFINITY]) {
      expect(() => R.createMcpxTransport({ participantId: "me", peerId: "peer", link, maxBacklog: bad }), String(bad)).toThrow(/^maxBacklog must be an integer ≥ 16, got /);
    }
  });
});
