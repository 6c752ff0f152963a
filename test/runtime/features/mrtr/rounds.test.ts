/**
 * A call's own maxInputRounds (endpoint.ts request): 0 is a bound like any other (the first
 * InputRequiredResult is refused, nothing retried), a fraction is a usage error before anything
 * is sent; and an endpoint connects once.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { ALL_CAPS, scenarioServer } from "./support.js";

const TOOL = "test_input_required_result_elicitation";

async function setUp() {
  let runs = 0;
  const server = scenarioServer({
    handlers: {
      "tools/call": async (_params, ctx) => {
        runs++;
        const ask = { user_name: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } } satisfies R.InputRequests;
        const got = ctx.input.responses(ask);
        if (got === undefined) return ctx.input.required(ask);
        return { resultType: "complete", content: [{ type: "text", text: `Hello, ${String(got.user_name.content?.["name"])}!` }] };
      },
    },
  });
  const [a, b] = R.createInMemoryTransportPair();
  await server.connect(b);
  const client = new R.McpClient({
    logger: null,
    capabilities: ALL_CAPS,
    handlers: { "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }) },
  });
  await client.connect(a);
  return {
    client,
    runs: () => runs,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describe("a call's maxInputRounds", () => {
  it("0: the first InputRequiredResult is refused as too many rounds, nothing is retried", async () => {
    const s = await setUp();
    const error = await s.client.callTool({ name: TOOL }, { maxInputRounds: 0, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.InputRequiredError);
    expect((error as R.InputRequiredError).why).toBe("rounds");
    expect((error as R.InputRequiredError).message).toBe("tools/call: could not answer the server's InputRequiredResult: more than 0 rounds");
    expect(s.runs()).toBe(1);
    // 1 allows the one retry this tool needs.
    await expect(s.client.callTool({ name: TOOL }, { maxInputRounds: 1, timeoutMs: 10_000 })).resolves.toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "Hello, Ada!" }],
    });
    expect(s.runs()).toBe(3);
    await s.close();
  });

  it("a fraction is a RangeError and nothing is sent", async () => {
    const s = await setUp();
    const error = await s.client.callTool({ name: TOOL }, { maxInputRounds: 1.5, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as RangeError).message).toBe("maxInputRounds must be an integer ≥ 0, got 1.5");
    expect(s.runs()).toBe(0);
    expect(s.client.inFlight).toEqual({ sent: 0, received: 0 });
    await s.close();
  });
});

describe("connect", () => {
  it("a second connect rejects and leaves the first connection working", async () => {
    const s = await setUp();
    const [other] = R.createInMemoryTransportPair();
    await expect(s.client.connect(other)).rejects.toThrow("this client is already connected");
    await expect(s.client.callTool({ name: TOOL }, { timeoutMs: 10_000 })).resolves.toMatchObject({ resultType: "complete" });
    await other.close();
    await s.close();
  });
});
