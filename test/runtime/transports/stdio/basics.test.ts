/**
 * The generated stdio transport (2025-11-25) over in-process streams: newline-delimited JSON
 * both ways (Transports, stdio: "Messages are delimited by newlines, and MUST NOT contain
 * embedded newlines"), framing across and within chunks, CRLF, parse errors, and the end of
 * the input closing the connection.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ConnectionClosedError, McpClient, McpServer, RequestCancelledError, type JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { StdioTransport } from "../../../generated/2025-11-25/stdio.js";
import { PACKAGE_ROOT } from "../../../../generator/project.js";
import { aborted, collect, deferred, settle } from "../../../helpers/harness.js";

/** A started transport on fresh streams; the test writes to `input` and reads `output`. */
async function rawTransport() {
  const input = new PassThrough();
  const output = new PassThrough();
  const out = collect(output);
  const transport = new StdioTransport({ input, output });
  const received: JsonRpcMessage[] = [];
  const errors: Error[] = [];
  let closes = 0;
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e);
  transport.onclose = () => closes++;
  await transport.start();
  return { input, output, out, transport, received, errors, closes: () => closes };
}

/** A server on stdio streams driven by raw lines from the test. */
async function serverOnStreams(options: ConstructorParameters<typeof McpServer>[0] = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const out = collect(output);
  const errors: Error[] = [];
  const server = new McpServer({ logger: null, onError: (e) => errors.push(e), ...options });
  await server.connect(new StdioTransport({ input, output }));
  return { input, output, out, server, errors };
}

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

describe("StdioTransport framing", () => {
  it("writes each message as one line of JSON with a newline; newlines inside strings stay escaped", async () => {
    const { transport, out } = await rawTransport();
    const message = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "two\nlines\r\nhere" } } as const;
    await transport.send(message);
    await transport.send(ping(7) as JsonRpcMessage);
    expect(out.text).toBe(`${JSON.stringify(message)}\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n`);
    expect(out.lines()).toHaveLength(2);
  });

  it("reads one message per line, in order", async () => {
    const { input, received, errors } = await rawTransport();
    input.write(line(ping(1)));
    input.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
    await settle();
    expect(received).toEqual([ping(1), { jsonrpc: "2.0", method: "notifications/initialized" }]);
    expect(errors).toEqual([]);
  });

  it("joins a message split across chunks, including inside a multi-byte character", async () => {
    const { input, received } = await rawTransport();
    const bytes = Buffer.from(line({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "échø ✓ 🙂" } }), "utf8");
    const inEmoji = bytes.indexOf(Buffer.from("🙂", "utf8")) + 2; // in the middle of the 4-byte sequence
    const pieces = [bytes.subarray(0, 5), bytes.subarray(5, inEmoji), bytes.subarray(inEmoji, bytes.length - 1), bytes.subarray(bytes.length - 1)];
    for (const piece of pieces) {
      input.write(piece);
      await settle(1);
      if (piece !== pieces[pieces.length - 1]) expect(received).toEqual([]);
    }
    await settle();
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "échø ✓ 🙂" } }]);
  });

  it("splits several messages in one chunk, and keeps a trailing partial one for the next chunk", async () => {
    const { input, received } = await rawTransport();
    const third = line(ping(3));
    input.write(line(ping(1)) + line(ping(2)) + third.slice(0, 10));
    await settle();
    expect(received).toEqual([ping(1), ping(2)]);
    input.write(third.slice(10) + line(ping(4)));
    await settle();
    expect(received).toEqual([ping(1), ping(2), ping(3), ping(4)]);
  });

  it("accepts CRLF line ends and skips blank lines", async () => {
    const { input, received, errors, out } = await rawTransport();
    input.write(`${JSON.stringify(ping(1))}\r\n\r\n   \n${JSON.stringify(ping(2))}\r`);
    input.write("\n");
    await settle();
    expect(received).toEqual([ping(1), ping(2)]);
    expect(errors).toEqual([]);
    expect(out.text).toBe("");
  });

  it("answers unparsable input with a -32700 error with id null, reports it, and keeps serving", async () => {
    const { input, out, errors, server } = await serverOnStreams();
    input.write("this is not json\n");
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"\n'); // truncated object
    input.write(line(ping(2)));
    await settle();
    expect(out.text).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n' +
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n' +
        '{"jsonrpc":"2.0","id":2,"result":{}}\n',
    );
    expect(errors.map((e) => e.message)).toEqual(["unparsable message: this is not json", 'unparsable message: {"jsonrpc":"2.0","id":1,"method":"ping"']);
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
  });

  it("a send whose write fails rejects with the stream's error instead of throwing", async () => {
    const output = new Writable({ write: (_chunk, _enc, callback) => callback(new Error("EPIPE: broken pipe")) });
    output.on("error", () => {}); // a failed write also emits "error" on a Node stream
    const transport = new StdioTransport({ input: new PassThrough(), output });
    await transport.start();
    await expect(transport.send(ping(1) as JsonRpcMessage)).rejects.toThrow("EPIPE: broken pipe");
  });
});

describe("StdioTransport lifecycle", () => {
  it("the end of the input closes the transport once; later sends reject", async () => {
    const { input, transport, closes } = await rawTransport();
    input.end();
    await settle();
    expect(closes()).toBe(1);
    await transport.close();
    expect(closes()).toBe(1);
    await expect(transport.send(ping(1) as JsonRpcMessage)).rejects.toThrow("transport closed");
  });

  it("the end of the input rejects the client's pending requests with ConnectionClosedError and closes once", async () => {
    const toClient = new PassThrough();
    const fromClient = new PassThrough();
    const sent = collect(fromClient);
    const client = new McpClient({ logger: null });
    const transport = new StdioTransport({ input: toClient, output: fromClient });
    let closed = 0;
    await client.connect(transport, { initialize: false });
    const inner = transport.onclose;
    transport.onclose = () => (closed++, inner?.());
    const pending = client.callTool({ name: "slow" }).catch((e: unknown) => e);
    const listing = client.listTools().catch((e: unknown) => e);
    await settle();
    expect(sent.messages()).toEqual([
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ]);
    toClient.end();
    const [a, b] = await Promise.all([pending, listing]);
    expect(a).toBeInstanceOf(ConnectionClosedError);
    expect(a).toMatchObject({ method: "tools/call", code: -32000 });
    expect(b).toBeInstanceOf(ConnectionClosedError);
    expect(closed).toBe(1);
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });
    await expect(client.ping()).rejects.toThrow("not connected");
  });

  it("the end of the input aborts the server's running handlers; no response is written", async () => {
    const started = deferred<AbortSignal>();
    const { input, out, server } = await serverOnStreams({
      handlers: {
        "tools/call": async (_params, ctx) => {
          started.resolve(ctx.signal);
          await aborted(ctx.signal);
          return { content: [] };
        },
      },
    });
    input.write(line({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } }));
    const signal = await started.promise;
    input.end();
    await settle();
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("Connection closed");
    expect(out.text).toBe("");
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
  });
});

describe("a client and a server over stdio streams", () => {
  it("call, cancel with notifications/cancelled, and no response for the cancelled request", async () => {
    const c2s = new PassThrough();
    const s2c = new PassThrough();
    const wireToServer = collect(c2s);
    const wireToClient = collect(s2c);
    const started = deferred<AbortSignal>();
    const server = new McpServer({
      logger: null,
      handlers: {
        "tools/call": async (params, ctx) => {
          if (params.name !== "slow") return { content: [{ type: "text", text: `echo ${String(params.arguments?.["text"])}` }] };
          started.resolve(ctx.signal);
          await aborted(ctx.signal);
          return { content: [{ type: "text", text: "too late" }] };
        },
      },
    });
    const client = new McpClient({ logger: null });
    await server.connect(new StdioTransport({ input: c2s, output: s2c }));
    await client.connect(new StdioTransport({ input: s2c, output: c2s }), { initialize: false });

    const echoed = await client.callTool({ name: "echo", arguments: { text: "hi\nthere" } });
    expect(echoed.content).toEqual([{ type: "text", text: "echo hi\nthere" }]);

    const ac = new AbortController();
    const slow = client.callTool({ name: "slow" }, { signal: ac.signal }).catch((e: unknown) => e);
    const signal = await started.promise;
    ac.abort("user pressed stop");
    const error = await slow;
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect(error).toMatchObject({ name: "AbortError", reason: "user pressed stop", requestId: 2 });
    await settle();
    expect(signal.reason).toBe("user pressed stop");
    expect(await client.ping()).toEqual({});

    expect(wireToServer.messages()).toEqual([
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi\nthere" } } },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow" } },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "user pressed stop" } },
      { jsonrpc: "2.0", id: 3, method: "ping" },
    ]);
    expect(wireToClient.messages()).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "echo hi\nthere" }] } },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
    expect(client.inFlight).toEqual({ sent: 0, received: 0 });
    expect(server.inFlight).toEqual({ sent: 0, received: 0 });
    await client.close();
    await server.close();
  });
});

/*
 * A transport on a broken stream: a destroyed input closes it, a failed write rejects the send.
 * (More on limits, backpressure and odd input in stdio-framing and stdio-backpressure.)
 */
describe("StdioTransport on a broken stream", () => {
  it("an input destroyed without an end (an error such as ECONNRESET, or destroy()) closes the transport: pending requests reject", async () => {
    for (const destroy of [(s: PassThrough) => s.destroy(new Error("read ECONNRESET")), (s: PassThrough) => s.destroy()]) {
      const input = new PassThrough();
      const errors: Error[] = [];
      const client = new McpClient({ logger: null, onError: (e) => errors.push(e) });
      await client.connect(new StdioTransport({ input, output: new PassThrough() }), { initialize: false });
      let outcome: unknown = "still pending";
      void client.ping().then(
        () => (outcome = "resolved"),
        (e: unknown) => (outcome = e),
      );
      await settle();
      destroy(input);
      await settle();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(outcome).toBeInstanceOf(ConnectionClosedError);
      expect(client.inFlight).toEqual({ sent: 0, received: 0 });
    }
  });

  it("a write that fails on the output stream rejects the send and does not crash the process with an unhandled 'error' event", async () => {
    // In a child process: an unhandled stream "error" is an uncaught exception that ends it.
    const index = pathToFileURL(join(PACKAGE_ROOT, "test", "generated", "2025-11-25", "index.js")).href;
    const stdio = pathToFileURL(join(PACKAGE_ROOT, "test", "generated", "2025-11-25", "stdio.js")).href;
    const script = `
      import { PassThrough } from "node:stream";
      const { McpClient } = await import(${JSON.stringify(index)});
      const { StdioTransport } = await import(${JSON.stringify(stdio)});
      const output = new PassThrough();
      output.resume();
      const client = new McpClient({ logger: null, onError: () => {} });
      await client.connect(new StdioTransport({ input: new PassThrough(), output }), { initialize: false });
      output.end(); // like a peer that went away: the next write fails (EPIPE on a real pipe)
      const outcome = await client.ping().then(() => "resolved", (e) => "rejected: " + e.message);
      await new Promise((resolve) => setTimeout(resolve, 50));
      console.log(outcome);
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: PACKAGE_ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "rejected: write after end\n", stderr: "" });
  });
});
