/**
 * What our HTTP+SSE client (2024-11-05) does with a hostile or broken server, at the wire: an
 * `endpoint` on another origin, a stream that never names an endpoint (bounded wait), a GET that
 * is no stream, events over maxMessageBytes or nested deeper than maxJsonDepth, messages that are
 * not JSON-RPC, a second endpoint,
 * refused POSTs and the stream's end. The server is a raw node:http server the test scripts.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2024-11-05/index.js";
import { deferred, waitFor, within, type Deferred } from "../../../helpers/async.js";
import { closeAll, listen } from "./support.js";

afterEach(closeAll);

interface Scripted {
  readonly origin: string;
  /** The next GET's response, headers written (200 text/event-stream), and a promise of its close. */
  nextGet(): Promise<{ res: ServerResponse; closed: Promise<void> }>;
  /** POST bodies received, by path + query. */
  readonly posts: { url: string; body: string }[];
  /** Status of every POST (default 202). */
  postStatus: number;
}

async function scripted(getStatus = 200, contentType = "text/event-stream"): Promise<Scripted> {
  const gets: Deferred<{ res: ServerResponse; closed: Promise<void> }>[] = [deferred()];
  const posts: { url: string; body: string }[] = [];
  const state = { postStatus: 202 };
  const listening = await listen((req, res) => {
    if (req.method === "GET") {
      const closed = new Promise<void>((resolve) => res.on("close", () => resolve()));
      res.writeHead(getStatus, { "content-type": contentType });
      res.flushHeaders();
      const slot = gets.at(-1)!;
      gets.push(deferred());
      slot.resolve({ res, closed });
      return;
    }
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      posts.push({ url: req.url ?? "", body });
      res.writeHead(state.postStatus, { "content-type": "text/plain" }).end("Accepted");
    });
  });
  let taken = 0;
  return Object.assign(state, {
    origin: listening.origin,
    posts,
    nextGet: () => gets[taken++]!.promise,
  });
}

describe("HTTP+SSE client: the endpoint event", () => {
  it("refuses an endpoint on another origin: start rejects and the stream is closed", async () => {
    const server = await scripted();
    const transport = R.createLegacySseClientTransport({ url: `${server.origin}/sse` });
    let closes = 0;
    transport.onclose = () => closes++;
    const started = transport.start();
    const { res, closed } = await server.nextGet();
    res.write("event: endpoint\ndata: https://attacker.example/messages?sessionId=1\n\n");
    await expect(within("start", started)).rejects.toThrow(/not on the origin/);
    await within("the GET closed", closed);
    expect(transport.endpoint).toBeUndefined();
    // It never opened: start() rejected, and there is no close to announce.
    expect(closes).toBe(0);
    await expect(transport.send({ jsonrpc: "2.0", method: "notifications/initialized" })).rejects.toThrow(/closed/);
    expect(server.posts).toEqual([]);
  });

  it("a stream that never sends endpoint: start rejects after endpointTimeoutMs and the GET is closed", async () => {
    const server = await scripted();
    const transport = R.createLegacySseClientTransport({ url: `${server.origin}/sse`, endpointTimeoutMs: 200 });
    const started = transport.start();
    const { res, closed } = await server.nextGet();
    res.write(": keep-alive only\n\n");
    await expect(within("start", started)).rejects.toBeInstanceOf(R.LegacySseConnectError);
    await within("the GET closed", closed);
  });

  it("a GET that is no event stream rejects with its status", async () => {
    const server = await scripted(404, "text/plain");
    const transport = R.createLegacySseClientTransport({ url: `${server.origin}/sse` });
    const started = transport.start();
    const { res } = await server.nextGet();
    res.end("nope");
    const error = await started.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.LegacySseConnectError);
    expect((error as R.LegacySseConnectError).status).toBe(404);
  });

  it("a relative endpoint resolves against the SSE URL; a second endpoint event is ignored", async () => {
    const server = await scripted();
    const errors: Error[] = [];
    const transport = R.createLegacySseClientTransport({ url: `${server.origin}/base/sse` });
    transport.onerror = (e) => errors.push(e);
    const started = transport.start();
    const { res } = await server.nextGet();
    res.write("event: endpoint\ndata: post?sessionId=abc\n\n");
    await within("start", started);
    expect(transport.endpoint?.href).toBe(`${server.origin}/base/post?sessionId=abc`);
    res.write("event: endpoint\ndata: /elsewhere\n\n");
    await waitFor("the second endpoint reported", () => (errors.length === 1 ? true : undefined));
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(server.posts.map((p) => p.url)).toEqual(["/base/post?sessionId=abc"]);
    await transport.close();
  });
});

describe("HTTP+SSE client: the stream", () => {
  it("drops events that are not JSON-RPC (reported) and delivers the rest; an event over maxMessageBytes closes the transport", async () => {
    const server = await scripted();
    const errors: Error[] = [];
    const received: unknown[] = [];
    let closes = 0;
    const transport = R.createLegacySseClientTransport({ url: `${server.origin}/sse`, maxMessageBytes: 1024, maxJsonDepth: 8 });
    transport.onerror = (e) => errors.push(e);
    transport.onmessage = (m) => received.push(m);
    transport.onclose = () => closes++;
    const started = transport.start();
    const { res, closed } = await server.nextGet();
    res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "early" })}\n\n`);
    res.write("event: endpoint\ndata: /messages?sessionId=1\n\n");
    await within("start", started);
    res.write("data: {not json\n\n");
    res.write(`data: {"jsonrpc":"2.0","method":"deep","params":{"a":${"[".repeat(10)}${"]".repeat(10)}}}\n\n`);
    res.write(`data: ${JSON.stringify({ jsonrpc: "1.0", id: 1, result: {} })}\n\n`);
    res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "ok" } })}\n\n`);
    await waitFor("the valid message", () => (received.length === 1 ? true : undefined));
    expect(received).toEqual([{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "ok" } }]);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/before the endpoint/),
      expect.stringMatching(/not JSON/),
      expect.stringMatching(/an event that nests deeper than 8 levels \(maxJsonDepth\); dropped/),
      expect.stringMatching(/not JSON-RPC/),
    ]);
    res.write(`data: ${"x".repeat(4096)}\n\n`);
    await within("the GET closed", closed);
    await waitFor("the transport closed", () => (closes === 1 ? true : undefined));
    expect(errors.at(-1)?.message).toMatch(/exceeds 1024 bytes/);
    expect(received).toHaveLength(1);
  });

  it("the stream's end closes the transport: the client's pending request rejects with ConnectionClosedError", async () => {
    const server = await scripted();
    const client = new R.McpClient({ logger: null });
    const transport = R.createLegacySseClientTransport({ url: `${server.origin}/sse` });
    const connecting = client.connect(transport, { initialize: false });
    const { res } = await server.nextGet();
    res.write("event: endpoint\ndata: /messages?sessionId=1\n\n");
    await within("connect", connecting);
    const ping = client.ping().catch((e: unknown) => e);
    await waitFor("the ping was POSTed", () => (server.posts.length === 1 ? true : undefined));
    res.end();
    expect(await within("the pending ping", ping)).toBeInstanceOf(R.ConnectionClosedError);
  });

  it("a POST the server refuses rejects the send with HttpStatusError", async () => {
    const server = await scripted();
    server.postStatus = 404;
    const transport = R.createLegacySseClientTransport({ url: `${server.origin}/sse` });
    const started = transport.start();
    const { res } = await server.nextGet();
    res.write("event: endpoint\ndata: /messages?sessionId=1\n\n");
    await within("start", started);
    const error = await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.HttpStatusError);
    expect((error as R.HttpStatusError).status).toBe(404);
    await transport.close();
  });

  it("rejects bad options where they are read; send before start rejects", async () => {
    expect(() => R.createLegacySseClientTransport({ url: "http://127.0.0.1:1/sse", endpointTimeoutMs: 0 })).toThrow(/endpointTimeoutMs/);
    expect(() => R.createLegacySseClientTransport({ url: "http://127.0.0.1:1/sse", maxMessageBytes: 0 })).toThrow(/maxMessageBytes/);
    expect(() => R.createLegacySseClientTransport({ url: "not a url" })).toThrow();
    const transport = R.createLegacySseClientTransport({ url: "http://127.0.0.1:1/sse" });
    await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toThrow(/before start/);
  });
});
