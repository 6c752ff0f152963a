/**
 * templates/runtime/http/server/routes.ts: pathStage, the first stage of a server that serves
 * named paths: a path it serves goes on (whatever the query), any other is 404 before anything
 * else is looked at (pipeline.test.ts runs stages in order). On a fake HttpCall.
 */
import { describe, expect, it } from "vitest";
import { CallState } from "../../../../templates/runtime/http/server/pipeline.js";
import { pathStage } from "../../../../templates/runtime/http/server/routes.js";
import { FakeCall } from "./fake-call.js";

describe("pathStage", () => {
  const stage = pathStage(["/mcp", "/old/sse"]);
  const at = (url: string) => stage.run(new FakeCall({ url: `http://127.0.0.1${url}` }), new CallState());

  it("its paths go on, with or without a query", () => {
    expect(stage.name).toBe("path");
    expect(at("/mcp")).toBeUndefined();
    expect(at("/mcp?sessionId=1")).toBeUndefined();
    expect(at("/old/sse")).toBeUndefined();
  });

  it("any other path is 404 (a trailing slash, another case, a prefix, the root)", () => {
    for (const path of ["/mcp/", "/MCP", "/mc", "/mcp/x", "/", "/old"]) expect(at(path), path).toEqual({ status: 404, message: "Not Found" });
  });

  it("no path at all serves nothing", () => {
    expect(pathStage([]).run(new FakeCall(), new CallState())).toEqual({ status: 404, message: "Not Found" });
  });
});
