/**
 * MCPx (../shared/seeds MCPx ADR-001, option 1): MCP messages inside envelopes routed by a
 * gateway; cancellation passes through unchanged. Three participants on one gateway: a server
 * holding one McpServer per peer, and two clients whose request ids coincide.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import type { CancellationEvent, McpxEnvelope } from "../../../generated/2025-11-25/index.js";
import { settleUntil } from "../../../helpers/async.js";
import { aborted, cancelled, deferred, INITIALIZE_PARAMS, settle, testLink } from "../../../helpers/harness.js";

type Payload = { id?: unknown; method?: string; params?: { [key: string]: unknown }; result?: unknown; error?: unknown };
const payloadOf = (envelope: McpxEnvelope) => envelope.payload as Payload;
const isCancel = (envelope: McpxEnvelope) => payloadOf(envelope).method === "notifications/cancelled";

interface Handled {
  readonly requestId: unknown;
  readonly signal: AbortSignal;
  readonly progressToken: unknown;
}

/** The server participant: one McpServer per client peer, all on one link. */
function serverParticipant(gateway: R.McpxGateway, peers: readonly string[], release: Promise<void>) {
  const link = gateway.join("server");
  const handled = new Map<string, Handled[]>();
  const events = new Map<string, CancellationEvent[]>();
  const transports = new Map<string, R.McpxTransport>();
  const servers = peers.map((peer) => {
    handled.set(peer, []);
    events.set(peer, []);
    const transport = R.createMcpxTransport({ participantId: "server", peerId: peer, link });
    transports.set(peer, transport);
    const server = new R.McpServer({
      logger: null,
      onCancellation: (e) => events.get(peer)!.push(e),
      handlers: {
        initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: `server for ${peer}`, version: "1.0.0" } }),
        "tools/call": async (params, ctx) => {
          handled.get(peer)!.push({ requestId: ctx.requestId, signal: ctx.signal, progressToken: ctx._meta?.["progressToken"] });
          await ctx.sendProgress(1, 2, `${peer}: half way`);
          await Promise.race([release, aborted(ctx.signal)]);
          return { content: [{ type: "text", text: `${params.name} for ${peer}` }] };
        },
      },
    });
    return { peer, server, transport };
  });
  return { link, handled, events, transports, servers, connect: () => Promise.all(servers.map((s) => s.server.connect(s.transport))) };
}

async function clientParticipant(gateway: R.McpxGateway, id: string) {
  const link = gateway.join(id);
  const events: CancellationEvent[] = [];
  const transport = R.createMcpxTransport({ participantId: id, peerId: "server", link });
  const client = new R.McpClient({ logger: null, onCancellation: (e) => events.push(e) });
  await client.connect(transport, { initialize: false });
  await client.initialize({ ...INITIALIZE_PARAMS, clientInfo: { name: id, version: "1.0.0" } });
  return { id, link, transport, client, events };
}

async function threeParticipants() {
  const routed: Array<{ envelope: McpxEnvelope; deliveredTo: readonly string[] }> = [];
  const gateway = R.createMcpxGateway({ onRoute: (envelope, deliveredTo) => routed.push({ envelope: structuredClone(envelope), deliveredTo }) });
  const release = deferred();
  const server = serverParticipant(gateway, ["alice", "bob"], release.promise);
  await server.connect();
  const alice = await clientParticipant(gateway, "alice");
  const bob = await clientParticipant(gateway, "bob");
  return { gateway, routed, release, server, alice, bob };
}

const waitFor = async (condition: () => boolean) => expect(await settleUntil(condition)).toBe(true);

describe("MCPx: three participants on one gateway", () => {
  it("each client cancels its own call; only its own server handler aborts, with identical request ids", async () => {
    const { routed, release, server, alice, bob } = await threeParticipants();
    const aliceAbort = new AbortController();
    const bobAbort = new AbortController();
    const aliceCall = alice.client.callTool({ name: "slow" }, { signal: aliceAbort.signal }).catch((e: unknown) => e);
    const bobCall = bob.client.callTool({ name: "slow" }, { signal: bobAbort.signal }).catch((e: unknown) => e);
    await waitFor(() => server.handled.get("alice")!.length === 1 && server.handled.get("bob")!.length === 1);
    const [aliceHandled] = server.handled.get("alice")!;
    const [bobHandled] = server.handled.get("bob")!;
    // Request ids are per sender: both clients used the same one.
    expect(aliceHandled!.requestId).toBe(bobHandled!.requestId);
    const id = aliceHandled!.requestId;

    aliceAbort.abort("alice stops");
    await waitFor(() => aliceHandled!.signal.aborted);
    await settle();
    expect(aliceHandled!.signal.reason).toBe("alice stops");
    expect(bobHandled!.signal.aborted).toBe(false);
    expect(await aliceCall).toBeInstanceOf(R.RequestCancelledError);

    bobAbort.abort("bob stops too");
    await waitFor(() => bobHandled!.signal.aborted);
    expect(bobHandled!.signal.reason).toBe("bob stops too");
    expect(await bobCall).toBeInstanceOf(R.RequestCancelledError);
    release.resolve();
    await settle();

    // The cancel envelopes carry the original request id unchanged, one per client, to the server only.
    const cancels = routed.filter((r) => isCancel(r.envelope));
    expect(cancels.map((r) => [r.envelope.from, r.envelope.to, r.deliveredTo, payloadOf(r.envelope).params])).toEqual([
      ["alice", ["server"], ["server"], { requestId: id, reason: "alice stops" }],
      ["bob", ["server"], ["server"], { requestId: id, reason: "bob stops too" }],
    ]);
    expect(cancels.every((r) => r.envelope.kind === "mcp" && r.envelope.protocol === "mcpx/v0.1")).toBe(true);
    // Nothing acknowledges a cancellation: no envelope after each cancel answers it, and the
    // cancelled request never gets a response.
    const fromServer = routed.filter((r) => r.envelope.from === "server").map((r) => payloadOf(r.envelope));
    expect(fromServer.filter((p) => p.id === id)).toEqual([]);
    expect(fromServer.filter((p) => p.method === "notifications/cancelled")).toEqual([]);
    expect(server.events.get("alice")).toEqual([{ type: "received", requestId: id, method: "tools/call", reason: "alice stops" }]);
    expect(server.events.get("bob")).toEqual([{ type: "received", requestId: id, method: "tools/call", reason: "bob stops too" }]);
    expect(server.servers.map((s) => s.server.inFlight.received)).toEqual([0, 0]);
  });

  it("a cancel from alice for an id only bob used is an unknown id: ignored, reported, bob unaffected", async () => {
    const { routed, release, server, alice, bob } = await threeParticipants();
    // Bob makes one more request than alice, so his call's id is one alice never used.
    await bob.client.ping();
    const bobCall = bob.client.callTool({ name: "slow" });
    await waitFor(() => server.handled.get("bob")!.length === 1);
    const bobId = server.handled.get("bob")![0]!.requestId;
    // Alice's own link carries a raw cancel naming bob's id (a client confused or malicious).
    alice.link.send({ protocol: "mcpx/v0.1", id: "raw-1", from: "alice", to: ["server"], kind: "mcp", payload: cancelled(bobId, "not yours") });
    await settle();
    expect(server.handled.get("bob")![0]!.signal.aborted).toBe(false);
    expect(server.events.get("alice")).toEqual([{ type: "ignored", cause: "unknown-request", requestId: bobId, reason: "not yours" }]);
    expect(server.events.get("bob")).toEqual([]);
    release.resolve();
    expect(await bobCall).toEqual({ content: [{ type: "text", text: "slow for bob" }] });
    expect(routed.filter((r) => r.envelope.from === "server" && payloadOf(r.envelope).id === bobId).map((r) => r.deliveredTo)).toEqual([["bob"]]);
  });

  it("progress envelopes reach the right client, though both used the same progress token", async () => {
    const { routed, release, server, alice, bob } = await threeParticipants();
    const progress = { alice: [] as string[], bob: [] as string[] };
    const calls = [
      alice.client.callTool({ name: "slow" }, { onProgress: (p) => progress.alice.push(p.message ?? "") }),
      bob.client.callTool({ name: "slow" }, { onProgress: (p) => progress.bob.push(p.message ?? "") }),
    ];
    await waitFor(() => progress.alice.length === 1 && progress.bob.length === 1);
    release.resolve();
    await Promise.all(calls);
    expect(progress).toEqual({ alice: ["alice: half way"], bob: ["bob: half way"] });
    const tokens = [...server.handled.values()].map(([h]) => h!.progressToken);
    expect(tokens[0]).toBe(tokens[1]);
    const progressEnvelopes = routed.filter((r) => payloadOf(r.envelope).method === "notifications/progress");
    expect(progressEnvelopes.map((r) => [r.envelope.to, r.deliveredTo, payloadOf(r.envelope).params?.["progressToken"]])).toEqual([
      [["alice"], ["alice"], tokens[0]],
      [["bob"], ["bob"], tokens[0]],
    ]);
  });

  it("a late response after cancel is ignored by the client", async () => {
    // A server participant driven by the test, which answers even after the cancel.
    const routed: McpxEnvelope[] = [];
    const gateway = R.createMcpxGateway({ onRoute: (e) => routed.push(structuredClone(e)) });
    const serverLink = gateway.join("server");
    const requests: Payload[] = [];
    serverLink.subscribe((e) => requests.push(payloadOf(e as McpxEnvelope)));
    const events: CancellationEvent[] = [];
    const client = new R.McpClient({ logger: null, onCancellation: (e) => events.push(e) });
    await client.connect(R.createMcpxTransport({ participantId: "alice", peerId: "server", link: gateway.join("alice") }), { initialize: false });
    const ac = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: ac.signal }).catch((e: unknown) => e);
    await settle();
    const id = requests[0]!.id;
    ac.abort("too slow");
    await settle();
    expect(requests.map((p) => p.method)).toEqual(["tools/call", "notifications/cancelled"]);
    serverLink.send({ protocol: "mcpx/v0.1", id: "late", from: "server", to: ["alice"], kind: "mcp", payload: { jsonrpc: "2.0", id, result: { content: [] } } });
    await settle();
    expect(await call).toBeInstanceOf(R.RequestCancelledError);
    expect(events).toEqual([
      { type: "sent", requestId: id, method: "tools/call", reason: "too slow", cause: "abort" },
      { type: "late-response", requestId: id },
    ]);
    expect(client.inFlight.sent).toBe(0);
  });
});

describe("MCPx gateway routing", () => {
  it("delivers to the listed participants, broadcasts when `to` is empty or absent, and never reads the payload", async () => {
    const gateway = R.createMcpxGateway();
    const links = ["a", "b", "c"].map((p) => gateway.join(p));
    const got = new Map<string, unknown[]>(links.map((l) => [l.participantId, []]));
    for (const link of links) link.subscribe((e) => got.get(link.participantId)!.push((e as McpxEnvelope).id));
    const seen: Array<[string, readonly string[]]> = [];
    gateway.onRoute = (e, to) => seen.push([e.id, to]);
    links[0]!.send({ protocol: "mcpx/v0.1", id: "1", from: "a", to: ["b"], kind: "mcp", payload: "not even JSON-RPC" });
    links[0]!.send({ protocol: "mcpx/v0.1", id: "2", from: "a", to: [], kind: "chat" });
    links[1]!.send({ protocol: "mcpx/v0.1", id: "3", from: "b", kind: "mcp", payload: { jsonrpc: "2.0", method: "x" } });
    links[2]!.send({ protocol: "mcpx/v0.1", id: "4", from: "c", to: ["a", "nobody"], kind: "mcp", payload: {} });
    await settle();
    expect(seen).toEqual([
      ["1", ["b"]],
      ["2", ["b", "c"]],
      ["3", ["a", "c"]],
      ["4", ["a"]],
    ]);
    expect(Object.fromEntries(got)).toEqual({ a: ["3", "4"], b: ["1", "2"], c: ["2", "3"] });
    expect(gateway.counts).toEqual({ routed: 4, dropped: 0, droppedBy: { "invalid-envelope": 0, "spoofed-sender": 0, "reserved-kind": 0, "invalid-payload": 0, overflow: 0 } });
  });

  it("drops and counts invalid and spoofed envelopes without throwing", async () => {
    const dropped: Array<[unknown, string]> = [];
    const gateway = R.createMcpxGateway({ onDrop: (e, cause) => dropped.push([e, cause]) });
    const a = gateway.join("a");
    const received: unknown[] = [];
    gateway.join("b").subscribe((e) => received.push(e));
    const invalid: unknown[] = [
      null,
      "envelope",
      [],
      { protocol: "mcpx/v0.2", id: "1", from: "a", to: ["b"], kind: "mcp", payload: {} },
      { protocol: "mcpx/v0.1", id: "2", to: ["b"], kind: "mcp", payload: {} },
      { protocol: "mcpx/v0.1", id: "3", from: "a", to: ["b"], kind: 7, payload: {} },
      { protocol: "mcpx/v0.1", id: "4", from: "a", to: ["b"], payload: {} },
      { protocol: "mcpx/v0.1", id: 5, from: "a", to: ["b"], kind: "mcp", payload: {} },
      { protocol: "mcpx/v0.1", id: "6", from: "a", to: "b", kind: "mcp", payload: {} },
    ];
    for (const e of invalid) expect(() => a.send(e as McpxEnvelope)).not.toThrow();
    a.send({ protocol: "mcpx/v0.1", id: "7", from: "b", to: ["b"], kind: "mcp", payload: {} });
    await settle();
    expect(received).toEqual([]);
    expect(gateway.counts).toEqual({ routed: 0, dropped: 10, droppedBy: { "invalid-envelope": 9, "spoofed-sender": 1, "reserved-kind": 0, "invalid-payload": 0, overflow: 0 } });
    expect(dropped.map(([, cause]) => cause)).toEqual([...invalid.map(() => "invalid-envelope"), "spoofed-sender"]);
  });

  it("refuses a second join of the same participant and sends on a closed link; closing a link closes its transports", async () => {
    const gateway = R.createMcpxGateway();
    const link = gateway.join("a");
    gateway.join("b");
    expect(() => gateway.join("a")).toThrow(/already joined/);
    const transport = R.createMcpxTransport({ participantId: "a", peerId: "b", link });
    let closed = 0;
    transport.onclose = () => closed++;
    link.close();
    expect(closed).toBe(1);
    expect(gateway.participants()).toEqual(["b"]);
    expect(() => link.send({ protocol: "mcpx/v0.1", id: "1", from: "a", kind: "mcp" })).toThrow(/closed/);
    await expect(transport.send({ jsonrpc: "2.0", method: "notifications/initialized" })).rejects.toThrow(/closed/);
    expect(() => R.createMcpxTransport({ participantId: "a", peerId: "a", link: gateway.join("c") })).toThrow(/two different/);
  });
});

describe("MCPx transport", () => {
  it("wraps each outgoing message in a fresh envelope from us to the peer, payload untouched", async () => {
    const { link, sent } = testLink("me");
    let n = 0;
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link, newEnvelopeId: () => `e${++n}` });
    await transport.start();
    const messages = [cancelled(7, "why"), { jsonrpc: "2.0", id: "x", method: "ping" }] as const;
    for (const m of messages) await transport.send(m as never);
    expect(sent).toEqual(messages.map((payload, i) => ({ protocol: "mcpx/v0.1", id: `e${i + 1}`, from: "me", to: ["you"], kind: "mcp", payload })));
    // Default ids are unique.
    const other = testLink("me");
    const t2 = R.createMcpxTransport({ participantId: "me", peerId: "you", link: other.link });
    await t2.send(cancelled(1) as never);
    await t2.send(cancelled(1) as never);
    expect(new Set(other.sent.map((e) => e.id)).size).toBe(2);
  });

  it("unwraps only mcp envelopes from the peer addressed to us; leaves the rest alone; drops and counts the malformed", async () => {
    const { link, deliver } = testLink("me");
    const drops: string[] = [];
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link, onDrop: (_e, cause) => drops.push(cause) });
    const got: unknown[] = [];
    transport.onmessage = (m) => got.push(m);
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const env = (fields: object) => ({ protocol: "mcpx/v0.1", id: "e", from: "you", to: ["me"], kind: "mcp", payload: ping, ...fields });
    deliver(env({})); // before start(): held, not lost
    await transport.start();
    deliver(env({ from: "someone-else" })); // another conversation on the same link
    deliver(env({ to: ["someone-else"] }));
    deliver(env({ to: undefined })); // a broadcast is not part of this conversation
    deliver(env({ kind: "chat", payload: "hello" })); // another kind
    deliver(env({ payload: "not JSON-RPC" }));
    deliver(env({ payload: { jsonrpc: "1.0", id: 1, method: "ping" } }));
    deliver({ protocol: "mcpx/v0.1", from: "you" });
    deliver(42);
    deliver(env({ to: ["me", "third"], payload: { ...ping, id: 2 } }));
    expect(got).toEqual([ping, { ...ping, id: 2 }]);
    expect(transport.counts).toEqual({ delivered: 2, ignored: 4, dropped: 4, droppedBy: { "invalid-envelope": 2, "spoofed-sender": 0, "reserved-kind": 0, "invalid-payload": 2, overflow: 0 } });
    expect(drops).toEqual(["invalid-payload", "invalid-payload", "invalid-envelope", "invalid-envelope"]);
    await transport.close();
    deliver(env({}));
    expect(got).toHaveLength(2);
  });

  it("malformed cancels inside valid envelopes leave the server serving", async () => {
    const gateway = R.createMcpxGateway();
    const serverLink = gateway.join("server");
    const events: CancellationEvent[] = [];
    const server = new R.McpServer({ logger: null, onCancellation: (e) => events.push(e), handlers: { "tools/call": () => ({ content: [] }) } });
    await server.connect(R.createMcpxTransport({ participantId: "server", peerId: "raw", link: serverLink }));
    const raw = gateway.join("raw");
    const answers: Payload[] = [];
    raw.subscribe((e) => answers.push(payloadOf(e as McpxEnvelope)));
    const send = (payload: unknown, id: string) => raw.send({ protocol: "mcpx/v0.1", id, from: "raw", to: ["server"], kind: "mcp", payload });
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { reason: "no id" } }, "1");
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: { nested: true } } }, "2");
    send(cancelled(99), "3");
    send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } }, "4");
    await settle();
    expect(events.map((e) => (e.type === "ignored" ? e.cause : e.type))).toEqual(["malformed", "malformed", "unknown-request"]);
    expect(answers).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [] } }]);
  });
});

describe("MCPx in every generated revision", () => {
  const generated = new URL("../../../generated/", import.meta.url);
  // Every revision folder (runtime/ is the runtime they share, not a revision).
  // Every revision folder; not the shared runtime, nor the every-era entry (an index of its own over them), nor MCP Apps (apps/, a protocol of its own).
  const revisions = readdirSync(generated).filter((name) => name !== "runtime" && name !== "every-era" && name !== "apps").sort();

  it.each(revisions)("%s: index.ts exports the gateway and the transport, and a request crosses the gateway", async (revision) => {
    const rev = (await import(new URL(`${revision}/index.ts`, generated).href)) as typeof R;
    const routed: McpxEnvelope[] = [];
    const gateway = rev.createMcpxGateway({ onRoute: (e) => routed.push(e) });
    const server = new rev.McpServer({ logger: null, handlers: { "tools/list": () => ({ tools: [] }) } });
    await server.connect(rev.createMcpxTransport({ participantId: "s", peerId: "c", link: gateway.join("s") }));
    const client = new rev.McpClient({ logger: null });
    await client.connect(rev.createMcpxTransport({ participantId: "c", peerId: "s", link: gateway.join("c") }), { initialize: false });
    // tools/list exists in every revision (ping has no typed method in 2026-07-28).
    // Revisions with a stateless HTTP binding identify the server in every result's _meta.
    // The same (stateless) revisions fill the result fields the handler left out (issue 30: resultType and the caching hints).
    const identified = "httpBinding" in server ? { _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-server", version: "0.0.0" } } } : {};
    const filled = "httpBinding" in server ? { resultType: "complete", cacheScope: "private", ttlMs: 0 } : {};
    await expect(client.request("tools/list", {})).resolves.toEqual({ tools: [], ...filled, ...identified });
    expect(routed.map((e) => [e.from, e.to, payloadOf(e).method ?? "response"])).toEqual([
      ["c", ["s"], "tools/list"],
      ["s", ["c"], "response"],
    ]);
  });
});
