/**
 * Every byte from the server is hostile: an endless SSE line, a huge event made of small data
 * lines, a huge JSON body, a dropped connection, a stream that ends without an answer, a response
 * for another id and a server request on the stream. Each breaks (or is dropped from) only the
 * request whose stream carried it, with RequestStreamBrokenError, after reading a bounded amount;
 * the server sees its socket close.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { deferred } from "../stateless/support.js";
import { connectClient } from "./support.js";

type Script = (req: IncomingMessage, res: ServerResponse, id: number) => void;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A raw HTTP server that reads the POST and runs `script` with its JSON-RPC id. */
async function hostile(script: Script): Promise<string> {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => script(req, res, (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: number }).id));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

const SSE = { "content-type": "text/event-stream" };
const MAX = 64 * 1024;

/** Writes `piece` until the client goes away; resolves with the bytes written by then. */
function flood(res: ServerResponse, piece: string): Promise<number> {
  const gone = deferred<number>();
  let written = 0;
  const pump = (): void => {
    while (!res.destroyed) {
      written += piece.length;
      if (!res.write(piece)) return void res.once("drain", pump);
    }
  };
  res.on("close", () => gone.resolve(written));
  pump();
  return gone.promise;
}

async function brokenCall(url: string): Promise<R.RequestStreamBrokenError> {
  const { client } = await connectClient(url, {}, { maxMessageBytes: MAX });
  const error = await client.callTool({ name: "x", arguments: {} }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(R.RequestStreamBrokenError);
  await client.close();
  return error as R.RequestStreamBrokenError;
}

/** A complete tools/call result of 2026-07-28 (its schema requires resultType). */
const COMPLETE = { resultType: "complete", content: [] };

describe("HttpClientTransport: hostile servers", () => {
  it("an endless SSE line is cut at maxMessageBytes and the stream closed", async () => {
    const written = deferred<Promise<number>>();
    const url = await hostile((_req, res) => {
      res.writeHead(200, SSE);
      written.resolve(flood(res, `data: ${"x".repeat(1000)}`));
    });
    const error = await brokenCall(url);
    expect(error.message).toMatch(/an SSE line exceeds 65536 bytes/);
    // The server's socket closed: it wrote a bounded amount (the line, plus what was in flight).
    expect(await (await written.promise)).toBeGreaterThan(MAX);
  });

  it("a huge event of small data lines is cut at maxMessageBytes", async () => {
    const written = deferred<Promise<number>>();
    const url = await hostile((_req, res) => {
      res.writeHead(200, SSE);
      written.resolve(flood(res, "data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"));
    });
    expect((await brokenCall(url)).message).toMatch(/an SSE event exceeds 65536 bytes/);
    await (await written.promise);
  });

  it("endless comments cost no memory and are no error; the response after them is read", async () => {
    const url = await hostile((_req, res, id) => {
      res.writeHead(200, SSE);
      for (let i = 0; i < 2000; i++) res.write(":keep-alive\r\n");
      res.end(`event: message\r\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: COMPLETE })}\r\n\r\n`);
    });
    const { client } = await connectClient(url, {}, { maxMessageBytes: MAX });
    await expect(client.callTool({ name: "x", arguments: {} })).resolves.toEqual(COMPLETE);
    await client.close();
  });

  it("a JSON body larger than maxMessageBytes breaks the request", async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      void flood(res, "[".repeat(4096));
    });
    expect((await brokenCall(url)).message).toMatch(/the body exceeds 65536 bytes/);
  });

  it("a connection dropped mid-stream, and a stream that ends without an answer, lose the request", async () => {
    const dropped = await hostile((_req, res) => {
      res.writeHead(200, SSE);
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })}\n\n`);
      setImmediate(() => res.socket?.destroy());
    });
    expect((await brokenCall(dropped)).message).toMatch(/broke/);
    const ended = await hostile((_req, res) => {
      res.writeHead(200, SSE);
      res.end(": nothing\n\n");
    });
    expect((await brokenCall(ended)).message).toMatch(/the response ended without an answer/);
  });

  it("a response for another id and a request on the stream are dropped, never delivered", async () => {
    const url = await hostile((_req, res, id) => {
      res.writeHead(200, SSE);
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: id + 1, result: { forged: true } })}\n\n`);
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 77, method: "roots/list" })}\n\n`);
      res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result: COMPLETE })}\n\n`);
    });
    const { client, errors } = await connectClient(url);
    await expect(client.callTool({ name: "x", arguments: {} })).resolves.toEqual(COMPLETE);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/response for another id on the stream of tools\/call/),
      expect.stringMatching(/request on the stream of tools\/call/),
    ]);
    await client.close();
  });

  it("an HTTP error without a JSON-RPC body is HttpStatusError; with one, the JSON-RPC error", async () => {
    const plain = await hostile((_req, res) => {
      res.writeHead(503, { "content-type": "text/html" });
      res.end("<h1>down</h1>");
    });
    const { client } = await connectClient(plain);
    const error = await client.callTool({ name: "x", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.HttpStatusError);
    expect((error as R.HttpStatusError).status).toBe(503);
    await client.close();
    const rpc = await hostile((_req, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32020, message: "Header mismatch" } }));
    });
    const second = await connectClient(rpc);
    const mismatch = await second.client.callTool({ name: "x", arguments: {} }).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(R.McpError);
    expect((mismatch as R.McpError).code).toBe(-32020);
    await second.client.close();
  });

  it("an event nested deeper than maxJsonDepth (2 M arrays) breaks the request, unparsed", async () => {
    const url = await hostile((_req, res, id) => {
      res.writeHead(200, SSE);
      res.end(`data: {"jsonrpc":"2.0","id":${id},"result":{"a":${"[".repeat(2_000_000)}${"]".repeat(2_000_000)}}}\n\n`);
    });
    const { client } = await connectClient(url);
    const error = await client.callTool({ name: "x", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((error as Error).message).toContain("the server sent a message that nests deeper than 1000 levels (maxJsonDepth)");
    await client.close();
  });

  it("not JSON in an event breaks the request", async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(200, SSE);
      res.end("data: {not json\n\n");
    });
    expect((await brokenCall(url)).message).toMatch(/not JSON/);
  });
});

describe("McpClient: hostile InputRequiredResults", () => {
  const answerWith = (result: object): Script => (_req, res, id) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
  };
  const roots = { method: "roots/list" };
  // What the schema forbids is refused at the wire (InvalidResultError, the pointer named); what
  // it allows but the rounds cannot use, by the rounds (InputRequiredError, "invalid").
  it.each([
    ["neither inputRequests nor requestState", { resultType: "input_required" }, null],
    ["a requestState that is not a string", { resultType: "input_required", requestState: 7 }, "/requestState"],
    ["inputRequests that is not an object", { resultType: "input_required", inputRequests: [roots] }, "/inputRequests"],
    ["an input request a server may not send", { resultType: "input_required", inputRequests: { a: { method: "tools/call", params: { name: "x" } } } }, "/inputRequests/a/method"],
    ["params that are not an object", { resultType: "input_required", inputRequests: { a: { method: "roots/list", params: "x" } } }, "/inputRequests/a/params"],
    ["more than 64 input requests", { resultType: "input_required", inputRequests: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, roots])) }, null],
  ])("%s: refused, no handler runs, no retry", async (_name, result, pointer) => {
    const url = await hostile(answerWith(result));
    let ran = 0;
    const { client, posted } = await connectClient(url, { capabilities: { roots: {} }, handlers: { "roots/list": () => (ran++, { roots: [] }) } });
    const error = await client.callTool({ name: "x", arguments: {} }).catch((e: unknown) => e);
    if (pointer === null) {
      expect(error).toBeInstanceOf(R.InputRequiredError);
      expect((error as R.InputRequiredError).why).toBe("invalid");
    } else {
      expect(error).toBeInstanceOf(R.InvalidResultError);
      expect((error as R.InvalidResultError).pointer).toBe(pointer);
    }
    expect(ran).toBe(0);
    expect(posted).toHaveLength(1);
    await client.close();
  });

  it("a key named __proto__ is answered as an own key", async () => {
    let retried: unknown;
    const url = await hostile((req, res, id) => {
      if (retried === undefined && id === 1) return answerWith({ resultType: "input_required", inputRequests: JSON.parse('{"__proto__": {"method": "roots/list"}}') as object })(req, res, id);
      retried = true;
      answerWith(COMPLETE)(req, res, id);
    });
    const { client, posted } = await connectClient(url, { capabilities: { roots: {} }, handlers: { "roots/list": () => ({ roots: [{ uri: "file:///p" }] }) } });
    await expect(client.callTool({ name: "x", arguments: {} })).resolves.toEqual(COMPLETE);
    const responses = (posted[1]!.body["params"] as { inputResponses: object }).inputResponses;
    expect(Object.getOwnPropertyNames(responses)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(responses)).toBe(Object.prototype);
    await client.close();
  });
});
