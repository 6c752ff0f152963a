// Wire validation: what every revision's generated validators (validators.ts, compiled from its
// schema at generate time) share, and what the endpoint applies them with. A generated check is a
// plain function of a value: undefined when the value is valid, else the first problem found,
// with the JSON pointer of its place (RFC 6901) and what was expected there. Nothing is allocated
// on the way to a valid answer; a problem is built once, on the way out.
//
// Every value checked is a peer's: a check reads own properties only (a key named `constructor`
// finds nothing inherited), a recursive schema is followed at most MAX_CHECK_DEPTH levels deep,
// and a value that cannot even be read (an in-process getter that throws) is a problem like any
// other, never an exception through the endpoint.

import { isObject } from "./json.js";
import { describeValue, InvalidResponseError, type RequestId } from "./protocol.js";
import { BudgetExceededError, DEFAULT_VALIDATION_WORK, WorkBudget, withBudget } from "./work-budget.js";

/** The first problem of an invalid value. */
export interface Issue {
  /** Where, as a JSON pointer into the value checked ("" is the value itself). */
  readonly pointer: string;
  /** What the schema expects there: "a string", "one of \"text\", \"image\"", "an object (required)". */
  readonly expected: string;
  /** What was found there, described without walking into it (describeValue). */
  readonly got: string;
}

/** A generated check: the value, and how deep the recursive checks above it have gone. */
export type Check = (value: unknown, depth: number) => Issue | undefined;

/** The check of a message's params, and whether the message must carry them. */
export interface ParamsCheck {
  readonly check: Check;
  readonly required: boolean;
}

/** A revision's validators (VALIDATORS of its validators.ts), by method. */
export interface WireValidators {
  /** Request method → its params. */
  readonly requests: { readonly [method: string]: ParamsCheck };
  /** Notification method → its params. */
  readonly notifications: { readonly [method: string]: ParamsCheck };
  /** Request method → its result (the union of the results its schema allows). */
  readonly results: { readonly [method: string]: Check };
  /** Input request method (multi round-trip requests) → the client's answer. */
  readonly inputs: { readonly [method: string]: Check };
}

/**
 * The facades' `validate` option: true (the default) checks everything the peer sends; false
 * checks nothing (a peer you trust); per kind, `params` (of the requests and notifications the
 * peer sends) and `results` (of the requests this side sends).
 */
export type ValidateOption = boolean | { readonly params?: boolean | undefined; readonly results?: boolean | undefined };

/** The validators an endpoint applies, as maps (own keys only). */
export interface WireChecks {
  readonly requests: ReadonlyMap<string, ParamsCheck> | undefined;
  readonly notifications: ReadonlyMap<string, ParamsCheck> | undefined;
  readonly results: ReadonlyMap<string, Check> | undefined;
}

/** How deep a recursive schema is followed into a value; deeper is a problem (a peer's value nested without end). */
export const MAX_CHECK_DEPTH = 128;

/** The checks the `validate` option turns on, checked where it is read. */
export function wireChecks(validators: WireValidators, option: unknown): WireChecks {
  const on = (flag: unknown, name: string): boolean => {
    if (flag === undefined) return true;
    if (typeof flag !== "boolean") throw new TypeError(`validate.${name} must be true or false, got ${describeValue(flag)}`);
    return flag;
  };
  let params = true;
  let results = true;
  if (option === false) params = results = false;
  else if (isObject(option)) {
    for (const key of Object.keys(option)) if (key !== "params" && key !== "results") throw new TypeError(`validate: unknown key ${describeValue(key)} (expected params, results)`);
    params = on(option["params"], "params");
    results = on(option["results"], "results");
  } else if (option !== undefined && option !== true) {
    throw new TypeError(`validate must be true, false or { params?, results? }, got ${describeValue(option)}`);
  }
  const table = <T>(record: { readonly [method: string]: T }): ReadonlyMap<string, T> => new Map(Object.keys(record).map((method) => [method, record[method]!]));
  return {
    requests: params ? table(validators.requests) : undefined,
    notifications: params ? table(validators.notifications) : undefined,
    results: results ? table(validators.results) : undefined,
  };
}

/**
 * Runs a check within a budget of work (core/work-budget.ts: the patterns it tests charge it);
 * a value that throws while it is read is a problem too, and so is one the budget did not
 * suffice to check (-32602 "validation budget exceeded" for a request).
 */
export function checkValue(check: Check, value: unknown): Issue | undefined {
  try {
    return withBudget(new WorkBudget(DEFAULT_VALIDATION_WORK), () => check(value, 0));
  } catch (error) {
    if (error instanceof BudgetExceededError) return { pointer: "", expected: `a value checked within ${DEFAULT_VALIDATION_WORK} units of work`, got: "more (validation budget exceeded)" };
    return { pointer: "", expected: "a JSON value", got: "a value that could not be read" };
  }
}

/** The problem `expected`, found in `value` where the check stands. */
export function fail(expected: string, value: unknown): Issue {
  return { pointer: "", expected, got: describeValue(value) };
}

/** A required property that is not there. */
export function missing(key: string, expected: string): Issue {
  return { pointer: `/${escape(key)}`, expected: `${expected} (required)`, got: "nothing" };
}

/** The problem of a member (a property or an item), seen from its container. */
export function at(key: string | number, issue: Issue): Issue {
  return { pointer: `/${typeof key === "number" ? key : escape(key)}${issue.pointer}`, expected: issue.expected, got: issue.got };
}

const escape = (key: string): string => (key.includes("~") || key.includes("/") ? key.replaceAll("~", "~0").replaceAll("/", "~1") : key);

/** The value of an own property, or undefined (nothing inherited: `constructor`, `__proto__`). */
export function own(object: { readonly [key: string]: unknown }, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** A recursive schema followed too deep. */
export function tooDeep(value: unknown): Issue {
  return fail(`a value nested at most ${MAX_CHECK_DEPTH} levels deep`, value);
}

/** How many levels into the value a pointer goes. */
const levels = (pointer: string): number => {
  let count = 0;
  for (let i = 0; i < pointer.length; i++) if (pointer.charCodeAt(i) === 47) count++;
  return count;
};

/**
 * How far a problem got into the value: its depth, and at the same depth a value that is there
 * but wrong over one that is missing (`{ action: "maybe" }` is an ElicitResult with a wrong
 * action, not a CreateMessageResult without content).
 */
const progress = (issue: Issue): number => 2 * levels(issue.pointer) + (issue.got === "nothing" ? 0 : 1);

/**
 * anyOf: undefined when one alternative holds. Otherwise the problem of the alternative that got
 * furthest into the value (the one the value most looks like; the first such alternative on a
 * tie); when none got past the value itself, `expected` (all the alternatives) is what was
 * expected there.
 */
export function anyOf(value: unknown, depth: number, checks: readonly Check[], expected: string): Issue | undefined {
  let best: Issue | undefined;
  let bestProgress = -1;
  for (const check of checks) {
    const issue = check(value, depth);
    if (issue === undefined) return undefined;
    const far = progress(issue);
    if (far > bestProgress) {
      best = issue;
      bestProgress = far;
    }
  }
  return best === undefined || best.pointer === "" ? fail(expected, value) : best;
}

/** oneOf: exactly one alternative holds. */
export function oneOf(value: unknown, depth: number, checks: readonly Check[], expected: string): Issue | undefined {
  let holding = 0;
  let first: Issue | undefined;
  for (const check of checks) {
    const issue = check(value, depth);
    if (issue === undefined) holding++;
    else first ??= issue;
  }
  if (holding === 1) return undefined;
  return holding === 0 && first !== undefined && first.pointer !== "" ? first : fail(`exactly one of ${expected} (${holding} hold)`, value);
}

/** JSON equality (const, enum, uniqueItems): numbers by value, objects by their own keys. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i]));
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((key) => Object.hasOwn(y, key) && equal(x[key], y[key]));
}

/** The length of a string in code points (Validation §6.3), counted only as far as `limit` + 1. */
export function codePoints(text: string, limit: number): number {
  if (text.length <= limit) return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  return count;
}

/** Whether the items of an array are pairwise distinct (uniqueItems). */
export function unique(items: readonly unknown[]): boolean {
  for (let i = 1; i < items.length; i++) for (let j = 0; j < i; j++) if (equal(items[i], items[j])) return false;
  return true;
}

/** A problem as one line: `/content/0/text: expected a string, got 5`. */
export function issueText(issue: Issue): string {
  return `${issue.pointer === "" ? "(the value itself)" : issue.pointer}: expected ${issue.expected}, got ${issue.got}`;
}

/**
 * The result of a request this side sent breaks its schema: the request rejects with this error
 * (never resolves with a value the types do not describe). `pointer` is into the result.
 */
export class InvalidResultError extends InvalidResponseError {
  override name = "InvalidResultError";
  readonly pointer: string;
  readonly expected: string;
  constructor(method: string, requestId: RequestId, issue: Issue) {
    super(method, requestId, `the result breaks its schema at ${issueText(issue)}`);
    this.pointer = issue.pointer;
    this.expected = issue.expected;
  }
}

/** A notification whose params break its schema: dropped (no handler sees it) and reported to onError. */
export class InvalidNotificationError extends Error {
  override name = "InvalidNotificationError";
  readonly method: string;
  readonly pointer: string;
  readonly expected: string;
  constructor(method: string, issue: Issue) {
    super(`${method} dropped: its params break its schema at ${issueText(issue)}`);
    this.method = method;
    this.pointer = issue.pointer;
    this.expected = issue.expected;
  }
}

/** The message of the -32602 answer to a request whose params break its schema. */
export function invalidParamsMessage(method: string, issue: Issue): string {
  return `Invalid params: ${method} params ${issueText(issue)}`;
}
