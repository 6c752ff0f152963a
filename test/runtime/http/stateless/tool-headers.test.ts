/**
 * Mcp-Param-* checks from the server's own tools/list (createHttpHandler, HTTP "Server Behavior
 * for Custom Headers"), on both faces (the web face called as a fetch-style handler, the native
 * one over a loopback socket): which annotations are enforced (depth, count, names, duplicates),
 * how the list is paged and cached, how numbers compare, which methods are checked, and the HTTP
 * status of the errors a handler throws. Exact statuses and errors.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { answer, describeFaces, headersFor, META, type Face } from "./support.js";

type Handlers = NonNullable<R.McpServerOptions["handlers"]>;

const done = (): R.CallToolResult => ({ resultType: "complete", content: [] });
const listOf = (tools: R.Tool[], ttlMs = 60_000, nextCursor?: string) => ({ resultType: "complete" as const, tools, ttlMs, cacheScope: "public" as const, ...(nextCursor === undefined ? {} : { nextCursor }) });

/** The helpers on `face`: ask POSTs `method` with conformant headers and `_meta`, plus `headers`, and resolves with the status and the JSON-RPC body; callTool asks tools/call. */
function on(face: Face) {
  const ask = async (handler: R.HttpHandler, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}, id = 1): Promise<{ status: number; json: unknown }> => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });
    const response = await answer(face, handler, new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...headersFor(method, params), ...headers }, body }));
    return { status: response.status, json: (await response.json()) as unknown };
  };
  const callTool = (handler: R.HttpHandler, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) => ask(handler, "tools/call", { name, arguments: args }, headers);
  return { ask, callTool };
}
const mismatch = (problem: string) => ({ status: 400, json: { jsonrpc: "2.0", id: 1, error: { code: -32020, message: `Header mismatch: ${problem}` } } });

function withTools(tools: R.Tool[] | (() => ReturnType<typeof listOf>), options: R.HttpHandlerOptions = {}, extra: Handlers = {}): R.HttpHandler {
  const list = typeof tools === "function" ? tools : () => listOf(tools);
  return R.createHttpHandler(new R.McpServer({ logger: null, handlers: { "tools/list": list, "tools/call": done, ...extra } }), options);
}

/** An inputSchema with `x-mcp-header` `name` on the property reached through `depth` nested `properties` (path a.a.…). */
function nested(depth: number, name: string): { schema: R.Tool["inputSchema"]; args: Record<string, unknown>; path: string } {
  let schema: Record<string, unknown> = { type: "string", "x-mcp-header": name };
  let args: unknown = "v";
  for (let i = 0; i < depth; i++) {
    schema = { type: "object", properties: { a: schema } };
    args = { a: args };
  }
  return { schema: schema as R.Tool["inputSchema"], args: args as Record<string, unknown>, path: Array(depth).fill("a").join(".") };
}

describeFaces("createHttpHandler", (face) => {
  const { ask, callTool } = on(face);

  describe("which x-mcp-header annotations are enforced", () => {
    // One scan for client and server (templates/runtime/http/headers.ts toolHeaders): a tool with
    // any bad annotation is invalid as a whole (HTTP, Schema Extension); conforming clients exclude
    // it from tools/list, so the server expects no Mcp-Param-* header for it, and says so on onError.
    it("to a nesting of 64; a deeper inputSchema makes the tool invalid: nothing is expected for it, and onError names it", async () => {
      const errors: string[] = [];
      // nested(d): the annotated schema d levels below the root (each step through `properties` is one level).
      const at64 = nested(64, "Deep");
      const at65 = nested(65, "Deeper");
      const handler = withTools(
        [
          { name: "d64", inputSchema: at64.schema },
          { name: "d65", inputSchema: at65.schema },
        ],
        { onError: (e) => errors.push(e.message) },
      );
      expect(await callTool(handler, "d64", at64.args)).toEqual(mismatch(`the Mcp-Param-Deep header is missing; the body carries ${at64.path}`));
      expect((await callTool(handler, "d64", at64.args, { "mcp-param-deep": "v" })).status).toBe(200);
      expect((await callTool(handler, "d65", at65.args)).status).toBe(200);
      expect(errors).toEqual(['tools/list: tool "d65" has an invalid x-mcp-header annotation, so clients exclude it: inputSchema is nested deeper than 64']);
    });

    it("every annotation of a valid tool, however many (65 here), is expected", async () => {
      const properties: Record<string, unknown> = {};
      const args: Record<string, string> = {};
      for (let i = 1; i <= 65; i++) {
        properties[`p${i}`] = { type: "string", "x-mcp-header": `H${i}` };
        args[`p${i}`] = "v";
      }
      const handler = withTools([{ name: "many", inputSchema: { type: "object", properties } as R.Tool["inputSchema"] }]);
      const all: Record<string, string> = {};
      for (let i = 1; i <= 65; i++) all[`mcp-param-h${i}`] = "v";
      expect((await callTool(handler, "many", args, all)).status).toBe(200);
      const { "mcp-param-h65": _, ...first64 } = all;
      expect(await callTool(handler, "many", args, first64)).toEqual(mismatch("the Mcp-Param-H65 header is missing; the body carries p65"));
    });

    it.each([
      ["a name that is not a token", { spaced: { type: "string", "x-mcp-header": "has space" } }, 'x-mcp-header "has space" is not an HTTP token'],
      ["a name that is not a string", { numbered: { type: "string", "x-mcp-header": 7 } }, "x-mcp-header 7 is not an HTTP token"],
      ["an empty name", { empty: { type: "string", "x-mcp-header": "" } }, 'x-mcp-header "" is not an HTTP token'],
      ["two names equal in any case", { deep: { type: "object", properties: { x: { type: "string", "x-mcp-header": "Same" } } }, top: { type: "string", "x-mcp-header": "SAME" } }, "x-mcp-header SAME is not unique"],
      ["a parameter of type number", { n: { type: "number", "x-mcp-header": "N" } }, 'x-mcp-header N is on a parameter of type "number"'],
      ["an annotation under items", { list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }, "an x-mcp-header annotation is not reachable through properties alone"],
    ])("%s makes the tool invalid: none of its annotations is expected, a valid tool beside it still is", async (_, bad, reason) => {
      const errors: string[] = [];
      const handler = withTools(
        [
          { name: "odd", inputSchema: { type: "object", properties: { good: { type: "string", "x-mcp-header": "Good" }, ...bad } } as R.Tool["inputSchema"] },
          { name: "fine", inputSchema: { type: "object", properties: { good: { type: "string", "x-mcp-header": "Good" } } } },
        ],
        { onError: (e) => errors.push(e.message) },
      );
      expect((await callTool(handler, "odd", { good: "g", spaced: "s", numbered: "n", empty: "e", deep: { x: "d" }, top: "t", n: 1, list: ["i"] })).status).toBe(200);
      expect(await callTool(handler, "fine", { good: "g" })).toEqual(mismatch("the Mcp-Param-Good header is missing; the body carries good"));
      expect(errors).toEqual([`tools/list: tool "odd" has an invalid x-mcp-header annotation, so clients exclude it: ${reason}`]);
    });

    it("a numeric argument matches a decimal header value of the same number only", async () => {
      // type integer: an annotation on a number parameter makes the tool invalid (see above); the
      // HTTP layer does not validate arguments, so a body value of 1.5 is still compared.
      const handler = withTools([{ name: "n", inputSchema: { type: "object", properties: { n: { type: "integer", "x-mcp-header": "N" } } } }]);
      for (const [value, header] of [[42, "42"], [42, "42.000"], [-3, "-3"], [1.5, "1.50"], [0, "0"]] as const) {
        expect((await callTool(handler, "n", { n: value }, { "mcp-param-n": header })).status, `${value} ${header}`).toBe(200);
      }
      for (const [value, header] of [[42, "4.2e1"], [42, "+42"], [42, "0x2a"], [42, "42."], [42, ".42"], [42, "forty-two"], [0, "-0.1"]] as const) {
        expect(await callTool(handler, "n", { n: value }, { "mcp-param-n": header }), `${value} ${header}`).toEqual(
          mismatch(`the Mcp-Param-N header value ${JSON.stringify(header)} does not match the body value ${value}`),
        );
      }
    });

    it("only tools/call is checked: a prompts/get with the same name and arguments is not", async () => {
      const handler = withTools([{ name: "echo", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } }], {}, {
        "prompts/get": () => ({ resultType: "complete", messages: [] }),
      });
      expect((await ask(handler, "prompts/get", { name: "echo", arguments: { region: "r" } })).status).toBe(200);
      expect((await callTool(handler, "echo", { region: "r" })).status).toBe(400);
    });

    it("a binding without tool headers never asks for tools/list and checks no Mcp-Param-*", async () => {
      let lists = 0;
      const real = new R.McpServer({ logger: null, handlers: { "tools/list": () => (lists++, listOf([{ name: "t", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "A" } } } }])), "tools/call": done } });
      const servable: R.HttpServable = { httpBinding: { ...real.httpBinding, toolHeaders: null }, openConnection: (t) => real.openConnection(t) };
      const handler = R.createHttpHandler(servable);
      expect((await callTool(handler, "t", { a: "1" })).status).toBe(200);
      expect(lists).toBe(0);
    });
  });

  describe("reading the server's own tools/list", () => {
    it("follows nextCursor: annotations of a later page are enforced", async () => {
      const pages: Array<string | undefined> = [];
      const handler = withTools(() => listOf([], 60_000, "c1"), {}, {
        "tools/list": (params) => {
          pages.push(params?.cursor);
          return params?.cursor === "c1"
            ? listOf([{ name: "late", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "A" } } } }])
            : listOf([{ name: "early", inputSchema: { type: "object" } }], 60_000, "c1");
        },
      });
      expect(await callTool(handler, "late", { a: "1" })).toEqual(mismatch("the Mcp-Param-A header is missing; the body carries a"));
      expect(pages).toEqual([undefined, "c1"]);
    });

    it("stops at a cursor it has seen, and after 100 pages", async () => {
      const repeating: Array<string | undefined> = [];
      const again = withTools(() => listOf([]), {}, { "tools/list": (params) => (repeating.push(params?.cursor), listOf([], 60_000, "same")) });
      expect((await callTool(again, "t", {})).status).toBe(200);
      expect(repeating).toEqual([undefined, "same"]);
      let pages = 0;
      const endless = withTools(() => listOf([]), {}, { "tools/list": () => (pages++, listOf([], 60_000, `c${pages}`)) });
      expect((await callTool(endless, "t", {})).status).toBe(200);
      expect(pages).toBe(100);
    });

    it("skips entries that are not tools with a name", async () => {
      const tools = [null, "x", { inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "A" } } } }, { name: "t", inputSchema: { type: "object", properties: { b: { type: "string", "x-mcp-header": "B" } } } }];
      const handler = withTools(() => ({ ...listOf([]), tools: tools as R.Tool[] }));
      expect(await callTool(handler, "t", { b: "1" })).toEqual(mismatch("the Mcp-Param-B header is missing; the body carries b"));
    });

    it("a notification the tools/list handler sends before answering is not its answer", async () => {
      const handler = withTools(() => listOf([]), {}, {
        "tools/list": async (_p, ctx) => {
          await ctx.notify("notifications/message", { level: "info", data: "listing" });
          return listOf([{ name: "t", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "A" } } } }]);
        },
      });
      expect(await callTool(handler, "t", { a: "1" })).toEqual(mismatch("the Mcp-Param-A header is missing; the body carries a"));
    });

    it("the ttlMs of the first page is kept, not that of a later one; toolHeadersTtlMs overrides it either way", async () => {
      let lists = 0;
      const paged: Handlers = { "tools/list": (params) => (lists++, params?.cursor === "c" ? listOf([], 60_000) : listOf([], 0, "c")) };
      const firstZero = withTools(() => listOf([]), {}, paged);
      await callTool(firstZero, "t", {});
      await callTool(firstZero, "t", {});
      expect(lists).toBe(4);

      let counted = 0;
      const cached: Handlers = { "tools/list": () => (counted++, listOf([], 0)) };
      const held = withTools(() => listOf([]), { toolHeadersTtlMs: 60_000 }, cached);
      await callTool(held, "t", {});
      await callTool(held, "t", {});
      expect(counted).toBe(1);

      let fresh = 0;
      const always = withTools(() => listOf([]), { toolHeadersTtlMs: 0 }, { "tools/list": () => (fresh++, listOf([], 60_000)) });
      await callTool(always, "t", {});
      await callTool(always, "t", {});
      expect(fresh).toBe(2);
    });
  });

  describe("the HTTP status of errors a handler throws", () => {
    it("400 for InvalidRequest, ParseError, HeaderMismatch and UnsupportedProtocolVersion; 404 for MethodNotFound; 200 otherwise", async () => {
      const codes: Array<[number, number]> = [
        [-32600, 400],
        [-32700, 400],
        [-32020, 400],
        [-32022, 400],
        [-32021, 400],
        [-32601, 404],
        [-32603, 200],
        [-32602, 200],
        [1234, 200],
      ];
      for (const [code, status] of codes) {
        const handler = R.createHttpHandler(
          new R.McpServer({
            logger: null,
            handlers: {
              "prompts/list": () => {
                throw new R.McpError(code, `code ${code}`);
              },
            },
          }),
        );
        const answer = await ask(handler, "prompts/list", {});
        expect(answer, String(code)).toEqual({ status, json: { jsonrpc: "2.0", id: 1, error: { code, message: `code ${code}` } } });
      }
    });

    it("a binding without MissingRequiredClientCapabilityError keeps -32021 in-band on 200", async () => {
      const real = new R.McpServer({
        logger: null,
        handlers: {
          "prompts/list": () => {
            throw new R.McpError(-32021, "missing");
          },
        },
      });
      const servable: R.HttpServable = { httpBinding: { ...real.httpBinding, errors: { ...real.httpBinding.errors, missingRequiredClientCapability: null } }, openConnection: (t) => real.openConnection(t) };
      expect((await ask(R.createHttpHandler(servable), "prompts/list", {})).status).toBe(200);
    });
  });
});

/**
 * Issue 41, finding 7: with 10,000 tools, every tools/call read the whole tools/list again (the
 * registrations' list says `ttlMs: 0`): about 160 ms a call. The annotations are a map by tool
 * name, read again only when a registration changes (McpServer.listChanges).
 */
describe("createHttpHandler with 10,000 registered tools", () => {
  const TOOLS = 10_000;
  const annotated = (header: string) => ({ type: "object" as const, properties: { region: { type: "string" as const, "x-mcp-header": header } } });

  /** A server of TOOLS tools, each expecting Mcp-Param-Region, behind a handler on a servable that counts the connections it opens (one per tools/call, one per tools/list page read). */
  function tenThousand() {
    const server = new R.McpServer({ logger: null });
    const registered = Array.from({ length: TOOLS }, (_, i) => server.registerTool(`t${i}`, { inputSchema: annotated("Region") }, () => ({ content: [] })));
    let opened = 0;
    const servable: R.HttpServable = {
      httpBinding: server.httpBinding,
      openConnection: (transport) => (opened++, server.openConnection(transport)),
      listChanges: (method) => server.listChanges(method),
    };
    const handler = R.createHttpHandler(servable);
    const request = (name: string, headers: Record<string, string>) =>
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { ...headersFor("tools/call", { name }), ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { region: "eu" }, _meta: META } }),
      });
    const callTool = async (name: string, headers: Record<string, string> = { "mcp-param-region": "eu" }) => {
      const response = await handler(request(name, headers));
      return { status: response.status, json: (await response.json()) as unknown };
    };
    return { server, registered, handler, request, callTool, opened: () => opened };
  }

  it("a tools/call takes < 1 ms (median of 300, after warm-up), and opens one connection: the list is not read again", async () => {
    const { handler, request, callTool, opened } = tenThousand();
    // The first call reads the list (100 pages of 100), the next ones only look their tool up.
    expect((await callTool("t9999")).status).toBe(200);
    expect(opened()).toBe(101);
    for (let i = 0; i < 100; i++) await callTool(`t${i}`);
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const made = request(`t${(i * 37) % TOOLS}`, { "mcp-param-region": "eu" });
      const started = performance.now();
      const response = await handler(made);
      await response.text();
      times.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
    times.sort((a, b) => a - b);
    expect(times[150]!).toBeLessThan(1);
    expect(opened()).toBe(101 + 100 + 300);
  });

  it("a registration updated, disabled, removed or added is seen by the next tools/call (the list is read once again)", async () => {
    const { server, registered, callTool, opened } = tenThousand();
    expect(await callTool("t1", {})).toEqual(mismatch("the Mcp-Param-Region header is missing; the body carries region"));
    const base = opened();
    // Updated: the new annotation is expected, not the old one; the list is read again once (100
    // pages; a call refused for its headers opens no connection of its own).
    registered[5]!.update({ inputSchema: annotated("Zone") });
    expect(await callTool("t5")).toEqual(mismatch("the Mcp-Param-Zone header is missing; the body carries region"));
    expect(opened()).toBe(base + 100);
    expect((await callTool("t5", { "mcp-param-zone": "eu" })).status).toBe(200);
    expect(opened()).toBe(base + 101);
    // Disabled, then removed: no header is expected for it any more (and tools/call answers Unknown tool).
    registered[6]!.disable();
    expect(await callTool("t6", {})).toMatchObject({ status: 200, json: { error: { code: -32602, message: "Unknown tool: t6" } } });
    registered[6]!.enable();
    expect((await callTool("t6", {})).status).toBe(400);
    registered[6]!.remove();
    expect(await callTool("t6", {})).toMatchObject({ status: 200, json: { error: { code: -32602, message: "Unknown tool: t6" } } });
    // Added after the reads (in t6's place: the map holds 10,000 tools at most): its annotation is expected at once.
    server.registerTool("late", { inputSchema: annotated("Late") }, () => ({ content: [] }));
    expect(await callTool("late")).toEqual(mismatch("the Mcp-Param-Late header is missing; the body carries region"));
    expect((await callTool("late", { "mcp-param-late": "eu" })).status).toBe(200);
  });

  it("a change made while the list is being read makes the next call read it again", async () => {
    const { server, registered, callTool, opened } = tenThousand();
    registered[0]!.remove(); // room in the map for one more
    const first = callTool("t1");
    // The read is under way (its first page asked); this registration comes after that page.
    await new Promise((resolve) => setImmediate(resolve));
    server.registerTool("during", { inputSchema: annotated("During") }, () => ({ content: [] }));
    expect((await first).status).toBe(200);
    expect(await callTool("during")).toEqual(mismatch("the Mcp-Param-During header is missing; the body carries region"));
    expect(opened()).toBeGreaterThan(200);
  });
});
