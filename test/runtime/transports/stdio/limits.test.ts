/**
 * The generated stdio transport (2025-11-25), issue 17: maxMessageBytes on a line that streams
 * in. The -32600 reply goes out as soon as the line passes the limit, before its newline (the
 * line is not buffered whole to be measured at the end), and a line that starts part way into a
 * chunk is measured from its own start.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { StdioTransport } from "../../../generated/2025-11-25/stdio.js";
import { collect, settle } from "../../../helpers/harness.js";

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const tooLong = (limit: number) => `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message exceeds ${limit} bytes"}}\n`;

async function transportOn(maxMessageBytes: number) {
  const input = new EventEmitter();
  const output = new PassThrough();
  const out = collect(output);
  const transport = new StdioTransport({ input, output, maxMessageBytes });
  const received: JsonRpcMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e.message);
  await transport.start();
  return { data: (chunk: string) => input.emit("data", Buffer.from(chunk)), out, received, errors, transport };
}

describe("StdioTransport: maxMessageBytes on a line still streaming in", () => {
  it("the -32600 reply goes out when the line passes the limit, before its newline; the rest of it is dropped", async () => {
    const { data, out, received, errors, transport } = await transportOn(100);
    data(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${"a".repeat(80)}`);
    await settle(1);
    expect(out.text).toBe(tooLong(100));
    expect(errors).toEqual(["incoming message exceeds maxMessageBytes (100); skipped up to the next newline"]);
    data("a".repeat(1000));
    data(`"}}\n${JSON.stringify(ping(2))}\n`);
    await settle(1);
    expect(out.text).toBe(tooLong(100));
    expect(errors).toHaveLength(1);
    expect(received).toEqual([ping(2)]);
    await transport.close();
  });

  it("a line that starts part way into a chunk is measured from its own start: one of exactly the limit is delivered", async () => {
    const exact = { jsonrpc: "2.0", method: "notifications/message", params: { data: "" } };
    exact.params.data = "b".repeat(300 - JSON.stringify(exact).length);
    const text = JSON.stringify(exact);
    expect(Buffer.byteLength(text)).toBe(300);
    const { data, out, received, errors, transport } = await transportOn(300);
    data(`${JSON.stringify(ping(1))}\n${text.slice(0, 250)}`);
    data(`${text.slice(250)}\n`);
    await settle(1);
    expect(received).toEqual([ping(1), exact]);
    expect([out.text, errors]).toEqual(["", []]);
    await transport.close();
  });
});
