/**
 * templates/runtime/http/server/body.ts, pure: nestsDeeperThan (one pass over the bytes: strings
 * and their escapes skipped, a text too short to nest that deep not scanned) and parseBody (the
 * refusals of a body too large, broken, too deep, not UTF-8, not JSON; the value otherwise).
 */
import { describe, expect, it } from "vitest";
import { bodyRefusal, nestsDeeperThan, parseBody } from "../../../../templates/runtime/http/server/body.js";
import { BROKEN, TOO_LARGE } from "../../../../templates/runtime/http/server/call.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const deeper = (text: string, max: number): boolean => nestsDeeperThan(bytes(text), max);
/** `depth` arrays nested, padded after with spaces to `length` bytes (so the short-text rule does not decide). */
const arrays = (depth: number, length = 0): string => `${"[".repeat(depth)}${"]".repeat(depth)}`.padEnd(length, " ");

describe("nestsDeeperThan", () => {
  it("exactly max levels is not deeper; max + 1 is, for arrays, objects and both mixed", () => {
    expect(deeper(arrays(8, 100), 8)).toBe(false);
    expect(deeper(arrays(9, 100), 8)).toBe(true);
    expect(deeper(`${'{"a":'.repeat(8)}1${"}".repeat(8)}`, 8)).toBe(false);
    expect(deeper(`${'{"a":'.repeat(9)}1${"}".repeat(9)}`, 8)).toBe(true);
    expect(deeper(`${'[{"a":'.repeat(4)}[1]${"}]".repeat(4)}`.padEnd(100), 8)).toBe(true);
    expect(deeper(`${'[{"a":'.repeat(4)}1${"}]".repeat(4)}`.padEnd(100), 8)).toBe(false);
  });

  it("closing brackets count down: many siblings, each shallow, are not deep however long the text", () => {
    expect(deeper(`[${"[[1]],".repeat(10_000)}[]]`, 3)).toBe(false);
    expect(deeper(`[${"[[1]],".repeat(10_000)}[[[1]]]]`, 3)).toBe(true);
  });

  it("a text of 2·max bytes or fewer is never scanned: it cannot nest deeper (an unbalanced one is no JSON and fails its parse)", () => {
    expect(deeper("[[[[", 2)).toBe(false); // 4 bytes, max 2: not looked at
    expect(deeper("[[[[ ", 2)).toBe(true); // 5 bytes: scanned
    expect(nestsDeeperThan(new Uint8Array(0), 8)).toBe(false);
  });

  it("brackets inside strings do not count", () => {
    expect(deeper(JSON.stringify({ text: "[".repeat(1000) }), 8)).toBe(false);
    expect(deeper(JSON.stringify(["{{{{{{{{{{{{", "[[[[[[[[[[[["]), 2)).toBe(false);
    expect(deeper(JSON.stringify({ "[[[[[[[[[[": 1 }), 2)).toBe(false);
  });

  it("an escaped quote does not end a string; an escaped backslash before a quote does", () => {
    // "\"[[[[[[[[[[" : the brackets are still in the string.
    expect(deeper(JSON.stringify(['"' + "[".repeat(20)]), 2)).toBe(false);
    // "\\" then brackets outside any string: they count.
    expect(deeper(`["\\\\",${"[".repeat(5)}${"]".repeat(5)}]`, 2)).toBe(true);
    expect(deeper(`["\\\\",[1]]`.padEnd(40), 2)).toBe(false);
    // Any escape skips the next byte: "\u005b" stays text, and \[ (not JSON) too.
    expect(deeper(`["\\u005b\\u005b\\u005b", "\\[[[["]`.padEnd(40), 1)).toBe(false);
  });

  it("multi-byte UTF-8 in strings is never a bracket or a quote", () => {
    expect(deeper(JSON.stringify({ "名前": "「[」".repeat(50), emoji: "😀".repeat(50) }), 1)).toBe(false);
    expect(deeper(JSON.stringify({ "名前": [["😀"]] }).padEnd(40), 2)).toBe(true);
  });

  it("is a bound, not a validation: stray closers only count down", () => {
    expect(deeper(`]]]]]]${"[".repeat(8)}`, 4)).toBe(false);
    expect(deeper(`]]${"[".repeat(8)}`, 4)).toBe(true);
  });

  it("one pass: a 4 MiB nested text is judged in milliseconds, stopping at the first level past max", () => {
    const hostile = new Uint8Array(4 * 1024 * 1024).fill(0x5b);
    const started = performance.now();
    expect(nestsDeeperThan(hostile, 128)).toBe(true);
    const flat = new Uint8Array(4 * 1024 * 1024).fill(0x20);
    flat[0] = 0x5b;
    flat[flat.length - 1] = 0x5d;
    expect(nestsDeeperThan(flat, 128)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

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
