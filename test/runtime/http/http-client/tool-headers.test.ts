/**
 * What HttpClientTransport learns from the tools/list results that pass through it, and the
 * Mcp-Param-* headers it then sends on tools/call (2026-07-28 streamable-http, Custom Headers
 * from Tool Parameters), against a scripted server (test/runtime/http/http-session-client/support.ts): the
 * argument types that become a header and those that do not, a tool listed again without
 * annotations, tools without a name kept as they are, and the bound on remembered tools.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { toolHeaders } from "../../../../templates/runtime/http/headers.js";
import { json, scriptedFetch, within, type Call } from "../http-session-client/support.js";
import { META_KEYS, MODERN_VERSION } from "../../../helpers/fixtures.js";

const META = { [META_KEYS.protocolVersion]: MODERN_VERSION };
const str = (header: string) => ({ type: "string", "x-mcp-header": header });

/** A transport whose tools/list answers `tools[n]` on the n-th listing and whose other requests answer an empty result. */
function open(listings: unknown[][]) {
  let lists = 0;
  const { fetch, calls } = scriptedFetch((c: Call) => {
    const id = c.body!["id"];
    if (c.body!["method"] === "tools/list") return json({ jsonrpc: "2.0", id, result: { tools: listings[lists++] } }, 200, null);
    return json({ jsonrpc: "2.0", id, result: { content: [] } }, 200, null);
  });
  const transport = R.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch });
  const received: Record<string, unknown>[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => received.push(m as unknown as Record<string, unknown>);
  transport.onerror = (e) => errors.push(e);
  let next = 1;
  const list = () => within("tools/list", transport.send({ jsonrpc: "2.0", id: next++, method: "tools/list", params: { _meta: META } }));
  const callTool = (name: string, args: unknown) => within("tools/call", transport.send({ jsonrpc: "2.0", id: next++, method: "tools/call", params: { name, arguments: args, _meta: META } as R.JsonObject }));
  /** The Mcp-Param-* headers of each POST. */
  const params = () => calls.map((c) => Object.fromEntries(Object.entries(c.headers).filter(([name]) => name.startsWith("mcp-param-"))));
  return { transport, calls, received, errors, list, callTool, params };
}

describe("HttpClientTransport: Mcp-Param-* headers from the annotations it saw", () => {
  it("strings, booleans and safe integers become headers; other values and missing paths do not", async () => {
    const schema = {
      type: "object",
      properties: {
        s: str("S"),
        b: { type: "boolean", "x-mcp-header": "B" },
        n: { type: "integer", "x-mcp-header": "N" },
        o: { type: "object", properties: { deep: str("Deep") } },
      },
    };
    const t = open([[{ name: "t", inputSchema: schema }]]);
    await t.list();
    await t.callTool("t", { s: "x", b: false, n: -3, o: { deep: "d" } });
    await t.callTool("t", { s: null, b: ["x"], n: 2 ** 53, o: "not an object" });
    await t.callTool("t", { s: {}, n: 1.5, o: {} });
    await t.callTool("t", "not an object");
    await t.callTool("t", null);
    // Another method naming the same "t" gets no Mcp-Param-* headers.
    await within("prompts/get", t.transport.send({ jsonrpc: "2.0", id: 99, method: "prompts/get", params: { name: "t", arguments: { s: "x" }, _meta: META } }));
    expect(t.params()).toEqual([{}, { "mcp-param-s": "x", "mcp-param-b": "false", "mcp-param-n": "-3", "mcp-param-deep": "d" }, {}, {}, {}, {}, {}]);
    expect(t.calls[6]!.headers["mcp-name"]).toBe("t");
    expect(t.errors).toEqual([]);
    await t.transport.close();
  });

  it("a tool listed again without annotations sends none; a tool listed again with an invalid one is forgotten and removed", async () => {
    const t = open([
      [{ name: "a", inputSchema: { type: "object", properties: { r: str("R") } } }, { name: "b", inputSchema: { type: "object", properties: { r: str("R") } } }],
      [{ name: "a", inputSchema: { type: "object", properties: { r: { type: "string" } } } }, { name: "b", inputSchema: { type: "object", properties: { r: { type: "number", "x-mcp-header": "R" } } } }],
    ]);
    await t.list();
    await t.callTool("a", { r: "1" });
    await t.callTool("b", { r: "1" });
    await t.list();
    await t.callTool("a", { r: "2" });
    await t.callTool("b", { r: "2" });
    expect(t.params()).toEqual([{}, { "mcp-param-r": "1" }, { "mcp-param-r": "1" }, {}, {}, {}]);
    expect((t.received[3]!["result"] as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual(["a"]);
    expect(t.errors.map((e) => e.message)).toEqual(['tools/list: tool "b" excluded: x-mcp-header R is on a parameter of type "number"']);
    await t.transport.close();
  });

  it("only a tools/list result is read for annotations: another result with a tools array passes unchanged and teaches nothing", async () => {
    const tools = [{ name: "t", inputSchema: { type: "object", properties: { r: str("R") } } }, { name: "bad", inputSchema: { properties: { r: { type: "number", "x-mcp-header": "R" } } } }];
    const { fetch, calls } = scriptedFetch((c: Call) => json({ jsonrpc: "2.0", id: c.body!["id"], result: { tools } }, 200, null));
    const transport = R.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch });
    const received: unknown[] = [];
    transport.onmessage = (m) => received.push(m);
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    await within("x/tools", transport.send({ jsonrpc: "2.0", id: 1, method: "x/tools", params: { _meta: META } }));
    await within("tools/call", transport.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "t", arguments: { r: "x" }, _meta: META } }));
    expect((received[0] as { result: { tools: unknown[] } }).result.tools).toEqual(tools);
    expect(calls[1]!.headers["mcp-param-r"]).toBeUndefined();
    expect(errors).toEqual([]);
    await transport.close();
  });

  it("entries without a string name are kept as they are; a result without a tools array is left alone", async () => {
    const odd = [7, null, { name: 1, inputSchema: { properties: { r: { type: "number", "x-mcp-header": "R" } } } }, { inputSchema: {} }];
    const t = open([odd]);
    await t.list();
    expect((t.received[0]!["result"] as { tools: unknown[] }).tools).toEqual(odd);
    expect(t.errors).toEqual([]);
    await t.transport.close();
  });

  it("remembers at most 10,000 annotated tools (tools without annotations take no place): the one learnt first is forgotten", async () => {
    const tool = (i: number) => ({ name: `t${i}`, inputSchema: { type: "object", properties: { r: str("R") } } });
    const plain = { name: "plain", inputSchema: { type: "object", properties: { r: { type: "string" } } } };
    const t = open([Array.from({ length: 10_000 }, (_, i) => tool(i)), [plain], [tool(10_000)]]);
    await t.list();
    await t.list();
    await t.callTool("t0", { r: "x" });
    await t.list();
    await t.callTool("t0", { r: "x" });
    await t.callTool("t1", { r: "x" });
    await t.callTool("t10000", { r: "x" });
    expect(t.params()).toEqual([{}, {}, { "mcp-param-r": "x" }, {}, {}, { "mcp-param-r": "x" }, { "mcp-param-r": "x" }]);
    await t.transport.close();
  });
});

describe("toolHeaders: every part of the schema is walked", () => {
  it("a problem in a later array item or a later non-properties member is found; nesting through plain members is bounded", () => {
    const param = { type: "string", "x-mcp-header": "A" };
    const unreachable = "an x-mcp-header annotation is not reachable through properties alone";
    expect(toolHeaders({ properties: { a: { anyOf: [{ type: "string" }, param] } } })).toBe(unreachable);
    expect(toolHeaders({ properties: { a: { type: "array", default: {}, items: param } } })).toBe(unreachable);
    let deep: unknown = { type: "string" };
    for (let i = 0; i < 70; i++) deep = { items: deep };
    expect(toolHeaders({ properties: { a: deep } })).toBe("inputSchema is nested deeper than 64");
    expect(toolHeaders(null)).toEqual([]);
  });
});
