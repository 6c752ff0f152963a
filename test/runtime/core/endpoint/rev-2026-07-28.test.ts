/**
 * 2026-07-28 (stateless lifecycle, no initialize, no server → client requests): a tool call and
 * its cancel end to end, with `_meta` given by the caller. Its own rules are tested one by one in
 * rules-2026-07-28.test.ts.
 */
import { describe, expect, it } from "vitest";
import * as R2607 from "../../../generated/2026-07-28/index.js";
import { BASIC_META } from "../../../helpers/fixtures.js";
import { aborted, deferred, settle, TapTransport } from "../../../helpers/harness.js";

const meta = BASIC_META;

describe("2026-07-28 output", () => {
  it("calls and cancels a tool over the generated client and server", async () => {
    const started = deferred<AbortSignal>();
    const [a, b] = R2607.createInMemoryTransportPair();
    const clientWire = new TapTransport(a);
    const server = new R2607.McpServer({
      logger: null,
      handlers: {
        "tools/call": async (params, ctx) => {
          if (params.name === "slow") {
            started.resolve(ctx.signal);
            await aborted(ctx.signal);
          }
          return { resultType: "complete", content: [{ type: "text", text: params.name }] };
        },
      },
    });
    const client = new R2607.McpClient({ logger: null });
    await server.connect(b);
    await client.connect(clientWire, { initialize: false });
    expect(typeof (client as unknown as { initialize?: unknown }).initialize).toBe("undefined");
    await expect(client.callTool({ name: "echo", _meta: meta })).resolves.toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "echo" }],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-server", version: "0.0.0" } },
    });
    const ac = new AbortController();
    const slow = client.callTool({ name: "slow", _meta: meta }, { signal: ac.signal }).catch((e: unknown) => e);
    const signal = await started.promise;
    ac.abort("stop");
    expect(await slow).toBeInstanceOf(R2607.RequestCancelledError);
    await settle();
    expect(signal.aborted).toBe(true);
    expect(clientWire.cancels()).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "stop" } }]);
  });
});
