import { describe, expect, it } from "vitest";
import { aborted, connectPair, deferred, settle } from "./harness.js";

describe("smoke", () => {
  it("calls a tool and cancels another", async () => {
    const started = deferred<AbortSignal>();
    const pair = await connectPair({
      server: {
        handlers: {
          "tools/call": async (params, ctx) => {
            if (params.name === "slow") {
              started.resolve(ctx.signal);
              await aborted(ctx.signal);
              return { content: [{ type: "text", text: "late" }] };
            }
            return { content: [{ type: "text", text: `hi ${String(params.arguments?.["x"])}` }] };
          },
        },
      },
    });
    const res = await pair.client.callTool({ name: "echo", arguments: { x: 1 } });
    expect(res.content).toEqual([{ type: "text", text: "hi 1" }]);
    const ac = new AbortController();
    const p = pair.client.callTool({ name: "slow" }, { signal: ac.signal });
    const signal = await started.promise;
    ac.abort("user clicked stop");
    await expect(p).rejects.toMatchObject({ name: "AbortError", reason: "user clicked stop" });
    await settle();
    expect(signal.aborted).toBe(true);
    expect(pair.clientWire.cancels()).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "user clicked stop" } }]);
    expect(pair.serverWire.responsesTo(2)).toEqual([]);
    expect(pair.serverEvents).toEqual([{ type: "received", requestId: 2, method: "tools/call", reason: "user clicked stop" }]);
    expect(pair.client.inFlight).toEqual({ sent: 0, received: 0 });
    expect(pair.server.inFlight).toEqual({ sent: 0, received: 0 });
  });
});
