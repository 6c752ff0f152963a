/**
 * The generated stdio transport (2025-11-25) writing to a peer that reads slowly or not at all
 * (issue 11, defect 7): `write()` returning false makes later sends wait for "drain", in order;
 * at most maxQueuedBytes wait, beyond that sends reject; close and output errors reject what
 * still waits.
 */
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { DEFAULT_MAX_QUEUED_BYTES, StdioTransport } from "../../../generated/2025-11-25/stdio.js";
import { settle } from "../../../helpers/harness.js";
import { FakeSink, line, message, sendAll } from "./support.js";

const full = (queued: number, limit: number) =>
  `stdio output is not draining: ${queued} bytes already wait and 100 more would exceed maxQueuedBytes (${limit})`;

describe("StdioTransport backpressure", () => {
  it("a peer that never reads: one write reaches the sink, at most maxQueuedBytes wait, every later send rejects", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink, maxQueuedBytes: 1000 });
    await transport.start();
    const outcomes: string[] = [];
    sendAll(transport, 0, 5000, outcomes);
    await settle(1);
    expect(sink.writes).toEqual([line(0)]);
    expect(sink.listenerCount("drain")).toBe(1);
    // 1 handed to the sink, 10 waiting (10 × 100 bytes = the limit), the other 4989 refused.
    expect(outcomes.slice(0, 11)).toEqual(Array(11).fill("pending"));
    expect(new Set(outcomes.slice(11))).toEqual(new Set([full(1000, 1000)]));
    expect(outcomes).toHaveLength(5000);
    expect(DEFAULT_MAX_QUEUED_BYTES).toBe(8 * 1024 * 1024);
  });

  it("counts waiting bytes as UTF-8 (2, 3 and 4 bytes per character), not as string length", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink, maxQueuedBytes: 1 });
    await transport.start();
    const wide = (d: string): JsonRpcMessage => ({ jsonrpc: "2.0", method: "n", params: { d } });
    const first = "a\u007f\u0080é\u07ff\u0800€\uffff😀\u{10000}\u{10ffff}";
    const second = "😀😀€";
    const outcomes: string[] = [];
    for (const [i, d] of ["x", first, second].entries()) {
      transport.send(wide(d)).then(
        () => (outcomes[i] = "sent"),
        (e: unknown) => (outcomes[i] = (e as Error).message),
      );
    }
    await settle(1);
    const bytes = (d: string) => Buffer.byteLength(`${JSON.stringify(wide(d))}\n`, "utf8");
    expect(bytes(first)).toBeGreaterThan(`${JSON.stringify(wide(first))}\n`.length);
    expect(outcomes[2]).toBe(`stdio output is not draining: ${bytes(first)} bytes already wait and ${bytes(second)} more would exceed maxQueuedBytes (1)`);
    await transport.close();
  });

  it("waiting sends go out in order on each drain, even when the sink fills again part way", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink });
    await transport.start();
    const outcomes: string[] = [];
    sendAll(transport, 0, 10, outcomes);
    await settle(1);
    expect(sink.writes).toEqual([line(0)]);
    sink.drain(2); // two more fit, the third fills it again
    expect(sink.writes).toEqual([0, 1, 2, 3].map(line));
    sendAll(transport, 10, 12, outcomes); // behind the six still waiting
    expect(sink.writes).toHaveLength(4);
    sink.drain(100);
    expect(sink.writes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(line));
    sink.drain(100);
    await settle(1);
    expect(outcomes).toEqual(Array(12).fill("sent"));
    expect(sink.listenerCount("drain")).toBe(0);
  });

  it("a send made from inside the sink's write while waiting sends are flushed goes behind them", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink });
    await transport.start();
    const write = sink.write.bind(sink);
    sink.write = (chunk, callback) => {
      const ready = write(chunk, callback);
      if (chunk === line(1)) void transport.send(message(99)); // re-entrant, mid-flush
      return ready;
    };
    const outcomes: string[] = [];
    sendAll(transport, 0, 4, outcomes);
    sink.drain(100);
    expect(sink.writes).toEqual([0, 1, 2, 3, 99].map(line));
  });

  it("over a Node Writable that reads slowly: the sink never buffers more than its highWaterMark and one message, and all arrive in order", async () => {
    const written: string[] = [];
    const output = new Writable({
      highWaterMark: 256,
      decodeStrings: false,
      write: (chunk: string, _encoding, callback) => (written.push(chunk), setImmediate(callback)),
    });
    const transport = new StdioTransport({ input: new PassThrough(), output });
    await transport.start();
    let most = 0;
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      sends.push(transport.send(message(i)));
      most = Math.max(most, output.writableLength);
    }
    await Promise.all(sends);
    expect(most).toBeLessThanOrEqual(256 + 100);
    expect(written.join("")).toBe(Array.from({ length: 300 }, (_, i) => line(i)).join(""));
  });

  it("close rejects the sends still waiting and stops listening for drain; what the sink took stays", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink });
    await transport.start();
    const outcomes: string[] = [];
    sendAll(transport, 0, 3, outcomes);
    await transport.close();
    await settle(1);
    expect(outcomes).toEqual(["pending", "transport closed", "transport closed"]);
    expect(sink.listenerCount("drain")).toBe(0);
    sink.drain(10);
    await settle(1);
    expect(sink.writes).toEqual([line(0)]);
    expect(outcomes[0]).toBe("sent");
  });

  it("an output error rejects the sends still waiting with it and reports it; later sends go to the sink again", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink });
    const errors: string[] = [];
    transport.onerror = (e) => errors.push(e.message);
    await transport.start();
    const outcomes: string[] = [];
    sendAll(transport, 0, 3, outcomes);
    sink.emit("error", new Error("write EPIPE"));
    await settle(1);
    expect(outcomes).toEqual(["pending", "write EPIPE", "write EPIPE"]);
    expect(errors).toEqual(["write EPIPE"]);
    sendAll(transport, 3, 4, outcomes);
    expect(sink.writes).toEqual([line(0), line(3)]);
  });

  it("a sink without once() cannot be waited for: everything is written at once, as before", async () => {
    const writes: string[] = [];
    const output = { write: (chunk: string, callback: (error?: Error | null) => void) => (writes.push(chunk), callback(), false) };
    const transport = new StdioTransport({ input: new PassThrough(), output, maxQueuedBytes: 100 });
    await transport.start();
    await Promise.all([0, 1, 2].map((i) => transport.send(message(i))));
    expect(writes).toEqual([0, 1, 2].map(line));
  });
});
