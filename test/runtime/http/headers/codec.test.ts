/**
 * The one `x-mcp-header` codec (templates/runtime/http/headers.ts) on both sides at once: the
 * 2026-07-28 client transport talks to the 2026-07-28 HTTP handler, so the client's reading of
 * a tool's annotations (which tools it keeps in tools/list, which Mcp-Param-* headers it sends)
 * and the server's (which headers it expects) must agree. One rule for bad entries: any bad
 * annotation makes the whole tool invalid (HTTP, Schema Extension), the client drops it from
 * tools/list and the server expects no header for it. One depth limit: 64.
 */
import { describe, expect, it } from "vitest";
import { decodeHeaderValue, encodeHeaderValue, MAX_SCHEMA_DEPTH, toolHeaders } from "../../../../templates/runtime/http/headers.js";
import * as R from "../../../generated/2026-07-28/index.js";
import { META } from "../stateless/support.js";

const URL_ = "http://127.0.0.1/mcp";
const str = (header: unknown) => ({ type: "string", "x-mcp-header": header });

/** `depth` levels of `properties` (key `a`) down to an annotated string; the arguments that fill it. */
function nested(depth: number, header: string): { schema: R.JsonObject; args: R.JsonObject } {
  let schema: R.JsonObject = str(header);
  let args: unknown = "v";
  for (let i = 0; i < depth; i++) {
    schema = { type: "object", properties: { a: schema } };
    args = { a: args };
  }
  return { schema, args: args as R.JsonObject };
}

const deep = nested(MAX_SCHEMA_DEPTH, "Deep");
const tooDeep = nested(MAX_SCHEMA_DEPTH + 1, "TooDeep");

/** Tools with the arguments each is called with; `valid`: what both sides must take it for. */
const TOOLS: ReadonlyArray<{ name: string; inputSchema: R.JsonObject; args: R.JsonObject; valid: boolean }> = [
  { name: "plain", inputSchema: { type: "object", properties: { region: str("Region"), n: { type: "integer", "x-mcp-header": "N" } } }, args: { region: "eu wést ", n: 7 }, valid: true },
  { name: "deep", inputSchema: deep.schema, args: deep.args, valid: true },
  { name: "too-deep", inputSchema: tooDeep.schema, args: tooDeep.args, valid: false },
  { name: "duplicate", inputSchema: { type: "object", properties: { x: { type: "object", properties: { y: str("Same") } }, z: str("SAME") } }, args: { x: { y: "d" }, z: "t" }, valid: false },
  { name: "not-token", inputSchema: { type: "object", properties: { ok: str("Ok"), bad: str("has space") } }, args: { ok: "o", bad: "b" }, valid: false },
  { name: "number-type", inputSchema: { type: "object", properties: { ok: str("Ok"), f: { type: "number", "x-mcp-header": "F" } } }, args: { ok: "o", f: 1 }, valid: false },
  { name: "under-items", inputSchema: { type: "object", properties: { ok: str("Ok"), list: { type: "array", items: str("Item") } } }, args: { ok: "o", list: ["i"] }, valid: false },
  { name: "under-anyOf", inputSchema: { type: "object", properties: { ok: str("Ok") }, anyOf: [{ properties: { alt: str("Alt") } }] }, args: { ok: "o", alt: "a" }, valid: false },
];

/** A client transport whose fetch is the server's HTTP handler. */
function connect() {
  const serverErrors: string[] = [];
  const server = new R.McpServer({
    logger: null,
    handlers: {
      "tools/list": () => ({ resultType: "complete", tools: TOOLS.map(({ name, inputSchema }) => ({ name, inputSchema }) as R.Tool), ttlMs: 60_000, cacheScope: "public" }),
      "tools/call": () => ({ resultType: "complete", content: [] }),
    },
  });
  const handler = R.createHttpHandler(server, { onError: (e) => serverErrors.push(e.message) });
  const posted: Headers[] = [];
  const fetch: R.FetchLike = (input, init) => {
    const request = new Request(String(input), init);
    posted.push(request.headers);
    return handler(request);
  };
  const transport = R.createHttpClientTransport({ url: URL_, fetch });
  const received: R.JsonObject[] = [];
  const clientErrors: string[] = [];
  transport.onmessage = (m) => received.push(m as unknown as R.JsonObject);
  transport.onerror = (e) => clientErrors.push(e.message);
  let id = 0;
  const send = async (method: string, params: R.JsonObject): Promise<R.JsonObject> => {
    const mine = ++id;
    await transport.send({ jsonrpc: "2.0", id: mine, method, params: { ...params, _meta: META } });
    return received.find((m) => m["id"] === mine)!;
  };
  return { transport, send, posted, serverErrors, clientErrors };
}

describe("x-mcp-header: one scan, one rule, client and server agree", () => {
  it("the client lists exactly the valid tools, and the server takes the same ones for invalid (onError names each)", async () => {
    const { transport, send, serverErrors, clientErrors } = connect();
    const listed = await send("tools/list", {});
    const names = ((listed["result"] as R.JsonObject)["tools"] as R.Tool[]).map((t) => t.name);
    expect(names).toEqual(TOOLS.filter((t) => t.valid).map((t) => t.name));
    const invalid = TOOLS.filter((t) => !t.valid).map((t) => t.name);
    expect(clientErrors.map((e) => /tool "([^"]+)" excluded/.exec(e)?.[1])).toEqual(invalid);
    // The server scans its tools when a tools/call needs them: call one first.
    await send("tools/call", { name: "plain", arguments: TOOLS[0]!.args });
    expect(serverErrors.map((e) => /tool "([^"]+)" has an invalid/.exec(e)?.[1])).toEqual(invalid);
    // The same reason on both sides.
    for (const name of invalid) {
      const reason = (text: string | undefined) => text?.slice(text.lastIndexOf(": ") + 2);
      expect(reason(serverErrors.find((e) => e.includes(`"${name}"`))), name).toBe(reason(clientErrors.find((e) => e.includes(`"${name}"`))));
    }
    await transport.close();
  });

  it("every tool called through the client is served: valid ones with their Mcp-Param-* headers checked, invalid ones with none expected", async () => {
    const { transport, send, posted } = connect();
    await send("tools/list", {});
    for (const tool of TOOLS) {
      const answer = await send("tools/call", { name: tool.name, arguments: tool.args });
      expect(answer, tool.name).toEqual({ jsonrpc: "2.0", id: expect.any(Number), result: expect.objectContaining({ content: [] }) });
      const params = [...posted.at(-1)!.keys()].filter((k) => k.startsWith("mcp-param-"));
      expect(params.length > 0, tool.name).toBe(tool.valid);
    }
    // Non-ASCII and edge whitespace travel Base64-encoded, and the server decodes them to the body's value.
    const plain = posted.filter((h) => h.get("mcp-name") === "plain").at(-1)!;
    expect(plain.get("mcp-param-region")).toBe(encodeHeaderValue("eu wést "));
    expect(decodeHeaderValue(plain.get("mcp-param-region")!)).toBe("eu wést ");
    expect(plain.get("mcp-param-n")).toBe("7");
    await transport.close();
  });

  it("a header that does not match the body is refused by the server with HeaderMismatch, whatever the client would send", async () => {
    const handlerOnly = R.createHttpHandler(
      new R.McpServer({ logger: null, handlers: { "tools/list": () => ({ resultType: "complete", tools: [{ name: "deep", inputSchema: deep.schema as R.Tool["inputSchema"] }], ttlMs: 60_000, cacheScope: "public" }), "tools/call": () => ({ resultType: "complete", content: [] }) } }),
    );
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deep", arguments: deep.args, _meta: META } });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "deep", "mcp-param-deep": "other" };
    const response = await handlerOnly(new Request(URL_, { method: "POST", headers, body }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });

  it("toolHeaders gives the one depth limit and the size bound as reasons", () => {
    expect(toolHeaders(deep.schema)).toEqual([{ path: Array(MAX_SCHEMA_DEPTH).fill("a"), header: "Deep" }]);
    expect(toolHeaders(tooDeep.schema)).toBe(`inputSchema is nested deeper than ${MAX_SCHEMA_DEPTH}`);
    const shared: R.JsonObject = { type: "object", properties: {} };
    let level = shared;
    for (let i = 0; i < 20; i++) {
      const next: R.JsonObject = { type: "object", properties: {} };
      level["properties"] = { a: next, b: next };
      level = next;
    }
    expect(toolHeaders({ type: "object", properties: { x: shared } })).toBe("inputSchema has more than 10000 objects");
  });
});
