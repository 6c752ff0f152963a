/**
 * The same 2026-07-28 McpClient cancels a call two ways, by the transport (Cancellation): over
 * stdio it sends exactly one notifications/cancelled; over Streamable HTTP it closes the
 * request's stream and sends none (transport.test.ts). Here the stdio half, on the wire.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { StdioTransport } from "../../../generated/2026-07-28/stdio.js";
import { fixtureServer, fixtureHandlers } from "../stateless/fixture-server.js";
import { abortOf, deferred } from "../stateless/support.js";

describe("cancel over stdio (2026-07-28)", () => {
  it("sends exactly one notifications/cancelled, not a stream close", async () => {
    const c2s = new PassThrough();
    const s2c = new PassThrough();
    const lines: string[] = [];
    c2s.on("data", (chunk: Buffer) => lines.push(...chunk.toString("utf8").split("\n").filter((l) => l !== "")));
    const started = deferred<{ readonly signal: AbortSignal }>();
    const server = fixtureServer({ handlers: fixtureHandlers((ctx) => started.resolve(ctx)) });
    await server.connect(new StdioTransport({ input: c2s, output: s2c }));
    const events: R.CancellationEvent[] = [];
    const client = new R.McpClient({ logger: null, onCancellation: (e) => events.push(e) });
    await client.connect(new StdioTransport({ input: s2c, output: c2s }), { initialize: false });
    const stop = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, { signal: stop.signal }).catch((e: unknown) => e);
    const ctx = await started.promise;
    stop.abort("stop");
    expect(await call).toBeInstanceOf(R.RequestCancelledError);
    expect(await abortOf(ctx.signal)).toBe("stop");
    const cancels = lines.map((l) => JSON.parse(l) as { method?: string }).filter((m) => m.method === "notifications/cancelled");
    expect(cancels).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "stop" } }]);
    expect(events).toEqual([{ type: "sent", requestId: 1, method: "tools/call", reason: "stop", cause: "abort" }]);
    await client.close();
    await server.close();
  });
});
