/**
 * core/json-depth.ts: whether a peer's JSON text nests deeper than a bound, before it is parsed
 * (one pass: strings and their escapes skipped, a text too short to nest that deep not scanned),
 * over UTF-8 bytes (the HTTP servers, stdio) and over decoded text (SSE data, WebSocket frames)
 * alike; parseJsonWithin, JSON.parse behind that bound; the maxJsonDepth option's check.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_MESSAGE_DEPTH, JsonDepthError, maxJsonDepthOption, nestsDeeperThan, parseJsonWithin, textNestsDeeperThan } from "../../../templates/runtime/core/json-depth.js";
import { blockingMs } from "../../helpers/blocking.js";

const VARIANTS: ReadonlyArray<readonly [string, (text: string, max: number) => boolean]> = [
  ["nestsDeeperThan (UTF-8 bytes)", (text, max) => nestsDeeperThan(new TextEncoder().encode(text), max)],
  ["textNestsDeeperThan (a string)", (text, max) => textNestsDeeperThan(text, max)],
];
/** `depth` arrays nested, padded after with spaces to `length` bytes (so the short-text rule does not decide). */
const arrays = (depth: number, length = 0): string => `${"[".repeat(depth)}${"]".repeat(depth)}`.padEnd(length, " ");

describe.each(VARIANTS)("%s", (_name, nests) => {
  const deeper = (text: string, max: number): boolean => nests(text, max);
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
    expect(deeper("", 8)).toBe(false);
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
    const hostile = "[".repeat(4 * 1024 * 1024);
    const flat = `[${" ".repeat(4 * 1024 * 1024 - 2)}]`;
    const { ms } = blockingMs(() => {
      expect(deeper(hostile, 128)).toBe(true);
      expect(deeper(flat, 128)).toBe(false);
    });
    expect(ms).toBeLessThan(50);
  });
});

describe("parseJsonWithin", () => {
  it("parses a text within the bound; one past it is a JsonDepthError (a SyntaxError, as JSON.parse's own) before any parse", () => {
    expect(parseJsonWithin(`{"a":${arrays(8)}}`.padEnd(40), 9)).toEqual({ a: [[[[[[[[]]]]]]]] });
    expect(() => parseJsonWithin(`{"a":${arrays(9)}}`.padEnd(40), 9)).toThrow(JsonDepthError);
    expect(() => parseJsonWithin(`{"a":${arrays(9)}}`.padEnd(40), 9)).toThrow(SyntaxError);
    expect(() => parseJsonWithin("{", 9)).toThrow(SyntaxError);
  });

  it("refuses 2 M nested arrays in under 50 ms (JSON.parse alone takes 0.6 to 3 s)", () => {
    const nested = arrays(2_000_000);
    const { ms, result } = blockingMs(() => {
      try {
        return parseJsonWithin(nested, DEFAULT_MAX_JSON_DEPTH);
      } catch (error) {
        return error;
      }
    });
    expect(result).toBeInstanceOf(JsonDepthError);
    expect(ms).toBeLessThan(50);
  });

  it("maxJsonDepthOption: 128 by default (a request to an HTTP server), 1000 for messages both ways; an integer from 8 to 100 000 named in a RangeError otherwise", () => {
    expect(maxJsonDepthOption(undefined)).toBe(128);
    expect(maxJsonDepthOption(undefined, DEFAULT_MAX_MESSAGE_DEPTH)).toBe(1000);
    expect(maxJsonDepthOption(8)).toBe(8);
    for (const bad of [7, 100_001, 8.5, Number.NaN]) expect(() => maxJsonDepthOption(bad)).toThrow(/maxJsonDepth/);
  });
});
