// The built-in JSON Schema validator of registrations (features/registry.ts): dependency-free,
// compiled once per schema into a tree of checks, covering the keywords tool schemas use
// (JSON Schema 2020-12 Validation, with draft-07's `definitions` and array `items` accepted).
// Every input is a peer's and every bound is explicit:
// - at compile time, a schema deeper than `maxDepth` or with more than `maxNodes` subschemas, a
//   `pattern` longer than `maxPatternLength` or outside the linear-time syntax (pattern.ts), a
//   `$ref` that is not local (`#`, `#/$defs/...`, `#/definitions/...`, JSON pointers) and a
//   keyword that asserts something this validator does not implement (UNSUPPORTED) are refused
//   with a SchemaError: ignoring an assertion would let through arguments the author's schema
//   forbids. Keywords it does not know are annotations (JSON Schema Core §4.3.1) and ignored;
//   `format` is an annotation by default in 2020-12 (Validation §7.2) and is ignored too;
// - at validation time, one call does at most `maxSteps` checks (a schema of `anyOf` over
//   recursive `$ref`s is exponential otherwise) and `maxWork` units of work (core/work-budget.ts:
//   pattern matching and string scans, so a 4 MiB string against a `pattern`, or 20
//   `patternProperties` over 2,000 long keys, cannot block the event loop), and descends at most
//   `maxDepth` levels into the value. Past the steps or the work the validation budget is
//   exceeded: the value is refused unchecked (`budgetExceeded`, -32602 "validation budget
//   exceeded" from the registry); past the depth it is invalid. Lengths are checked before a
//   `pattern`, so a string over `maxLength` never reaches the matcher.
// The first problem is reported, with the JSON pointer (RFC 6901) of its place in the value.

import { numberOption } from "../core/options.js";
import { describeValue, type JsonObject } from "../core/protocol.js";
import { codePoints } from "../core/validation.js";
import { BudgetExceededError, DEFAULT_VALIDATION_WORK, WorkBudget } from "../core/work-budget.js";
import { compilePattern, PatternError, type Pattern } from "./pattern.js";

/** A schema the validator refuses, at compile time (a registration fails with it). */
export class SchemaError extends Error {
  override name = "SchemaError";
}

/** The first problem of an invalid value: where (a JSON pointer into the value) and what. */
export interface ValidationIssue {
  readonly pointer: string;
  readonly message: string;
  /**
   * The validation budget ran out (maxSteps, maxWork): the value was refused, not shown invalid,
   * and the registry answers -32602 "validation budget exceeded" whatever the revision.
   */
  readonly budgetExceeded?: boolean | undefined;
}

/** The outcome of one validation: the value (a Standard Schema's output may differ from its input) or the first problem. */
export type ValidationResult = { readonly valid: true; readonly value: unknown } | { readonly valid: false; readonly issue: ValidationIssue };

/** A schema compiled once (Validator.compile): validates any number of values. */
export interface CompiledSchema {
  validate(value: unknown): ValidationResult | Promise<ValidationResult>;
}

/**
 * What registrations validate with: a JSON Schema (an object) compiled once per registration.
 * compile throws (any error) for a schema it refuses; the registration fails with it. The
 * built-in one is createJsonSchemaValidator(); the `ajv` add-on provides another.
 */
export interface Validator {
  compile(schema: JsonObject): CompiledSchema;
}

/** The bounds of the built-in validator (see docs/security.md). */
export interface JsonSchemaValidatorOptions {
  /** Deepest nesting of subschemas, and of the values validated (default 64). */
  readonly maxDepth?: number | undefined;
  /** Most subschemas in one schema (default 10000). */
  readonly maxNodes?: number | undefined;
  /** Longest `pattern` (UTF-16 code units, default 1000); its compiled program is bounded at 20 × this. */
  readonly maxPatternLength?: number | undefined;
  /** Most checks one validation may do (default 100000). */
  readonly maxSteps?: number | undefined;
  /**
   * Most units of work one validation may do (default DEFAULT_VALIDATION_WORK, 1 000 000: a few
   * milliseconds of pattern matching; core/work-budget.ts): pattern tests and string scans.
   */
  readonly maxWork?: number | undefined;
}

/** Assertion keywords this validator does not implement: a schema with one is refused. */
const UNSUPPORTED = new Set(["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef", "dependentSchemas", "dependencies"]);

type JsonType = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";
const TYPES = new Set<string>(["null", "boolean", "object", "array", "number", "integer", "string"]);

/** The JSON type of a value ("integer" only as a kind of "number"); null: not JSON. */
function typeOf(value: unknown): Exclude<JsonType, "integer"> | null {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return Number.isFinite(value) ? "number" : null;
    case "string":
      return "string";
    case "object":
      return "object";
    default:
      return null;
  }
}

function hasType(value: unknown, type: JsonType): boolean {
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  return typeOf(value) === type;
}

/** JSON equality (const, enum, uniqueItems): numbers by value, objects by their keys, bounded by the step budget. */
function equal(a: unknown, b: unknown, run: Run, depth: number): boolean {
  run.step(depth);
  if (a === b) return true;
  const ta = typeOf(a);
  if (ta !== typeOf(b) || (ta !== "array" && ta !== "object")) return false;
  if (ta === "array") {
    const x = a as unknown[];
    const y = b as unknown[];
    return x.length === y.length && x.every((item, i) => equal(item, y[i], run, depth + 1));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((key) => Object.hasOwn(y, key) && equal(x[key], y[key], run, depth + 1));
}

/** RFC 6901: `~` is `~0`, `/` is `~1`. */
function pointerOf(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** A bound crossed while validating: the whole validation stops, at the place it happened. */
class BoundExceeded extends Error {
  /** The validation budget (steps), not the value's depth. */
  readonly budget: boolean;
  constructor(message: string, budget: boolean) {
    super(message);
    this.budget = budget;
  }
}

/** The state of one validation: the step and work budgets, and the path of the value being checked. */
class Run {
  steps = 0;
  readonly path: Array<string | number> = [];
  readonly maxSteps: number;
  readonly maxDepth: number;
  readonly work: WorkBudget;
  constructor(maxSteps: number, maxDepth: number, maxWork: number) {
    this.maxSteps = maxSteps;
    this.maxDepth = maxDepth;
    this.work = new WorkBudget(maxWork);
  }

  step(depth: number): void {
    if (++this.steps > this.maxSteps) throw new BoundExceeded(`validation took more than ${this.maxSteps} steps`, true);
    if (depth > this.maxDepth) throw new BoundExceeded(`nested deeper than ${this.maxDepth}`, false);
  }
}

/** A compiled check: the message of the first problem of `value`, or null; `run.path` then points at it. */
type Check = (value: unknown, run: Run, depth: number) => string | null;

/** Checks `value[key]` with the path extended while it runs (left extended when it fails, for the pointer). */
function at(check: Check, value: unknown, key: string | number, run: Run, depth: number): string | null {
  run.path.push(key);
  const problem = check(value, run, depth + 1);
  if (problem === null) run.path.pop();
  return problem;
}

/** A check run on a path it must not extend (anyOf, not, if): the path is restored whatever it finds. */
function probe(check: Check, value: unknown, run: Run, depth: number): string | null {
  const length = run.path.length;
  const problem = check(value, run, depth);
  run.path.length = length;
  return problem;
}

interface CompileContext {
  readonly root: JsonObject;
  readonly limits: { readonly maxDepth: number; readonly maxNodes: number; readonly maxPatternLength: number };
  nodes: number;
  /** Compiled `$ref` targets by pointer; a cycle finds its entry while it is being compiled. */
  readonly refs: Map<string, { check: Check | undefined }>;
  readonly patterns: Map<string, Pattern>;
}

function fail(where: string, message: string): never {
  throw new SchemaError(`schema${where === "" ? "" : ` at ${where}`}: ${message}`);
}

function nonNegativeInteger(value: unknown, where: string, keyword: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) fail(where, `${keyword} must be a non-negative integer, got ${describeValue(value)}`);
  return value;
}

function finiteNumber(value: unknown, where: string, keyword: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) fail(where, `${keyword} must be a number, got ${describeValue(value)}`);
  return value;
}

function schemaList(value: unknown, where: string, keyword: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) fail(where, `${keyword} must be a non-empty array of schemas`);
  return value;
}

function patternOf(ctx: CompileContext, source: unknown, where: string): Pattern {
  if (typeof source !== "string") fail(where, `pattern must be a string, got ${describeValue(source)}`);
  const known = ctx.patterns.get(source);
  if (known !== undefined) return known;
  try {
    const pattern = compilePattern(source, { maxLength: ctx.limits.maxPatternLength, maxProgram: ctx.limits.maxPatternLength * 20 });
    ctx.patterns.set(source, pattern);
    return pattern;
  } catch (error) {
    if (error instanceof PatternError) fail(where, error.message);
    throw error;
  }
}

/** Resolves a local `$ref` (a JSON pointer into the root) to the schema it names. */
function resolveRef(ctx: CompileContext, ref: string, where: string): unknown {
  if (ref !== "#" && !ref.startsWith("#/")) fail(where, `$ref ${JSON.stringify(ref)} is not local (only "#" and "#/..." JSON pointers are resolved)`);
  let target: unknown = ctx.root;
  for (const raw of ref.slice(2).split("/").filter((_, i, parts) => !(parts.length === 1 && parts[0] === ""))) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (target === null || typeof target !== "object" || !Object.hasOwn(target, key)) fail(where, `$ref ${JSON.stringify(ref)} names nothing in the schema`);
    target = (target as Record<string, unknown>)[key];
  }
  return target;
}

/** Compiles one schema (an object or a boolean) at `where` (a pointer into the schema, for messages). */
function compileNode(ctx: CompileContext, schema: unknown, where: string, depth: number): Check {
  if (++ctx.nodes > ctx.limits.maxNodes) fail(where, `more than ${ctx.limits.maxNodes} subschemas`);
  if (depth > ctx.limits.maxDepth) fail(where, `nested deeper than ${ctx.limits.maxDepth}`);
  if (schema === true) return () => null;
  if (schema === false) return () => "no value is allowed here";
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) fail(where, `a schema must be an object or a boolean, got ${describeValue(schema)}`);
  const s = schema as JsonObject;
  for (const keyword of Object.keys(s)) if (UNSUPPORTED.has(keyword)) fail(where, `${keyword} is not supported by the built-in validator (use the ajv add-on)`);
  const checks: Check[] = [];
  const sub = (value: unknown, path: string): Check => compileNode(ctx, value, `${where}/${path}`, depth + 1);

  if (s["$ref"] !== undefined) {
    const ref = s["$ref"];
    if (typeof ref !== "string") fail(where, "$ref must be a string");
    let entry = ctx.refs.get(ref);
    if (entry === undefined) {
      entry = { check: undefined };
      ctx.refs.set(ref, entry);
      entry.check = compileNode(ctx, resolveRef(ctx, ref, where), ref.slice(1), depth + 1);
    }
    const target = entry;
    // A recursive schema's check is filled in once its compilation ends; every call then finds it.
    checks.push((value, run, d) => (target.check as Check)(value, run, d + 1));
  }

  if (s["type"] !== undefined) {
    const raw = s["type"];
    const types = (Array.isArray(raw) ? raw : [raw]) as unknown[];
    if (types.length === 0 || !types.every((t): t is JsonType => typeof t === "string" && TYPES.has(t))) fail(where, `type must be a JSON type or a list of them, got ${describeValue(raw)}`);
    const list = types as JsonType[];
    const wanted = list.join(" or ");
    checks.push((value) => (list.some((t) => hasType(value, t)) ? null : `must be ${wanted}, got ${typeOf(value) ?? describeValue(value)}`));
  }
  if (Object.hasOwn(s, "const")) {
    const expected = s["const"];
    checks.push((value, run, d) => (equal(value, expected, run, d) ? null : `must be ${JSON.stringify(expected)}`));
  }
  if (s["enum"] !== undefined) {
    const options = s["enum"];
    if (!Array.isArray(options)) fail(where, "enum must be an array");
    checks.push((value, run, d) => (options.some((o) => equal(value, o, run, d)) ? null : `must be one of ${JSON.stringify(options).slice(0, 200)}`));
  }

  // Numbers (Validation §6.2).
  const bounds: Array<[string, (v: number, b: number) => boolean, string]> = [
    ["minimum", (v, b) => v >= b, "≥"],
    ["maximum", (v, b) => v <= b, "≤"],
    ["exclusiveMinimum", (v, b) => v > b, ">"],
    ["exclusiveMaximum", (v, b) => v < b, "<"],
  ];
  for (const [keyword, holds, sign] of bounds) {
    if (s[keyword] === undefined) continue;
    const bound = finiteNumber(s[keyword], where, keyword);
    checks.push((value) => (typeof value !== "number" || holds(value, bound) ? null : `must be ${sign} ${bound}`));
  }
  if (s["multipleOf"] !== undefined) {
    const factor = finiteNumber(s["multipleOf"], where, "multipleOf");
    if (factor <= 0) fail(where, "multipleOf must be > 0");
    checks.push((value) => {
      if (typeof value !== "number") return null;
      const q = value / factor;
      return Number.isInteger(q) || Math.abs(q - Math.round(q)) < 1e-9 ? null : `must be a multiple of ${factor}`;
    });
  }

  // Strings (§6.3): lengths in code points.
  const minLength = s["minLength"] === undefined ? undefined : nonNegativeInteger(s["minLength"], where, "minLength");
  const maxLength = s["maxLength"] === undefined ? undefined : nonNegativeInteger(s["maxLength"], where, "maxLength");
  if (minLength !== undefined || maxLength !== undefined) {
    checks.push((value, run) => {
      if (typeof value !== "string") return null;
      // Cheap bounds first: a string has at least length/2 and at most length code points; the
      // code points are counted only between those, and only as far as the bound (charged).
      if (minLength !== undefined && value.length < minLength) return `must have at least ${minLength} characters`;
      if (maxLength !== undefined && value.length / 2 > maxLength) return `must have at most ${maxLength} characters`;
      if (minLength !== undefined && value.length < 2 * minLength) {
        run.work.charge(Math.ceil(minLength / 2));
        if (codePoints(value, minLength) < minLength) return `must have at least ${minLength} characters`;
      }
      if (maxLength !== undefined && value.length > maxLength) {
        run.work.charge(Math.ceil(maxLength / 2));
        if (codePoints(value, maxLength) > maxLength) return `must have at most ${maxLength} characters`;
      }
      return null;
    });
  }
  if (s["pattern"] !== undefined) {
    const pattern = patternOf(ctx, s["pattern"], where);
    checks.push((value, run, d) => {
      if (typeof value !== "string") return null;
      run.step(d);
      return pattern.test(value, run.work) ? null : `must match the pattern ${JSON.stringify(pattern.source)}`;
    });
  }

  // Arrays (§6.4, Core §10.3.1).
  const minItems = s["minItems"] === undefined ? undefined : nonNegativeInteger(s["minItems"], where, "minItems");
  const maxItems = s["maxItems"] === undefined ? undefined : nonNegativeInteger(s["maxItems"], where, "maxItems");
  if (minItems !== undefined || maxItems !== undefined) {
    checks.push((value) => {
      if (!Array.isArray(value)) return null;
      if (minItems !== undefined && value.length < minItems) return `must have at least ${minItems} items`;
      if (maxItems !== undefined && value.length > maxItems) return `must have at most ${maxItems} items`;
      return null;
    });
  }
  // `prefixItems` (2020-12), or `items` as an array (draft-07); then `items` (or
  // `additionalItems` in draft-07) for the rest.
  const itemsArray = Array.isArray(s["items"]);
  const prefixSource = s["prefixItems"] !== undefined ? s["prefixItems"] : itemsArray ? s["items"] : undefined;
  const prefix = prefixSource === undefined ? [] : schemaList(prefixSource, where, "prefixItems").map((item, i) => sub(item, `${s["prefixItems"] !== undefined ? "prefixItems" : "items"}/${i}`));
  const restSource = itemsArray ? s["additionalItems"] : s["items"];
  const rest = restSource === undefined ? undefined : sub(restSource, itemsArray ? "additionalItems" : "items");
  if (prefix.length > 0 || rest !== undefined) {
    checks.push((value, run, d) => {
      if (!Array.isArray(value)) return null;
      for (let i = 0; i < value.length; i++) {
        const check = i < prefix.length ? prefix[i] : rest;
        if (check === undefined) break;
        const problem = at(check, value[i], i, run, d);
        if (problem !== null) return problem;
      }
      return null;
    });
  }
  if (s["contains"] !== undefined) {
    const contains = sub(s["contains"], "contains");
    const min = s["minContains"] === undefined ? 1 : nonNegativeInteger(s["minContains"], where, "minContains");
    const max = s["maxContains"] === undefined ? Infinity : nonNegativeInteger(s["maxContains"], where, "maxContains");
    checks.push((value, run, d) => {
      if (!Array.isArray(value)) return null;
      let count = 0;
      for (const item of value) if (probe(contains, item, run, d + 1) === null) count++;
      if (count < min) return `must contain at least ${min} matching item${min === 1 ? "" : "s"}`;
      return count > max ? `must contain at most ${max} matching items` : null;
    });
  }
  if (s["uniqueItems"] === true) {
    checks.push((value, run, d) => {
      if (!Array.isArray(value)) return null;
      for (let i = 0; i < value.length; i++) {
        for (let j = 0; j < i; j++) if (equal(value[i], value[j], run, d)) return `items ${j} and ${i} are equal`;
      }
      return null;
    });
  }

  // Objects (§6.5, Core §10.3.2).
  if (s["required"] !== undefined) {
    const required = s["required"];
    if (!Array.isArray(required) || !required.every((k) => typeof k === "string")) fail(where, "required must be an array of strings");
    checks.push((value) => {
      if (typeOf(value) !== "object") return null;
      const missing = (required as string[]).find((key) => !Object.hasOwn(value as object, key));
      return missing === undefined ? null : `must have the property ${JSON.stringify(missing)}`;
    });
  }
  const minProperties = s["minProperties"] === undefined ? undefined : nonNegativeInteger(s["minProperties"], where, "minProperties");
  const maxProperties = s["maxProperties"] === undefined ? undefined : nonNegativeInteger(s["maxProperties"], where, "maxProperties");
  if (minProperties !== undefined || maxProperties !== undefined) {
    checks.push((value) => {
      if (typeOf(value) !== "object") return null;
      const count = Object.keys(value as object).length;
      if (minProperties !== undefined && count < minProperties) return `must have at least ${minProperties} properties`;
      if (maxProperties !== undefined && count > maxProperties) return `must have at most ${maxProperties} properties`;
      return null;
    });
  }
  if (s["dependentRequired"] !== undefined) {
    const table = s["dependentRequired"];
    if (typeOf(table) !== "object") fail(where, "dependentRequired must be an object");
    const entries = Object.entries(table as JsonObject).map(([key, list]): [string, string[]] => {
      if (!Array.isArray(list) || !list.every((k) => typeof k === "string")) fail(where, `dependentRequired/${key} must be an array of strings`);
      return [key, list as string[]];
    });
    checks.push((value) => {
      if (typeOf(value) !== "object") return null;
      for (const [key, needs] of entries) {
        if (!Object.hasOwn(value as object, key)) continue;
        const missing = needs.find((k) => !Object.hasOwn(value as object, k));
        if (missing !== undefined) return `must have the property ${JSON.stringify(missing)} when it has ${JSON.stringify(key)}`;
      }
      return null;
    });
  }
  const propertiesSource = s["properties"];
  if (propertiesSource !== undefined && typeOf(propertiesSource) !== "object") fail(where, "properties must be an object");
  const properties = new Map(Object.entries((propertiesSource ?? {}) as JsonObject).map(([key, value]) => [key, sub(value, `properties/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`)]));
  const patternSource = s["patternProperties"];
  if (patternSource !== undefined && typeOf(patternSource) !== "object") fail(where, "patternProperties must be an object");
  const patternProperties = Object.entries((patternSource ?? {}) as JsonObject).map(([source, value]): [Pattern, Check] => [patternOf(ctx, source, `${where}/patternProperties`), sub(value, `patternProperties/${source}`)]);
  const additional = s["additionalProperties"] === undefined ? undefined : sub(s["additionalProperties"], "additionalProperties");
  const propertyNames = s["propertyNames"] === undefined ? undefined : sub(s["propertyNames"], "propertyNames");
  if (properties.size > 0 || patternProperties.length > 0 || additional !== undefined || propertyNames !== undefined) {
    checks.push((value, run, d) => {
      if (typeOf(value) !== "object") return null;
      const object = value as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        run.step(d);
        if (propertyNames !== undefined) {
          const problem = probe(propertyNames, key, run, d + 1);
          if (problem !== null) {
            run.path.push(key);
            return `the property name ${problem}`;
          }
        }
        let matched = false;
        const own = properties.get(key);
        if (own !== undefined) {
          matched = true;
          const problem = at(own, object[key], key, run, d);
          if (problem !== null) return problem;
        }
        for (const [pattern, check] of patternProperties) {
          run.step(d);
          if (!pattern.test(key, run.work)) continue;
          matched = true;
          const problem = at(check, object[key], key, run, d);
          if (problem !== null) return problem;
        }
        if (!matched && additional !== undefined) {
          const problem = at(additional, object[key], key, run, d);
          if (problem !== null) return s["additionalProperties"] === false ? "is not an allowed property" : problem;
        }
      }
      return null;
    });
  }

  // Applicators (Core §10.2).
  if (s["allOf"] !== undefined) {
    const all = schemaList(s["allOf"], where, "allOf").map((item, i) => sub(item, `allOf/${i}`));
    checks.push((value, run, d) => {
      for (const check of all) {
        const problem = check(value, run, d + 1);
        if (problem !== null) return problem;
      }
      return null;
    });
  }
  if (s["anyOf"] !== undefined) {
    const any = schemaList(s["anyOf"], where, "anyOf").map((item, i) => sub(item, `anyOf/${i}`));
    checks.push((value, run, d) => {
      let first: string | null = null;
      for (const check of any) {
        const problem = probe(check, value, run, d + 1);
        if (problem === null) return null;
        first ??= problem;
      }
      return `must match a schema of anyOf (the first: ${first})`;
    });
  }
  if (s["oneOf"] !== undefined) {
    const one = schemaList(s["oneOf"], where, "oneOf").map((item, i) => sub(item, `oneOf/${i}`));
    checks.push((value, run, d) => {
      let count = 0;
      for (const check of one) if (probe(check, value, run, d + 1) === null) count++;
      return count === 1 ? null : `must match exactly one schema of oneOf, matches ${count}`;
    });
  }
  if (s["not"] !== undefined) {
    const not = sub(s["not"], "not");
    checks.push((value, run, d) => (probe(not, value, run, d + 1) === null ? "must not match the schema of not" : null));
  }
  if (s["if"] !== undefined && (s["then"] !== undefined || s["else"] !== undefined)) {
    const condition = sub(s["if"], "if");
    const then = s["then"] === undefined ? undefined : sub(s["then"], "then");
    const otherwise = s["else"] === undefined ? undefined : sub(s["else"], "else");
    checks.push((value, run, d) => {
      const branch = probe(condition, value, run, d + 1) === null ? then : otherwise;
      return branch === undefined ? null : branch(value, run, d + 1);
    });
  }

  return (value, run, d) => {
    run.step(d);
    for (const check of checks) {
      const problem = check(value, run, d);
      if (problem !== null) return problem;
    }
    return null;
  };
}

/**
 * The built-in validator, with its bounds (each checked here, where it is read): compile() refuses
 * what it cannot check in bounded time (SchemaError); validate() reports the first problem.
 */
export function createJsonSchemaValidator(options: JsonSchemaValidatorOptions = {}): Validator {
  const limits = {
    maxDepth: numberOption("maxDepth", options.maxDepth, 64, { min: 1, max: 1000 }),
    maxNodes: numberOption("maxNodes", options.maxNodes, 10_000, { min: 1 }),
    maxPatternLength: numberOption("maxPatternLength", options.maxPatternLength, 1000, { min: 1, max: 100_000 }),
  };
  const maxSteps = numberOption("maxSteps", options.maxSteps, 100_000, { min: 1 });
  const maxWork = numberOption("maxWork", options.maxWork, DEFAULT_VALIDATION_WORK, { min: 1000 });
  return {
    compile(schema) {
      const ctx: CompileContext = { root: schema, limits, nodes: 0, refs: new Map(), patterns: new Map() };
      const check = compileNode(ctx, schema, "", 0);
      return {
        validate(value) {
          const run = new Run(maxSteps, limits.maxDepth, maxWork);
          let message: string | null;
          let budgetExceeded = false;
          try {
            message = check(value, run, 0);
          } catch (error) {
            if (error instanceof BudgetExceededError) message = `more than ${maxWork} units of work (maxWork)`;
            else if (error instanceof BoundExceeded) message = error.message;
            else throw error;
            budgetExceeded = error instanceof BudgetExceededError || (error as BoundExceeded).budget;
          }
          if (message === null) return { valid: true, value };
          const issue = { pointer: pointerOf(run.path), message };
          return { valid: false, issue: budgetExceeded ? { ...issue, budgetExceeded } : issue };
        },
      };
    },
  };
}

/** The validator registrations use unless told otherwise: the built-in one with its default bounds. */
export const defaultValidator: Validator = createJsonSchemaValidator();

export type { FromSchema } from "./json-schema-types.js";
