/**
 * Connection.receive (core/endpoint.ts): a transport that hands a peer's message to a connection
 * learns what became of a notifications/cancelled from the answer itself ("received": the
 * request's handler aborted and no response will come; "ignored" with why), never by comparing
 * counters or looking at the method name; any other message answers undefined. The cancel's
 * params are read once.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { aborted, deferred } from "../../../helpers/async.js";

const RESOLVED = Promise.resolve();

/** A server connection over a transport that records what the server sends. */
function connection(handlers: R.McpServerOptions["handlers"] = {}) {
  const sent: R.JsonRpcMessage[] = [];
  const events: R.CancellationEvent[] = [];
  const server = new R.McpServer({ logger: null, onCancellation: (event) => events.push(event), handlers });
  const transport: R.Transport = {
    start: () => RESOLVED,
    close: () => RESOLVED,
    send: (message) => {
      sent.push(message);
      return RESOLVED;
    },
  };
  return { connection: server.openConnection(transport), sent, events };
}

const request = (id: R.RequestId, method = "tools/call", params: object = { name: "slow" }): R.JsonRpcMessage => ({ jsonrpc: "2.0", id, method, params }) as R.JsonRpcMessage;
const cancel = (params: unknown): R.JsonRpcMessage => ({ jsonrpc: "2.0", method: "notifications/cancelled", params }) as R.JsonRpcMessage;

describe("Connection.receive says what became of a cancel", () => {
  it("a cancel of a request in flight: received (its handler aborts, no response); the same cancel again: ignored, finished", async () => {
    const started = deferred();
    let signal: AbortSignal | undefined;
    const { connection: c, sent, events } = connection({
      "tools/call": async (_params, ctx) => {
        signal = ctx.signal;
        started.resolve();
        await aborted(ctx.signal);
        return { content: [] };
      },
    });
    expect(c.receive(request(7))).toBeUndefined();
    await started.promise;
    expect(c.receive(cancel({ requestId: 7, reason: "stop" }))).toEqual({ type: "received", requestId: 7, method: "tools/call", reason: "stop" });
    expect(signal?.aborted).toBe(true);
    expect(c.receive(cancel({ requestId: 7 }))).toMatchObject({ type: "ignored", cause: "finished", requestId: 7 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(["received", "ignored"]);
  });

  it.each([
    ["an unknown request", { requestId: 99 }, "unknown-request"],
    ["params that are no object", "nope", "malformed"],
    ["a request id that is no string or integer", { requestId: 1.5 }, "malformed"],
    ["a reason that is no string", { requestId: 1, reason: 5 }, "malformed"],
  ])("%s: ignored (%s)", (_label, params, cause) => {
    const { connection: c, sent } = connection();
    expect(c.receive(cancel(params))).toMatchObject({ type: "ignored", cause });
    expect(sent).toEqual([]);
  });

  it("a cancel of initialize, in flight: ignored as not cancellable, and initialize still answers", async () => {
    const gate = deferred();
    const { connection: c, sent } = connection({
      initialize: async () => {
        await gate.promise;
        return { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } };
      },
    });
    c.receive(request(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }));
    await Promise.resolve();
    expect(c.receive(cancel({ requestId: 1 }))).toMatchObject({ type: "ignored", requestId: 1 });
    gate.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toMatchObject([{ id: 1, result: { protocolVersion: "2025-11-25" } }]);
  });

  it("any other message: undefined", () => {
    const { connection: c } = connection();
    expect(c.receive({ jsonrpc: "2.0", method: "notifications/initialized" } as R.JsonRpcMessage)).toBeUndefined();
    expect(c.receive({ jsonrpc: "2.0", id: 5, result: {} } as R.JsonRpcMessage)).toBeUndefined();
    expect(c.receive(42 as unknown as R.JsonRpcMessage)).toBeUndefined();
  });

  it("reads the cancel's params once (a getter on requestId runs once)", async () => {
    const started = deferred();
    const { connection: c } = connection({
      "tools/call": async (_params, ctx) => {
        started.resolve();
        await aborted(ctx.signal);
        return { content: [] };
      },
    });
    c.receive(request(3));
    await started.promise;
    let reads = 0;
    const params = {
      get requestId() {
        reads++;
        return 3;
      },
    };
    expect(c.receive(cancel(params))).toMatchObject({ type: "received", requestId: 3 });
    expect(reads).toBe(1);
  });
});
