/**
 * Interop 1: the generated McpClient (2025-11-25) against the official SDK's McpServer, over the
 * SDK's InMemoryTransport and over stdio (the SDK's StdioClientTransport spawning a child that
 * runs the SDK server over the SDK's StdioServerTransport). The client's wire is tapped on our
 * side; the server's on its side (its "observations" tool).
 *
 * Cancellation (2025-11-25, Behavior Requirements): the receiver SHOULD stop processing and not
 * respond (4); the sender SHOULD ignore any response that arrives after it cancelled (6).
 */
import { afterEach, describe, expect, it } from "vitest";
import { McpClient, RequestCancelledError, type CancellationEvent } from "../generated/2025-11-25/index.js";
import { TEXT, WireTap } from "./peers/common.js";
import { LATE_TEXT, SDK_ECHO_TEXT } from "./peers/sdk-server.js";
import { cancelled, cancelsIn, closePeers, IN_MEMORY, INITIALIZE_PARAMS, isResponse, openPeer, parseObservations, responsesIn, STDIO, waitFor, within, type LinkMode } from "./support.js";

afterEach(closePeers);

/** Our client connected to the SDK server; its wire tapped on our side. */
async function connectToSdkServer(mode: LinkMode) {
  const link = await openPeer("sdk-server", mode);
  const wire = new WireTap(link.transport);
  const events: CancellationEvent[] = [];
  const logLines: string[] = [];
  const errors: Error[] = [];
  const client = new McpClient({
    logger: (line) => logLines.push(line),
    onCancellation: (event) => events.push(event),
    onError: (error) => errors.push(error),
  });
  await client.connect(wire, { initialize: false });
  const initialized = await client.initialize(INITIALIZE_PARAMS);
  await client.notify("notifications/initialized");
  const observe = async () => parseObservations(await client.callTool({ name: "observations" }));
  return { link, wire, client, events, logLines, errors, initialized, observe };
}

describe.each([IN_MEMORY, STDIO])("generated McpClient ↔ SDK McpServer over $name", (mode) => {
  it("initializes, lists tools and calls one; exactly these messages cross the wire", async () => {
    const { wire, client, initialized, errors } = await connectToSdkServer(mode);
    expect(initialized).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: { name: "sdk-interop-server", version: "1.0.0" }, capabilities: { tools: {} } });

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "slow", "slow-then-late", "hold", "release", "observations"]);
    expect(tools[0]).toMatchObject({ name: "echo", description: "answers at once", inputSchema: { type: "object" } });

    expect(await client.callTool({ name: "echo" })).toEqual({ content: [TEXT(SDK_ECHO_TEXT)] });

    expect(wire.sent).toEqual([
      { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE_PARAMS },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo" } },
    ]);
    expect(wire.received.map((m) => [m["id"], "result" in m])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(wire.received[2]).toEqual({ jsonrpc: "2.0", id: 3, result: { content: [TEXT(SDK_ECHO_TEXT)] } });
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });
    expect(errors).toEqual([]);
    await client.close();
  });

  it("an aborted call: the SDK handler's signal fires with our reason, one notifications/cancelled reaches it, and its late result is ignored", async () => {
    const { wire, client, events, logLines, errors, observe } = await connectToSdkServer(mode);

    // A call that stays pending throughout, to show that the late result settles nothing else.
    let held: unknown = "pending";
    const hold = client.callTool({ name: "hold" }).then((result) => (held = result));

    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = client.callTool({ name: "slow-then-late" }, { signal: controller.signal, onProgress: () => started() }).catch((error: unknown) => error);
    await within("the SDK handler to start (its progress notification)", running);
    controller.abort("user pressed stop");

    const error = await within("the aborted call to reject", slow);
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect(error).toMatchObject({ name: "AbortError", method: "tools/call", requestId: 3, reason: "user pressed stop" });

    // The SDK handler ignores its signal and its late result arrives here: reported, ignored.
    await waitFor("the late-response event", () => events.find((e) => e.type === "late-response"));
    expect(responsesIn(wire.received, 3)).toEqual([{ jsonrpc: "2.0", id: 3, result: { content: [TEXT(LATE_TEXT)] } }]);
    expect(events).toEqual([
      { type: "sent", requestId: 3, method: "tools/call", reason: "user pressed stop", cause: "abort" },
      { type: "late-response", requestId: 3 },
    ]);
    expect(logLines).toEqual([
      "[mcp client] cancelled tools/call (id 3) on abort: user pressed stop",
      "[mcp client] ignored a response to cancelled request 3",
    ]);
    expect(held).toBe("pending");
    expect(client.inFlight).toEqual({ sent: 1, received: 0 }); // only hold

    // What the SDK server saw: its handler's signal fired with our reason, exactly one cancel
    // for the right id arrived, and the SDK itself dropped what the cancelled handler returned
    // (the only response for id 3 is the one the handler wrote on the wire).
    const seen = await waitFor("the SDK handler to return", async () => {
      const observations = await observe();
      return observations.handlers["3"]?.returned ? observations : undefined;
    });
    expect(seen.handlers["3"]).toEqual({ requestId: 3, signalReason: "user pressed stop", returned: true });
    expect(cancelsIn(seen.received)).toEqual([cancelled(3, "user pressed stop")]);
    expect(responsesIn(seen.sent, 3)).toEqual([{ jsonrpc: "2.0", id: 3, result: { content: [TEXT(LATE_TEXT)] } }]);
    expect(seen.received.filter((m) => m["id"] === 3)).toEqual([
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "slow-then-late", _meta: { progressToken: 3 } } },
    ]);

    // hold settles with its own result, and only when released.
    expect(await client.callTool({ name: "release" })).toEqual({ content: [TEXT("released")] });
    await within("hold to settle", hold);
    expect(held).toEqual({ content: [TEXT("held")] });

    // Our side of the wire: one cancel, for id 3, with our reason, after the request.
    expect(cancelsIn(wire.sent)).toEqual([cancelled(3, "user pressed stop")]);
    const order = wire.sent.map((m) => `${String(m["method"])}#${String(m["id"] ?? "-")}`);
    expect(order.indexOf("notifications/cancelled#-")).toBeGreaterThan(order.indexOf("tools/call#3"));
    // Every request got exactly one response, hold's own, after the late one.
    const responseIds = wire.received.filter((m) => isResponse(m)).map((m) => m["id"]);
    expect(new Set(responseIds).size).toBe(responseIds.length);
    expect(responsesIn(wire.received, 2)).toEqual([{ jsonrpc: "2.0", id: 2, result: { content: [TEXT("held")] } }]);
    expect(responseIds.indexOf(2)).toBeGreaterThan(responseIds.indexOf(3));
    expect(events).toHaveLength(2);
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });
    expect(errors).toEqual([]);
    expect(await client.callTool({ name: "echo" })).toEqual({ content: [TEXT(SDK_ECHO_TEXT)] });
    await client.close();
  });
});
