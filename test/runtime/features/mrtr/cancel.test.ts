/**
 * Cancellation and transports (2026-07-28 basic/patterns/mrtr + cancellation): a round is one
 * request, so cancelling it ends the round with nothing sent, and the retry is a new request
 * that works as if the cancelled one never happened. The same API over the typed client and
 * over stdio: MRTR lives above the transport.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { StdioTransport } from "../../../generated/2026-07-28/stdio.js";
import { aborted, deferred, waitFor } from "../../../helpers/async.js";
import { ALL_CAPS, askString, KEY, RawClient, scenarioServer, settle } from "./support.js";

const resultOf = (r: { result?: unknown }) => r.result as { requestState?: string; [k: string]: unknown };

describe("cancelling a round", () => {
  it("a handler cancelled while it asks sends nothing; the retry is a new request and completes", async () => {
    const started = deferred<AbortSignal>();
    const events: R.CancellationEvent[] = [];
    const server = scenarioServer({
      onCancellation: (e) => events.push(e),
      handlers: {
        "tools/call": async (params, ctx) => {
          const ask = { confirm: askString("Please confirm", "ok") };
          const got = ctx.input.responses(ask);
          if (got === undefined) {
            if (params.name === "slow") {
              started.resolve(ctx.signal);
              await aborted(ctx.signal);
            }
            return ctx.input.required(ask, { state: { round: 1 } }); // made, never sent
          }
          return { resultType: "complete", content: [{ type: "text", text: `round ${JSON.stringify(ctx.input.state())}` }] };
        },
      },
    });
    const c = await RawClient.connect(server);
    await c.sendRequest(1, "tools/call", { name: "slow" });
    const signal = await started.promise;
    await c.cancel(1, "user closed the dialog");
    await settle();
    expect(signal.aborted).toBe(true);
    expect(c.responsesTo(1)).toEqual([]);
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
    expect(events).toEqual([{ type: "received", requestId: 1, method: "tools/call", reason: "user closed the dialog" }]);
    // The client starts over: a new id, the same request.
    const again = await c.call("tools/call", { name: "slow2" }, { id: 2 });
    expect(resultOf(again)).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    const done = await c.call("tools/call", { name: "slow2", inputResponses: { confirm: { action: "accept", content: { ok: "y" } } }, requestState: resultOf(again).requestState }, { id: 3 });
    expect(done).toEqual({ jsonrpc: "2.0", id: 3, result: { resultType: "complete", content: [{ type: "text", text: 'round {"round":1}' }] } });
    expect(c.received).toHaveLength(2);
  });

  it("a retry cancelled while its requestState is verified never reaches the handler and gets no response", async () => {
    let client: RawClient | undefined;
    let cancelDuringVerify = false;
    let runs = 0;
    const server = scenarioServer({
      requestState: {
        key: KEY,
        // The clock is read inside verification, after the MAC check: the cancel arrives there.
        now: () => {
          if (cancelDuringVerify) void client!.cancel(7, "gave up");
          return Date.now();
        },
      },
      handlers: {
        "tools/call": (_params, ctx) => {
          runs++;
          return ctx.input.state() === undefined ? ctx.input.required({}, { state: "s" }) : { resultType: "complete", content: [] };
        },
      },
    });
    client = await RawClient.connect(server);
    const r1 = await client.call("tools/call", { name: "t" });
    cancelDuringVerify = true;
    await client.sendRequest(7, "tools/call", { name: "t", requestState: resultOf(r1).requestState });
    // Verification is asynchronous (WebCrypto): wait until the request has left the server's
    // books (however long a loaded machine takes), then check that it did so without a run.
    await waitFor("request 7 to end", () => (server.inFlight.received === 0 ? true : undefined));
    await settle();
    expect(runs).toBe(1);
    expect(client.responsesTo(7)).toEqual([]);
    expect(server.inFlight.received).toBe(0);
  });

  it("closing the connection mid-round aborts the handler and sends nothing", async () => {
    const started = deferred<AbortSignal>();
    const server = scenarioServer({
      handlers: {
        "tools/call": async (_params, ctx) => {
          started.resolve(ctx.signal);
          await aborted(ctx.signal);
          return ctx.input.required({ r: { method: "roots/list" } });
        },
      },
    });
    const c = await RawClient.connect(server);
    await c.sendRequest(1, "tools/call", { name: "t" });
    const signal = await started.promise;
    await c.transport.close();
    await settle();
    expect(signal.aborted).toBe(true);
    expect(c.received).toEqual([]);
    expect(server.inFlight.received).toBe(0);
  });
});

describe("over the typed client and over stdio", () => {
  it("the generated McpClient cancels a round with its signal and retries with typed inputResponses", async () => {
    const started = deferred();
    const server = scenarioServer({
      handlers: {
        "tools/call": async (params, ctx) => {
          const ask = { user_name: askString("What is your name?", "name") };
          const got = ctx.input.responses(ask);
          if (got !== undefined) return { resultType: "complete", content: [{ type: "text", text: `Hello, ${String(got.user_name.content?.["name"])}!` }] };
          if (params.name === "slow") {
            started.resolve();
            await aborted(ctx.signal);
          }
          return ctx.input.required(ask);
        },
      },
    });
    const [a, b] = R.createInMemoryTransportPair();
    await server.connect(b);
    const client = new R.McpClient({ logger: null, capabilities: ALL_CAPS, returnInputRequired: true });
    await client.connect(a);
    const ac = new AbortController();
    const slow = client.callTool({ name: "slow" }, { signal: ac.signal }).catch((e: unknown) => e);
    await started.promise;
    ac.abort("stop");
    expect(await slow).toBeInstanceOf(R.RequestCancelledError);
    const first: unknown = await client.callTool({ name: "greet" });
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { user_name: { method: "elicitation/create" } } });
    const second = await client.callTool({ name: "greet", inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } } });
    expect(second).toEqual({ resultType: "complete", content: [{ type: "text", text: "Hello, Ada!" }] });
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("a whole round trip with state over the stdio transport", async () => {
    const c2s = new PassThrough();
    const s2c = new PassThrough();
    const server = scenarioServer();
    const client = new R.McpClient({ logger: null, capabilities: ALL_CAPS, returnInputRequired: true });
    await server.connect(new StdioTransport({ input: c2s, output: s2c }));
    await client.connect(new StdioTransport({ input: s2c, output: c2s }));
    const name = "test_input_required_result_multi_round";
    const r1 = (await client.callTool({ name })) as unknown as R.InputRequiredResult;
    const r2 = (await client.callTool({ name, inputResponses: { step1: { action: "accept", content: { name: "Bo" } } }, requestState: r1.requestState! })) as unknown as R.InputRequiredResult;
    const r3 = await client.callTool({ name, inputResponses: { step2: { action: "accept", content: { color: "red" } } }, requestState: r2.requestState! });
    expect(r3).toEqual({ resultType: "complete", content: [{ type: "text", text: "Bo likes red" }] });
    await client.close();
    await server.close();
  });
});
