/**
 * MCPx over a real network (issue 32): two gateway processes (examples/mcpx-gateway.ts) sharing a
 * topic through a real redis-server, and participants over WebSocket on loopback: a server
 * (McpServer per peer, on gateway two), clients (McpClient, on gateway one) and an observer. A
 * call is cancelled across the gateways in both envelope shapes; spoofing, missing capabilities
 * and hostile frames are refused with system/error; a participant that does not read is closed
 * instead of buffered; a dead gateway's participants leave, and its participant comes back when
 * it restarts (the link reconnects).
 */
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { connectMcpxLink, McpxConnectError, type McpxWsLink } from "../../../../templates/runtime/addons/mcpx-ws/link.js";
import { aborted, waitFor, within } from "../../../helpers/async.js";
import { INITIALIZE_PARAMS } from "../../../helpers/harness.js";
import { startRedisServer, type RedisServer } from "../../../helpers/redis-server.js";
import { rawParticipant, startGateway, token, TOPIC, type GatewayProcess, type RawParticipant } from "./support.js";

const HEARTBEAT_MS = 200;
let redis: RedisServer;
let one: GatewayProcess;
let two: GatewayProcess;
let serverLink: McpxWsLink;
let observer: RawParticipant;
/** What the server's handlers saw, by peer. */
const handled = new Map<string, { signal: AbortSignal; requestId: unknown }>();
const links: McpxWsLink[] = [];

const link = async (url: string, id: string, shape?: R.McpxShape) => {
  const made = await connectMcpxLink({ url, topic: TOPIC, token: () => token(id), shape, initialBackoffMs: 50, maxBackoffMs: 400 });
  links.push(made);
  return made;
};

/** The server participant: one McpServer per peer that joins, on its one link. */
function serve(own: McpxWsLink): void {
  const start = (peer: string) => {
    if (peer === "observer" || peer.startsWith("mallory")) return;
    const server = new R.McpServer({
      logger: null,
      handlers: {
        initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "server", version: "1" } }),
        "tools/call": async (_params, ctx) => {
          handled.set(peer, { signal: ctx.signal, requestId: ctx.requestId });
          await ctx.sendProgress(1, 2, "half way");
          const reason = await within("the cancel", aborted(ctx.signal), 20_000);
          return { content: [{ type: "text", text: String(reason) }] };
        },
      },
    });
    void server.connect(R.createMcpxTransport({ participantId: own.participantId, peerId: peer, link: own }));
  };
  for (const p of own.participants()) start(p.id);
  own.onPresence((event, p) => event === "join" && start(p.id));
}

beforeAll(async () => {
  redis = await startRedisServer();
  const args = ["--port", "0", "--redis", redis.url, "--heartbeat-ms", String(HEARTBEAT_MS)];
  [one, two] = await Promise.all([startGateway(args), startGateway(args)]);
  observer = await rawParticipant(one.url, await token("observer", ["chat"]));
  serverLink = await link(two.url, "server", "v0.1");
  serve(serverLink);
  await waitFor("the observer to see the server", () => observer.frames.find((f) => f["kind"] === "system/presence" && (f["payload"] as { participant: { id: string } }).participant.id === "server"));
});

afterAll(async () => {
  for (const l of links) l.close();
  observer?.socket.close();
  await Promise.all([one?.stop(), two?.stop()]);
  await redis?.stop();
});

const mcpFramesSeenBy = (p: RawParticipant) => p.frames.filter((f) => typeof f["kind"] === "string" && String(f["kind"]).startsWith("mcp"));

describe("MCPx over WebSocket, two gateways on Redis", () => {
  it.each(["v0.1", "draft"] as const)("a client on gateway one cancels a call to the server on gateway two (%s): the server's ctx.signal aborts", async (shape) => {
    const id = `client-${shape}`;
    const clientLink = await link(one.url, id, shape);
    await waitFor("the client to see the server", () => (clientLink.participants().some((p) => p.id === "server") ? true : undefined));
    const client = new R.McpClient({ logger: null });
    await client.connect(R.createMcpxTransport({ participantId: id, peerId: "server", link: clientLink }), { initialize: false });
    await client.initialize(INITIALIZE_PARAMS);
    const controller = new AbortController();
    const progress: number[] = [];
    const outcome = client.callTool({ name: "slow" }, { signal: controller.signal, onProgress: (p) => progress.push(p.progress) }).then(() => "resolved", (e: unknown) => e);
    await waitFor("progress from across the gateways", () => (progress.length > 0 ? true : undefined));
    controller.abort("stop, across two gateways");
    expect(await outcome).toBeInstanceOf(R.RequestCancelledError);
    // The cancel, not a leave: the client is still connected while the server's signal aborts.
    const seen = await waitFor("the server's handler to abort", () => (handled.get(id)?.signal.aborted === true ? handled.get(id) : undefined));
    expect(seen.signal.reason).toBe("stop, across two gateways");
    expect(clientLink.connected).toBe(true);
    // Directed envelopes reach their recipients only: the observer saw presence, no MCP.
    expect(mcpFramesSeenBy(observer)).toEqual([]);
    await client.close();
  });

  it("a client that leaves mid-call: its pending call rejects, and across the gateways the server's handler aborts", async () => {
    const clientLink = await link(one.url, "client-leaver", "v0.1");
    await waitFor("the client to see the server", () => (clientLink.participants().some((p) => p.id === "server") ? true : undefined));
    const client = new R.McpClient({ logger: null });
    await client.connect(R.createMcpxTransport({ participantId: "client-leaver", peerId: "server", link: clientLink }), { initialize: false });
    await client.initialize(INITIALIZE_PARAMS);
    const pending = client.callTool({ name: "slow" }).then(() => "resolved", (e: unknown) => e);
    await waitFor("the call to start", () => handled.get("client-leaver"));
    clientLink.close();
    expect(await within("the pending call to reject", pending, 5_000)).toBeInstanceOf(Error);
    await waitFor("the server's handler to abort on the leave", () => (handled.get("client-leaver")?.signal.aborted === true ? true : undefined));
  });

  it("presence crosses gateways: the observer on one sees the server and the clients of both", () => {
    const joined = observer.frames.filter((f) => f["kind"] === "system/presence").map((f) => (f["payload"] as { participant: { id: string } }).participant.id);
    expect(joined).toEqual(expect.arrayContaining(["server", "client-v0.1", "client-draft"]));
    expect(serverLink.participants().map((p) => p.id)).toEqual(expect.arrayContaining(["observer", "client-v0.1", "client-draft"]));
  });

  it("refuses a spoofed from (auth_violation) and a kind without capability (capability_violation); nothing reaches the server", async () => {
    const heard: unknown[] = [];
    serverLink.subscribe((e) => (e as { from?: string }).from?.startsWith("mallory") && heard.push(e));
    const mallory = await rawParticipant(one.url, await token("mallory", ["chat"]));
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } };
    mallory.send({ protocol: "mcpx/v0.1", id: "s1", from: "client-v0.1", to: ["server"], kind: "chat", payload: {} });
    mallory.send({ protocol: "mcpx/v0.1", id: "s2", from: "mallory", to: ["server"], kind: "mcp/request:tools/call:slow", payload: call });
    mallory.send({ protocol: "mcpx/v0.1", id: "s3", from: "mallory", to: ["server"], kind: "system/presence", payload: { event: "leave", participant: { id: "client-v0.1" } } });
    await waitFor("three refusals", () => (mallory.errors().length === 3 ? true : undefined));
    expect(mallory.errors()).toEqual(["auth_violation", "capability_violation", "reserved_kind"]);
    expect(mallory.frames.find((f) => f["correlation_id"] === "s2")).toMatchObject({ payload: { attempted_kind: "mcp/request:tools/call:slow", your_capabilities: ["chat"] } });
    mallory.send({ protocol: "mcpx/v0.1", id: "ok", from: "mallory", to: ["server"], kind: "chat", payload: { text: "still here" } });
    await waitFor("the allowed chat", () => heard.find((e) => (e as { id: string }).id === "ok"));
    expect(heard.map((e) => (e as { id: string }).id)).toEqual(["ok"]);
    mallory.socket.close();
  });

  it("closes with 1008 a missing topic, a bad token, a token for another topic", async () => {
    const noTopic = await rawParticipant(one.url.replace("/ws", "/ws?x=1"), await token("t1"), "");
    const forged = await rawParticipant(one.url, `${(await token("t2")).slice(0, -4)}AAAA`);
    const elsewhere = await rawParticipant(one.url, await token("t3", ["chat"], "another-room"));
    for (const p of [noTopic, forged, elsewhere]) await waitFor("the close", () => p.closed);
    expect([noTopic, forged, elsewhere].map((p) => p.closed)).toEqual([
      { code: 1008, reason: "missing_topic" },
      { code: 1008, reason: "unauthorized" },
      { code: 1008, reason: "unauthorized" },
    ]);
    await expect(connectMcpxLink({ url: one.url, topic: TOPIC, token: "not-a-jwt" })).rejects.toBeInstanceOf(McpxConnectError);
  });

  it("answers hostile frames with errors: not JSON, wrong types, oversized; a frame past twice the bound closes 1009; a flood is rate limited", async () => {
    const hostile = await rawParticipant(one.url, await token("mallory-2", ["*"]));
    const base = { protocol: "mcpx/v0.1", id: "h", from: "mallory-2", kind: "chat", payload: {} };
    hostile.send("{not json");
    hostile.send({ ...base, to: "server" });
    hostile.send({ ...base, from: 42 });
    hostile.send({ ...base, protocol: "mcpx/v9" });
    hostile.send(JSON.stringify({ ...base, payload: "x".repeat(1024 * 1024 + 10) }));
    await waitFor("five errors", () => (hostile.errors().length === 5 ? true : undefined));
    expect(hostile.errors()).toEqual(["invalid_json", "invalid_envelope", "invalid_envelope", "invalid_envelope", "frame_too_large"]);
    for (let i = 0; i < 3000; i++) hostile.send({ ...base, id: `flood-${i}` });
    await waitFor("a rate_limited error", () => (hostile.errors().includes("rate_limited") ? true : undefined));
    const floodErrors = hostile.errors().filter((e) => e === "rate_limited").length;
    expect(floodErrors).toBeLessThanOrEqual(3); // at most one a second: refusals do not flood back
    const floodSeen = await waitFor("the observer's share of the flood", async () => {
      await new Promise((r) => setTimeout(r, 200));
      return observer.frames.filter((f) => String(f["id"]).startsWith("flood-")).length;
    });
    expect(floodSeen).toBeLessThan(3000 / 2);
    hostile.socket.send("x".repeat(2 * 1024 * 1024 + 10));
    expect(await waitFor("the close", () => hostile.closed)).toMatchObject({ code: 1009 });
  });

  it("closes a participant that does not read (1013) once maxQueuedBytes wait for it, and the others see it leave", async () => {
    // A raw socket that completes the handshake and never reads again.
    const bearer = await token("sloth", ["chat"]);
    const raw = connect(one.port, "127.0.0.1");
    raw.write(`GET /ws?topic=${TOPIC} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nAuthorization: Bearer ${bearer}\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    await waitFor("the observer to see sloth", () => observer.frames.find((f) => (f["payload"] as { participant?: { id: string } }).participant?.id === "sloth"));
    raw.pause();
    const writer = await rawParticipant(one.url, await token("writer", ["chat"]));
    const big = "y".repeat(500 * 1024);
    const left = () => observer.frames.find((f) => (f["payload"] as { event?: string; participant?: { id: string } }).event === "leave" && (f["payload"] as { participant: { id: string } }).participant.id === "sloth");
    // Half a megabyte a frame to sloth alone, paced under the rate limit, until the gateway gives up on it.
    await waitFor("sloth to be closed", async () => {
      writer.send({ protocol: "mcpx/v0.1", id: `big-${Math.random()}`, from: "writer", to: ["sloth"], kind: "chat", payload: { text: big } });
      await new Promise((r) => setTimeout(r, 10));
      return left();
    }, 30_000);
    expect(one.stderr()).toMatch(/refused slow_consumer topic=room participant=sloth/);
    raw.destroy();
    writer.socket.close();
  });

  it("when gateway two dies its participants leave for the others (a pending call rejects); restarted, the server's link reconnects", async () => {
    const clientLink = await link(one.url, "client-last", "v0.1");
    await waitFor("the server", () => (clientLink.participants().some((p) => p.id === "server") ? true : undefined));
    const client = new R.McpClient({ logger: null });
    await client.connect(R.createMcpxTransport({ participantId: "client-last", peerId: "server", link: clientLink }), { initialize: false });
    await client.initialize(INITIALIZE_PARAMS);
    const pending = client.callTool({ name: "slow" }).then(() => "resolved", (e: unknown) => e);
    await waitFor("the call to start", () => handled.get("client-last"));
    const port = two.port;
    await two.kill();
    const error = await within("the pending call to reject", pending, 10_000);
    expect(error).toBeInstanceOf(Error);
    expect(clientLink.participants().some((p) => p.id === "server")).toBe(false);
    expect(observer.frames.filter((f) => (f["payload"] as { event?: string; participant?: { id: string } }).event === "leave").map((f) => (f["payload"] as { participant: { id: string } }).participant.id)).toContain("server");
    two = await startGateway(["--port", String(port), "--redis", redis.url, "--heartbeat-ms", String(HEARTBEAT_MS)]);
    await waitFor("the server's link to reconnect", () => (serverLink.connected ? true : undefined), 15_000);
    await waitFor("the client to see the server again", () => (clientLink.participants().some((p) => p.id === "server") ? true : undefined));
    await client.close();
  });
});
