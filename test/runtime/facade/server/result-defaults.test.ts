/**
 * Handler results with defaults (issue 30; facade/server.ts completingHandlers): a 2026-07-28
 * handler may leave out `resultType` ("complete"; Result: servers MUST include it) and, on
 * cacheable results (CacheableResult: the list results, resources/read, server/discover),
 * `cacheScope` and `ttlMs` (the `resultDefaults` option, default "private" and 0). Checked at the
 * wire: the exact JSON a real node:http server sends back, on both faces of the HTTP handler
 * (native node:http and web-standard, test/helpers/faces.ts). Also the client side of the same
 * issue: params whose fields are all optional may be left out (`listTools()`).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { call, describeFaces, serve, SERVER_INFO_META, type Face, type Served } from "../../http/stateless/support.js";
import { TapTransport } from "../../../helpers/transports.js";
import { KEY } from "../../features/mrtr/support.js";
import { importCodeBlock } from "../../../helpers/readme-snippets.js";
import { typecheckFiles } from "../../../helpers/typecheck.js";
import { PACKAGE_ROOT } from "../../../../generator/project.js";

const TOOL: R.Tool = { name: "echo", inputSchema: { type: "object" } };

async function servedOn<T>(face: Face, options: R.McpServerOptions, run: (s: Served) => Promise<T>): Promise<T> {
  const s = await serve(face, options);
  try {
    return await run(s);
  } finally {
    await s.close();
  }
}

describeFaces("the fields the server fills, at the wire", (face) => {
  const served = <T>(options: R.McpServerOptions, run: (s: Served) => Promise<T>): Promise<T> => servedOn(face, options, run);

  it("tools/call: resultType \"complete\" where the handler gave none, nothing else added", async () => {
    const answer = await served({ handlers: { "tools/call": () => ({ content: [{ type: "text", text: "hi" }] }) } }, (s) => call(s.url, 1, "tools/call", { name: "echo", arguments: {} }));
    expect(answer.text).toBe(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }], resultType: "complete", _meta: SERVER_INFO_META } }));
  });

  it("tools/list: resultType, and the documented caching defaults (cacheScope \"private\", ttlMs 0)", async () => {
    const answer = await served({ handlers: { "tools/list": async () => ({ tools: [TOOL] }) } }, (s) => call(s.url, 1, "tools/list"));
    expect(answer.text).toBe(
      JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [TOOL], resultType: "complete", cacheScope: "private", ttlMs: 0, _meta: SERVER_INFO_META } }),
    );
  });

  it("the server's resultDefaults, on every cacheable result; a handler's own values win, field by field", async () => {
    const answers = await served(
      {
        resultDefaults: { cacheScope: "public", ttlMs: 60_000 },
        handlers: {
          "tools/list": () => ({ tools: [], ttlMs: 5 }),
          "prompts/list": () => ({ prompts: [], cacheScope: "private" }),
          "resources/read": () => ({ contents: [] }),
          "resources/list": () => ({ resultType: "complete", resources: [], cacheScope: "private", ttlMs: 1 }),
        },
      },
      async (s) => [
        (await call(s.url, 1, "tools/list")).json,
        (await call(s.url, 2, "prompts/list")).json,
        (await call(s.url, 3, "resources/read", { uri: "file:///a" })).json,
        (await call(s.url, 4, "resources/list")).json,
      ],
    );
    expect(answers.map((a) => (a as { result: unknown }).result)).toEqual([
      { tools: [], ttlMs: 5, resultType: "complete", cacheScope: "public", _meta: SERVER_INFO_META },
      { prompts: [], cacheScope: "private", resultType: "complete", ttlMs: 60_000, _meta: SERVER_INFO_META },
      { contents: [], resultType: "complete", cacheScope: "public", ttlMs: 60_000, _meta: SERVER_INFO_META },
      { resultType: "complete", resources: [], cacheScope: "private", ttlMs: 1, _meta: SERVER_INFO_META },
    ]);
  });

  it("an InputRequiredResult of a cacheable request gets nothing (it is not the complete result), nor does a result of another resultType", async () => {
    const answers = await served(
      {
        requestState: { key: KEY },
        handlers: {
          "resources/read": (_params, ctx) => ctx.input.required({}, { state: "s" }),
          // Not what this revision allows (hence the cast): a result type the server does not know stays as it is.
          "tools/list": () => ({ resultType: "later", tools: [] }) as never,
        },
      },
      async (s) => [(await call(s.url, 1, "resources/read", { uri: "file:///a" })).json, (await call(s.url, 2, "tools/list")).json],
    );
    const [read, list] = answers.map((a) => (a as { result: Record<string, unknown> }).result);
    expect(Object.keys(read!).sort()).toEqual(["_meta", "requestState", "resultType"]);
    expect(read!["resultType"]).toBe("input_required");
    expect(list).toEqual({ resultType: "later", tools: [], _meta: SERVER_INFO_META });
  });

  it("an explicit undefined counts as left out (JSON would drop it); the handler's object is never changed", async () => {
    const shared = { tools: [TOOL], ttlMs: undefined } as const;
    const answer = await served({ handlers: { "tools/list": () => shared as unknown as R.ListToolsResult } }, (s) => call(s.url, 1, "tools/list"));
    expect((answer.json as { result: unknown }).result).toEqual({ tools: [TOOL], resultType: "complete", cacheScope: "private", ttlMs: 0, _meta: SERVER_INFO_META });
    expect(shared).toEqual({ tools: [TOOL], ttlMs: undefined });
  });

  it("the default server/discover answer is unchanged (it fills its own: public, ttlMs 0)", async () => {
    const answer = await served({}, (s) => call(s.url, 1, "server/discover"));
    expect((answer.json as { result: Record<string, unknown> }).result).toMatchObject({ resultType: "complete", cacheScope: "public", ttlMs: 0 });
  });

  it("a handler that throws, or rejects, is answered as before (an error response, no result)", async () => {
    const answers = await served(
      {
        handlers: {
          "tools/list": () => {
            throw new R.McpError(-32000, "no list");
          },
          "tools/call": () => Promise.reject(new R.McpError(-32001, "no call")),
        },
      },
      async (s) => [(await call(s.url, 1, "tools/list")).json, (await call(s.url, 2, "tools/call", { name: "x", arguments: {} })).json],
    );
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "no list" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32001, message: "no call" } },
    ]);
  });
});

describe("the resultDefaults option is validated where it is read (at construction)", () => {
  it.each([
    [{ cacheScope: "shared" }, RangeError, 'resultDefaults.cacheScope must be one of "private", "public", got "shared"'],
    [{ cacheScope: 1 }, RangeError, "resultDefaults.cacheScope must be one of"],
    [{ ttlMs: -1 }, RangeError, "resultDefaults.ttlMs must be an integer ≥ 0, got -1"],
    [{ ttlMs: 1.5 }, RangeError, "resultDefaults.ttlMs"],
    ["public", TypeError, 'resultDefaults must be an object, got "public"'],
  ])("%j is refused", (value, type, message) => {
    expect(() => new R.McpServer({ resultDefaults: value as never })).toThrow(type);
    expect(() => new R.McpServer({ resultDefaults: value as never })).toThrow(message);
  });

  it("and refused without handlers too; valid values are accepted", () => {
    expect(() => new R.McpServer({ resultDefaults: { ttlMs: Number.NaN } })).toThrow(RangeError);
    expect(() => new R.McpServer({ resultDefaults: { cacheScope: "public", ttlMs: 0 } })).not.toThrow();
  });
});

describe("the client leaves out params whose fields are all optional", () => {
  it("listTools() with no argument sends params holding only the `_meta` it fills, and resolves to the list", async () => {
    const [a, b] = R.createInMemoryTransportPair();
    await new R.McpServer({ logger: null, handlers: { "tools/list": () => ({ tools: [TOOL] }) } }).connect(b);
    const tap = new TapTransport(a);
    const client = new R.McpClient({ logger: null });
    await client.connect(tap, { initialize: false });
    try {
      const listed = await client.listTools();
      expect(listed.tools).toEqual([TOOL]);
      expect(listed).toMatchObject({ resultType: "complete", cacheScope: "private", ttlMs: 0 });
      expect(tap.sent).toEqual([
        {
          jsonrpc: "2.0",
          id: expect.anything() as unknown,
          method: "tools/list",
          params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
        },
      ]);
      // Through request() too.
      expect((await client.request("tools/list")).tools).toEqual([TOOL]);
    } finally {
      await client.close();
    }
  });
});

describe("docs/client-and-server.md, as written", () => {
  it("the result-defaults block runs (the filled fields reach the client, both kinds of client get the complete result) and type-checks under the strictest options", async () => {
    const doc = await importCodeBlock<{ main: () => Promise<string[]> }>("docs/client-and-server.md", "result-defaults");
    expect(await doc.main()).toEqual(["1 tool, public, ttlMs 60000", '[{"type":"text","text":"hi"}]', 'complete: [{"type":"text","text":"hi"}]']);
    const diagnostics = typecheckFiles([join(PACKAGE_ROOT, "out", "readme-snippets", "result-defaults.ts")]);
    expect(diagnostics).toEqual([]);
  });
});
