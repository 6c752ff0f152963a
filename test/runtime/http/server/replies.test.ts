/**
 * templates/runtime/http/server/replies.ts: the one JSON-RPC error builder of the HTTP servers
 * (errorText: the exact text, with and without an id and data), its headers, and `answer`, which
 * writes a refusal (or an authenticate's Response) as a call's response: the code a status
 * implies, the id, extra headers, an empty answer. On a fake HttpCall (fake-call.ts).
 */
import { describe, expect, it } from "vitest";
import { answer, errorText, INTERNAL_ERROR, JSON_HEADERS, jsonHeaders, PARSE_ERROR, refusal } from "../../../../templates/runtime/http/server/replies.js";
import { FakeCall } from "./fake-call.js";

describe("errorText", () => {
  it("without an id the response has none (an error about the request as a whole)", () => {
    expect(errorText(undefined, -32600, "Invalid Request")).toBe('{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}');
  });

  it("with an id (0 and strings included) and with data (null included; undefined: none)", () => {
    expect(errorText(0, -32601, "Method not found")).toBe('{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}');
    expect(errorText("a\"b", -32602, "x", { pointer: "/a" })).toBe('{"jsonrpc":"2.0","id":"a\\"b","error":{"code":-32602,"message":"x","data":{"pointer":"/a"}}}');
    expect(errorText(7, -32603, "y", null)).toBe('{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"y","data":null}}');
    expect(errorText(7, -32603, "y", undefined)).toBe('{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"y"}}');
  });
});

describe("headers and refusals", () => {
  it("jsonHeaders: the one frozen object without extras, a merged copy with them", () => {
    expect(jsonHeaders(undefined)).toBe(JSON_HEADERS);
    expect(Object.isFrozen(JSON_HEADERS)).toBe(true);
    expect(jsonHeaders({ "retry-after": "1" })).toEqual({ "content-type": "application/json", "retry-after": "1" });
    expect(JSON_HEADERS).toEqual({ "content-type": "application/json" });
  });

  it("refusal, INTERNAL_ERROR and PARSE_ERROR", () => {
    expect(refusal(404, "Not Found")).toEqual({ status: 404, message: "Not Found" });
    expect(refusal(429, "Too Many", { id: 3, headers: { "retry-after": "1" } })).toEqual({ status: 429, message: "Too Many", id: 3, headers: { "retry-after": "1" } });
    expect(INTERNAL_ERROR).toEqual({ status: 500, message: "Internal error", code: -32603 });
    expect(PARSE_ERROR).toEqual({ status: 400, message: "Parse error", code: -32700 });
    expect([Object.isFrozen(INTERNAL_ERROR), Object.isFrozen(PARSE_ERROR)]).toEqual([true, true]);
  });
});

describe("answer", () => {
  it("a 4xx refusal: InvalidRequest (-32600) unless it names its code; JSON headers; no id unless it names one", () => {
    const call = new FakeCall();
    void answer(call, { status: 404, message: "Not Found" });
    expect(call.responded).toEqual({ status: 404, headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Not Found"}}', json: expect.anything() });
    const coded = new FakeCall();
    void answer(coded, { status: 400, message: "Parse error", code: -32700, id: "r1", data: { at: 3 } });
    expect(coded.responded.body).toBe('{"jsonrpc":"2.0","id":"r1","error":{"code":-32700,"message":"Parse error","data":{"at":3}}}');
  });

  it("a 5xx refusal: InternalError (-32603); extra headers beside the content type", () => {
    const call = new FakeCall();
    void answer(call, { status: 503, message: "Service Unavailable: later", headers: { "retry-after": "1" } });
    expect(call.responded).toMatchObject({ status: 503, headers: { "content-type": "application/json", "retry-after": "1" }, json: { jsonrpc: "2.0", error: { code: -32603, message: "Service Unavailable: later" } } });
  });

  it("an empty refusal (the answer to a HEAD): its status and headers, no body, no content type", () => {
    const call = new FakeCall({ method: "HEAD" });
    void answer(call, { status: 405, message: "", headers: { allow: "POST" }, empty: true });
    expect(call.responded).toEqual({ status: 405, headers: { allow: "POST" }, body: undefined, json: undefined });
  });

  it("a Response (authenticate's refusal) is sent as it is", async () => {
    const call = new FakeCall();
    const response = new Response("no", { status: 401, headers: { "www-authenticate": "Bearer" } });
    await answer(call, response);
    expect(call.answers).toEqual([{ kind: "respondWith", response }]);
  });
});
