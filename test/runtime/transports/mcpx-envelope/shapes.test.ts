/**
 * The two MCPx envelope shapes (transports/mcpx-envelope.ts): the ADR's draft `kind: "mcp"` and
 * v0.1's `mcp/request:METHOD[:CONTEXT]` / `mcp/response:METHOD[:CONTEXT]` + `correlation_id`; the
 * capability wildcards of SPEC §4.1; and the same conversation, a cancel and progress included,
 * through a gateway in either shape, the payloads untouched.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import type { McpxEnvelope, McpxShape } from "../../../generated/2025-11-25/index.js";
import { aborted, waitFor } from "../../../helpers/async.js";
import { INITIALIZE_PARAMS } from "../../../helpers/harness.js";
import { capabilityMatches, mcpKind, mcpKindAgrees } from "../../../../templates/runtime/transports/mcpx-envelope.js";
import { MCPX_MAX_CORRELATIONS } from "../../../../templates/runtime/transports/mcpx.js";

const call = { jsonrpc: "2.0" as const, id: 7, method: "tools/call", params: { name: "read_file", arguments: {} } };
const cancel = { jsonrpc: "2.0" as const, method: "notifications/cancelled", params: { requestId: 7, reason: "stop" } };
const answer = { jsonrpc: "2.0" as const, id: 7, result: { content: [] } };

describe("MCPx kinds", () => {
  it("draft: every MCP message is kind mcp; v0.1: the method (and tool name) in the kind", () => {
    expect([call, cancel, answer].map((m) => mcpKind("draft", m))).toEqual(["mcp", "mcp", "mcp"]);
    expect(mcpKind("v0.1", call)).toBe("mcp/request:tools/call:read_file");
    expect(mcpKind("v0.1", cancel)).toBe("mcp/request:notifications/cancelled");
    expect(mcpKind("v0.1", answer, { method: "tools/call", context: "read_file" })).toBe("mcp/response:tools/call:read_file");
    // A name with ":" cannot be a CONTEXT (it would read as two).
    expect(mcpKind("v0.1", { ...call, params: { name: "a:b" } })).toBe("mcp/request:tools/call");
  });

  it("a receiver checks that a v0.1 kind agrees with its payload (SPEC §4.3)", () => {
    expect(mcpKindAgrees("mcp/request:tools/call:read_file", call)).toBe(true);
    expect(mcpKindAgrees("mcp/request:tools/call", call)).toBe(true);
    expect(mcpKindAgrees("mcp/request:tools/call:safe_tool", call)).toBe(false);
    expect(mcpKindAgrees("mcp/request:tools/list", call)).toBe(false);
    expect(mcpKindAgrees("mcp/request:tools/call", answer)).toBe(false);
    expect(mcpKindAgrees("mcp/response:tools/call", call)).toBe(false);
    expect(mcpKindAgrees("mcp/response:tools/call", answer)).toBe(true);
    expect(mcpKindAgrees("mcp", cancel)).toBe(true);
    expect(mcpKindAgrees("chat", cancel)).toBe(false);
  });

  it.each([
    ["mcp/*", "mcp/request:tools/call", true],
    ["mcp/request:*", "mcp/request:tools/call:x", true],
    ["mcp/request:tools/*", "mcp/request:tools/call", true],
    ["mcp/request:tools/*", "mcp/request:resources/read", false],
    ["mcp/response:*", "mcp/request:tools/call", false],
    ["mcp/request:*/list", "mcp/request:tools/list", true],
    ["mcp/request:*/list", "mcp/request:tools/call", false],
    ["chat", "chat", true],
    ["chat", "chatter", false],
    ["mcp/*", "mcp", false],
    ["mcp", "mcp", true],
    ["*", "system/welcome", true],
    ["a*b*c", "abc", true],
    ["a*b*c", "acb", false],
    ["a*a", "a", false],
  ])("capability %s admits %s: %s", (pattern, kind, expected) => {
    expect(capabilityMatches(pattern, kind)).toBe(expected);
  });
});

/** A server and a client on one in-memory gateway, speaking `shape`; every routed envelope kept. */
async function conversation(shape: McpxShape) {
  const routed: McpxEnvelope[] = [];
  const gateway = R.createMcpxGateway({ onRoute: (e) => routed.push(e) });
  let signal: AbortSignal | undefined;
  const server = new R.McpServer({
    logger: null,
    handlers: {
      initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } }),
      "tools/call": async (_params, ctx) => {
        signal = ctx.signal;
        await ctx.sendProgress(1, 2, "half");
        return { content: [{ type: "text", text: String(await aborted(ctx.signal)) }] };
      },
    },
  });
  await server.connect(R.createMcpxTransport({ participantId: "server", peerId: "client", link: gateway.join("server"), shape }));
  const client = new R.McpClient({ logger: null });
  const transport = R.createMcpxTransport({ participantId: "client", peerId: "server", link: gateway.join("client"), shape });
  await client.connect(transport, { initialize: false });
  await client.initialize(INITIALIZE_PARAMS);
  const controller = new AbortController();
  const progress: number[] = [];
  const outcome = client.callTool({ name: "read_file" }, { signal: controller.signal, onProgress: (p) => progress.push(p.progress) }).then(() => "resolved", (e: unknown) => e);
  await waitFor("progress", () => (progress.length > 0 ? true : undefined));
  controller.abort("enough");
  const error = await outcome;
  await waitFor("the server's signal", () => (signal?.aborted === true ? true : undefined));
  return { routed, error, signal: signal!, transport };
}

describe("the same conversation in both shapes", () => {
  it.each(["draft", "v0.1"] as const)("%s: initialize, a call with progress, its cancel: the handler's signal aborts, payloads untouched", async (shape) => {
    const { routed, error, signal } = await conversation(shape);
    expect(error).toBeInstanceOf(R.RequestCancelledError);
    expect(signal.reason).toBe("enough");
    const kinds = routed.map((e) => e.kind);
    const callEnvelope = routed.find((e) => (e.payload as { method?: string }).method === "tools/call")!;
    const cancelEnvelope = routed.find((e) => (e.payload as { method?: string }).method === "notifications/cancelled")!;
    const progressEnvelope = routed.find((e) => (e.payload as { method?: string }).method === "notifications/progress")!;
    // The cancel names the MCP request id of the call, as sent: nothing rewritten on the way.
    expect((cancelEnvelope.payload as { params: { requestId: unknown } }).params.requestId).toBe((callEnvelope.payload as { id: unknown }).id);
    expect(progressEnvelope.payload).toMatchObject({ method: "notifications/progress", params: { progress: 1, total: 2 } });
    if (shape === "draft") {
      expect(new Set(kinds)).toEqual(new Set(["mcp"]));
      expect(routed.every((e) => e.correlation_id === undefined)).toBe(true);
      return;
    }
    expect(callEnvelope.kind).toBe("mcp/request:tools/call:read_file");
    expect(cancelEnvelope.kind).toBe("mcp/request:notifications/cancelled");
    expect(progressEnvelope.kind).toBe("mcp/request:notifications/progress");
    const init = routed.find((e) => (e.payload as { method?: string }).method === "initialize")!;
    const initAnswer = routed.find((e) => e.kind === "mcp/response:initialize")!;
    expect(initAnswer.correlation_id).toBe(init.id);
    expect(initAnswer.from).toBe("server");
    expect(routed.every((e) => typeof e.ts === "string")).toBe(true);
  });

  it("v0.1: a response whose correlation_id is not our request's envelope, or whose kind disagrees, is dropped", async () => {
    const gateway = R.createMcpxGateway();
    const peer = gateway.join("server");
    const transport = R.createMcpxTransport({ participantId: "client", peerId: "server", link: gateway.join("client"), shape: "v0.1" });
    const got: unknown[] = [];
    transport.onmessage = (m) => got.push(m);
    await transport.start();
    const sent: McpxEnvelope[] = [];
    peer.subscribe((e) => sent.push(e as McpxEnvelope));
    await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await waitFor("the request", () => sent[0]);
    const base = { protocol: "mcpx/v0.1" as const, from: "server", to: ["client"], payload: { jsonrpc: "2.0", id: 1, result: {} } };
    peer.send({ ...base, id: "r1", kind: "mcp/response:ping", correlation_id: "someone-else's" });
    peer.send({ ...base, id: "r2", kind: "mcp/request:ping", correlation_id: sent[0]!.id });
    peer.send({ ...base, id: "r3", kind: "mcp/response:ping", correlation_id: sent[0]!.id });
    await waitFor("the answer", () => got[0]);
    expect(got).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    expect(transport.counts.droppedBy["invalid-payload"]).toBe(2);
  });

  it("v0.1: remembers at most MCPX_MAX_CORRELATIONS of the peer's requests; the oldest's response goes without correlation_id", async () => {
    const gateway = R.createMcpxGateway();
    const peer = gateway.join("client");
    const transport = R.createMcpxTransport({ participantId: "server", peerId: "client", link: gateway.join("server"), shape: "v0.1" });
    let delivered = 0;
    transport.onmessage = () => delivered++;
    await transport.start();
    const sent: McpxEnvelope[] = [];
    peer.subscribe((e) => sent.push(e as McpxEnvelope));
    const total = MCPX_MAX_CORRELATIONS + 1;
    for (let id = 1; id <= total; id++) {
      peer.send({ protocol: "mcpx/v0.1", id: `req-${id}`, from: "client", to: ["server"], kind: "mcp/request:ping", payload: { jsonrpc: "2.0", id, method: "ping" } });
      if (id % 500 === 0) await waitFor("deliveries", () => (delivered === id ? true : undefined));
    }
    await waitFor("every request", () => (delivered === total ? true : undefined));
    await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    await transport.send({ jsonrpc: "2.0", id: total, result: {} });
    await waitFor("both answers", () => (sent.length === 2 ? true : undefined));
    expect(sent.map((e) => [e.kind, e.correlation_id])).toEqual([["mcp/response:unknown", undefined], ["mcp/response:ping", `req-${total}`]]);
  });

  it("the in-memory gateway keeps system/* for gateways: a participant's is dropped, and no one joins as system:*", () => {
    const gateway = R.createMcpxGateway();
    const link = gateway.join("mallory");
    link.send({ protocol: "mcpx/v0.1", id: "x", from: "mallory", kind: "system/presence", payload: { event: "leave", participant: { id: "server" } } });
    expect(gateway.counts.droppedBy["reserved-kind"]).toBe(1);
    expect(() => gateway.join("system:gateway")).toThrow(/system:/);
  });
});
