/**
 * The client's side of multi round-trip requests (endpoint.ts #requestWithInput, #answerInputs)
 * against a scripted server: the bound on input requests per round is 64 inclusive, and a retry
 * carries exactly this round's inputResponses and requestState — never ones left over from the
 * caller's own params.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { ALL_CAPS, settle } from "./support.js";

interface Received {
  id: number;
  params: { [key: string]: unknown };
}

/** A client whose server is a script: `answer(n, params)` is the result of the n-th request (from 0). */
async function scripted(answer: (n: number, params: Received["params"]) => object) {
  const [a, b] = R.createInMemoryTransportPair();
  const received: Received[] = [];
  b.onmessage = (m) => {
    const message = m as unknown as Received & { method?: string };
    if (message.method !== "tools/call") return;
    const { _meta, ...params } = message.params;
    received.push({ id: message.id, params });
    void b.send({ jsonrpc: "2.0", id: message.id, result: answer(received.length - 1, params) } as R.JsonRpcMessage);
  };
  await b.start();
  let ran = 0;
  const client = new R.McpClient({ logger: null, capabilities: ALL_CAPS, handlers: { "roots/list": () => (ran++, { roots: [{ uri: `file:///r${ran}` }] }) } });
  await client.connect(a, { initialize: false });
  return { client, received, ran: () => ran, close: () => client.close() };
}

const done = { resultType: "complete", content: [] };

describe("input requests per round", () => {
  it("64 are answered (the bound is inclusive) and the retry carries all 64 answers", async () => {
    const keys = Array.from({ length: 64 }, (_, i) => `k${i}`);
    const s = await scripted((n) => (n === 0 ? { resultType: "input_required", inputRequests: Object.fromEntries(keys.map((k) => [k, { method: "roots/list" }])) } : done));
    await expect(s.client.callTool({ name: "x" }, { timeoutMs: 10_000 })).resolves.toEqual(done);
    expect(s.ran()).toBe(64);
    expect(s.received).toHaveLength(2);
    expect(Object.keys(s.received[1]!.params["inputResponses"] as object)).toEqual(keys);
    await s.close();
  });
});

describe("a retry's params", () => {
  it("requestState only: the retry has that requestState and none of the caller's inputResponses", async () => {
    const s = await scripted((n) => (n === 0 ? { resultType: "input_required", requestState: "s2" } : done));
    const stale = { old: { roots: [] } };
    await expect(s.client.callTool({ name: "x", inputResponses: stale }, { timeoutMs: 10_000 })).resolves.toEqual(done);
    expect(s.received.map((r) => r.params)).toEqual([
      { name: "x", inputResponses: stale },
      { name: "x", requestState: "s2" },
    ]);
    await s.close();
  });

  it("inputRequests only: the retry has the answers and none of the caller's requestState", async () => {
    const s = await scripted((n) => (n === 0 ? { resultType: "input_required", inputRequests: { where: { method: "roots/list" } } } : done));
    await expect(s.client.callTool({ name: "x", requestState: "old" }, { timeoutMs: 10_000 })).resolves.toEqual(done);
    await settle();
    expect(s.received.map((r) => r.params)).toEqual([
      { name: "x", requestState: "old" },
      { name: "x", inputResponses: { where: { roots: [{ uri: "file:///r1" }] } } },
    ]);
    await s.close();
  });
});
