// The linear matcher of features/pattern.ts: a pattern's tree (pattern-syntax.ts) compiled by
// Thompson's construction into a small program, run as a Pike VM: every thread advanced in lock
// step, each instruction visited at most once per input position, so a test costs at most
// (program size × input length) steps whatever the pattern, and each position's visits are
// charged to the validation's budget (core/work-budget.ts) as they are made. The program is
// flattened into typed arrays, and each character test has a table for ASCII, so a step is a few
// array reads.

import type { WorkBudget } from "../core/work-budget.js";
import { inSet, isWordChar, PatternError, type Assertion, type CharSet, type Node } from "./pattern-syntax.js";

type Instruction =
  | { readonly op: "char"; readonly set: CharSet }
  | { readonly op: "split"; x: number; y: number }
  | { readonly op: "jmp"; x: number }
  | { readonly op: "assert"; readonly what: Assertion }
  | { readonly op: "match" };

/** Emits the program of a node (Thompson's construction); `limit` bounds the total size. */
class Emitter {
  readonly program: Instruction[] = [];
  readonly #limit: number;
  readonly #source: string;

  constructor(limit: number, source: string) {
    this.#limit = limit;
    this.#source = source;
  }

  #push(instruction: Instruction): number {
    if (this.program.length >= this.#limit) throw new PatternError(`pattern ${JSON.stringify(this.#source)}: its program exceeds ${this.#limit} instructions`);
    this.program.push(instruction);
    return this.program.length - 1;
  }

  emit(node: Node): void {
    switch (node.kind) {
      case "char":
        this.#push({ op: "char", set: node.set });
        return;
      case "assert":
        this.#push({ op: "assert", what: node.what });
        return;
      case "seq":
        for (const item of node.items) this.emit(item);
        return;
      case "alt": {
        const jumps: Array<{ op: "jmp"; x: number }> = [];
        node.options.forEach((option, i) => {
          if (i === node.options.length - 1) {
            this.emit(option);
            return;
          }
          const split = { op: "split" as const, x: 0, y: 0 };
          this.#push(split);
          split.x = this.program.length;
          this.emit(option);
          const jump = { op: "jmp" as const, x: 0 };
          this.#push(jump);
          jumps.push(jump);
          split.y = this.program.length;
        });
        for (const jump of jumps) jump.x = this.program.length;
        return;
      }
      case "repeat": {
        for (let i = 0; i < node.min; i++) this.emit(node.item);
        if (node.max === Infinity) {
          const split = { op: "split" as const, x: 0, y: 0 };
          const at = this.#push(split);
          split.x = this.program.length;
          this.emit(node.item);
          this.#push({ op: "jmp", x: at });
          split.y = this.program.length;
          return;
        }
        const splits: Array<{ op: "split"; x: number; y: number }> = [];
        for (let i = node.min; i < node.max; i++) {
          const split = { op: "split" as const, x: 0, y: 0 };
          this.#push(split);
          split.x = this.program.length;
          splits.push(split);
          this.emit(node.item);
        }
        for (const split of splits) split.y = this.program.length;
        return;
      }
    }
  }
}

/** What a position costs beyond its instructions (reading a code point, the call into `add`), in the budget's units. */
const POSITION_UNITS = 2;
/** What a test costs before its first position (its setup), in the budget's units. */
const TEST_UNITS = 8;
/** Units charged at once: the budget is exceeded by at most this much (plus one position's) before the test stops. */
const CHARGE_BATCH = 4096;
/** What an assertion costs beyond a visit (`\b` reads the code points on either side). */
const ASSERT_UNITS = 3;

const OP_CHAR = 0;
const OP_SPLIT = 1;
const OP_JMP = 2;
const OP_ASSERT = 3;
const OP_MATCH = 4;
const OPS: Readonly<Record<Instruction["op"], number>> = { char: OP_CHAR, split: OP_SPLIT, jmp: OP_JMP, assert: OP_ASSERT, match: OP_MATCH };

/** A character test: a table for ASCII, the set itself beyond. */
interface CharTest {
  readonly ascii: Uint8Array;
  readonly set: CharSet;
}

/** A program as the VM runs it: per instruction its op, its targets, its character test or assertion. */
export interface Program {
  readonly size: number;
  readonly op: Uint8Array;
  readonly x: Int32Array;
  readonly y: Int32Array;
  readonly tests: ReadonlyArray<CharTest | undefined>;
  readonly asserts: ReadonlyArray<Assertion | undefined>;
  /** Every match starts at position 0 (the pattern begins with `^`): no thread starts later. */
  readonly anchored: boolean;
  /** The arrays a test works in, made once. */
  readonly scratch: Scratch;
}

interface Scratch {
  /** Per instruction, the position (from `base`) it was last added at. */
  readonly seen: Float64Array;
  readonly stack: Int32Array;
  current: Int32Array;
  next: Int32Array;
  base: number;
}

function charTest(set: CharSet): CharTest {
  const ascii = new Uint8Array(128);
  for (let cp = 0; cp < 128; cp++) ascii[cp] = inSet(set, cp) ? 1 : 0;
  return { ascii, set };
}

/** The program of a pattern's tree, at most `limit` instructions (PatternError beyond). */
export function compileProgram(tree: Node, limit: number, source: string): Program {
  const emitter = new Emitter(limit, source);
  emitter.emit(tree);
  const list = [...emitter.program, { op: "match" } as const];
  const size = list.length;
  const program = { size, op: new Uint8Array(size), x: new Int32Array(size), y: new Int32Array(size), tests: [] as Array<CharTest | undefined>, asserts: [] as Array<Assertion | undefined> };
  list.forEach((ins, pc) => {
    program.op[pc] = OPS[ins.op];
    program.tests.push(ins.op === "char" ? charTest(ins.set) : undefined);
    program.asserts.push(ins.op === "assert" ? ins.what : undefined);
    if (ins.op === "split" || ins.op === "jmp") program.x[pc] = ins.x;
    if (ins.op === "split") program.y[pc] = ins.y;
  });
  const first = tree.kind === "seq" ? tree.items[0] : tree;
  const scratch: Scratch = { seen: new Float64Array(size).fill(-1), stack: new Int32Array(2 * size + 2), current: new Int32Array(size), next: new Int32Array(size), base: 0 };
  return { ...program, anchored: first?.kind === "assert" && first.what === "start", scratch };
}

function holds(what: Assertion, at: number, length: number, before: number | undefined, here: number | undefined): boolean {
  switch (what) {
    case "start":
      return at === 0;
    case "end":
      return at === length;
    case "word":
      return isWordChar(before) !== isWordChar(here);
    case "notWord":
      return isWordChar(before) === isWordChar(here);
  }
}

/**
 * Whether `program` matches anywhere in `text`. The threads at one position are a set of program
 * counters, each added at most once per position (`seen` holds the position it was last added
 * at); zero-width instructions are followed as threads are added. Positions are UTF-16 indexes,
 * stepped a code point at a time (lone surrogates as themselves, as RegExp with the `u` flag).
 */
export function runProgram(program: Program, text: string, budget: WorkBudget): boolean {
  const { op, x, y, tests, asserts, anchored, scratch } = program;
  // The program's own arrays, reused by every test (a test runs to its end before another starts).
  // `seen` marks positions from `base` on, so no test sees another's marks and none clears them.
  const { seen, stack } = scratch;
  let { current, next } = scratch;
  if (scratch.base > 2 ** 52 - text.length) {
    seen.fill(-1);
    scratch.base = 0;
  }
  const base = scratch.base;
  scratch.base += text.length + 2;
  let count = 0;
  let visits = TEST_UNITS;
  let before: number | undefined; // the code point before the position threads are added at
  let here = text.codePointAt(0); // the code point at it
  /** Adds the thread at `start` to `list` (from `length` on); its new length, or -1 on a match. */
  const add = (list: Int32Array, length: number, start: number, at: number): number => {
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const pc = stack[--top] as number;
      if (seen[pc] === base + at) continue;
      seen[pc] = base + at;
      visits++;
      switch (op[pc]) {
        case OP_CHAR:
          list[length++] = pc;
          break;
        case OP_SPLIT:
          stack[top++] = y[pc] as number;
          stack[top++] = x[pc] as number;
          break;
        case OP_JMP:
          stack[top++] = x[pc] as number;
          break;
        case OP_ASSERT:
          visits += ASSERT_UNITS;
          if (holds(asserts[pc] as Assertion, at, text.length, before, here)) stack[top++] = pc + 1;
          break;
        default:
          return -1; // OP_MATCH
      }
    }
    return length;
  };
  for (let at = 0; ; ) {
    // Unanchored: a new thread starts at every position (a `^` in the pattern ends all but the first).
    if (at === 0 || !anchored) {
      count = add(current, count, 0, at);
      if (count < 0) return true;
    }
    // Charged in batches (a call per position would cost as much as the step itself).
    visits += count + POSITION_UNITS;
    if (visits >= CHARGE_BATCH) {
      budget.charge(visits);
      visits = 0;
    }
    if (here === undefined || (count === 0 && anchored)) {
      budget.charge(visits);
      return false;
    }
    const cp = here;
    const nextAt = at + (cp > 0xffff ? 2 : 1);
    // What the assertions of the next position see on either side of it.
    before = cp;
    here = text.codePointAt(nextAt);
    let nextCount = 0;
    for (let i = 0; i < count; i++) {
      const pc = current[i] as number;
      const test = tests[pc] as CharTest;
      if (!(cp < 128 ? test.ascii[cp] === 1 : inSet(test.set, cp))) continue;
      nextCount = add(next, nextCount, pc + 1, nextAt);
      if (nextCount < 0) return true;
    }
    [current, next] = [next, current];
    count = nextCount;
    at = nextAt;
  }
}
