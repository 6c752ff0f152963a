/**
 * Nested requests end with their call (issue 41, finding 5; http/nested-requests.ts,
 * http-session-client.ts). A tool's handler asks the client something (`elicitation/create`) on
 * the call's stream and waits; the call is cancelled; the server's handler aborts and so does the
 * nested request it made with its signal, and the server sends that cancel on the call's stream.
 * On aa78207 our client dropped the call's stream right after its own cancel went out, so the
 * server's cancel was lost and the client's elicitation handler ran on (22–40 of every 40–50).
 * Now the client keeps reading a cancelled call's stream while a request of it is open here
 * (cancelGraceMs at most): 50 cancelled calls leave 0 client handlers running, as the SDK 1.32
 * client's 50 do. Against our session server on loopback; the grace bound against a scripted
 * server that never cancels.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as R from "../../../generated/2025-11-25/index.js";
import { aborted } from "../../../helpers/async.js";
import { serve, type Served } from "../sessions/support.js";
import { accepted, json, scriptedFetch, sse, waitFor, within } from "./support.js";

const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "nested-cancel", version: "1.0.0" } };
const ASK = { mode: "form" as const, message: "Proceed?", requestedSchema: { type: "object" as const, properties: { ok: { type: "boolean" as const } } } };

let served: Served | undefined;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
  await served?.close();
  served = undefined;
});

/** Our client, whose elicitation handler waits for its signal; every such signal is kept. */
async function client(url: string | URL, options: Partial<R.SessionHttpClientTransportOptions> = {}) {
  const nested: AbortSignal[] = [];
  const errors: Error[] = [];
  const events: R.CancellationEvent[] = [];
  const c = new R.McpClient({
    logger: null,
    defaultTimeoutMs: 0,
    onError: (e) => errors.push(e),
    onCancellation: (e) => events.push(e),
    handlers: {
      "elicitation/create": async (_params, ctx) => {
        nested.push(ctx.signal);
        await aborted(ctx.signal);
        return { action: "cancel" };
      },
    },
  });
  await c.connect(R.createSessionHttpClientTransport({ url, ...options }), { initialize: false });
  closers.push(() => c.close());
  await within("initialize", c.initialize(INITIALIZE));
  await within("initialized", c.notify("notifications/initialized"));
  return { client: c, nested, errors, events };
}

describe("the session client and the server's requests of a cancelled call", () => {
  it("50 cancelled calls, each waiting on an elicitation its client handles: every server handler and every client handler aborts (0 left running)", async () => {
    const serverSignals: AbortSignal[] = [];
    served = await serve("native", {
      handlers: {
        "tools/call": async (_params, ctx) => {
          serverSignals.push(ctx.signal);
          await ctx.request("elicitation/create", ASK); // takes the handler's signal
          return { content: [] };
        },
      },
    });
    const { client: c, nested, errors } = await client(served.url);
    const controllers = Array.from({ length: 50 }, () => new AbortController());
    const calls = controllers.map((controller) => c.callTool({ name: "ask" }, { signal: controller.signal }).catch((e: unknown) => e));
    await waitFor("50 elicitations to reach the client", () => (nested.length === 50 ? true : undefined), 10_000, () => `${nested.length} so far`);
    for (const controller of controllers) controller.abort("stop");
    const outcomes = await within("every call to reject", Promise.all(calls));
    expect(outcomes.filter((o) => !(o instanceof R.RequestCancelledError))).toEqual([]);
    await waitFor("every server handler to abort", () => (served!.server.inFlight.received === 0 ? true : undefined), 5000);
    expect(serverSignals.filter((s) => !s.aborted)).toHaveLength(0);
    // The server cancelled each elicitation as its handler aborted; each cancel must reach the client.
    const sent = served.events.filter((e) => e.type === "sent" && e.method === "elicitation/create").length;
    expect(sent).toBe(50);
    await waitFor("every client handler to abort", () => (nested.every((s) => s.aborted) ? true : undefined), 3000, () => `${nested.filter((s) => !s.aborted).length} of 50 client handlers still running`);
    expect(nested.filter((s) => !s.aborted)).toHaveLength(0);
    expect(c.inFlight.received).toBe(0);
    expect(errors).toEqual([]);
  });

  it("the same 50 with the SDK 1.32 client, for comparison: its handlers abort too", async () => {
    served = await serve("native", { handlers: { "tools/call": async (_params, ctx) => (await ctx.request("elicitation/create", ASK), { content: [] }) } });
    const nested: AbortSignal[] = [];
    const sdk = new Client({ name: "sdk-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    sdk.setRequestHandler(ElicitRequestSchema, async (_request, extra) => {
      nested.push(extra.signal);
      await aborted(extra.signal);
      return { action: "cancel" };
    });
    closers.push(() => sdk.close());
    await within("connect", sdk.connect(new StreamableHTTPClientTransport(new URL(served.url))));
    const controllers = Array.from({ length: 50 }, () => new AbortController());
    const calls = controllers.map((controller) => sdk.callTool({ name: "ask" }, undefined, { signal: controller.signal }).catch((e: unknown) => e));
    await waitFor("50 elicitations to reach the SDK client", () => (nested.length === 50 ? true : undefined), 10_000, () => `${nested.length} so far`);
    for (const controller of controllers) controller.abort("stop");
    await within("every call to reject", Promise.all(calls));
    await waitFor("every SDK handler to abort", () => (nested.every((s) => s.aborted) ? true : undefined), 3000, () => `${nested.filter((s) => !s.aborted).length} of 50 SDK handlers still running`);
  });

  it("a call with no request open on its stream is dropped at once; the calls after it work", async () => {
    served = await serve("native", { handlers: { "tools/call": async (_params, ctx) => (await aborted(ctx.signal), { content: [] }) } });
    const { client: c } = await client(served.url);
    const controller = new AbortController();
    const call = c.callTool({ name: "slow" }, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the handler runs", () => (served!.server.inFlight.received === 1 ? true : undefined));
    controller.abort("stop");
    expect(await within("the cancelled call", call)).toBeInstanceOf(R.RequestCancelledError);
    await waitFor("the server's handler aborts", () => (served!.server.inFlight.received === 0 ? true : undefined));
    expect(c.inFlight).toEqual({ sent: 0, received: 0 });
  });
});

describe("how long a cancelled call's stream is kept (a scripted server)", () => {
  /** A server that answers initialize, takes notifications, and answers tools/call with an SSE stream carrying an elicitation (id 77). */
  function scripted() {
    const stream = sse();
    const cancels: unknown[] = [];
    const callIds: unknown[] = [];
    const { fetch } = scriptedFetch((call) => {
      const method = call.body?.["method"];
      if (method === "initialize") return json({ jsonrpc: "2.0", id: call.body!["id"], result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } });
      if (method === "tools/call") {
        callIds.push(call.body!["id"]);
        stream.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 77, method: "elicitation/create", params: ASK })}\n\n`);
        return stream.response;
      }
      if (method === "notifications/cancelled") cancels.push(call.body!["params"]);
      return accepted();
    });
    return { stream, fetch, cancels, callIds };
  }

  it("a server that never cancels the elicitation: the stream is dropped after cancelGraceMs, not before", async () => {
    const s = scripted();
    const { client: c, nested } = await client("http://mcp.test/mcp", { fetch: s.fetch, listen: false, cancelGraceMs: 300 });
    const controller = new AbortController();
    const call = c.callTool({ name: "ask" }, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the elicitation reaches the client", () => nested[0]);
    const cancelledAt = performance.now();
    controller.abort("stop");
    expect(await within("the cancelled call", call)).toBeInstanceOf(R.RequestCancelledError);
    await waitFor("the cancel went out", () => s.cancels[0]);
    await within("the stream to be dropped", s.stream.cancelled, 5000);
    const held = performance.now() - cancelledAt;
    expect(held).toBeGreaterThanOrEqual(290);
    expect(held).toBeLessThan(2000);
    expect(nested[0]!.aborted).toBe(false); // nothing cancelled it: the server never did
  });

  it("the server's cancel of the elicitation on the kept stream aborts the client's handler and lets the stream go at once", async () => {
    const s = scripted();
    const { client: c, nested, errors } = await client("http://mcp.test/mcp", { fetch: s.fetch, listen: false, cancelGraceMs: 60_000 });
    const controller = new AbortController();
    const call = c.callTool({ name: "ask" }, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the elicitation reaches the client", () => nested[0]);
    controller.abort("stop");
    await within("the cancelled call", call);
    await waitFor("the cancel went out", () => s.cancels[0]);
    expect(s.stream.isCancelled()).toBe(false);
    s.stream.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 77, reason: "call cancelled" } })}\n\n`);
    expect(await within("the client's handler aborts", aborted(nested[0]!))).toBe("call cancelled");
    await within("the stream is let go at once, not after 60 s", s.stream.cancelled, 2000);
    expect(errors).toEqual([]);
  });

  it("a response to the cancelled call on its kept stream is taken as late (no error), and the stream is let go", async () => {
    const s = scripted();
    const { client: c, nested, errors, events } = await client("http://mcp.test/mcp", { fetch: s.fetch, listen: false, cancelGraceMs: 60_000 });
    const controller = new AbortController();
    const call = c.callTool({ name: "ask" }, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the elicitation reaches the client", () => nested[0]);
    controller.abort("stop");
    await within("the cancelled call", call);
    await waitFor("the cancel went out", () => s.cancels[0]);
    s.stream.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: s.callIds[0], result: { content: [] } })}\n\n`);
    await within("the stream is let go", s.stream.cancelled, 2000);
    expect(events).toContainEqual({ type: "late-response", requestId: s.callIds[0] });
    expect(errors).toEqual([]);
  });
});
