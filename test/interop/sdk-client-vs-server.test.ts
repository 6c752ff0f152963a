/**
 * Interop 2: the official SDK's Client against the generated McpServer (2025-11-25), over the
 * SDK's InMemoryTransport and over stdio (the SDK's StdioClientTransport spawning a child that
 * runs our server over the generated StdioTransport).
 * The SDK client's wire is tapped here; our server's on its side (its "observations" tool).
 *
 * Cancellation (2025-11-25, Behavior Requirements 4): receivers of a cancel SHOULD stop
 * processing, free associated resources (a sampling request the handler started is one) and
 * not send a response for the cancelled request.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { aborted, SAMPLING_PARAMS, TEXT, WireTap } from "./peers/common.js";
import { OUR_SERVER_INFO } from "./peers/our-server.js";
import { cancelled, cancelsIn, closePeers, IN_MEMORY, isRequest, openPeer, parseObservations, responsesIn, STDIO, waitFor, within, type LinkMode } from "./support.js";

afterEach(closePeers);

/** The SDK's Client (with sampling) connected to our server; its wire tapped here. */
async function connectSdkClient(mode: LinkMode) {
  const link = await openPeer("our-server", mode);
  const wire = new WireTap(link.transport);
  const errors: Error[] = [];
  const sampling: { requestId: unknown; aborted: Promise<unknown> }[] = [];
  const client = new Client({ name: "sdk-interop-client", version: "1.0.0" }, { capabilities: { sampling: {} } });
  client.onerror = (error) => errors.push(error);
  let samplingStarted!: () => void;
  const started = new Promise<void>((resolve) => (samplingStarted = resolve));
  client.setRequestHandler(CreateMessageRequestSchema, async (_request, extra) => {
    const entry = { requestId: extra.requestId, aborted: aborted(extra.signal) };
    sampling.push(entry);
    samplingStarted();
    await entry.aborted;
    // Answered anyway: the SDK drops what a handler returns once its request was cancelled.
    return { role: "assistant", content: TEXT("too late"), model: "interop-model" };
  });
  await client.connect(wire);
  const observe = async () => parseObservations(await client.callTool({ name: "observations" }));
  return { link, wire, client, errors, sampling, samplingStarted: started, observe };
}

describe.each([IN_MEMORY, STDIO])("SDK Client ↔ generated McpServer over $name", (mode) => {
  it("initializes, lists tools and calls one", async () => {
    const { wire, client, errors } = await connectSdkClient(mode);
    expect(client.getServerVersion()).toEqual(OUR_SERVER_INFO);
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "slow", "sample", "observations"]);
    expect(await client.callTool({ name: "echo", arguments: { text: "hi\nthere" } })).toEqual({ content: [TEXT("echo: hi\nthere")] });
    expect(wire.received).toEqual([
      { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: OUR_SERVER_INFO } },
      { jsonrpc: "2.0", id: 1, result: { tools: ["echo", "slow", "sample", "observations"].map((name) => ({ name, inputSchema: { type: "object" } })) } },
      { jsonrpc: "2.0", id: 2, result: { content: [TEXT("echo: hi\nthere")] } },
    ]);
    expect(wire.sent.map((m) => [m["method"], m["id"]])).toEqual([
      ["initialize", 0],
      ["notifications/initialized", undefined],
      ["tools/list", 1],
      ["tools/call", 2],
    ]);
    expect(wire.sent[3]).toEqual({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi\nthere" } } });
    expect(errors).toEqual([]);
    await client.close();
  });

  it("an SDK abort (signal) reaches our handler's ctx.signal with the SDK's reason; our server sends no response for it", async () => {
    const { wire, client, errors, observe } = await connectSdkClient(mode);
    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const call = client.callTool({ name: "slow" }, undefined, { signal: controller.signal, onprogress: () => started() }).catch((e: unknown) => e);
    await within("our handler to start (its progress notification)", running);
    controller.abort("client gave up");

    // The SDK rejects an aborted request with an McpError of code RequestTimeout and the reason.
    const error = await within("the aborted call to reject", call);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.RequestTimeout, message: "MCP error -32001: client gave up" });
    expect(cancelsIn(wire.sent)).toEqual([cancelled(1, "client gave up")]);

    const seen = await waitFor("our handler to see its signal", async () => {
      const observations = await observe();
      return observations.handlers["1"]?.returned ? observations : undefined;
    });
    expect(seen.handlers["1"]).toEqual({ requestId: 1, signalReason: "client gave up", returned: true });
    expect(seen.events).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason: "client gave up" }]);
    // Our server's wire: the progress notification, and no response, for request 1.
    expect(responsesIn(seen.sent, 1)).toEqual([]);
    expect(seen.sent.filter((m) => m["method"] === "notifications/progress")).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1, message: "started" } },
    ]);
    expect(seen.inFlight).toEqual({ sent: 0, received: 1 }); // the observations call itself
    // And on the SDK client's side nothing answered request 1 either; the next call works.
    expect(await client.callTool({ name: "echo", arguments: { text: "after" } })).toEqual({ content: [TEXT("echo: after")] });
    expect(responsesIn(wire.received, 1)).toEqual([]);
    expect(errors).toEqual([]);
    await client.close();
  });

  it("an SDK request timeout ({ timeout: 300 }) cancels too: our handler's signal fires with the SDK's reason, no response is sent", async () => {
    const { wire, client, errors, observe } = await connectSdkClient(mode);
    const error = await client.callTool({ name: "slow" }, undefined, { timeout: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.RequestTimeout, message: "MCP error -32001: Request timed out", data: { timeout: 300 } });
    // The SDK sends String(its McpError) as the reason.
    const reason = "McpError: MCP error -32001: Request timed out";
    expect(cancelsIn(wire.sent)).toEqual([cancelled(1, reason)]);

    const seen = await waitFor("our handler to see its signal", async () => {
      const observations = await observe();
      return observations.handlers["1"]?.returned ? observations : undefined;
    });
    expect(seen.handlers["1"]).toEqual({ requestId: 1, signalReason: reason, returned: true });
    expect(seen.events).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason }]);
    expect(responsesIn(seen.sent, 1)).toEqual([]);
    expect(responsesIn(wire.received, 1)).toEqual([]);
    expect(errors).toEqual([]);
    await client.close();
  });

  it("a sampling/createMessage our handler started through ctx.request is cancelled with it: the SDK client gets notifications/cancelled for it and its handler's signal fires", async () => {
    const { wire, client, errors, sampling, samplingStarted, observe } = await connectSdkClient(mode);
    const controller = new AbortController();
    const call = client.callTool({ name: "sample" }, undefined, { signal: controller.signal }).catch((e: unknown) => e);
    await within("the SDK client's sampling handler to start", samplingStarted);
    const samplingRequest = wire.received.find((m) => isRequest(m, "sampling/createMessage"));
    expect(samplingRequest).toEqual({ jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params: SAMPLING_PARAMS });
    controller.abort("client gave up on sampling");

    expect(await within("the aborted call to reject", call)).toMatchObject({ code: ErrorCode.RequestTimeout, message: "MCP error -32001: client gave up on sampling" });
    // The SDK client's sampling handler was cancelled by our server, with the reason it was given.
    expect(sampling).toHaveLength(1);
    expect(await within("the sampling handler's signal", sampling[0]?.aborted ?? Promise.resolve("no sampling request"))).toBe("client gave up on sampling");
    expect(cancelsIn(wire.received)).toEqual([cancelled(1, "client gave up on sampling")]);
    expect(cancelsIn(wire.sent)).toEqual([cancelled(1, "client gave up on sampling")]); // the tools/call (id 1 of the client)

    const seen = await waitFor("our handler to see its signal", async () => {
      const observations = await observe();
      return observations.handlers["1"]?.returned && observations.handlers["1"].nested !== undefined ? observations : undefined;
    });
    expect(seen.handlers["1"]).toEqual({
      requestId: 1,
      signalReason: "client gave up on sampling",
      nested: { outcome: "rejected", name: "AbortError", reason: "client gave up on sampling" },
      returned: true,
    });
    // (In either order: the sampling cancel goes out while the tools/call's signal aborts.)
    expect(seen.events).toHaveLength(2);
    expect(seen.events).toEqual(
      expect.arrayContaining([
        { type: "received", requestId: 1, method: "tools/call", reason: "client gave up on sampling" },
        { type: "sent", requestId: 1, method: "sampling/createMessage", reason: "client gave up on sampling", cause: "abort" },
      ]),
    );
    // Our server: no response to the tools/call; one cancel, for its sampling request.
    expect(responsesIn(seen.sent, 1)).toEqual([]);
    expect(cancelsIn(seen.sent)).toEqual([cancelled(1, "client gave up on sampling")]);
    // The SDK client dropped its cancelled handler's result: no response to the sampling request.
    expect(wire.sent.filter((m) => !("method" in m))).toEqual([]);
    expect(seen.inFlight).toEqual({ sent: 0, received: 1 }); // the observations call itself
    expect(errors).toEqual([]);
    await client.close();
  });
});
