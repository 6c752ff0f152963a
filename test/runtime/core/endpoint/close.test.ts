/**
 * Closing over a transport that misbehaves (endpoint.ts close, #attach): when the transport's
 * close fails, close() rejects with that failure and the endpoint is closed all the same (pending
 * calls reject with ConnectionClosedError, handlers abort, nothing is left in flight); a start
 * that throws instead of rejecting fails connect() and, for openConnection, reaches onError.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { aborted, deferred, settle, TapTransport } from "../../../helpers/harness.js";

/** A transport whose close fails without closing anything. */
class FailingClose extends TapTransport {
  override close(): Promise<void> {
    return Promise.reject(new Error("close failed"));
  }
}

describe("a transport whose close fails", () => {
  it("close() rejects with it, and the endpoint is closed all the same", async () => {
    const started = deferred<AbortSignal>();
    const server = new R.McpServer({
      logger: null,
      handlers: { "tools/call": async (_p, ctx) => (started.resolve(ctx.signal), await aborted(ctx.signal), { content: [] }) },
    });
    const [a, b] = R.createInMemoryTransportPair();
    const client = new R.McpClient({ logger: null, handlers: { "roots/list": () => ({ roots: [] }) } });
    await server.connect(b);
    await client.connect(new FailingClose(a));
    let outcome: unknown = "pending";
    const call = client.callTool({ name: "t" }, { timeoutMs: 60_000 }).then(
      () => (outcome = "resolved"),
      (e: unknown) => (outcome = e),
    );
    const signal = await started.promise;
    await expect(client.close()).rejects.toThrow("close failed");
    await settle();
    expect(outcome).toBeInstanceOf(R.ConnectionClosedError);
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });
    // Closed: a new call is refused at once, without reaching the transport.
    await expect(client.ping()).rejects.toThrow("ping: not connected");
    await call;
    await server.close();
    expect(signal.aborted).toBe(true);
  });
});

describe("a transport whose start throws instead of rejecting", () => {
  const throwing = () => ({
    start: (): Promise<void> => {
      throw new Error("no start");
    },
    send: () => Promise.resolve(),
    close: () => Promise.resolve(),
  });

  it("connect() rejects with it", async () => {
    const client = new R.McpClient({ logger: null });
    await expect(client.connect(throwing())).rejects.toThrow("no start");
  });

  it("openConnection returns, and the failure goes to onError", async () => {
    const errors: Error[] = [];
    const server = new R.McpServer({ logger: null, onError: (e) => errors.push(e) });
    const connection = server.openConnection(throwing());
    await settle();
    expect(errors.map((e) => e.message)).toEqual(["no start"]);
    expect(connection.inFlight).toEqual({ sent: 0, received: 0 });
  });
});
