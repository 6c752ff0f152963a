// The syntax of the patterns features/pattern.ts matches: JSON Schema's `pattern` and
// `patternProperties` in the subset it recommends for interoperable patterns (JSON Schema Core
// 2020-12, §6.4 "Regular Expressions"): characters, `.`, classes `[...]` with ranges and
// negation, `\d \D \w \W \s \S \b \B`, the usual escapes, groups `( )` and `(?: )`, `|`,
// `* + ? {n} {n,} {n,m}` (lazy forms too: laziness does not change whether a string matches),
// `^ $`. Code points, as RegExp with the `u` flag. Lookaround and backreferences cannot run in
// linear time: such a pattern is refused (PatternError). Parsed once into a tree of nodes.

/** A pattern this matcher refuses: outside the supported syntax, or beyond a bound. */
export class PatternError extends Error {
  override name = "PatternError";
}

/** A set of code points: inclusive ranges, sorted or not, and whether the set is their complement. */
export interface CharSet {
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  readonly negated: boolean;
}

export type Node =
  | { readonly kind: "char"; readonly set: CharSet }
  | { readonly kind: "seq"; readonly items: readonly Node[] }
  | { readonly kind: "alt"; readonly options: readonly Node[] }
  | { readonly kind: "repeat"; readonly item: Node; readonly min: number; readonly max: number }
  | { readonly kind: "assert"; readonly what: Assertion };

export type Assertion = "start" | "end" | "word" | "notWord";

const DIGIT: ReadonlyArray<readonly [number, number]> = [[0x30, 0x39]];
const WORD: ReadonlyArray<readonly [number, number]> = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
/** WhiteSpace and LineTerminator of ECMA-262 (what `\s` matches). */
const SPACE: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
/** What `.` does not match: the line terminators. */
const LINE_TERMINATORS: ReadonlyArray<readonly [number, number]> = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];

/** The character-class escapes: `\d` and its complement `\D`, and so on. */
const CLASS_ESCAPES: Readonly<Record<string, CharSet>> = {
  d: { ranges: DIGIT, negated: false },
  D: { ranges: DIGIT, negated: true },
  w: { ranges: WORD, negated: false },
  W: { ranges: WORD, negated: true },
  s: { ranges: SPACE, negated: false },
  S: { ranges: SPACE, negated: true },
};

/** The single-character escapes other than the syntax characters themselves. */
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b, "0": 0 };

/** Characters an identity escape may name (with the `u` flag: the syntax characters and `/`, `-`). */
const SYNTAX = new Set(["^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/", "-"]);

export function inSet(set: CharSet, cp: number): boolean {
  let hit = false;
  for (const [lo, hi] of set.ranges) {
    if (cp >= lo && cp <= hi) {
      hit = true;
      break;
    }
  }
  return hit !== set.negated;
}

/** Whether a code point is a word character (`\w`); undefined (before the start, after the end) is not. */
export function isWordChar(cp: number | undefined): boolean {
  return cp !== undefined && inSet(CLASS_ESCAPES["w"] as CharSet, cp);
}

/** Recursive-descent parser of the supported syntax; nesting is bounded by the source length. */
class Parser {
  #pos = 0;
  readonly #src: readonly string[];
  readonly #source: string;

  constructor(source: string) {
    this.#source = source;
    this.#src = [...source];
  }

  parse(): Node {
    const node = this.#alternation(0);
    if (this.#pos < this.#src.length) throw this.#error(`unexpected ${JSON.stringify(this.#src[this.#pos])}`);
    return node;
  }

  #error(message: string): PatternError {
    return new PatternError(`pattern ${JSON.stringify(this.#source)}: ${message} at ${this.#pos}`);
  }

  #peek(): string | undefined {
    return this.#src[this.#pos];
  }

  #alternation(depth: number): Node {
    // Groups nest by recursion: bounded so that a pattern of many "(" cannot exhaust the stack.
    if (depth > 64) throw this.#error("groups nested deeper than 64");
    const options: Node[] = [this.#sequence(depth)];
    while (this.#peek() === "|") {
      this.#pos++;
      options.push(this.#sequence(depth));
    }
    return options.length === 1 ? (options[0] as Node) : { kind: "alt", options };
  }

  #sequence(depth: number): Node {
    const items: Node[] = [];
    for (let c = this.#peek(); c !== undefined && c !== "|" && c !== ")"; c = this.#peek()) {
      const atom = this.#atom(depth);
      items.push(this.#quantified(atom));
    }
    return items.length === 1 ? (items[0] as Node) : { kind: "seq", items };
  }

  #quantified(atom: Node): Node {
    const c = this.#peek();
    let min: number;
    let max: number;
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{" && this.#braceQuantifierAhead()) {
      [min, max] = this.#braces();
      this.#pos--; // #braces consumed through "}"; the shared step below moves past it
    } else return atom;
    this.#pos++;
    if (this.#peek() === "?") this.#pos++; // lazy: the same language
    if (atom.kind === "assert") throw this.#error("a quantified assertion");
    const next = this.#peek();
    if (next === "*" || next === "+" || next === "?" || (next === "{" && this.#braceQuantifierAhead())) throw this.#error("nothing to repeat");
    return { kind: "repeat", item: atom, min, max };
  }

  #braceQuantifierAhead(): boolean {
    return /^\{\d+(,\d*)?\}/.test(this.#src.slice(this.#pos, this.#pos + 24).join(""));
  }

  /** `{n}`, `{n,}` or `{n,m}` at the cursor (known to be there); the cursor ends after `}`. */
  #braces(): [number, number] {
    const rest = this.#src.slice(this.#pos, this.#pos + 24).join("");
    const m = /^\{(\d+)(,(\d*))?\}/.exec(rest) as RegExpExecArray;
    this.#pos += [...m[0]].length;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    if (max < min) throw this.#error("numbers out of order in {} quantifier");
    if (min > 1000 || (max !== Infinity && max > 1000)) throw this.#error("a {} quantifier above 1000");
    return [min, max];
  }

  #atom(depth: number): Node {
    const c = this.#src[this.#pos++] as string;
    switch (c) {
      case "^":
        return { kind: "assert", what: "start" };
      case "$":
        return { kind: "assert", what: "end" };
      case ".":
        return { kind: "char", set: { ranges: LINE_TERMINATORS, negated: true } };
      case "[":
        return { kind: "char", set: this.#class() };
      case "(": {
        if (this.#peek() === "?") {
          if (this.#src[this.#pos + 1] !== ":") throw this.#error("lookaround and named groups are not supported (they cannot run in linear time or need more than the recommended subset)");
          this.#pos += 2;
        }
        const inner = this.#alternation(depth + 1);
        if (this.#src[this.#pos++] !== ")") throw this.#error("missing )");
        return inner;
      }
      case ")":
        throw this.#error("unmatched )");
      case "*":
      case "+":
      case "?":
        throw this.#error("nothing to repeat");
      case "{":
        if (this.#braceQuantifierAhead()) throw this.#error("nothing to repeat");
        throw this.#error("a lone {: escape it");
      case "}":
      case "]":
        throw this.#error(`a lone ${c}: escape it`);
      case "\\":
        return this.#escape();
      default:
        return { kind: "char", set: { ranges: [[c.codePointAt(0) as number, c.codePointAt(0) as number]], negated: false } };
    }
  }

  /** An escape outside a class (the backslash consumed). */
  #escape(): Node {
    const c = this.#src[this.#pos];
    if (c === "b" || c === "B") {
      this.#pos++;
      return { kind: "assert", what: c === "b" ? "word" : "notWord" };
    }
    const set = this.#escapeSet(false);
    return { kind: "char", set };
  }

  /** The set of an escape (the backslash consumed), inside a class or not. */
  #escapeSet(inClass: boolean): CharSet {
    const c = this.#src[this.#pos++];
    if (c === undefined) throw this.#error("\\ at end of pattern");
    const cls = CLASS_ESCAPES[c];
    if (cls !== undefined) return cls;
    const single = (cp: number): CharSet => ({ ranges: [[cp, cp]], negated: false });
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) {
      if (c === "0" && /\d/.test(this.#peek() ?? "")) throw this.#error("octal escapes are not supported");
      return single(control);
    }
    if (c === "x") return single(this.#hex(2));
    if (c === "u") {
      if (this.#peek() === "{") {
        const end = this.#src.indexOf("}", this.#pos);
        const digits = end < 0 ? "" : this.#src.slice(this.#pos + 1, end).join("");
        if (!/^[0-9a-fA-F]{1,6}$/.test(digits) || Number.parseInt(digits, 16) > 0x10ffff) throw this.#error("bad \\u{...} escape");
        this.#pos = end + 1;
        return single(Number.parseInt(digits, 16));
      }
      return single(this.#hex(4));
    }
    if (c === "b" && inClass) return single(0x08);
    if (/[1-9]/.test(c)) throw this.#error("backreferences are not supported (they cannot run in linear time)");
    if (c === "k" || c === "p" || c === "P" || c === "c") throw this.#error(`\\${c} is not supported`);
    if (SYNTAX.has(c)) return single(c.codePointAt(0) as number);
    throw this.#error(`unknown escape \\${c}`);
  }

  #hex(count: number): number {
    const digits = this.#src.slice(this.#pos, this.#pos + count).join("");
    if (digits.length !== count || !/^[0-9a-fA-F]+$/.test(digits)) throw this.#error("bad hex escape");
    this.#pos += count;
    return Number.parseInt(digits, 16);
  }

  /** A class `[...]` (the `[` consumed). */
  #class(): CharSet {
    let negated = false;
    if (this.#peek() === "^") {
      negated = true;
      this.#pos++;
    }
    const ranges: Array<readonly [number, number]> = [];
    const sets: CharSet[] = [];
    for (;;) {
      const c = this.#src[this.#pos++];
      if (c === undefined) throw this.#error("missing ]");
      if (c === "]") break;
      const low = c === "\\" ? this.#escapeSet(true) : { ranges: [[c.codePointAt(0) as number, c.codePointAt(0) as number] as const], negated: false };
      const lowPoint = low.negated || low.ranges.length !== 1 || low.ranges[0]?.[0] !== low.ranges[0]?.[1] ? undefined : low.ranges[0]?.[0];
      if (this.#peek() === "-" && this.#src[this.#pos + 1] !== "]" && this.#src[this.#pos + 1] !== undefined) {
        this.#pos++;
        const d = this.#src[this.#pos++] as string;
        const high = d === "\\" ? this.#escapeSet(true) : { ranges: [[d.codePointAt(0) as number, d.codePointAt(0) as number] as const], negated: false };
        const highPoint = high.negated || high.ranges.length !== 1 || high.ranges[0]?.[0] !== high.ranges[0]?.[1] ? undefined : high.ranges[0]?.[0];
        if (lowPoint === undefined || highPoint === undefined) throw this.#error("a class escape in a range");
        if (highPoint < lowPoint) throw this.#error("range out of order in class");
        ranges.push([lowPoint, highPoint]);
        continue;
      }
      if (low.negated) sets.push(low);
      else ranges.push(...low.ranges);
    }
    if (sets.length === 0) return { ranges, negated };
    // A negated escape inside a class ([\D_]): the union of complements, written as ranges.
    const union: Array<readonly [number, number]> = [...ranges];
    for (const set of sets) union.push(...complement(set.ranges));
    return { ranges: union, negated };
  }
}

/** The tree of a pattern's source; PatternError when it is outside the supported syntax. */
export function parsePattern(source: string): Node {
  return new Parser(source).parse();
}

/** The complement of a set of ranges over the code points. */
export function complement(ranges: ReadonlyArray<readonly [number, number]>): Array<readonly [number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<readonly [number, number]> = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}
