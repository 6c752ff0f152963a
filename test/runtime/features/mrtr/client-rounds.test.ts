/**
 * The sending side of multi round-trip requests against a raw server (features/mrtr.ts
 * requestWithInput, laterRounds): the whole call's timeout spans its rounds (a retry waits only
 * for what is left, and its timeout is reported as the call's), an InputRequiredResult without
 * valid inputRequests or requestState is refused, a retry's params drop the call's own stale
 * inputResponses and requestState, and a call goes on for as many rounds as the server asks.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { outcome } from "../../../helpers/async.js";
import * as R from "../../../generated/2026-07-28/index.js";
import { ALL_CAPS } from "./support.js";

type Wire = { id?: number; method?: string; params?: Record<string, unknown> };

const ASK = {
  user_name: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } },
};

async function clientAndRawServer(validate?: R.McpClientOptions["validate"]) {
  const [a, b] = R.createInMemoryTransportPair();
  const received: Wire[] = [];
  b.onmessage = (m) => received.push(structuredClone(m) as Wire);
  await b.start();
  const client = new R.McpClient({
    logger: null,
    capabilities: ALL_CAPS,
    handlers: { "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }) },
    validate,
  });
  await client.connect(a, { initialize: false });
  return {
    client,
    calls: () => received.filter((m) => m.method === "tools/call" && m.id !== undefined),
    cancels: () => received.filter((m) => m.method === "notifications/cancelled").map((m) => m.params),
    answer: (id: number | undefined, result: object) => b.send({ jsonrpc: "2.0", id: id as number, result: result as R.JsonObject }),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a call's rounds, seen from the client", () => {
  it("the timeout is the whole call's: a retry waits only for what is left, and its timeout is reported with the call's", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const s = await clientAndRawServer();
    const call = outcome(s.client.callTool({ name: "x" }, { timeoutMs: 100 }));
    await vi.advanceTimersByTimeAsync(60);
    await s.answer(s.calls()[0]!.id, { resultType: "input_required", inputRequests: ASK });
    await vi.advanceTimersByTimeAsync(0);
    const retry = s.calls()[1]!;
    expect(retry.params?.["inputResponses"]).toEqual({ user_name: { action: "accept", content: { name: "Ada" } } });
    await vi.advanceTimersByTimeAsync(39); // t = 99
    expect(call.value).toBe("pending");
    await vi.advanceTimersByTimeAsync(1); // t = 100: the call's deadline, 40 ms into the retry
    expect(call.value).toBeInstanceOf(R.RequestTimeoutError);
    expect((call.value as R.RequestTimeoutError).timeoutMs).toBe(100);
    expect(s.cancels()).toEqual([{ requestId: retry.id, reason: "Request timed out after 40 ms" }]);
  });

  it("an InputRequiredResult whose fields break the schema is refused at the wire: InvalidResultError naming the pointer, nothing retried", async () => {
    const s = await clientAndRawServer();
    const bad: Array<[object, string]> = [
      [{ inputRequests: "x" }, "/inputRequests"],
      [{ inputRequests: [1] }, "/inputRequests"],
      [{ requestState: 5 }, "/requestState"],
      [{ inputRequests: ASK, requestState: 5 }, "/requestState"],
    ];
    for (const [i, [fields, pointer]] of bad.entries()) {
      const call = s.client.callTool({ name: "x" }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
      await vi.waitFor(() => expect(s.calls()).toHaveLength(i + 1));
      await s.answer(s.calls()[i]!.id, { resultType: "input_required", ...fields });
      const error = await call;
      expect(error).toBeInstanceOf(R.InvalidResultError);
      expect(error).toMatchObject({ method: "tools/call", pointer });
    }
    expect(s.calls()).toHaveLength(bad.length);
  });

  it("an InputRequiredResult with neither inputRequests nor requestState, or either of the wrong type, is refused as invalid (result validation off: the rounds' own check)", async () => {
    const s = await clientAndRawServer({ results: false });
    const bad = [{}, { inputRequests: "x" }, { inputRequests: [1] }, { requestState: 5 }, { inputRequests: ASK, requestState: 5 }];
    for (const [i, fields] of bad.entries()) {
      const call = s.client.callTool({ name: "x" }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
      await vi.waitFor(() => expect(s.calls()).toHaveLength(i + 1));
      await s.answer(s.calls()[i]!.id, { resultType: "input_required", ...fields });
      const error = await call;
      expect(error).toBeInstanceOf(R.InputRequiredError);
      expect((error as R.InputRequiredError).why).toBe("invalid");
      expect((error as R.InputRequiredError).message).toBe("tools/call: could not answer the server's InputRequiredResult: it needs inputRequests (an object) or requestState (a string)");
    }
    // Nothing was retried.
    expect(s.calls()).toHaveLength(bad.length);
  });

  it("a retry carries the round's inputResponses and requestState, never the call's own stale ones, and the rounds go on until the server completes", async () => {
    const s = await clientAndRawServer();
    const call = s.client.callTool({ name: "x", inputResponses: { stale: {} }, requestState: "stale" } as unknown as R.CallToolRequestParams, { timeoutMs: 10_000 });
    await vi.waitFor(() => expect(s.calls()).toHaveLength(1));
    // Round 0 asks for input; round 1 only carries state on; round 2 completes.
    await s.answer(s.calls()[0]!.id, { resultType: "input_required", inputRequests: ASK });
    await vi.waitFor(() => expect(s.calls()).toHaveLength(2));
    const round1 = s.calls()[1]!.params!;
    expect(round1["inputResponses"]).toEqual({ user_name: { action: "accept", content: { name: "Ada" } } });
    expect("requestState" in round1).toBe(false);
    expect(round1["name"]).toBe("x");
    await s.answer(s.calls()[1]!.id, { resultType: "input_required", requestState: "s-1" });
    await vi.waitFor(() => expect(s.calls()).toHaveLength(3));
    const round2 = s.calls()[2]!.params!;
    expect(round2["requestState"]).toBe("s-1");
    expect("inputResponses" in round2).toBe(false);
    await s.answer(s.calls()[2]!.id, { resultType: "complete", content: [{ type: "text", text: "done" }] });
    await expect(call).resolves.toEqual({ resultType: "complete", content: [{ type: "text", text: "done" }] });
  });
});
