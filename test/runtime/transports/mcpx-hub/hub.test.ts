/**
 * The MCPx v0.1 gateway's rules apart from sockets (transports/mcpx-hub.ts): welcome and
 * presence, the `from` check, reserved kinds, capabilities, directed and broadcast delivery, the
 * topic cap, a duplicate id replacing the old connection, the bounds, and two hubs sharing a topic
 * through the in-process GatewayBus (presence, directed delivery, a dead gateway timed out).
 * The sinks are plain recorders of what a socket would be sent. A frame nested deeper than
 * `maxJsonDepth` is refused before it is parsed (issue 41: JSON.parse of millions of levels takes
 * seconds), in under 50 ms of CPU.
 */
import { describe, expect, it } from "vitest";
import { createInProcessGatewayBus, createMcpxHub, MCPX_CLOSE, type GatewayBus, type McpxHubOptions, type McpxRefusal } from "../../../../templates/runtime/transports/mcpx-hub.js";
import { waitFor } from "../../../helpers/async.js";
import { blockingMs } from "../../../helpers/blocking.js";

interface Sink {
  frames: Array<{ [key: string]: unknown }>;
  closed: { code: number; reason: string } | undefined;
  buffered: number;
  send(frame: string): void;
  bufferedBytes(): number;
  close(code: number, reason: string): void;
}

const sink = (): Sink => ({
  frames: [],
  closed: undefined,
  buffered: 0,
  send(frame) {
    this.frames.push(JSON.parse(frame) as { [key: string]: unknown });
  },
  bufferedBytes() {
    return this.buffered;
  },
  close(code, reason) {
    this.closed ??= { code, reason };
  },
});

const env = (from: string, fields: object = {}) => JSON.stringify({ protocol: "mcpx/v0.1", id: `e-${Math.random()}`, from, kind: "chat", payload: { text: "hi" }, ...fields });
const kinds = (s: Sink) => s.frames.map((f) => f["kind"]);
const errors = (s: Sink) => s.frames.filter((f) => f["kind"] === "system/error").map((f) => (f["payload"] as { error: string }).error);

function setup(options: McpxHubOptions = {}) {
  const refusals: McpxRefusal[] = [];
  const hub = createMcpxHub({ ...options, onRefusal: (r) => refusals.push(r) });
  const join = async (id: string, capabilities = ["mcp/*", "chat"], topic = "t") => {
    const s = sink();
    const member = await hub.join(topic, { id, capabilities }, s);
    return { s, member: member! };
  };
  return { hub, join, refusals };
}

describe("one hub", () => {
  it("welcomes with id, capabilities and the others; tells the others of joins and leaves", async () => {
    const { hub, join } = setup();
    const a = await join("a");
    const b = await join("b", ["chat"]);
    expect(a.s.frames[0]).toMatchObject({ from: "system:gateway", to: ["a"], kind: "system/welcome", payload: { you: { id: "a", capabilities: ["mcp/*", "chat"] }, participants: [] } });
    expect(b.s.frames[0]).toMatchObject({ kind: "system/welcome", payload: { you: { id: "b" }, participants: [{ id: "a", capabilities: ["mcp/*", "chat"] }] } });
    expect(a.s.frames[1]).toMatchObject({ kind: "system/presence", payload: { event: "join", participant: { id: "b", capabilities: ["chat"] } } });
    b.member.leave();
    expect(a.s.frames[2]).toMatchObject({ kind: "system/presence", payload: { event: "leave", participant: { id: "b" } } });
    expect(hub.participants("t").map((p) => p.id)).toEqual(["a"]);
    await hub.close();
    expect(a.s.closed?.code).toBe(MCPX_CLOSE.goingAway);
  });

  it("routes to `to` only, or to everyone else; forwards the frame as received", async () => {
    const { hub, join } = setup();
    const [a, b, c] = [await join("a"), await join("b"), await join("c")];
    const directed = env("a", { to: ["c"], kind: "mcp/request:tools/call", payload: { jsonrpc: "2.0", id: 1, method: "tools/call", extra: [1, { deep: true }] } });
    a.member.receive(directed);
    a.member.receive(env("a"));
    expect(kinds(c.s).filter((k) => !String(k).startsWith("system/"))).toEqual(["mcp/request:tools/call", "chat"]);
    expect(kinds(b.s).filter((k) => !String(k).startsWith("system/"))).toEqual(["chat"]);
    expect(kinds(a.s).filter((k) => !String(k).startsWith("system/"))).toEqual([]);
    expect(c.s.frames.find((f) => f["kind"] === "mcp/request:tools/call")).toEqual(JSON.parse(directed));
    expect(hub.counts.routed).toBe(2);
    await hub.close();
  });

  it("refuses a spoofed from (auth_violation), system/* (reserved_kind), a kind without capability, with system/error to the sender only", async () => {
    const { hub, join, refusals } = setup();
    const a = await join("a", ["mcp/response:*", "chat"]);
    const b = await join("b");
    a.member.receive(env("b", { id: "spoof" }));
    a.member.receive(env("a", { kind: "system/presence" }));
    a.member.receive(env("a", { kind: "mcp/request:tools/call", id: "call" }));
    a.member.receive(env("a", { kind: "mcp/response:tools/call" }));
    expect(errors(a.s)).toEqual(["auth_violation", "reserved_kind", "capability_violation"]);
    const violation = a.s.frames.find((f) => (f["payload"] as { error?: string }).error === "capability_violation")!;
    expect(violation).toMatchObject({ correlation_id: "call", to: ["a"], payload: { attempted_kind: "mcp/request:tools/call", your_capabilities: ["mcp/response:*", "chat"] } });
    expect(kinds(b.s).filter((k) => !String(k).startsWith("system/"))).toEqual(["mcp/response:tools/call"]);
    expect(refusals.map((r) => r.reason)).toEqual(["auth_violation", "reserved_kind", "capability_violation"]);
    await hub.close();
  });

  it("answers hostile frames with errors and keeps the connection: not JSON, not an envelope, wrong types, too large", async () => {
    const { hub, join } = setup({ maxFrameBytes: 1024 });
    const a = await join("a");
    const b = await join("b");
    for (const frame of ["not json", "[]", "42", '{"protocol":"mcpx/v0.1"}', env("a", { to: "b" }), env("a", { kind: 5 }), env("a", { correlation_id: 1 }), env("a", { protocol: "mew/v0.4" }), "x".repeat(1025)]) {
      a.member.receive(frame);
    }
    expect(errors(a.s)).toEqual(["invalid_json", "invalid_envelope", "invalid_envelope", "invalid_envelope", "invalid_envelope", "invalid_envelope", "invalid_envelope", "invalid_envelope", "frame_too_large"]);
    expect(kinds(b.s)).toEqual(["system/welcome"]);
    expect(a.s.closed).toBeUndefined();
    await hub.close();
  });

  it("a frame nested deeper than maxJsonDepth (500 000 arrays in 1 MiB) is refused invalid_json before any parse, in under 50 ms, not forwarded", async () => {
    const { hub, join, refusals } = setup();
    const a = await join("a");
    const b = await join("b");
    const deep = env("a", { extra: "@" }).replace('"@"', `${"[".repeat(500_000)}${"]".repeat(500_000)}`);
    expect(deep.length).toBeLessThanOrEqual(1024 * 1024);
    const { ms } = blockingMs(() => a.member.receive(deep), 1);
    expect(ms).toBeLessThan(50);
    expect(errors(a.s)).toEqual(["invalid_json"]);
    expect(refusals.map((r) => r.detail)).toEqual(["the frame nests deeper than 1000 levels (maxJsonDepth)"]);
    expect(kinds(b.s)).toEqual(["system/welcome"]);
    a.member.receive(env("a", { payload: [[[["within the bound"]]]] }));
    expect(kinds(b.s)).toEqual(["system/welcome", "chat"]);
    expect(() => createMcpxHub({ maxJsonDepth: 7 })).toThrow(/maxJsonDepth/);
    await hub.close();
  });

  it("a flood past maxEnvelopesPerSecond is dropped, with one rate_limited error a second", async () => {
    const { hub, join, refusals } = setup({ maxEnvelopesPerSecond: 10 });
    const a = await join("a");
    const b = await join("b");
    for (let i = 0; i < 1000; i++) a.member.receive(env("a"));
    const delivered = kinds(b.s).filter((k) => k === "chat").length;
    expect(delivered).toBeGreaterThanOrEqual(10);
    expect(delivered).toBeLessThan(20);
    expect(errors(a.s).filter((e) => e === "rate_limited").length).toBeLessThanOrEqual(2);
    expect(refusals.filter((r) => r.reason === "rate_limited").length).toBe(1000 - delivered);
    await hub.close();
  });

  it("closes a connection that does not read (queued bytes past maxQueuedBytes: 1013) instead of buffering", async () => {
    const { hub, join, refusals } = setup({ maxQueuedBytes: 64 * 1024 });
    const a = await join("a");
    const slow = await join("slow");
    slow.s.buffered = 64 * 1024 - 10;
    a.member.receive(env("a"));
    expect(slow.s.closed).toEqual({ code: MCPX_CLOSE.tryAgainLater, reason: "slow_consumer" });
    expect(refusals.map((r) => r.reason)).toEqual(["slow_consumer"]);
    expect(a.s.frames.at(-1)).toMatchObject({ kind: "system/presence", payload: { event: "leave", participant: { id: "slow" } } });
    await hub.close();
  });

  it("refuses the participant past maxParticipantsPerTopic (1008 topic_full); a second connection with an id replaces the first", async () => {
    const { hub, join } = setup({ maxParticipantsPerTopic: 2 });
    const a = await join("a");
    await join("b");
    const s = sink();
    expect(await hub.join("t", { id: "c", capabilities: [] }, s)).toBeUndefined();
    expect(s.closed).toEqual({ code: 1008, reason: "topic_full" });
    const again = await join("a");
    expect(a.s.closed).toEqual({ code: MCPX_CLOSE.replaced, reason: "replaced" });
    expect(again.s.frames[0]).toMatchObject({ kind: "system/welcome", payload: { participants: [{ id: "b" }] } });
    a.member.receive(env("a")); // the old connection speaks no more
    expect(hub.counts.routed).toBe(0);
    await hub.close();
  });
});

/** A bus that can be cut for one hub: its messages stop both ways, as when its process dies. */
function cuttable(bus: GatewayBus) {
  let cut = false;
  const wrapped: GatewayBus = {
    subscribe: (topic, listener) => bus.subscribe(topic, (m) => cut || listener(m)),
    publish: async (topic, message) => (cut ? undefined : bus.publish(topic, message)),
    close: async () => undefined,
  };
  return { bus: wrapped, cut: () => (cut = true) };
}

describe("two hubs on one bus", () => {
  it("share presence and welcome lists, deliver directed envelopes only to their recipients, broadcast to all", async () => {
    const bus = createInProcessGatewayBus();
    const one = createMcpxHub({ bus, heartbeatMs: 50 });
    const two = createMcpxHub({ bus, heartbeatMs: 50 });
    const a = sink();
    const b = sink();
    const c = sink();
    const ma = (await one.join("t", { id: "a", capabilities: ["*"] }, a))!;
    await two.join("t", { id: "b", capabilities: ["*"] }, b);
    await waitFor("a hears b", () => a.frames.find((f) => f["kind"] === "system/presence"));
    await two.join("t", { id: "c", capabilities: ["*"] }, c);
    expect(c.frames[0]).toMatchObject({ kind: "system/welcome", payload: { participants: [{ id: "b" }, { id: "a" }] } });
    ma.receive(env("a", { to: ["c"], id: "to-c" }));
    ma.receive(env("a", { id: "to-all" }));
    await waitFor("c's two", () => (c.frames.filter((f) => f["kind"] === "chat").length === 2 ? true : undefined));
    await waitFor("b's one", () => b.frames.find((f) => f["id"] === "to-all"));
    expect(b.frames.some((f) => f["id"] === "to-c")).toBe(false);
    await Promise.all([one.close(), two.close()]);
  });

  it("a gateway unheard of for three heartbeats is dead: its participants leave for the others", async () => {
    const bus = createInProcessGatewayBus();
    const one = createMcpxHub({ bus, heartbeatMs: 50 });
    const dying = cuttable(bus);
    const two = createMcpxHub({ bus: dying.bus, heartbeatMs: 50 });
    const a = sink();
    await one.join("t", { id: "a", capabilities: ["*"] }, a);
    await two.join("t", { id: "b", capabilities: ["*"] }, sink());
    await waitFor("a hears b join", () => a.frames.find((f) => f["kind"] === "system/presence"));
    dying.cut();
    const leave = await waitFor("a hears b leave", () => a.frames.find((f) => (f["payload"] as { event?: string }).event === "leave"));
    expect(leave).toMatchObject({ payload: { participant: { id: "b" } } });
    expect(one.participants("t").map((p) => p.id)).toEqual(["a"]);
    await Promise.all([one.close(), two.close()]);
  });
});
