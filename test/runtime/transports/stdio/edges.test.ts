/**
 * The generated stdio transport (2025-11-25) at its edges (issue 17): what close leaves
 * attached to the streams, a sink whose write throws, a bare `{ write }` sink, callbacks that
 * are unset or throw something that is not an Error, and a producer that reuses its chunk.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { StdioTransport } from "../../../generated/2025-11-25/stdio.js";
import { collect, settle } from "../../../helpers/harness.js";

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" }) as JsonRpcMessage;
const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const EVENTS = ["data", "end", "close", "error"] as const;

describe("StdioTransport: close detaches", () => {
  it("close removes every listener it added to the input and the output; a later output error is not reported", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const before = { input: EVENTS.map((e) => input.listenerCount(e)), error: output.listenerCount("error") };
    const transport = new StdioTransport({ input, output });
    const errors: string[] = [];
    transport.onerror = (e) => errors.push(e.message);
    await transport.start();
    expect(EVENTS.map((e) => input.listenerCount(e))).toEqual(before.input.map((n) => n + 1));
    expect(output.listenerCount("error")).toBe(before.error + 1);
    await transport.close();
    expect(EVENTS.map((e) => input.listenerCount(e))).toEqual(before.input);
    expect(output.listenerCount("error")).toBe(before.error);
    output.on("error", () => {}); // the stream's own "error" must have a listener
    output.destroy(new Error("EPIPE after close"));
    await settle(1);
    expect(errors).toEqual([]);
  });
});

describe("StdioTransport: sinks", () => {
  it("a sink whose write throws: that send rejects with the error and the next send is written at once", async () => {
    const writes: string[] = [];
    let fail = true;
    const sink = Object.assign(new EventEmitter(), {
      write(chunk: string, callback: (error?: Error | null) => void): boolean {
        if (fail) throw new Error("write after end");
        writes.push(chunk);
        callback();
        return true;
      },
    });
    const transport = new StdioTransport({ input: new PassThrough(), output: sink });
    await transport.start();
    let outcome: unknown = "pending";
    transport.send(ping(1)).then(
      () => (outcome = "sent"),
      (e: unknown) => (outcome = e),
    );
    await settle(1);
    expect(outcome).toEqual(new Error("write after end"));
    fail = false;
    let second = "pending";
    void transport.send(ping(2)).then(() => (second = "sent"));
    await settle(1);
    expect([second, writes]).toEqual(["sent", [line(ping(2))]]);
    expect(sink.listenerCount("drain")).toBe(0);
    await transport.close();
  });

  it("a bare { write } sink (no on, once or removeListener) starts, sends and closes", async () => {
    const writes: string[] = [];
    const output = { write: (chunk: string, callback: (error?: Error | null) => void) => (writes.push(chunk), callback(), true) };
    const transport = new StdioTransport({ input: new PassThrough(), output });
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    await transport.start();
    await transport.send(ping(1));
    await transport.close();
    expect(writes).toEqual([line(ping(1))]);
    expect(errors).toEqual([]);
  });
});

describe("StdioTransport: callbacks", () => {
  it("lines read with no onmessage set, and a close with no onclose set, report nothing", async () => {
    const input = new EventEmitter();
    const transport = new StdioTransport({ input, output: new PassThrough() });
    const errors: string[] = [];
    transport.onerror = (e) => errors.push(e.message);
    await transport.start();
    input.emit("data", Buffer.from(line(ping(1))));
    input.emit("end");
    await transport.close();
    expect(errors).toEqual([]);
  });

  it("an onmessage that throws something that is not an Error is reported as an Error with its text", async () => {
    const input = new EventEmitter();
    const transport = new StdioTransport({ input, output: new PassThrough() });
    const errors: unknown[] = [];
    transport.onerror = (e) => errors.push(e);
    transport.onmessage = () => {
      throw "handler threw a string";
    };
    await transport.start();
    input.emit("data", Buffer.from(line(ping(1))));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(Error);
    expect((errors[0] as Error).message).toBe("handler threw a string");
    await transport.close();
  });
});

describe("StdioTransport: chunks", () => {
  it("the start of a line is copied: a producer that reuses its chunk buffer afterwards does not change the message", async () => {
    const input = new EventEmitter();
    const transport = new StdioTransport({ input, output: new PassThrough() });
    const received: JsonRpcMessage[] = [];
    transport.onmessage = (m) => received.push(m);
    await transport.start();
    const text = JSON.stringify(ping(1));
    const buffer = new Uint8Array(64);
    const head = new TextEncoder().encode(text.slice(0, 20));
    buffer.set(head);
    input.emit("data", buffer.subarray(0, head.length));
    buffer.fill(0x78); // "x": the producer's next read lands in the same memory
    input.emit("data", Buffer.from(`${text.slice(20)}\n`));
    expect(received).toEqual([ping(1)]);
    await transport.close();
  });

  it("an error reply that cannot be queued (the output is full) is dropped quietly, without an unhandled rejection", async () => {
    const input = new EventEmitter();
    const output = new PassThrough({ highWaterMark: 1 });
    const out = collect(output);
    output.pause();
    const transport = new StdioTransport({ input, output, maxQueuedBytes: 1 });
    const errors: string[] = [];
    transport.onerror = (e) => errors.push(e.message);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      await transport.start();
      input.emit("data", Buffer.from("garbage one\ngarbage two\ngarbage three\n"));
      await settle(2);
      expect(unhandled).toEqual([]);
      expect(errors).toEqual(["unparsable message: garbage one", "unparsable message: garbage two", "unparsable message: garbage three"]);
      output.resume();
      await settle(2);
      // The first went to the stream, the second waited; the third would have exceeded maxQueuedBytes.
      expect(out.lines()).toHaveLength(2);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await transport.close();
    }
  });
});
