// One check for every numeric option of the runtime, run where the option is read (a constructor
// or a handler factory), so a bad value fails at once and by name instead of turning a bound off:
// `Number(process.env.X)` of an unset variable is NaN, and `NaN > limit` is false for every
// limit. Non-numbers, NaN, fractions where whole numbers are meant, values below the sane minimum
// or above the maximum are a RangeError that names the option and the value.

import { describeValue } from "./protocol.js";

/** What a numeric option accepts. */
export interface NumberRule {
  /** Smallest accepted value (inclusive). */
  readonly min: number;
  /** Largest accepted finite value (inclusive). Default: Number.MAX_SAFE_INTEGER. */
  readonly max?: number | undefined;
  /** Whole numbers only. Default true: counts, bytes and milliseconds are whole. */
  readonly integer?: boolean | undefined;
  /** `Infinity` is accepted and means "no bound". Default false. */
  readonly infinity?: boolean | undefined;
  /** `0` is accepted even below `min` and means "off" (a timer never armed). Default false. */
  readonly zeroIsOff?: boolean | undefined;
}

/** What `rule` accepts, in words, for the error message. */
function describeRule(rule: NumberRule): string {
  const kind = rule.integer === false ? "a number" : "an integer";
  const max = rule.max ?? Number.MAX_SAFE_INTEGER;
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${rule.min}` : `from ${rule.min} to ${max}`;
  const extras = [rule.zeroIsOff === true ? "0 (off)" : "", rule.infinity === true ? "Infinity (no bound)" : ""].filter((s) => s !== "");
  return `${kind} ${range}${extras.length === 0 ? "" : ` or ${extras.join(" or ")}`}`;
}

/**
 * `value` checked against `rule`; `fallback` when it is undefined (the option is not set). A
 * RangeError naming `name` and the value otherwise. The fallback is not checked: it is ours.
 */
export function numberOption(name: string, value: unknown, fallback: number, rule: NumberRule): number;
export function numberOption(name: string, value: unknown, fallback: undefined, rule: NumberRule): number | undefined;
export function numberOption(name: string, value: unknown, fallback: number | undefined, rule: NumberRule): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value === "number" && isAccepted(value, rule)) return value;
  throw new RangeError(`${name} must be ${describeRule(rule)}, got ${describeValue(value)}`);
}

function isAccepted(value: number, rule: NumberRule): boolean {
  if (value === Number.POSITIVE_INFINITY) return rule.infinity === true;
  if (!Number.isFinite(value)) return false; // NaN, -Infinity
  if (value === 0 && rule.zeroIsOff === true) return true;
  if (rule.integer !== false && !Number.isInteger(value)) return false;
  return value >= rule.min && value <= (rule.max ?? Number.MAX_SAFE_INTEGER);
}
