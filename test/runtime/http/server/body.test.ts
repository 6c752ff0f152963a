/**
 * templates/runtime/http/server/body.ts, pure: parseBody (the refusals of a body too large,
 * broken, too deep (core/json-depth.ts, tested in test/runtime/core/json-depth.test.ts), not
 * UTF-8, not JSON; the value otherwise).
 */
import { describe, expect, it } from "vitest";
import { bodyRefusal, parseBody } from "../../../../templates/runtime/http/server/body.js";
import { BROKEN, TOO_LARGE } from "../../../../templates/runtime/http/server/call.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
/** `depth` arrays nested, padded after with spaces to `length` bytes (so the short-text rule does not decide). */
const arrays = (depth: number, length = 0): string => `${"[".repeat(depth)}${"]".repeat(depth)}`.padEnd(length, " ");

describe("parseBody", () => {
  it("the value of a UTF-8 JSON body within the bounds", () => {
    expect(parseBody(bytes('{"jsonrpc":"2.0","id":1,"method":"ping"}'), 1024, 8)).toEqual({ value: { jsonrpc: "2.0", id: 1, method: "ping" } });
    expect(parseBody(bytes("null"), 1024, 8)).toEqual({ value: null });
    expect(parseBody(bytes('"名前"'), 1024, 8)).toEqual({ value: "名前" });
    // A peer's own __proto__ key is a property, not the prototype.
    const parsed = parseBody(bytes('{"__proto__":{"x":1}}'), 1024, 8) as { value: Record<string, unknown> };
    expect(Object.hasOwn(parsed.value, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(parsed.value)).toBe(Object.prototype);
  });

  it("a body over the bound: 413 naming it, the connection closed; broken mid-way: 400", () => {
    expect(parseBody(TOO_LARGE, 4096, 8)).toEqual({ status: 413, message: "Payload Too Large: the body exceeds 4096 bytes", headers: { connection: "close" } });
    expect(parseBody(BROKEN, 4096, 8)).toEqual({ status: 400, message: "Bad Request: the body could not be read" });
    expect(bodyRefusal(TOO_LARGE, 128)).toEqual({ status: 413, message: "Payload Too Large: the body exceeds 128 bytes", headers: { connection: "close" } });
  });

  it("nested deeper than maxJsonDepth: 400 naming the bound, before any parse (a deep text that is no JSON too)", () => {
    expect(parseBody(bytes(arrays(9, 100)), 1024, 8)).toEqual({ status: 400, message: "Bad Request: the body nests deeper than 8 levels (maxJsonDepth)" });
    expect(parseBody(bytes("[".repeat(100)), 1024, 8)).toEqual({ status: 400, message: "Bad Request: the body nests deeper than 8 levels (maxJsonDepth)" });
    expect(parseBody(bytes(arrays(8, 100)), 1024, 8)).toEqual({ value: [[[[[[[[]]]]]]]] });
  });

  it("no UTF-8, no JSON, nothing at all: the 400 Parse error (-32700)", () => {
    const PARSE_ERROR = { status: 400, message: "Parse error", code: -32700 };
    expect(parseBody(new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]), 1024, 8)).toEqual(PARSE_ERROR);
    expect(parseBody(new Uint8Array([0x22, 0xc3, 0x22]), 1024, 8)).toEqual(PARSE_ERROR); // a cut multi-byte sequence
    expect(parseBody(bytes("{not json"), 1024, 8)).toEqual(PARSE_ERROR);
    expect(parseBody(bytes('{"a":1} trailing'), 1024, 8)).toEqual(PARSE_ERROR);
    expect(parseBody(new Uint8Array(0), 1024, 8)).toEqual(PARSE_ERROR);
  });

  it("a UTF-8 byte order mark is skipped, as the decoder does", () => {
    expect(parseBody(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("[1]")]), 1024, 8)).toEqual({ value: [1] });
  });
});
