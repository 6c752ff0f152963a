/**
 * maxJsonDepth (server/body.ts nestsDeeperThan, HttpServerOptions): a request body whose arrays and
 * objects nest deeper than the bound (default 128) is refused with 400 before it is parsed, on
 * both faces over real sockets: 129 levels refused, 128 served, brackets inside strings not
 * counted, the bound settable (8 to 100,000, else a RangeError), and a 4 MiB body nested all the
 * way down refused in well under 50 ms (the fastest of five, warm), from anonymous and
 * authenticated clients alike (the scan stops at the bound; nothing walks the rest).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { describeFaces, headersFor, META, post, raw, serve, type Served } from "./support.js";

const PREFIX = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":';
const SUFFIX = `},"_meta":${JSON.stringify(META)}}}`;

/** A tools/call whose body nests `depth` levels: the message, params and arguments are three, arrays the rest. */
const nestedBody = (depth: number) => `${PREFIX}${"[".repeat(depth - 3)}${"]".repeat(depth - 3)}${SUFFIX}`;
const tooDeep = (max: number) => ({ jsonrpc: "2.0", error: { code: -32600, message: `Bad Request: the body nests deeper than ${max} levels (maxJsonDepth)` } });
const HEADERS = headersFor("tools/call", { name: "t" });

describeFaces("maxJsonDepth", (face) => {
  let s: Served;
  let handled = 0;
  beforeAll(async () => {
    s = await serve(face, { handlers: { "tools/call": () => (handled++, { resultType: "complete", content: [] }) } });
  });
  afterAll(async () => {
    await s.close();
  });

  it("by default 128: a body nesting 129 levels is 400 before any handler runs; one of 128 is served", async () => {
    const before = handled;
    const refused = await post(s.url, nestedBody(129), HEADERS);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual(tooDeep(128));
    expect(handled).toBe(before);
    const served = await post(s.url, nestedBody(128), HEADERS);
    expect(served.status).toBe(200);
    expect(handled).toBe(before + 1);
  });

  it("brackets inside strings (escaped quotes included) are not nesting", async () => {
    const text = `"\\"${"[{".repeat(200)}"`;
    const answer = await post(s.url, `${PREFIX}${text}${SUFFIX}`, HEADERS);
    expect(answer.status).toBe(200);
  });

  it("the bound is an option: maxJsonDepth 8 refuses 9 levels and serves 8", async () => {
    const shallow = await serve(face, { handlers: { "tools/call": () => ({ resultType: "complete", content: [] }) } }, { maxJsonDepth: 8 });
    try {
      expect((await post(shallow.url, nestedBody(9), HEADERS)).json).toEqual(tooDeep(8));
      expect((await post(shallow.url, nestedBody(8), HEADERS)).status).toBe(200);
    } finally {
      await shallow.close();
    }
  });

  describe("a 4 MiB body nested all the way down", () => {
    const FOUR_MIB = 4 * 1024 * 1024;
    const levels = (FOUR_MIB - PREFIX.length - SUFFIX.length) / 2;
    const body = new TextEncoder().encode(`${PREFIX}${"[".repeat(Math.floor(levels))}${"]".repeat(Math.floor(levels))}${SUFFIX}`.padEnd(FOUR_MIB, " "));

    it.each([
      ["an anonymous client", undefined],
      ["an authenticated client", "Bearer ok"],
    ])("from %s: refused with 400 in well under 50 ms", async (_label, authorization) => {
      const guarded = await serve(face, {}, { authenticate: (request) => (request.headers.get("authorization") === "Bearer ok" ? { id: "ok" } : { id: "anonymous" }) });
      try {
        const headers = { ...HEADERS, "content-length": String(FOUR_MIB), ...(authorization === undefined ? {} : { authorization }) };
        expect(body.byteLength).toBe(FOUR_MIB);
        // Twice untimed (the code paths warm), then the fastest of five over node:http (no
        // client of its own in the way): a refusal that walked the body would take far longer.
        for (let i = 0; i < 2; i++) expect((await raw(guarded.url, "POST", headers, body)).status).toBe(400);
        const took: number[] = [];
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          const answer = await raw(guarded.url, "POST", headers, body);
          took.push(performance.now() - started);
          expect(answer.status).toBe(400);
          expect(answer.json).toEqual(tooDeep(128));
        }
        expect(Math.min(...took)).toBeLessThan(50);
      } finally {
        await guarded.close();
      }
    });
  });
});

describe("maxJsonDepth's values", () => {
  it("an integer from 8 to 100,000, else a RangeError naming it when the handler is made", () => {
    const server = new R.McpServer({ logger: null });
    for (const bad of [7, 100_001, 8.5, Number.NaN, -1]) expect(() => R.createHttpHandler(server, { maxJsonDepth: bad }), String(bad)).toThrow(RangeError);
    expect(() => R.createHttpHandler(server, { maxJsonDepth: 0 })).toThrow(/maxJsonDepth/);
    for (const good of [8, 128, 100_000]) expect(() => R.createHttpHandler(server, { maxJsonDepth: good }), String(good)).not.toThrow();
  });
});
