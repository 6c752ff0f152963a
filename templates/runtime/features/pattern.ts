// The regular expressions of JSON Schema's `pattern` and `patternProperties`, tested against a
// peer's strings without ever blocking for long. A backtracking engine (RegExp) takes exponential
// or high-polynomial time on patterns such as `(a+)+$` or `a*a*b` (V8: seconds on 1 KiB), so a
// pattern is parsed once (pattern-syntax.ts) and run one of two ways:
// - on RegExp, compiled once, when its backtracking is provably linear (pattern-regexp.ts: `^`
//   then single-character items whose quantifiers cannot trade characters), which is fast;
// - else as a Pike VM (every thread advanced in lock step, one visit per instruction per
//   position), so a test costs at most (program size × input length) steps whatever the pattern.
// Either way the test charges its work to the validation's budget (core/work-budget.ts): the VM
// as it goes, RegExp its worst case before it starts (it cannot be stopped once running), so a
// 4 MiB string is refused at once rather than matched for seconds.

import { currentBudget, type WorkBudget } from "../core/work-budget.js";
import { regexpPlan } from "./pattern-regexp.js";
import { parsePattern, PatternError } from "./pattern-syntax.js";
import { compileProgram, runProgram } from "./pattern-vm.js";

export { PatternError } from "./pattern-syntax.js";

/** The bounds of one compiled pattern. */
export interface PatternLimits {
  /** Longest pattern source, in UTF-16 code units. */
  readonly maxLength: number;
  /** Largest program, in instructions, after `{n,m}` are expanded. */
  readonly maxProgram: number;
  /** Whether a pattern RegExp tests in linear time runs on RegExp (default true); false: the linear matcher runs every pattern. */
  readonly regexp?: boolean | undefined;
}

/** A compiled pattern. */
export interface Pattern {
  readonly source: string;
  /** Whether it runs on RegExp (else on the linear matcher). */
  readonly onRegExp: boolean;
  /**
   * Whether the pattern matches anywhere in `input` (RegExp.prototype.test, unanchored). Its work
   * is charged to `budget` (default: the validation running now, core/work-budget.ts);
   * BudgetExceededError past it.
   */
  test(input: string, budget?: WorkBudget): boolean;
}

/**
 * What RegExp is charged, in the budget's units (about one step of the linear matcher), per
 * UTF-16 code unit of input and per pass over it: one to match, and one more per variable
 * quantifier (each may give every character back once, on a failing path). Measured on Node 20:
 * RegExp's worst case here (a failing `^x*y*z*$`, astral text under `.`) costs a quarter of a
 * matcher step or less per code unit and pass.
 */
const REGEXP_PASSES_PER_UNIT = 4;

/** Compiles a pattern once; its tests then run in linear time. PatternError when refused. */
export function compilePattern(source: string, limits: PatternLimits): Pattern {
  if (source.length > limits.maxLength) throw new PatternError(`a pattern of ${source.length} characters is longer than ${limits.maxLength}`);
  const tree = parsePattern(source);
  const program = compileProgram(tree, limits.maxProgram, source);
  const plan = limits.regexp === false ? undefined : regexpPlan(tree);
  if (plan !== undefined) {
    const regexp = new RegExp(plan.source, "u");
    const passes = 1 + plan.loops;
    return {
      source,
      onRegExp: true,
      test: (input, budget = currentBudget()) => {
        budget.charge(Math.ceil((input.length * passes) / REGEXP_PASSES_PER_UNIT) + 1);
        return regexp.test(input);
      },
    };
  }
  return { source, onRegExp: false, test: (input, budget = currentBudget()) => runProgram(program, input, budget) };
}

