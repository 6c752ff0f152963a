/**
 * The generated stdio transport (2025-11-25), issue 17: the maxQueuedBytes bound counts only
 * what still waits (after a drain sent it, or an output error rejected it, as much may wait
 * again), and an input closed between messages is a clean close, not a report of lost bytes.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { StdioTransport } from "../../../generated/2025-11-25/stdio.js";
import { settle } from "../../../helpers/harness.js";
import { FakeSink, line, message, sendAll } from "./support.js";

const full = `stdio output is not draining: 1000 bytes already wait and 100 more would exceed maxQueuedBytes (1000)`;

describe("StdioTransport: the waiting-bytes bound after the queue emptied", () => {
  it("messages a drain sent no longer count: when the peer stalls again, maxQueuedBytes may wait again", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink, maxQueuedBytes: 1000 });
    await transport.start();
    const outcomes: string[] = [];
    sendAll(transport, 0, 11, outcomes); // 1 to the sink, 10 (1000 bytes) wait
    sink.drain(10); // all 10 fit
    expect(sink.writes).toHaveLength(11);
    sink.room = 0;
    sendAll(transport, 11, 23, outcomes); // 11 to the sink (now full), 12..21 wait, 22 is one too many
    await settle(1);
    expect(sink.writes).toEqual(Array.from({ length: 12 }, (_, i) => line(i)));
    expect(outcomes.slice(11)).toEqual([...Array(11).fill("pending"), full]);
    await transport.close();
  });

  it("messages an output error rejected no longer count: after it, maxQueuedBytes may wait again", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink, maxQueuedBytes: 1000 });
    transport.onerror = () => {};
    await transport.start();
    const outcomes: string[] = [];
    sendAll(transport, 0, 11, outcomes);
    sink.emit("error", new Error("write EPIPE"));
    sendAll(transport, 11, 23, outcomes); // 11 to the sink (full), 12..21 wait, 22 is one too many
    await settle(1);
    expect(outcomes.slice(1, 11)).toEqual(Array(10).fill("write EPIPE"));
    expect(sink.writes).toEqual([line(0), line(11)]);
    expect(outcomes.slice(11)).toEqual([...Array(11).fill("pending"), full]);
    await transport.close();
  });
});

describe("StdioTransport: a sink whose write() sends again", () => {
  it("a send from inside the sink's write while nothing waits: one drain listener, and after that drain a full sink still holds the next send back", async () => {
    const sink = new FakeSink();
    const transport = new StdioTransport({ input: new PassThrough(), output: sink });
    await transport.start();
    const write = sink.write.bind(sink);
    sink.write = (chunk, callback) => {
      const ready = write(chunk, callback);
      if (chunk === line(0)) void transport.send(message(99)); // re-entrant, nothing queued
      return ready;
    };
    // The sink is full from the start: both 0 and the 99 sent from inside its write get false.
    const outcomes: string[] = [];
    sendAll(transport, 0, 1, outcomes);
    expect(sink.writes).toEqual([line(0), line(99)]);
    expect(sink.listenerCount("drain")).toBe(1);
    sendAll(transport, 1, 3, outcomes);
    sink.drain(1); // 1 fits, 2 fills the sink again
    sendAll(transport, 3, 4, outcomes);
    expect(sink.writes).toEqual([0, 99, 1, 2].map(line));
    expect(sink.listenerCount("drain")).toBe(1);
    sink.drain(10);
    expect(sink.writes).toEqual([0, 99, 1, 2, 3].map(line));
    await transport.close();
  });
});

describe("StdioTransport: a sink with once() but no removeListener()", () => {
  it("close while a send waits for drain rejects it and resolves (nothing to detach from)", async () => {
    const writes: string[] = [];
    const output = {
      write: (chunk: string, callback: (error?: Error | null) => void) => (writes.push(chunk), callback(), false),
      once: (_event: "drain", _listener: () => void) => undefined,
    };
    const transport = new StdioTransport({ input: new PassThrough(), output });
    await transport.start();
    const outcomes: string[] = [];
    sendAll(transport, 0, 2, outcomes);
    await expect(transport.close()).resolves.toBeUndefined();
    await settle(1);
    expect(outcomes).toEqual(["sent", "transport closed"]);
    expect(writes).toEqual([line(0)]);
  });
});

describe("StdioTransport: an input closed between messages", () => {
  it("closes the transport and reports nothing (no bytes were dropped)", async () => {
    const input = new EventEmitter();
    const transport = new StdioTransport({ input, output: new PassThrough() });
    const events: string[] = [];
    transport.onmessage = () => events.push("message");
    transport.onerror = (e) => events.push(`error: ${e.message}`);
    transport.onclose = () => events.push("close");
    await transport.start();
    input.emit("data", Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'));
    input.emit("close"); // destroyed, no "end"
    expect(events).toEqual(["message", "close"]);
  });
});
