/**
 * Validation at the wire (core/validation.ts and each revision's generated validators.ts), in
 * both eras, in memory and over HTTP (the servers, createSessionHttpHandler and createHttpHandler,
 * on both faces: native node:http and web-standard, test/helpers/faces.ts), with the exact bytes
 * that go out:
 * - a plain handler never sees params that break the schema (`name: 5`, `arguments: "x"`, no
 *   `name`): the request is answered -32602 naming the JSON pointer and what was expected,
 *   before any handler runs;
 * - the client refuses a result that breaks its schema (`initialize` with `protocolVersion: 5`,
 *   `tools/call` with `content: "x"`): InvalidResultError naming the pointer;
 * - a notification that breaks its schema is dropped and reported; a malformed cancel keeps its
 *   own rule (ignored, not reported as such);
 * - what the schema allows passes: extra properties, and `validate: false` (or per kind) for a
 *   peer one trusts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import * as R25 from "../../../generated/2025-11-25/index.js";
import * as R26 from "../../../generated/2026-07-28/index.js";
import { describeFaces } from "../../../helpers/faces.js";
import { INITIALIZE_PARAMS } from "../../../helpers/fixtures.js";
import { clientWithRawPeer, serverWithRawPeer, settle } from "../../../helpers/harness.js";
import * as H26 from "../../http/stateless/support.js";
import * as H25 from "../../http/sessions/support.js";

/** The three broken tools/call params of the issue, each with where it breaks and what was expected. */
const BROKEN_CALLS: ReadonlyArray<{ readonly params: Record<string, unknown>; readonly pointer: string; readonly expected: string; readonly got: string }> = [
  { params: { name: 5 }, pointer: "/name", expected: "a string", got: "5" },
  { params: { name: "echo", arguments: "x" }, pointer: "/arguments", expected: "an object", got: '"x"' },
  { params: {}, pointer: "/name", expected: "a string (required)", got: "nothing" },
];

const invalidParams = (id: number, pointer: string, expected: string, got: string) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32602, message: `Invalid params: tools/call params ${pointer}: expected ${expected}, got ${got}`, data: { pointer, expected } },
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("2025-11-25: a plain handler never sees params that break the schema", () => {
  it("in memory: -32602 with the pointer, no handler run; the valid call runs", async () => {
    let ran = 0;
    const { server, wire, peer } = await serverWithRawPeer({ handlers: { "tools/call": () => (ran++, { content: [] }) } });
    closers.push(() => server.close());
    for (const [i, { params }] of BROKEN_CALLS.entries()) await peer.send({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params });
    await peer.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { a: 1 }, extra: "allowed" } });
    await settle();
    expect(wire.sent).toEqual([...BROKEN_CALLS.map((c, i) => invalidParams(i + 1, c.pointer, c.expected, c.got)), { jsonrpc: "2.0", id: 9, result: { content: [] } }]);
    expect(ran).toBe(1);
  });

  describeFaces("over HTTP (a session)", (face) => {
    it("the same answers, on the wire", async () => {
      let ran = 0;
      const served = await H25.serve(face, { handlers: { "tools/call": () => (ran++, { content: [] }) } });
      closers.push(() => served.close());
      const { sessionId } = await H25.open(served.url);
      for (const [i, c] of BROKEN_CALLS.entries()) {
        const answer = await H25.rpc(served.url, sessionId, i + 1, "tools/call", c.params);
        expect(answer.json).toEqual(invalidParams(i + 1, c.pointer, c.expected, c.got));
      }
      expect(ran).toBe(0);
    });
  });

  it("validate: false (a client one trusts): the handler sees what was sent", async () => {
    const seen: unknown[] = [];
    const { server, peer } = await serverWithRawPeer({ validate: false, handlers: { "tools/call": (params) => (seen.push(params), { content: [] }) } });
    closers.push(() => server.close());
    await peer.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } });
    await settle();
    expect(seen).toEqual([{ name: 5 }]);
  });
});

describe("2026-07-28: a plain handler never sees params that break the schema", () => {
  it("in memory: -32602 with the pointer, no handler run", async () => {
    let ran = 0;
    const [a, b] = R26.createInMemoryTransportPair();
    const server = new R26.McpServer({ logger: null, serverInfoInResults: false, handlers: { "tools/call": () => (ran++, { content: [] }) } });
    await server.connect(b);
    closers.push(() => server.close());
    const received: unknown[] = [];
    a.onmessage = (m) => received.push(m);
    await a.start();
    for (const [i, { params }] of BROKEN_CALLS.entries()) await a.send({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { ...params, _meta: H26.META } });
    await settle();
    expect(received).toEqual(BROKEN_CALLS.map((c, i) => invalidParams(i + 1, c.pointer, c.expected, c.got)));
    expect(ran).toBe(0);
  });

  describeFaces("over HTTP", (face) => {
    it("the same answers, on the wire (the HTTP status of an in-band error: 200)", async () => {
      let ran = 0;
      const served = await H26.serve(face, { handlers: { "tools/call": () => (ran++, { content: [] }) } });
      closers.push(() => served.close());
      for (const [i, c] of BROKEN_CALLS.entries()) {
        // The Mcp-Name header mirrors params.name, as a conformant client sends it.
        const answer = await H26.call(served.url, i + 1, "tools/call", c.params, typeof c.params["name"] === "string" ? {} : { "mcp-name": undefined });
        expect({ status: answer.status, json: answer.json }).toEqual({ status: 200, json: invalidParams(i + 1, c.pointer, c.expected, c.got) });
      }
      expect(ran).toBe(0);
    });
  });
});

describe("the client refuses results that break their schema", () => {
  it("2025-11-25 in memory: initialize with protocolVersion 5, tools/call with content \"x\": InvalidResultError naming the pointer", async () => {
    const { client, peer } = await clientWithRawPeer();
    closers.push(() => client.close());
    const initializing = client.initialize(INITIALIZE_PARAMS).catch((e: unknown) => e);
    await settle();
    await peer.send({ jsonrpc: "2.0", id: peer.requests("initialize")[0]!.id, result: { protocolVersion: 5, capabilities: {}, serverInfo: { name: "s", version: "1" } } });
    const refused = await initializing;
    expect(refused).toBeInstanceOf(R25.InvalidResultError);
    expect(refused).toMatchObject({ method: "initialize", pointer: "/protocolVersion", expected: "a string" });
    expect((refused as Error).message).toBe("invalid response to initialize (id 1): the result breaks its schema at /protocolVersion: expected a string, got 5");
    const calling = client.callTool({ name: "x" }).catch((e: unknown) => e);
    await settle();
    await peer.send({ jsonrpc: "2.0", id: peer.requests("tools/call")[0]!.id, result: { content: "x" } });
    expect(await calling).toMatchObject({ name: "InvalidResultError", method: "tools/call", pointer: "/content", expected: "an array" });
  });

  it("2025-11-25 over HTTP: the session client refuses an initialize result with protocolVersion 5", async () => {
    const http = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        const message = JSON.parse(body) as { id?: number };
        if (message.id === undefined) return void response.writeHead(202).end();
        response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
        response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 5, capabilities: {}, serverInfo: { name: "s", version: "1" } } }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
    const client = new R25.McpClient({ logger: null });
    await client.connect(R25.createSessionHttpClientTransport({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` }), { initialize: false });
    closers.push(() => client.close());
    await expect(client.initialize(INITIALIZE_PARAMS)).rejects.toMatchObject({ name: "InvalidResultError", pointer: "/protocolVersion" });
  });

  it("2026-07-28 over HTTP: tools/call with content \"x\" is refused (resultType \"complete\": the complete result, not InputRequiredResult); without resultType it is complete (the prose: the client MUST treat it so); extra properties pass", async () => {
    const results = [{ content: "x", resultType: "complete" }, { content: "x" }, { content: [] }, { content: [], resultType: "complete", extra: { anything: [1] } }];
    let next = 0;
    const http = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        const message = JSON.parse(body) as { id: number };
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: results[next++] }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
    const client = new R26.McpClient({ logger: null, toolOutput: false });
    await client.connect(R26.createHttpClientTransport({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` }), { initialize: false });
    closers.push(() => client.close());
    await expect(client.callTool({ name: "t" })).rejects.toMatchObject({ name: "InvalidResultError", pointer: "/content", expected: "an array" });
    await expect(client.callTool({ name: "t" })).rejects.toMatchObject({ name: "InvalidResultError", pointer: "/content", expected: "an array" });
    await expect(client.callTool({ name: "t" })).resolves.toEqual(results[2]);
    await expect(client.callTool({ name: "t" })).resolves.toEqual(results[3]);
  });

  it("validate: { results: false } hands the result over as it came", async () => {
    const { client, peer } = await clientWithRawPeer({ validate: { results: false } });
    closers.push(() => client.close());
    const calling = client.callTool({ name: "x" });
    await settle();
    await peer.send({ jsonrpc: "2.0", id: peer.requests("tools/call")[0]!.id, result: { content: "x" } });
    await expect(calling).resolves.toEqual({ content: "x" });
  });
});

describe("notifications", () => {
  it("one that breaks its schema reaches no handler and is reported; a malformed cancel is ignored as ever, not reported", async () => {
    const errors: Error[] = [];
    const heard: unknown[] = [];
    const { client, peer } = await clientWithRawPeer({ onError: (e) => errors.push(e), notificationHandlers: { "notifications/message": (params) => void heard.push(params) } });
    closers.push(() => client.close());
    await peer.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "loud", data: 1 } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: 1, extra: true } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: { bad: true } } });
    await settle();
    expect(heard).toEqual([{ level: "info", data: 1, extra: true }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(R25.InvalidNotificationError);
    expect(errors[0]).toMatchObject({ method: "notifications/message", pointer: "/level" });
  });
});

describe("the validate option is checked where it is read", () => {
  it.each([["yes", /validate must be true, false or \{ params\?, results\? \}, got "yes"/], [{ params: 1 }, /validate\.params must be true or false, got 1/], [{ result: false }, /validate: unknown key "result" \(expected params, results\)/]])(
    "%j is a TypeError naming what was expected",
    (validate, message) => {
      expect(() => new R25.McpServer({ validate: validate as never })).toThrow(message);
      expect(() => new R26.McpClient({ validate: validate as never })).toThrow(message);
    },
  );
});
