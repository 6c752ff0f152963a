/**
 * isInputRequired and isComplete (features/mrtr.ts, issue 30): the guards a caller who drives the
 * rounds (`returnInputRequired: true`) tells a call's results apart with. On their own (any value,
 * hostile ones included) and on what a real 2026-07-28 server answers, for both kinds of client.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { ALL_CAPS, KEY } from "./support.js";

describe("the guards on any value", () => {
  it.each([
    [{ resultType: "input_required", requestState: "s" }, true, false],
    [{ resultType: "complete", content: [] }, false, true],
    // An earlier revision's server sends no resultType: the client MUST treat it as "complete".
    [{ content: [] }, false, true],
    [{ resultType: "task", taskId: "t" }, false, true],
    [null, false, false],
    [undefined, false, false],
    ["input_required", false, false],
    [["input_required"], false, false],
    [{ resultType: ["input_required"] }, false, true],
  ])("%j: isInputRequired %s, isComplete %s", (value, inputRequired, complete) => {
    expect(R.isInputRequired(value)).toBe(inputRequired);
    expect(R.isComplete(value)).toBe(complete);
  });
});

describe("on a real server's answers", () => {
  async function pair(options: R.McpClientOptions & { returnInputRequired?: boolean }) {
    let asked = 0;
    const server = new R.McpServer({
      logger: null,
      requestState: { key: KEY },
      handlers: {
        "tools/call": async (_params, ctx) => {
          if (ctx.input.state() === undefined) return (asked++, ctx.input.required({}, { state: "one more round" }));
          return { content: [{ type: "text", text: "done" }] };
        },
      },
    });
    const [a, b] = R.createInMemoryTransportPair();
    await server.connect(b);
    const client = new R.McpClient({ logger: null, capabilities: ALL_CAPS, ...options });
    await client.connect(a);
    return { client, asked: () => asked, close: () => client.close() };
  }

  it("the default client answers the round itself: the complete result, which isComplete confirms", async () => {
    const p = await pair({});
    try {
      const result = await p.client.callTool({ name: "x" });
      expect(R.isComplete(result)).toBe(true);
      expect(result.content).toEqual([{ type: "text", text: "done" }]);
      expect(p.asked()).toBe(1);
    } finally {
      await p.close();
    }
  });

  it("a manual client gets the InputRequiredResult back and isInputRequired says so; retried with its requestState, the complete result", async () => {
    const p = await pair({ returnInputRequired: true });
    try {
      const first = await p.client.callTool({ name: "x" });
      expect(R.isInputRequired(first)).toBe(true);
      expect(R.isComplete(first)).toBe(false);
      if (!R.isInputRequired(first)) throw new Error("expected an InputRequiredResult");
      const second = await p.client.callTool({ name: "x", requestState: first.requestState! });
      expect(R.isComplete(second)).toBe(true);
      if (R.isComplete(second)) expect(second.content).toEqual([{ type: "text", text: "done" }]);
    } finally {
      await p.close();
    }
  });
});
