/**
 * MCPx gateway isolation (issue 11, defect 8): the gateway checks `from` at send() but used to
 * deliver the sender's own object a microtask later, so changing it afterwards (or answering
 * differently from a getter or Proxy) let alice cancel bob's request or speak as the server.
 * Now the gateway routes and delivers only a frozen deep copy taken at send().
 *
 * The world: a server participant with one McpServer per peer (alice, bob) on one link; bob is
 * an honest McpClient with a slow call in flight; alice is a raw link sending envelopes by hand.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import type { CancellationEvent, McpxEnvelope } from "../../../generated/2025-11-25/index.js";
import { settleUntil } from "../../../helpers/async.js";
import { aborted, cancelled, deferred, INITIALIZE_PARAMS, settle } from "../../../helpers/harness.js";

interface Handled {
  readonly requestId: unknown;
  readonly name: string;
  readonly arguments: unknown;
  readonly signal: AbortSignal;
}

const waitFor = async (condition: () => boolean) => expect(await settleUntil(condition)).toBe(true);

async function world() {
  const routed: Array<{ envelope: McpxEnvelope; deliveredTo: readonly string[] }> = [];
  const dropped: string[] = [];
  const gateway = R.createMcpxGateway({
    onRoute: (envelope, deliveredTo) => routed.push({ envelope, deliveredTo }),
    onDrop: (_envelope, cause, from) => dropped.push(`${from}: ${cause}`),
  });
  const release = deferred();
  const serverLink = gateway.join("server");
  const handled = { alice: [] as Handled[], bob: [] as Handled[] };
  const events = { alice: [] as CancellationEvent[], bob: [] as CancellationEvent[] };
  for (const peer of ["alice", "bob"] as const) {
    const server = new R.McpServer({
      logger: null,
      onCancellation: (e) => events[peer].push(e),
      handlers: {
        initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: `server for ${peer}`, version: "1.0.0" } }),
        "tools/call": async (params, ctx) => {
          handled[peer].push({ requestId: ctx.requestId, name: params.name, arguments: structuredClone(params.arguments), signal: ctx.signal });
          if (params.name === "slow") await Promise.race([release.promise, aborted(ctx.signal)]);
          return { content: [{ type: "text", text: `${params.name} for ${peer}` }] };
        },
      },
    });
    await server.connect(R.createMcpxTransport({ participantId: "server", peerId: peer, link: serverLink }));
  }
  const bobTransport = R.createMcpxTransport({ participantId: "bob", peerId: "server", link: gateway.join("bob") });
  const bob = new R.McpClient({ logger: null });
  await bob.connect(bobTransport, { initialize: false });
  await bob.initialize({ ...INITIALIZE_PARAMS, clientInfo: { name: "bob", version: "1.0.0" } });
  const alice = gateway.join("alice");
  const aliceGot: McpxEnvelope[] = [];
  alice.subscribe((e) => aliceGot.push(e as McpxEnvelope));
  // Bob's slow call, the victim.
  const outcome: { value: unknown } = { value: "pending" };
  const call = bob.callTool({ name: "slow" }).then(
    (r) => (outcome.value = r),
    (e: unknown) => (outcome.value = e),
  );
  await waitFor(() => handled.bob.length === 1);
  const victim = handled.bob[0]!;
  /** Bob's call is untouched: still running, then answered by the real server. */
  const bobUnharmed = async () => {
    expect(victim.signal.aborted).toBe(false);
    expect(events.bob).toEqual([]);
    expect(outcome.value).toBe("pending");
    release.resolve();
    await call;
    expect(outcome.value).toEqual({ content: [{ type: "text", text: "slow for bob" }] });
  };
  return { gateway, routed, dropped, handled, events, bob, bobTransport, alice, aliceGot, victim, outcome, bobUnharmed };
}

const raw = (fields: Partial<McpxEnvelope>): McpxEnvelope => ({ protocol: "mcpx/v0.1", id: "raw", from: "alice", to: ["server"], kind: "mcp", ...fields });

describe("MCPx gateway: the envelope is read once, at send()", () => {
  it("changing `from` after send() does not make alice's cancel bob's", async () => {
    const w = await world();
    const envelope = raw({ payload: cancelled(w.victim.requestId, "hijack") });
    w.alice.send(envelope);
    envelope.from = "bob";
    await settle();
    await w.bobUnharmed();
    expect(w.events.alice).toEqual([{ type: "ignored", cause: "unknown-request", requestId: w.victim.requestId, reason: "hijack" }]);
  });

  it("a `from` getter is read exactly once: it cannot pass the check as alice and arrive as bob", async () => {
    const w = await world();
    let reads = 0;
    const envelope = {
      protocol: "mcpx/v0.1",
      id: "getter",
      get from() {
        // Alice for the three reads the old gateway made (two in isMcpxEnvelope, one in its
        // sender check), bob for every read after them.
        return reads++ < 3 ? "alice" : "bob";
      },
      to: ["server"],
      kind: "mcp",
      payload: cancelled(w.victim.requestId, "hijack"),
    } as McpxEnvelope;
    w.alice.send(envelope);
    await settle();
    await w.bobUnharmed();
    expect(reads).toBe(1);
    expect(w.routed.find((r) => r.envelope.id === "getter")?.envelope.from).toBe("alice");
    expect(w.events.alice).toEqual([{ type: "ignored", cause: "unknown-request", requestId: w.victim.requestId, reason: "hijack" }]);
  });

  it("a Proxy envelope that answers `from` differently after send() is routed and delivered as what it answered at send()", async () => {
    const w = await world();
    let phase: "send" | "later" = "send";
    const target = raw({ payload: cancelled(w.victim.requestId, "hijack") });
    const proxy = new Proxy(target, {
      get: (t, key, receiver) => (key === "from" ? (phase === "send" ? "alice" : "bob") : Reflect.get(t, key, receiver)),
    });
    w.alice.send(proxy);
    phase = "later";
    await settle();
    await w.bobUnharmed();
    expect(w.routed.find((r) => r.envelope.id === "raw")?.envelope.from).toBe("alice");
    expect(w.events.alice).toEqual([{ type: "ignored", cause: "unknown-request", requestId: w.victim.requestId, reason: "hijack" }]);
  });

  it("a broadcast rewritten after send() (from: server, to: bob, a forged response) does not reach bob's client as the server's", async () => {
    const w = await world();
    const envelope = raw({ to: [], payload: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hello" } } });
    const ignoredBefore = w.bobTransport.counts.ignored;
    w.alice.send(envelope);
    envelope.from = "server";
    envelope.to = ["bob"];
    envelope.payload = { jsonrpc: "2.0", id: w.victim.requestId, result: { content: [{ type: "text", text: "forged" }] } };
    await settle();
    expect(w.routed.at(-1)?.deliveredTo).toEqual(["server", "bob"]);
    expect(w.bobTransport.counts.ignored).toBe(ignoredBefore + 1); // from alice: not bob's conversation
    await w.bobUnharmed();
  });

  it("a request whose `from` is changed after send() runs in alice's conversation, never as bob's", async () => {
    const w = await world();
    const envelope = raw({ payload: { jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "injected" } } });
    w.alice.send(envelope);
    envelope.from = "bob";
    await settle();
    expect(w.handled.bob.map((h) => h.name)).toEqual(["slow"]);
    expect(w.handled.alice.map((h) => h.name)).toEqual(["injected"]);
    expect(w.aliceGot.map((e) => e.payload)).toEqual([{ jsonrpc: "2.0", id: 99, result: { content: [{ type: "text", text: "injected for alice" }] } }]);
    await w.bobUnharmed();
  });

  it("a payload changed after send() arrives as it was sent; onRoute sees the same frozen snapshot", async () => {
    const w = await world();
    const payload = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "fast", arguments: { n: 1 } } };
    w.alice.send(raw({ payload }));
    payload.params.name = "other";
    payload.params.arguments.n = 2;
    payload.id = 8;
    await settle();
    expect(w.handled.alice.map((h) => [h.requestId, h.name, h.arguments])).toEqual([[7, "fast", { n: 1 }]]);
    const sent = w.routed.find((r) => r.envelope.from === "alice")!;
    const snapshot = sent.envelope;
    expect(snapshot.payload).toEqual({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "fast", arguments: { n: 1 } } });
    expect([snapshot, snapshot.to, snapshot.payload, (snapshot.payload as typeof payload).params.arguments].every(Object.isFrozen)).toBe(true);
    expect(Object.isFrozen(sent.deliveredTo)).toBe(true);
    await w.bobUnharmed();
  });
});

describe("MCPx gateway: receivers and observers", () => {
  it("every receiver gets the same deep-frozen envelope: one cannot change what the next one sees", async () => {
    const gateway = R.createMcpxGateway();
    const a = gateway.join("a");
    const seen: unknown[] = [];
    const tampered: string[] = [];
    gateway.join("b").subscribe((e) => {
      const envelope = e as McpxEnvelope;
      for (const tamper of [() => (envelope.from = "z"), () => ((envelope.payload as { data: number[] }).data[0] = 666)]) {
        try {
          tamper();
        } catch (error) {
          tampered.push((error as Error).name);
        }
      }
      seen.push(structuredClone(envelope));
    });
    gateway.join("c").subscribe((e) => seen.push(structuredClone(e)));
    a.send(raw({ from: "a", to: [], kind: "chat", payload: { data: [1, 2] } }));
    await settle();
    const original = { protocol: "mcpx/v0.1", id: "raw", from: "a", to: [], kind: "chat", payload: { data: [1, 2] } };
    expect(seen).toEqual([original, original]);
    expect(tampered).toEqual(["TypeError", "TypeError"]);
  });

  it("an envelope that cannot be copied, or whose payload is not JSON data, is dropped as invalid-envelope and never delivered", async () => {
    const causes: Array<[string, string]> = [];
    const gateway = R.createMcpxGateway({ onDrop: (_e, cause, from) => causes.push([from, cause]) });
    const a = gateway.join("a");
    const received: unknown[] = [];
    gateway.join("b").subscribe((e) => received.push(e));
    const cyclic: { [key: string]: unknown } = { jsonrpc: "2.0", method: "x" };
    cyclic["self"] = cyclic;
    const bad: unknown[] = [
      { jsonrpc: "2.0", method: "x", params: { callback: () => {} } },
      { jsonrpc: "2.0", method: "x", params: new Proxy({}, {}) },
      { jsonrpc: "2.0", method: "x", params: { when: new Date(0) } },
      { jsonrpc: "2.0", method: "x", params: { bytes: new Uint8Array(2) } },
      { jsonrpc: "2.0", method: "x", params: { big: 1n } },
      { jsonrpc: "2.0", method: "x", params: { map: new Map() } },
      cyclic,
    ];
    for (const payload of bad) expect(() => a.send(raw({ from: "a", to: ["b"], payload }))).not.toThrow();
    const throwing = {
      ...raw({ from: "a", to: ["b"] }),
      get payload(): unknown {
        throw new Error("getter bug");
      },
    };
    expect(() => a.send(throwing)).not.toThrow();
    const trap = new Proxy(raw({ from: "a", to: ["b"] }), {
      ownKeys: () => {
        throw new Error("trap bug");
      },
    });
    expect(() => a.send(trap)).not.toThrow();
    await settle();
    expect(received).toEqual([]);
    expect(causes).toEqual(Array(bad.length + 2).fill(["a", "invalid-envelope"]));
    expect(gateway.counts).toEqual({ routed: 0, dropped: bad.length + 2, droppedBy: { "invalid-envelope": bad.length + 2, "spoofed-sender": 0, "reserved-kind": 0, "invalid-payload": 0, overflow: 0 } });
  });

  it("a throwing onRoute, onDrop, receiver or close listener breaks neither send() nor delivery to the others", async () => {
    const gateway = R.createMcpxGateway({
      onRoute: () => {
        throw new Error("onRoute bug");
      },
      onDrop: () => {
        throw new Error("onDrop bug");
      },
    });
    const a = gateway.join("a");
    const b = gateway.join("b");
    const got: string[] = [];
    b.subscribe(() => {
      throw new Error("receiver bug");
    });
    b.subscribe((e) => got.push((e as McpxEnvelope).id));
    gateway.join("c").subscribe((e) => got.push(`c:${(e as McpxEnvelope).id}`));
    expect(() => a.send(raw({ id: "1", from: "a", to: ["b", "c"] }))).not.toThrow();
    expect(() => a.send(raw({ id: "2", from: "b", to: ["b"] }))).not.toThrow(); // spoofed: dropped
    await settle();
    expect(got).toEqual(["1", "c:1"]);
    let closes = 0;
    b.subscribe(
      () => {},
      () => {
        throw new Error("onClose bug");
      },
    );
    b.subscribe(
      () => {},
      () => closes++,
    );
    expect(() => b.close()).not.toThrow();
    expect(closes).toBe(1);
  });
});

describe("MCPx transport: what the endpoint gets", () => {
  it("a mutable copy of the gateway's frozen payload, which a handler may change", async () => {
    const gateway = R.createMcpxGateway();
    const server = new R.McpServer({
      logger: null,
      handlers: {
        "tools/call": (params) => {
          params.name = `${params.name}!`; // a frozen message would throw here
          return { content: [{ type: "text", text: params.name }] };
        },
      },
    });
    await server.connect(R.createMcpxTransport({ participantId: "s", peerId: "c", link: gateway.join("s") }));
    const client = new R.McpClient({ logger: null });
    await client.connect(R.createMcpxTransport({ participantId: "c", peerId: "s", link: gateway.join("c") }), { initialize: false });
    expect(await client.callTool({ name: "t" })).toEqual({ content: [{ type: "text", text: "t!" }] });
  });

  it("a throwing onmessage or onDrop is reported or ignored; the transport goes on", async () => {
    const gateway = R.createMcpxGateway();
    const peer = gateway.join("p");
    const transport = R.createMcpxTransport({
      participantId: "me",
      peerId: "p",
      link: gateway.join("me"),
      onDrop: () => {
        throw new Error("onDrop bug");
      },
    });
    const got: unknown[] = [];
    const errors: string[] = [];
    transport.onmessage = (m) => {
      got.push(m);
      throw new Error("handler bug");
    };
    transport.onerror = (e) => errors.push(e.message);
    await transport.start();
    const envelope = (id: string, payload: unknown): McpxEnvelope => ({ protocol: "mcpx/v0.1", id, from: "p", to: ["me"], kind: "mcp", payload });
    peer.send(envelope("1", { jsonrpc: "2.0", method: "a" }));
    peer.send(envelope("2", "not JSON-RPC"));
    peer.send(envelope("3", { jsonrpc: "2.0", method: "b" }));
    await settle();
    expect(got).toEqual([
      { jsonrpc: "2.0", method: "a" },
      { jsonrpc: "2.0", method: "b" },
    ]);
    expect(errors).toEqual(["handler bug", "handler bug"]);
    expect(transport.counts.droppedBy["invalid-payload"]).toBe(1);
  });
});
