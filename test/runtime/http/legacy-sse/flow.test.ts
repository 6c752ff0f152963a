/**
 * The HTTP+SSE transport of 2024-11-05 (basic/transports, "HTTP with SSE") served by
 * createLegacySseHandler, on both faces of the handler, at the wire and with our 2024-11-05
 * client: the `endpoint` event first, POSTs answered 202 with the reply on the stream,
 * cancellation by notifications/cancelled (id 0 included) and the stream's end as the end of the
 * session.
 */
import { afterEach, expect, it } from "vitest";
import { aborted, deferred, waitFor, within } from "../../../helpers/async.js";
import { closeAll, INITIALIZE, post, R, serve, session, describeFaces } from "./support.js";

afterEach(closeAll);

const TEXT = (text: string) => ({ type: "text" as const, text });

/** tools/call: "slow" waits for its signal and records the reason; anything else echoes. */
function slowServer(seen: { reasons: unknown[]; started: number; returned: number }): R.McpServerOptions {
  return {
    handlers: {
      "tools/list": () => ({ tools: [] }),
      "tools/call": async (params, ctx) => {
        if (params.name !== "slow") return { content: [TEXT(`echo ${params.name}`)] };
        seen.started++;
        seen.reasons.push(await aborted(ctx.signal));
        seen.returned++;
        return { content: [TEXT("too late")] };
      },
    },
  };
}

describeFaces("HTTP+SSE server: the stream and the endpoint event", (face) => {
  it("GET /sse answers an event stream whose first event is endpoint, naming /messages with a fresh random sessionId", async () => {
    const served = await serve(face);
    const a = await session(served);
    const b = await session(served);
    expect(a.stream.response.status).toBe(200);
    expect(a.stream.response.headers.get("content-type")).toBe("text/event-stream");
    const idA = new URL(a.endpoint).searchParams.get("sessionId");
    const idB = new URL(b.endpoint).searchParams.get("sessionId");
    expect(new URL(a.endpoint).pathname).toBe("/messages");
    expect(idA).toMatch(/^[0-9a-f-]{36}$/);
    expect(idB).not.toBe(idA);
    a.stream.close();
    b.stream.close();
  });

  it("a POST is answered 202 and its response comes on the session's stream as a message event", async () => {
    const served = await serve(face);
    const { stream, endpoint } = await session(served);
    const answer = await post(endpoint, { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE });
    expect(answer.status).toBe(202);
    const message = await stream.nextMessage();
    expect(message).toMatchObject({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2024-11-05" } });
    stream.close();
  });
});

describeFaces("HTTP+SSE server: our 2024-11-05 client, initialize → tools/call → cancel", (face) => {
  it("initializes, calls a tool, and a cancelled call aborts the handler's signal with no response", async () => {
    const seen = { reasons: [] as unknown[], started: 0, returned: 0 };
    const served = await serve(face, slowServer(seen));
    const clientEvents: R.CancellationEvent[] = [];
    const client = new R.McpClient({ logger: null, onCancellation: (e) => clientEvents.push(e) });
    const transport = R.createLegacySseClientTransport({ url: `${served.origin}/sse` });
    await client.connect(transport, { initialize: false });
    const initialized = await within("initialize", client.initialize(INITIALIZE));
    expect(initialized).toMatchObject({ protocolVersion: "2024-11-05" });
    await client.notify("notifications/initialized");
    expect(await within("echo", client.callTool({ name: "hello" }))).toEqual({ content: [TEXT("echo hello")] });

    const controller = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the slow handler started", () => (seen.started === 1 ? true : undefined));
    controller.abort("no longer needed");
    expect(await within("the cancelled call", call)).toBeInstanceOf(R.RequestCancelledError);
    await waitFor("the handler's signal aborted", () => (seen.returned === 1 ? true : undefined));
    expect(served.events).toContainEqual(expect.objectContaining({ type: "received", method: "tools/call", reason: "no longer needed" }));
    // The session goes on: a later call is answered, and no response of the cancelled one came.
    expect(await within("echo after the cancel", client.callTool({ name: "after" }))).toEqual({ content: [TEXT("echo after")] });
    expect(clientEvents.filter((e) => e.type === "late-response")).toEqual([]);
    await client.close();
  });

  it("notifications/cancelled for request id 0 aborts that handler and its response is never sent", async () => {
    const seen = { reasons: [] as unknown[], started: 0, returned: 0 };
    const served = await serve(face, slowServer(seen));
    const { stream, endpoint } = await session(served);
    await post(endpoint, { jsonrpc: "2.0", id: 100, method: "initialize", params: INITIALIZE });
    await stream.nextMessage();
    await post(endpoint, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect((await post(endpoint, { jsonrpc: "2.0", id: 0, method: "tools/call", params: { name: "slow" } })).status).toBe(202);
    await waitFor("the slow handler started", () => (seen.started === 1 ? true : undefined));
    expect((await post(endpoint, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0, reason: "zero" } })).status).toBe(202);
    await waitFor("the handler returned after its abort", () => (seen.returned === 1 ? true : undefined));
    // A ping after the handler returned: its response is the next message; none for id 0 came before it.
    await post(endpoint, { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(await stream.nextMessage()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(served.events).toContainEqual(expect.objectContaining({ type: "received", requestId: 0, reason: "zero" }));
    stream.close();
  });

  it("the client closing the stream ends the session: its handlers abort and its endpoint answers 404", async () => {
    const seen = { reasons: [] as unknown[], started: 0, returned: 0 };
    const served = await serve(face, slowServer(seen));
    const { stream, endpoint } = await session(served);
    await post(endpoint, { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE });
    await stream.nextMessage();
    await post(endpoint, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow" } });
    await waitFor("the slow handler started", () => (seen.started === 1 ? true : undefined));
    stream.close();
    await waitFor("the handler's signal aborted", () => (seen.returned === 1 ? true : undefined));
    await waitFor("the session is gone", async () => ((await post(endpoint, { jsonrpc: "2.0", id: 3, method: "ping" })).status === 404 ? true : undefined));
  });

  it("the server's requests to the client go on the stream and the client's POSTed response reaches the handler", async () => {
    const asked = deferred<unknown>();
    const served = await serve(face, {
      handlers: {
        "tools/call": async (_params, ctx) => {
          asked.resolve(await ctx.request("roots/list", {}));
          return { content: [] };
        },
      },
    });
    const client = new R.McpClient({ logger: null, handlers: { "roots/list": () => ({ roots: [{ uri: "file:///r", name: "r" }] }) } });
    await client.connect(R.createLegacySseClientTransport({ url: `${served.origin}/sse` }), { initialize: false });
    await client.initialize({ ...INITIALIZE, capabilities: { roots: {} } });
    await client.notify("notifications/initialized");
    await within("the call", client.callTool({ name: "ask" }));
    expect(await asked.promise).toEqual({ roots: [{ uri: "file:///r", name: "r" }] });
    await client.close();
  });
});
