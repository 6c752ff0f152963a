/**
 * serverInfo in result `_meta` (endpoint.ts #withResultMeta): a `_meta` the handler made that is
 * not an object is the handler's to answer for: it goes out as it is, with nothing merged into it
 * (over a real server, on both faces of the handler).
 */
import { describe, expect, it } from "vitest";
import { call, describeFaces, serve } from "./support.js";

describeFaces("serverInfo in result _meta", (face) => {
  describe("a handler's _meta that is not an object", () => {
    it.each([
      ["a string", "trace-1"],
      ["an array", ["a"]],
    ])("(%s) is left as the handler made it", async (_name, own) => {
      const s = await serve(face, {
        handlers: { "tools/call": () => ({ resultType: "complete", content: [], _meta: own }) as never },
      });
      try {
        expect((await call(s.url, 1, "tools/call", { name: "x", arguments: {} })).json).toEqual({
          jsonrpc: "2.0",
          id: 1,
          result: { resultType: "complete", content: [], _meta: own },
        });
      } finally {
        await s.close();
      }
    });
  });
});
