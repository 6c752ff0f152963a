/**
 * The generated stdio transport (2025-11-25) against deep JSON (issue 41, finding 7: 2 M nested
 * arrays cost about 3 s per JSON.parse): a line whose arrays and objects nest deeper than
 * `maxJsonDepth` (1000 by default) is answered -32700 with id null before it is parsed, and
 * reading goes on. A 2 M-level line, streamed in 64 KiB chunks as a pipe delivers it, costs the
 * event loop under 50 ms (test/helpers/blocking.ts), where JSON.parse alone takes 0.6 to 3 s.
 */
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { StdioTransport } from "../../../generated/2025-11-25/stdio.js";
import { collect, settle } from "../../../helpers/harness.js";
import { loopBlockMs } from "../../../helpers/blocking.js";

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const tooDeep = (limit: number) => `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message nests deeper than ${limit} levels"}}\n`;

async function transportOn(maxJsonDepth?: number) {
  const input = new EventEmitter();
  const output = new PassThrough();
  const out = collect(output);
  const transport = new StdioTransport({ input, output, ...(maxJsonDepth === undefined ? {} : { maxJsonDepth }) });
  const received: JsonRpcMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e.message);
  await transport.start();
  return { input, out, received, errors, transport };
}

/** `levels` nested arrays inside a request's params, as one line of bytes. */
const nestedLine = (levels: number): Buffer => Buffer.from(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"a":${"[".repeat(levels)}${"]".repeat(levels)}}}}\n`);

describe("StdioTransport: maxJsonDepth", () => {
  it("2 M nested arrays: -32700 (id null) before any parse, under 50 ms of event-loop block, and the next message is served", async () => {
    const { input, out, received, errors, transport } = await transportOn();
    const line = nestedLine(2_000_000);
    expect(line.length).toBeLessThan(4 * 1024 * 1024); // within maxMessageBytes: only the depth refuses it
    const { cpuMs, loopMs } = await loopBlockMs(async () => {
      for (let at = 0; at < line.length; at += 65_536) input.emit("data", line.subarray(at, at + 65_536));
      await settle(1);
    });
    expect(out.text).toBe(tooDeep(1000).repeat(3)); // one answer per run of loopBlockMs
    expect(errors).toEqual(Array(3).fill("incoming message nests deeper than maxJsonDepth (1000); skipped"));
    expect(received).toEqual([]);
    // The whole run's CPU time bounds its longest block; the loop's own delay is wall time, other processes' share included.
    expect(cpuMs).toBeLessThan(50);
    expect(loopMs).toBeLessThan(250);
    input.emit("data", Buffer.from(`${JSON.stringify(ping(8))}\n`));
    await settle(1);
    expect(received).toEqual([ping(8)]);
    await transport.close();
  });

  it("exactly maxJsonDepth levels are parsed; one more is refused", async () => {
    // The request object and its params and arguments are 3 levels: 5 arrays inside make 8.
    const { input, out, received, transport } = await transportOn(8);
    input.emit("data", nestedLine(5));
    await settle(1);
    expect(received).toHaveLength(1);
    input.emit("data", nestedLine(6));
    await settle(1);
    expect(received).toHaveLength(1);
    expect(out.text).toBe(tooDeep(8));
    await transport.close();
  });
});
