/**
 * The generated stdio transport (2025-11-25) on hostile or unusual input (issue 11, defect 7):
 * long lines framed in linear time, a bounded message size whose excess is skipped without
 * being buffered, JSON that is not a message object (numbers, strings, null, batches), a last
 * line without a newline, and user callbacks that throw.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { McpServer, type JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { DEFAULT_MAX_MESSAGE_BYTES, StdioTransport, type StdioTransportOptions } from "../../../generated/2025-11-25/stdio.js";
import { collect, settle } from "../../../helpers/harness.js";

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const tooLong = (limit: number) => `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message exceeds ${limit} bytes"}}\n`;
const tooLongReport = (limit: number) => `incoming message exceeds maxMessageBytes (${limit}); skipped up to the next newline`;

/**
 * A notification whose JSON is exactly `bytes` bytes of UTF-8, padded with `filler` (one
 * character of 1 or 2 bytes).
 */
function sized(bytes: number, filler = "a") {
  const empty = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "" } };
  const base = Buffer.byteLength(JSON.stringify(empty));
  const per = Buffer.byteLength(filler);
  const pad = filler.repeat(Math.floor((bytes - base) / per)) + "a".repeat((bytes - base) % per);
  const message = { ...empty, params: { level: "info", data: pad } };
  expect(Buffer.byteLength(JSON.stringify(message))).toBe(bytes);
  return message;
}

/**
 * A started transport whose input is a bare emitter: `emit("data", chunk)` runs the transport's
 * framing synchronously, with no stream buffering in between.
 */
async function transportOn(options: Partial<StdioTransportOptions> = {}) {
  const input = new EventEmitter();
  const output = new PassThrough();
  const out = collect(output);
  const transport = new StdioTransport({ input, output, ...options });
  const received: JsonRpcMessage[] = [];
  const errors: string[] = [];
  const events: string[] = [];
  transport.onmessage = (m) => (received.push(m), events.push("message"));
  transport.onerror = (e) => (errors.push(e.message), events.push("error"));
  transport.onclose = () => events.push("close");
  await transport.start();
  const data = (chunk: Uint8Array | string) => input.emit("data", chunk);
  return { input, data, out, transport, received, errors, events };
}

describe("StdioTransport: long lines", () => {
  it("a 20 MiB line in 64 KiB chunks arrives whole, once its newline comes", async () => {
    const { data, received, errors } = await transportOn({ maxMessageBytes: 32 * 1024 * 1024 });
    const big = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "a".repeat(20 * 1024 * 1024) } };
    const bytes = Buffer.from(line(big));
    const chunk = 64 * 1024;
    for (let at = 0; at < bytes.length - 1; at += chunk) data(bytes.subarray(at, Math.min(at + chunk, bytes.length - 1)));
    expect(received).toEqual([]);
    data(bytes.subarray(bytes.length - 1)); // the newline alone
    expect(received).toHaveLength(1);
    expect(received[0]).toEqual(big);
    expect(errors).toEqual([]);
  });

  it("a line over maxMessageBytes is skipped as it streams in, never buffered: one -32600 with id null, one report, then the next line", async () => {
    const limit = 1024 * 1024;
    const { data, out, received, errors } = await transportOn({ maxMessageBytes: limit });
    const megabyte = Buffer.alloc(limit, "a");
    data('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"');
    const before = process.memoryUsage();
    for (let i = 0; i < 48; i++) data(megabyte); // 48 MiB of one line
    const after = process.memoryUsage();
    // The old transport held all 48 MiB in a string; a skipped line keeps nothing.
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    data(`"}}\n${line(ping(2))}`);
    await settle(1);
    expect(out.text).toBe(tooLong(limit)); // answered once, when the limit was passed
    expect(errors).toEqual([tooLongReport(limit)]);
    expect(received).toEqual([ping(2)]);
  });

  it("the limit is in UTF-8 bytes without the line end, and exact; across chunks too", async () => {
    const limit = 300;
    const { data, out, received, errors } = await transportOn({ maxMessageBytes: limit });
    const exact = sized(limit);
    const over = sized(limit + 1);
    const wide = sized(limit + 1, "é"); // fewer characters than the limit, more bytes
    expect(JSON.stringify(wide).length).toBeLessThan(limit);
    data(line(exact));
    data(`${JSON.stringify(exact)}\r\n`);
    data(line(over));
    data(line(wide));
    // The same one byte at a time.
    for (const byte of Buffer.from(`${JSON.stringify(exact)}\r\n${line(over)}${JSON.stringify(exact)}\n`)) data(Uint8Array.of(byte));
    await settle(1);
    expect(received).toEqual([exact, exact, exact, exact]);
    expect(out.text).toBe(tooLong(limit).repeat(3));
    expect(errors).toEqual([tooLongReport(limit), tooLongReport(limit), tooLongReport(limit)]);
  });

  it(`the default limit is DEFAULT_MAX_MESSAGE_BYTES, 4 MiB`, async () => {
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(4 * 1024 * 1024);
    const { data, out, received } = await transportOn();
    const exact = sized(DEFAULT_MAX_MESSAGE_BYTES);
    data(line(exact));
    data(line(sized(DEFAULT_MAX_MESSAGE_BYTES + 1)));
    await settle(1);
    expect(received).toEqual([exact]);
    expect(out.text).toBe(tooLong(DEFAULT_MAX_MESSAGE_BYTES));
  });

  it("string chunks (an input with setEncoding) are framed and limited the same way", async () => {
    const input = new PassThrough();
    input.setEncoding("utf8");
    const output = new PassThrough();
    const out = collect(output);
    const transport = new StdioTransport({ input, output, maxMessageBytes: 100 });
    const received: JsonRpcMessage[] = [];
    transport.onmessage = (m) => received.push(m);
    transport.onerror = () => {};
    await transport.start();
    input.write(Buffer.from(`${line(ping(1)).slice(0, 7)}`));
    input.write(Buffer.from(`${line(ping(1)).slice(7)}${line(sized(101, "é"))}${line(ping(2))}`));
    await settle();
    expect(received).toEqual([ping(1), ping(2)]);
    expect(out.text).toBe(tooLong(100));
  });

  it("rejects a maxMessageBytes or maxQueuedBytes that is not a positive integer", () => {
    const streams = { input: new PassThrough(), output: new PassThrough() };
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new StdioTransport({ ...streams, maxMessageBytes: bad })).toThrow("maxMessageBytes must be an integer ≥ 1, got ");
      expect(() => new StdioTransport({ ...streams, maxQueuedBytes: bad })).toThrow("maxQueuedBytes must be an integer ≥ 1, got ");
    }
  });
});

describe("StdioTransport: JSON that is not a message", () => {
  it("a number, string, boolean, null, or a batch to a revision without batches (even empty), gets -32600 with id null, is reported, and serving goes on", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const out = collect(output);
    const errors: string[] = [];
    const server = new McpServer({ logger: null, onError: (e) => errors.push(e.message) });
    await server.connect(new StdioTransport({ input, output }));
    input.write(`42\n"x"\ntrue\nnull\n[]\n${JSON.stringify([ping(1)])}\n${line(ping(2))}`);
    await settle();
    const notObject = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object"}}\n';
    // The transport hands the array on; the 2025-11-25 endpoint refuses it (core/batch.ts).
    const batch = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are not part of this protocol version"}}\n';
    expect(out.text).toBe(notObject.repeat(4) + batch + batch + '{"jsonrpc":"2.0","id":2,"result":{}}\n');
    expect(errors).toEqual([
      "not a JSON-RPC message: 42",
      'not a JSON-RPC message: "x"',
      "not a JSON-RPC message: true",
      "not a JSON-RPC message: null",
      "JSON-RPC batch refused (JSON-RPC batches are not part of this protocol version): []",
      'JSON-RPC batch refused (JSON-RPC batches are not part of this protocol version): [{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    ]);
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
  });
});

describe("StdioTransport: the end of the input", () => {
  it("a last line without a newline is delivered, then the transport closes", async () => {
    const { input, events, received } = await transportOn();
    input.emit("data", Buffer.from(line(ping(1)) + JSON.stringify(ping(2)).slice(0, 9)));
    input.emit("data", Buffer.from(JSON.stringify(ping(2)).slice(9)));
    input.emit("end");
    input.emit("close");
    await settle();
    expect(received).toEqual([ping(1), ping(2)]);
    expect(events).toEqual(["message", "message", "close"]);
  });

  it("a server answers a request that ends the input without a newline", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const out = collect(output);
    const server = new McpServer({ logger: null });
    await server.connect(new StdioTransport({ input, output }));
    input.end(JSON.stringify(ping(1)));
    await settle();
    expect(out.text).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
  });

  it("an unparsable last line gets -32700 and is reported; a blank one is nothing; the transport closes", async () => {
    for (const [rest, wire, reports] of [
      ['{"jsonrpc":"2.0","id":1', '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n', ['unparsable message: {"jsonrpc":"2.0","id":1']],
      [" \r", "", []],
    ] as const) {
      const { input, out, events, errors } = await transportOn();
      input.emit("data", rest);
      input.emit("end");
      await settle();
      expect(out.text).toBe(wire);
      expect(errors).toEqual(reports);
      expect(events.at(-1)).toBe("close");
    }
  });

  it("an input closed without an end (broken) drops a partial line, reports it, and closes", async () => {
    const { input, events, errors, received } = await transportOn();
    input.emit("data", Buffer.from(line(ping(1)) + '{"jsonrpc"'));
    input.emit("close");
    await settle();
    expect(received).toEqual([ping(1)]);
    expect(errors).toEqual(["input closed in the middle of a message; 10 bytes dropped"]);
    expect(events).toEqual(["message", "error", "close"]);
  });
});

describe("StdioTransport: user callbacks that throw", () => {
  it("a throwing onmessage is reported to onerror and the next lines are still read; a throwing onerror is swallowed", async () => {
    const input = new EventEmitter();
    const output = new PassThrough();
    const transport = new StdioTransport({ input, output });
    const received: unknown[] = [];
    const errors: string[] = [];
    transport.onmessage = (m) => {
      received.push(m);
      if (received.length === 1) throw new Error("handler bug");
    };
    transport.onerror = (e) => {
      errors.push(e.message);
      throw new Error("observer bug");
    };
    await transport.start();
    expect(() => input.emit("data", Buffer.from(line(ping(1)) + "oops\n" + line(ping(2))))).not.toThrow();
    expect(received).toEqual([ping(1), ping(2)]);
    expect(errors).toEqual(["handler bug", "unparsable message: oops"]);
  });

  it("a throwing onclose still closes, once; closing from onmessage stops the rest of the chunk", async () => {
    const { input, transport, received, errors } = await transportOn();
    transport.onmessage = (m) => {
      received.push(m);
      void transport.close();
    };
    transport.onclose = () => {
      throw new Error("onclose bug");
    };
    expect(() => input.emit("data", Buffer.from(line(ping(1)) + line(ping(2))))).not.toThrow();
    expect(received).toEqual([ping(1)]);
    expect(errors).toEqual(["onclose bug"]);
    await expect(transport.close()).resolves.toBeUndefined();
    await expect(transport.send(ping(3) as JsonRpcMessage)).rejects.toThrow("transport closed");
  });
});
