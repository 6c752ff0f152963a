/**
 * features/pattern.ts: JSON Schema patterns matched without blocking. The same answers as RegExp
 * (`u` flag) on the recommended subset, on both engines (RegExp where it runs in linear time, and
 * the linear matcher forced with `regexp: false`), checked over a grid of patterns and inputs;
 * refusal of what cannot run in linear time (lookaround, backreferences) and of oversized
 * programs; the patterns that make RegExp backtrack for seconds answered over long inputs; and
 * the budget (issue 41: a 4 MiB string blocked the event loop for 2.3–4.7 s): the linear matcher
 * charges it as it goes, RegExp its worst case before it starts, so a test past the default
 * budget ends in under 50 ms with BudgetExceededError.
 */
import { describe, expect, it } from "vitest";
import { BudgetExceededError, DEFAULT_VALIDATION_WORK, WorkBudget, withBudget } from "../../../../templates/runtime/core/work-budget.js";
import { compilePattern, PatternError } from "../../../../templates/runtime/features/pattern.js";
import { blockingMs } from "../../../helpers/blocking.js";

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
  "^[^a-c]*$",
  "^.{2,3}$",
  "^[😀-😂]+x?$",
  "^(a)+b?$",
  "^\\D\\s*\\w$",
];

const INPUTS = [
  "", "a", "b", "c", "ab", "abc", "abcd", "a-b", "A", "AB", "2024-01-02", "2024-1-02", "ababcde", "abcde", "cde", "e",
  "xxy", "xy", "xxxxy", "a@b.c", "@@", "a@b", "foo bar", "foobar", "a foo.", "boot", "a.b-c", "color", "colour", "colr",
  "_", "5", " \t", "a\nb", "\n", "😀", "😁x", "é", "ééé", "acd", "abcd", "aabbb", "b", "aaab", "/path/*", "a\tb", "]", "aaab",
];

describe("pattern matching agrees with RegExp on the recommended subset, on both engines", () => {
  for (const source of PATTERNS) {
    it(JSON.stringify(source), () => {
      const chosen = compilePattern(source, LIMITS);
      const linear = compilePattern(source, { ...LIMITS, regexp: false });
      expect(linear.onRegExp).toBe(false);
      const regexp = new RegExp(source, "u");
      for (const input of INPUTS) {
        expect(chosen.test(input), JSON.stringify(input)).toBe(regexp.test(input));
        expect(linear.test(input), JSON.stringify(input)).toBe(regexp.test(input));
      }
    });
  }

  it("some of the grid runs on RegExp, some on the linear matcher", () => {
    const engines = PATTERNS.map((source) => compilePattern(source, LIMITS).onRegExp);
    expect(engines.filter((onRegExp) => onRegExp).length).toBeGreaterThanOrEqual(5);
    expect(engines.filter((onRegExp) => !onRegExp).length).toBeGreaterThanOrEqual(5);
  });
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

describe("the budget of work (4 MiB strings)", () => {
  const big = "a".repeat(4 * 1024 * 1024);

  it.each([
    ["^(\\w+\\s?)*$", `${big}!`],
    ["[a-z]+@", big],
    ["(a|aa)+$", `${big}!`],
    ["\\bb\\b", big],
  ])("the linear matcher charges %s as it goes and stops at the default budget within 50 ms", (source, input) => {
    const pattern = compilePattern(source, LIMITS);
    expect(pattern.onRegExp).toBe(false);
    const { ms, result } = blockingMs(() => {
      const budget = new WorkBudget(DEFAULT_VALIDATION_WORK);
      try {
        pattern.test(input, budget);
        return budget.used;
      } catch (error) {
        return error;
      }
    });
    expect(result).toBeInstanceOf(BudgetExceededError);
    expect(ms).toBeLessThan(50);
  });

  it("RegExp is charged its worst case before it runs: a 4 MiB string is refused at once, a short one runs", () => {
    const pattern = compilePattern("^[a-z]+$", LIMITS);
    expect(pattern.onRegExp).toBe(true);
    const budget = new WorkBudget(DEFAULT_VALIDATION_WORK);
    const { ms } = blockingMs(() => expect(() => pattern.test(big, budget)).toThrow(BudgetExceededError), 1);
    expect(ms).toBeLessThan(50);
    const fresh = new WorkBudget(DEFAULT_VALIDATION_WORK);
    expect(pattern.test("a".repeat(100_000), fresh)).toBe(true);
    expect(fresh.used).toBeGreaterThanOrEqual(50_000); // two passes of 100 000 code units, a quarter unit each
  });

  it("a budget the test is not handed is the ambient one (the wire's generated checks), else a fresh default one", () => {
    const pattern = compilePattern("^(a|b)+$", LIMITS);
    const ambient = new WorkBudget(DEFAULT_VALIDATION_WORK);
    withBudget(ambient, () => expect(pattern.test("ab".repeat(1000))).toBe(true));
    expect(ambient.used).toBeGreaterThan(2000);
    expect(() => withBudget(new WorkBudget(1000), () => pattern.test("ab".repeat(1000)))).toThrow(BudgetExceededError);
    expect(() => pattern.test(big)).toThrow(BudgetExceededError);
  });
});
