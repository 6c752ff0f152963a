/**
 * features/pattern-regexp.ts: which patterns RegExp may run. Only those whose backtracking is
 * provably linear (anchored with `^`, single-character items, quantifiers that cannot trade
 * characters); everything the issue names as a hazard (nested quantifiers, backreferences,
 * lookaround) and the flat and unanchored forms that are hazards in V8 too stay on the linear
 * matcher. RegExp runs a source written from the checked items (no group: `^(a)+$` as written
 * overflows V8's backtrack stack on 4 MiB). Those chosen for RegExp are run on their failing
 * paths over 1 MiB, each under 50 ms.
 */
import { describe, expect, it } from "vitest";
import { regexpPlan } from "../../../../templates/runtime/features/pattern-regexp.js";
import { parsePattern } from "../../../../templates/runtime/features/pattern-syntax.js";
import { blockingMs } from "../../../helpers/blocking.js";

const loops = (source: string): number | undefined => regexpPlan(parsePattern(source))?.loops;

describe("which patterns run on RegExp", () => {
  it.each([
    ["^[a-z0-9-]+$", 1],
    ["^\\d{4}-\\d{2}-\\d{2}$", 0],
    ["^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$", 3],
    ["^a*b*c*$", 3],
    ["^x{2,3}y", 1],
    ["^[^@]+$", 1],
    ["^(a)+$", 1],
    ["^$", 0],
    ["^.*$", 1],
  ])("%s: RegExp, with %i variable quantifiers", (source, count) => {
    expect(loops(source)).toBe(count);
  });

  it.each([
    ["[a-z]+!", "unanchored: retried from every position (quadratic)"],
    ["^(a+)+$", "a nested quantifier"],
    ["^(a|b)*$", "a quantified group: backtracking state per iteration"],
    ["^(ab|cd)$", "alternation"],
    ["^a*a*b$", "quantifiers that may take the same characters"],
    ["^a*b?a$", "a quantifier whose characters an item after an optional one may take"],
    ["^[a-z]+\\w$", "overlapping classes"],
    ["^\\bfoo$", "a word boundary"],
    ["^a$b", "$ before the end"],
    ["^(?:ab)+$", "a quantified sequence"],
  ])("%s: the linear matcher (%s)", (source) => {
    expect(loops(source)).toBeUndefined();
  });

  it("RegExp is given a source of classes and quantifiers, without the pattern's groups", () => {
    expect(regexpPlan(parsePattern("^(a)+b?$"))?.source).toBe("^[\\u{61}]{1,}[\\u{62}]{0,1}$");
    expect(regexpPlan(parsePattern("^[^\\d]x"))?.source).toBe("^[^\\u{30}-\\u{39}][\\u{78}]");
  });

  it.each([
    ["^(a)+$", `${"a".repeat(4 << 20)}!`],
    ["^[a-z]+\\d*$", `${"a".repeat(1 << 20)}!`],
    ["^x*y*z*$", `${"x".repeat(1 << 20)}!`],
    ["^[^@]+$", `${"a".repeat(1 << 20)}@`],
    ["^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$", `${"a".repeat(1 << 20)}@`],
    ["^.*$", `${"\u{1F600}".repeat(1 << 19)}\n`],
  ])("RegExp runs %s over 1 MiB or more of its failing path in under 50 ms", (source, input) => {
    const plan = regexpPlan(parsePattern(source));
    expect(plan).toBeDefined();
    const regexp = new RegExp(plan!.source, "u");
    const { ms, result } = blockingMs(() => regexp.test(input));
    expect(result).toBe(false);
    expect(ms).toBeLessThan(50);
  });
});
