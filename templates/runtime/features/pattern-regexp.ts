// Which patterns may run on RegExp (issue 41: the linear matcher took seconds on a 4 MiB string
// where RegExp took milliseconds). V8's RegExp backtracks, and more patterns than those with
// nested quantifiers, backreferences or lookaround make it slow; measured on Node 20:
// - unanchored, a quantifier is retried from every start position: `[a-z]+!` takes 16 s on
//   100 KiB of letters, `[^@]+@[^@]+\.[^@]+` 8 s;
// - a quantified group keeps backtracking state per iteration: `^(a|b)*$` and even `^(a)+$` on
//   4 MiB throw "Maximum call stack size exceeded" from inside RegExp, after half a second;
// - quantifiers that may take the same characters share them out in every way: `^a*a*b` is
//   polynomial (the flat form of `(a+)+`).
// So RegExp runs a pattern only when its backtracking is provably linear, and the linear
// matcher (pattern.ts) keeps every other:
// - anchored: `^` first, so one start position;
// - then single-character items only (a character, a class, `.`, an escape, a group of one
//   such), each quantified or not, and `$` only last: no alternation, no word boundary;
// - deterministic: the characters a variable quantifier (min < max) repeats are disjoint from
//   those of everything that may come right after it (up to the first item that must match), so
//   a character it gives back can be taken by nothing after it and each give-back fails within
//   steps bounded by the pattern: a test costs O(pattern × input).
// RegExp is then given a source written from those items (a class per item, `{min,max}`, no
// group), not the pattern's own, so it runs exactly what was checked.

import { complement, type CharSet, type Node } from "./pattern-syntax.js";

/** One single-character item of an anchored pattern, with its quantifier (1, 1 when it has none). */
interface Item {
  readonly set: CharSet;
  readonly min: number;
  readonly max: number;
}

/** The code points of a set as positive ranges. */
function rangesOf(set: CharSet): ReadonlyArray<readonly [number, number]> {
  return set.negated ? complement(set.ranges) : set.ranges;
}

function overlap(a: CharSet, b: CharSet): boolean {
  const right = rangesOf(b);
  return rangesOf(a).some(([lo, hi]) => right.some(([low, high]) => lo <= high && low <= hi));
}

/** `^` then single-character items, `$` only last (`end`); undefined for any other shape. */
function anchoredItems(root: Node): { readonly items: Item[]; readonly end: boolean } | undefined {
  const nodes = root.kind === "seq" ? root.items : [root];
  const first = nodes[0];
  if (first?.kind !== "assert" || first.what !== "start") return undefined;
  const items: Item[] = [];
  let end = false;
  for (let i = 1; i < nodes.length; i++) {
    const node = nodes[i] as Node;
    if (node.kind === "assert") {
      if (node.what !== "end" || i !== nodes.length - 1) return undefined;
      end = true;
      continue;
    }
    const unit = node.kind === "repeat" ? node.item : node;
    if (unit.kind !== "char") return undefined;
    items.push(node.kind === "repeat" ? { set: unit.set, min: node.min, max: node.max } : { set: unit.set, min: 1, max: 1 });
  }
  return { items, end };
}

/** How RegExp runs a pattern: the source it is given, and its variable quantifiers (each may give every character back once: the cost estimate's factor). */
export interface RegExpPlan {
  readonly source: string;
  readonly loops: number;
}

const codePoint = (cp: number): string => `\\u{${cp.toString(16)}}`;

/** An item as RegExp source (`u` flag): its set as a class, its quantifier as `{min,max}`. */
function itemSource(item: Item): string {
  const ranges = item.set.ranges.map(([lo, hi]) => (lo === hi ? codePoint(lo) : `${codePoint(lo)}-${codePoint(hi)}`)).join("");
  const quantifier = item.min === 1 && item.max === 1 ? "" : `{${item.min},${item.max === Infinity ? "" : item.max}}`;
  return `[${item.set.negated ? "^" : ""}${ranges}]${quantifier}`;
}

/** How RegExp (with the `u` flag) tests this pattern in linear time; undefined when the linear matcher must run it. */
export function regexpPlan(root: Node): RegExpPlan | undefined {
  const anchored = anchoredItems(root);
  if (anchored === undefined) return undefined;
  const { items, end } = anchored;
  let loops = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Item;
    if (item.min === item.max) continue;
    loops++;
    for (let j = i + 1; j < items.length; j++) {
      const next = items[j] as Item;
      if (overlap(item.set, next.set)) return undefined;
      if (next.min > 0) break;
    }
  }
  return { source: `^${items.map(itemSource).join("")}${end ? "$" : ""}`, loops };
}
