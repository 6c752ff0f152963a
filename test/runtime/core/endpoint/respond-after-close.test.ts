/**
 * A response that cannot be sent (endpoint.ts #respond): while the connection is open the peer
 * still gets -32603 (test/runtime/core/endpoint/hostile-peer); once the transport has closed, nothing more is
 * tried, so onError hears the one failure and no "not connected" after it.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { settle, TapTransport } from "../../../helpers/harness.js";

/** Closes itself, then fails, when asked to send a response. */
class ClosingOnResponse extends TapTransport {
  override async send(message: JsonRpcMessage, options?: { relatedRequestId?: string | number | undefined }) {
    if (!("method" in message)) {
      await this.inner.close();
      throw new Error("the connection went away");
    }
    return super.send(message, options);
  }
}

describe("a response whose send fails because the connection closed", () => {
  it("goes to onError once; no fallback error response is tried", async () => {
    const errors: Error[] = [];
    const server = new R.McpServer({ logger: null, onError: (e) => errors.push(e), handlers: { "tools/call": () => ({ content: [] }) } });
    const [a, b] = R.createInMemoryTransportPair();
    const wire = new ClosingOnResponse(b);
    await a.start();
    await server.connect(wire);
    const closed = new Promise<void>((resolve) => (a.onclose = resolve));
    await a.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } });
    await closed;
    await settle();
    expect(errors.map((e) => e.message)).toEqual(["the connection went away"]);
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
  });
});
