/**
 * features/pattern.ts: JSON Schema patterns matched without backtracking. The same answers as
 * RegExp (`u` flag) on the recommended subset, checked over a grid of patterns and inputs; refusal
 * of what cannot run in linear time (lookaround, backreferences) and of oversized programs; and
 * the patterns that make RegExp backtrack for seconds answered over long inputs (no timing in the
 * test: if the matcher backtracked, these would not finish).
 */
import { describe, expect, it } from "vitest";
import { compilePattern, PatternError } from "../../../../templates/runtime/features/pattern.js";

const LIMITS = { maxLength: 1000, maxProgram: 20_000 };

const PATTERNS = [
  "^[a-z0-9-]+$",
  "^\\d{4}-\\d{2}-\\d{2}$",
  "a|b",
  "^(ab|cd)*e?$",
  "x{2,3}y",
  "x{2,}y",
  "^x{0}$",
  "[^@]+@[^@]+\\.[^@]+",
  "\\bfoo\\b",
  "\\Bo\\B",
  "^[\\w.-]+$",
  "colou?r",
  "[\\D_]",
  "[\\s\\d]+",
  "^$",
  "(?:a|b){0,2}c",
  "[a\\-z]",
  "^\\u0041\\x42$",
  "^\\u{1F600}$",
  "^.$",
  "a.c",
  "\\.",
  "^(a|ab)(c|bcd)(d*)$",
  "(a*)*b",
  "^\\/path\\/\\*$",
  "[\\t\\n]",
  "é+",
  "[😀-😂]",
  "a+?b",
  "^a{1,3}?$",
];

const INPUTS = [
  "", "a", "b", "c", "ab", "abc", "abcd", "a-b", "A", "AB", "2024-01-02", "2024-1-02", "ababcde", "abcde", "cde", "e",
  "xxy", "xy", "xxxxy", "a@b.c", "@@", "a@b", "foo bar", "foobar", "a foo.", "boot", "a.b-c", "color", "colour", "colr",
  "_", "5", " \t", "a\nb", "\n", "😀", "😁x", "é", "ééé", "acd", "abcd", "aabbb", "b", "aaab", "/path/*", "a\tb", "]", "aaab",
];

describe("pattern matching agrees with RegExp on the recommended subset", () => {
  for (const source of PATTERNS) {
    it(JSON.stringify(source), () => {
      const pattern = compilePattern(source, LIMITS);
      const regexp = new RegExp(source, "u");
      for (const input of INPUTS) expect(pattern.test(input), JSON.stringify(input)).toBe(regexp.test(input));
    });
  }
});

describe("what the matcher refuses", () => {
  it.each([
    ["(?=a)", /lookaround/],
    ["(?!a)", /lookaround/],
    ["(?<=a)b", /lookaround/],
    ["(?<n>a)", /lookaround and named groups/],
    ["(a)\\1", /backreferences/],
    ["\\k<n>", /not supported/],
    ["\\p{L}", /not supported/],
    ["a**", /nothing to repeat/],
    ["*a", /nothing to repeat/],
    ["[b-a]", /out of order/],
    ["(", /missing \)/],
    [")", /unexpected "\)"/],
    ["[a", /missing \]/],
    ["a{2,1}", /out of order/],
    ["a{1001}", /above 1000/],
    ["\\", /at end/],
    ["\\q", /unknown escape/],
    ["^*", /quantified assertion|nothing to repeat/],
    ["[\\d-z]", /class escape in a range/],
    ["\\01", /octal/],
  ])("%s", (source, message) => {
    expect(() => compilePattern(source, LIMITS)).toThrow(PatternError);
    expect(() => compilePattern(source, LIMITS)).toThrow(message);
  });

  it("refuses a pattern longer than maxLength and a program larger than maxProgram", () => {
    expect(() => compilePattern("a".repeat(11), { maxLength: 10, maxProgram: 100 })).toThrow(/longer than 10/);
    // {1000} of an 11-instruction group is 11000 instructions: over a 10000 bound.
    expect(() => compilePattern("(?:abcdefghijk){1000}", { maxLength: 1000, maxProgram: 10_000 })).toThrow(/exceeds 10000 instructions/);
    expect(() => compilePattern("(".repeat(70) + ")".repeat(70), { maxLength: 1000, maxProgram: 10_000 })).toThrow(/deeper than 64/);
  });
});

describe("hostile patterns run in linear time", () => {
  const long = "a".repeat(20_000);
  it.each([
    ["(a+)+$", `${long}!`, false],
    ["^(a|a)*$", `${long}!`, false],
    ["(a|aa)+$", `${long}!`, false],
    ["a*a*a*a*a*b", long, false],
    ["^(\\w+\\s?)*$", `${"word ".repeat(4000)}!`, false],
    ["(x+x+)+y", "x".repeat(20_000), false],
    ["(a+)+$", long, true],
  ])("%s over %#", (source, input, expected) => {
    expect(compilePattern(source, LIMITS).test(input)).toBe(expected);
  });
});
