/**
 * The generated stdio transport (2025-11-25), issue 17: what reaches onerror. An error on the
 * input stream is reported (and the transport keeps reading); the report of a bad line quotes
 * at most its first 200 characters, so a hostile peer's megabyte of garbage does not end up
 * whole in the logs.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { StdioTransport } from "../../../generated/2025-11-25/stdio.js";

async function transportOn() {
  const input = new EventEmitter();
  const transport = new StdioTransport({ input, output: new PassThrough() });
  const received: JsonRpcMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e);
  await transport.start();
  return { input, transport, received, errors };
}

describe("StdioTransport: reports", () => {
  it("an error on the input is reported as it is, and reading goes on", async () => {
    const { input, transport, received, errors } = await transportOn();
    const failure = new Error("read EIO");
    input.emit("error", failure);
    input.emit("data", Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
    expect(errors).toEqual([failure]);
    expect(errors[0]).toBe(failure);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    await transport.close();
  });

  it("the report of an unparsable line or a non-object quotes only its first 200 characters; a batch is handed on whole (the endpoint decides)", async () => {
    const { input, transport, errors, received } = await transportOn();
    const garbage = `x${"y".repeat(999)}`;
    const batch = `[${"1,".repeat(500)}1]`;
    const text = JSON.stringify("z".repeat(1000));
    input.emit("data", Buffer.from(`${garbage}\n${batch}\n${text}\n`));
    expect(errors.map((e) => e.message)).toEqual([
      `unparsable message: ${garbage.slice(0, 200)}`,
      `not a JSON-RPC message: ${text.slice(0, 200)}`,
    ]);
    expect(received).toEqual([JSON.parse(batch)]);
    await transport.close();
  });
});
