/**
 * A server's requests to its client time out by default (issue 41, finding 1): where neither the
 * server's `defaultTimeoutMs` nor the revision's RULES sets a timeout (the session era: RULES
 * gives none), a request the server sends (elicitation/create, sampling/createMessage,
 * roots/list) rejects with RequestTimeoutError after 60 s, the SDKs' default, and its cancel goes
 * to the client; a handler that awaited it can finish. The server's `defaultTimeoutMs` and a
 * call's `timeoutMs` set it; 0 turns it off. A client's requests time out at 60 s too (issue 42).
 * On aa78207 the server's request never settled: a client that never answers pinned its handler.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { SERVER_REQUEST_TIMEOUT_MS } from "../../../../templates/runtime/core/endpoint.js";
import { connectPair, deferred, INITIALIZE_PARAMS } from "../../../helpers/harness.js";
import { outcome } from "../../../helpers/async.js";

afterEach(() => {
  vi.useRealTimers();
});

const ELICIT = { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } } as const;

/** A client that declares elicitation, sampling and roots and never answers any of them. */
function silentClient(): R.McpClientOptions {
  const never = () => new Promise<never>(() => {});
  return { handlers: { "elicitation/create": never, "sampling/createMessage": never, "roots/list": never } };
}

async function initialized(server: R.McpServerOptions = {}, client: R.McpClientOptions = {}) {
  const pair = await connectPair({ client: { ...silentClient(), ...client }, server });
  await pair.client.initialize({ ...INITIALIZE_PARAMS, capabilities: { elicitation: {}, sampling: {}, roots: {} } });
  return pair;
}

describe("a server's requests to its client time out by default (2025-11-25: RULES sets none)", () => {
  it("the revision's RULES give no timeout; the server's requests get SERVER_REQUEST_TIMEOUT_MS, 60 s", () => {
    expect(R.RULES.defaultTimeoutMs).toBeNull();
    expect(SERVER_REQUEST_TIMEOUT_MS).toBe(60_000);
  });

  it("elicitation/create, sampling/createMessage and roots/list reject after 60 000 ms, each cancelled on the wire", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { server, serverWire } = await initialized();
    const seen = [
      outcome(server.elicit(ELICIT)),
      outcome(server.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 })),
      outcome(server.listRoots()),
    ];
    await vi.advanceTimersByTimeAsync(60_000 - 1);
    expect(seen.map((s) => s.value)).toEqual(["pending", "pending", "pending"]);
    expect(serverWire.cancels()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    for (const s of seen) expect(s.value).toBeInstanceOf(R.RequestTimeoutError);
    expect(seen.map((s) => (s.value as R.RequestTimeoutError).timeoutMs)).toEqual([60_000, 60_000, 60_000]);
    expect(serverWire.cancels()).toEqual(Array(3).fill(expect.objectContaining({ method: "notifications/cancelled", params: expect.objectContaining({ reason: "Request timed out after 60000 ms" }) })));
  });

  it("a handler awaiting an elicitation the client never answers is freed after 60 s and its call is answered", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const asked = deferred();
    const { client } = await initialized({
      handlers: {
        "tools/call": async (_params, ctx) => {
          asked.resolve();
          try {
            await ctx.request("elicitation/create", ELICIT);
            return { content: [{ type: "text", text: "answered" }] };
          } catch (error) {
            return { content: [{ type: "text", text: error instanceof R.RequestTimeoutError ? `timed out after ${error.timeoutMs} ms` : String(error) }], isError: true };
          }
        },
      },
    });
    // The client's own request waits longer: only the server's bounds this call.
    const call = outcome(client.callTool({ name: "ask" }, { timeoutMs: 120_000 }));
    await asked.promise;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(call.value).toEqual({ content: [{ type: "text", text: "timed out after 60000 ms" }], isError: true });
  });

  it("the server's defaultTimeoutMs sets it, a call's timeoutMs overrides it, 0 turns it off", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { server } = await initialized({ defaultTimeoutMs: 500 });
    const byServer = outcome(server.listRoots());
    const byCall = outcome(server.listRoots({ timeoutMs: 200 }));
    const off = outcome(server.listRoots({ timeoutMs: 0 }));
    await vi.advanceTimersByTimeAsync(200);
    expect([byServer.value, (byCall.value as R.RequestTimeoutError).timeoutMs]).toEqual(["pending", 200]);
    await vi.advanceTimersByTimeAsync(300);
    expect((byServer.value as R.RequestTimeoutError).timeoutMs).toBe(500);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(off.value).toBe("pending");
    const { server: unbounded } = await initialized({ defaultTimeoutMs: 0 });
    const never = outcome(unbounded.listRoots());
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(never.value).toBe("pending");
  });

  it("a client's requests time out at 60 s as well (issue 42); the client's defaultTimeoutMs: 0 turns it off", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const slow = { handlers: { "tools/call": () => new Promise<never>(() => {}) } } satisfies R.McpServerOptions;
    const { client, clientWire } = await initialized(slow);
    const call = outcome(client.callTool({ name: "slow" }));
    await vi.advanceTimersByTimeAsync(60_000 - 1);
    expect(call.value).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect((call.value as R.RequestTimeoutError).timeoutMs).toBe(60_000);
    expect(clientWire.cancels()).toEqual([expect.objectContaining({ method: "notifications/cancelled" })]);
    const { client: unbounded } = await initialized(slow, { defaultTimeoutMs: 0 });
    const never = outcome(unbounded.callTool({ name: "slow" }));
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(never.value).toBe("pending");
  });
});
