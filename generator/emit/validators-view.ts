/**
 * The view of templates/validators.ts.hbs: the validation model (model/validation.ts) as
 * TypeScript functions, one per named check, plain code that tests a value directly (typeof,
 * property reads, loops), so that validating a message interprets no schema. Pure.
 *
 * Each function is `(v: unknown, d: number) => Issue | undefined` (core/validation.ts): it returns
 * at the first problem, wrapped in the path that led to it (`at("content", at(i0, e))`), so a
 * valid value allocates nothing. Checks nested in a definition are written inline; alternatives
 * (anyOf, oneOf), `not` and `if` become functions of their own, named after their place.
 */
import type { Alternatives, Check, JsonType, JsonValue, NodeCheck, ValidationModel } from "../model/validation.js";

/** The runtime helpers (core/validation.ts) a file may import. */
type Helper = "anyOf" | "at" | "codePoints" | "equal" | "fail" | "missing" | "oneOf" | "own" | "tooDeep" | "unique" | "MAX_CHECK_DEPTH";

/** Property names inherited from Object.prototype: read with own(), so that they find nothing inherited. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

const TYPE_TEST: Readonly<Record<JsonType, (x: string) => string>> = {
  null: (x) => `${x} === null`,
  boolean: (x) => `typeof ${x} === "boolean"`,
  object: (x) => `typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x})`,
  array: (x) => `Array.isArray(${x})`,
  number: (x) => `typeof ${x} === "number" && Number.isFinite(${x})`,
  integer: (x) => `typeof ${x} === "number" && Number.isInteger(${x})`,
  string: (x) => `typeof ${x} === "string"`,
};

const TYPE_NAME: Readonly<Record<JsonType, string>> = {
  null: "null",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  number: "a number",
  integer: "an integer",
  string: "a string",
};

const article = (name: string): string => (/^[AEIOU]/i.test(name) ? `an ${name}` : `a ${name}`);
const literal = (value: JsonValue): string => JSON.stringify(value);
/** A description for an `expected` text, as a string literal of the generated code. */
const text = (description: string): string => JSON.stringify(description);

/** What a check expects, in words (the `expected` of its problems). */
export function describeCheck(check: Check): string {
  switch (check.kind) {
    case "any":
      return "any value";
    case "never":
      return "no value";
    case "ref":
      return article(check.name);
    case "node":
      return describeNode(check);
  }
}

function describeNode(node: NodeCheck): string {
  if (node.const !== undefined) return literal(node.const.value);
  if (node.enum !== undefined) return `one of ${node.enum.map(literal).join(", ")}`;
  if (node.types !== null) return node.types.map((t) => TYPE_NAME[t]).join(" or ");
  if (node.anyOf !== undefined) return describeAlternatives(node.anyOf.checks);
  if (node.allOf.length === 1) return describeCheck(node.allOf[0]!);
  return "a valid value";
}

function describeAlternatives(checks: readonly Check[]): string {
  return [...new Set(checks.map(describeCheck))].join(" or ");
}

/** The function name of a named check (prefixed, so that no definition name meets a helper's). */
export const checkName = (name: string): string => `check${name}`;

/** A name for a generated function from a method (`tools/call` → `ToolsCall`). */
const pascal = (method: string): string =>
  method
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

interface Rendered {
  /** The body of validators.ts: its functions and constants. */
  readonly body: string;
  /** The entries of VALIDATORS, one line each. */
  readonly requests: readonly string[];
  readonly notifications: readonly string[];
  readonly results: readonly string[];
  readonly inputs: readonly string[];
  /** The runtime helpers the body uses (imported by name). */
  readonly helpers: readonly string[];
  /** The body compiles `pattern`s (imports compilePattern). */
  readonly patterns: boolean;
}

/** Renders a revision's validators. Pure. */
export function validatorsView(model: ValidationModel): Rendered {
  // Named checks are written when first called: only those the messages reach.
  const emitter = new Emitter(new Map(model.named.map((n) => [n.name, n])));
  const entry = (method: string, fn: string) => `${JSON.stringify(method)}: ${fn}`;
  const paramsEntry = (kind: string) => (e: { method: string; check: Check; required: boolean }) =>
    `${entry(e.method, `{ check: ${emitter.function(e.check, `${pascal(e.method)}${kind}Params`, `the params of ${e.method}`)}, required: ${e.required} }`)}`;
  const requests = model.requests.map(paramsEntry("Request"));
  const notifications = model.notifications.map(paramsEntry("Notification"));
  const results = model.results.map((e) => entry(e.method, emitter.function(e.check, `${pascal(e.method)}Result`, `the result of ${e.method}`)));
  const inputs = model.inputs.map((e) => entry(e.method, emitter.function(e.check, `${pascal(e.method)}Input`, `the answer to ${e.method}`)));
  return { body: emitter.body(), requests, notifications, results, inputs, helpers: [...emitter.helpers].sort(), patterns: emitter.patterns.size > 0 };
}

/** A function's local names, counted so that nested blocks never shadow one another. */
class Locals {
  #next = 0;
  name(prefix: string): string {
    return `${prefix}${this.#next++}`;
  }
}

class Emitter {
  readonly helpers = new Set<Helper>();
  readonly patterns = new Map<string, string>();
  readonly #named: ReadonlyMap<string, { readonly check: Check; readonly pointer: string; readonly recursive: boolean }>;
  readonly #functions: string[] = [];
  readonly #constants: string[] = [];
  readonly #names = new Set<string>();
  /** Inline checks already written as functions (the same object, the same function). */
  readonly #hoisted = new Map<Check, string>();
  #constCount = 0;

  constructor(named: ReadonlyMap<string, { readonly check: Check; readonly pointer: string; readonly recursive: boolean }>) {
    this.#named = named;
  }

  body(): string {
    return [...this.#constants, ...this.#functions].join("\n\n");
  }

  #use(helper: Helper): string {
    this.helpers.add(helper);
    return helper;
  }

  #unique(base: string): string {
    let name = base;
    for (let i = 2; this.#names.has(name); i++) name = `${base}${i}`;
    this.#names.add(name);
    return name;
  }

  #constant(value: string, comment?: string): string {
    const name = `C${this.#constCount++}`;
    this.#constants.push(`${comment === undefined ? "" : `/** ${comment} */\n`}const ${name} = ${value};`);
    return name;
  }

  /** The function of a named check (a definition, or another `$ref` target), written on first use. */
  #ref(name: string): string {
    const fn = checkName(name);
    if (this.#names.has(fn)) return fn;
    this.#names.add(fn);
    const named = this.#named.get(name);
    if (named === undefined) throw new Error(`validators: no named check ${name}`);
    this.#write(fn, named.check, `\`#${named.pointer}\``, named.recursive);
    return fn;
  }

  /** The function that checks `check`: a named check's own, or a new one named `hint`. */
  function(check: Check, hint: string, doc: string): string {
    if (check.kind === "ref") return this.#ref(check.name);
    const known = this.#hoisted.get(check);
    if (known !== undefined) return known;
    const fn = this.#unique(`check${hint}`);
    this.#hoisted.set(check, fn);
    this.#write(fn, check, doc, false);
    return fn;
  }

  #write(fn: string, check: Check, doc: string, recursive: boolean): void {
    const lines: string[] = [];
    // A recursive schema is followed so deep at most: a peer's value nested without end is refused, not a stack overflow.
    if (recursive) lines.push(`if (d > ${this.#use("MAX_CHECK_DEPTH")}) return ${this.#use("tooDeep")}(v);`);
    lines.push(...this.#statements(check, "v", [], new Locals(), fn));
    // A body that ends in one call returns that call's answer.
    const call = lines.length >= 2 ? /^const (e\d+) = (.+);$/.exec(lines.at(-2)!) : null;
    if (call !== null && lines.at(-1) === `if (${call[1]} !== undefined) return ${call[1]};`) lines.splice(-2, 2, `return ${call[2]};`);
    else lines.push("return undefined;");
    // The value and the depth, where read (a check of anything reads neither).
    const code = lines.map((line) => line.replace(/"(?:[^"\\]|\\.)*"/g, ""));
    const uses = (name: string) => code.some((line) => new RegExp(`\\b${name}\\b`).test(line));
    this.#functions.push(
      [`/** Checks ${doc}. */`, `function ${fn}(${uses("v") ? "v" : "_v"}: unknown, ${uses("d") ? "d" : "_d"}: number): Issue | undefined {`, ...lines.map((l) => `  ${l}`), "}"].join("\n"),
    );
  }

  /** `issue` wrapped in the path that led to it (outermost first). */
  #wrap(path: readonly string[], issue: string): string {
    if (path.length === 0) return issue;
    const at = this.#use("at");
    return path.reduceRight((inner, key) => `${at}(${key}, ${inner})`, issue);
  }

  #fail(path: readonly string[], expected: string, value: string): string {
    return `return ${this.#wrap(path, `${this.#use("fail")}(${text(expected)}, ${value})`)};`;
  }

  /** Statements that return the first problem of `x` (a local name) under `check`, at `path`. */
  #statements(check: Check, x: string, path: readonly string[], locals: Locals, owner: string): string[] {
    switch (check.kind) {
      case "any":
        return [];
      case "never":
        return [this.#fail(path, "no value here", x)];
      case "ref":
        return this.#call(this.#ref(check.name), x, path, locals, true);
      case "node":
        return this.#node(check, x, path, locals, owner);
    }
  }

  /** A call of another check function; `deeper`: a named check, called one level deeper. */
  #call(fn: string, x: string, path: readonly string[], locals: Locals, deeper: boolean): string[] {
    const e = locals.name("e");
    return [`const ${e} = ${fn}(${x}, ${deeper ? "d + 1" : "d"});`, `if (${e} !== undefined) return ${this.#wrap(path, e)};`];
  }

  #node(node: NodeCheck, x: string, path: readonly string[], locals: Locals, owner: string): string[] {
    const out: string[] = [];
    const only = node.types !== null && node.types.length === 1 ? node.types[0]! : null;
    if (node.types !== null) {
      const test = node.types.map((t) => TYPE_TEST[t](x)).join(" || ");
      out.push(`if (!(${test})) ${this.#fail(path, node.types.map((t) => TYPE_NAME[t]).join(" or "), x)}`);
    }
    if (node.const !== undefined) {
      const value = node.const.value;
      if (value === null || typeof value !== "object") out.push(`if (${x} !== ${literal(value)}) ${this.#fail(path, literal(value), x)}`);
      else out.push(`if (!${this.#use("equal")}(${x}, ${this.#constant(literal(value))})) ${this.#fail(path, literal(value), x)}`);
    }
    if (node.enum !== undefined) {
      const expected = `one of ${node.enum.map(literal).join(", ")}`;
      if (node.enum.every((v) => v === null || typeof v !== "object")) {
        const set = this.#constant(`new Set<unknown>(${literal(node.enum)})`);
        out.push(`if (!${set}.has(${x})) ${this.#fail(path, expected, x)}`);
      } else {
        const list = this.#constant(literal(node.enum));
        out.push(`if (!${list}.some((option) => ${this.#use("equal")}(${x}, option))) ${this.#fail(path, expected, x)}`);
      }
    }
    // Type-specific keywords apply to values of that type only: guarded unless the type is known.
    const guarded = (type: JsonType, lines: string[], test = TYPE_TEST[type](x)): void => {
      if (lines.length === 0) return;
      if (only === type || (only === "integer" && type === "number")) out.push(...lines);
      else out.push(`if (${test}) {`, ...lines.map((l) => `  ${l}`), "}");
    };
    if (node.number !== undefined) guarded("number", this.#number(node, x, path), `typeof ${x} === "number"`);
    if (node.string !== undefined) guarded("string", this.#string(node, x, path));
    if (node.array !== undefined) guarded("array", this.#array(node, x, path, locals, owner));
    if (node.object !== undefined) guarded("object", this.#object(node, x, path, locals, owner));
    for (const part of node.allOf) out.push(...this.#statements(part, x, path, locals, owner));
    if (node.anyOf !== undefined) out.push(...this.#anyOf(node.anyOf, x, path, locals, owner));
    if (node.oneOf !== undefined) {
      const list = this.#constant(`[${node.oneOf.map((c, i) => this.function(c, `${stem(owner)}OneOf${i}`, `an alternative of ${owner}`)).join(", ")}] as const`);
      const e = locals.name("e");
      out.push(`const ${e} = ${this.#use("oneOf")}(${x}, d, ${list}, ${text(describeAlternatives(node.oneOf))});`, `if (${e} !== undefined) return ${this.#wrap(path, e)};`);
    }
    if (node.not !== undefined) {
      const fn = this.function(node.not, `${stem(owner)}Not`, `what ${owner} must not be`);
      out.push(`if (${fn}(${x}, d) === undefined) ${this.#fail(path, `not ${describeCheck(node.not)}`, x)}`);
    }
    if (node.conditional !== undefined) {
      const { if: condition, then, else: otherwise } = node.conditional;
      const test = this.function(condition, `${stem(owner)}If`, `the condition of ${owner}`);
      const branch = (check: Check | null, hint: string) => (check === null ? "undefined" : `${this.function(check, `${stem(owner)}${hint}`, `a branch of ${owner}`)}(${x}, d)`);
      const e = locals.name("e");
      out.push(`const ${e} = ${test}(${x}, d) === undefined ? ${branch(then, "Then")} : ${branch(otherwise, "Else")};`, `if (${e} !== undefined) return ${this.#wrap(path, e)};`);
    }
    return out;
  }

  #number(node: NodeCheck, x: string, path: readonly string[]): string[] {
    const n = node.number!;
    const out: string[] = [];
    if (n.minimum !== undefined) out.push(`if (${x} < ${n.minimum}) ${this.#fail(path, `a number ≥ ${n.minimum}`, x)}`);
    if (n.maximum !== undefined) out.push(`if (${x} > ${n.maximum}) ${this.#fail(path, `a number ≤ ${n.maximum}`, x)}`);
    if (n.exclusiveMinimum !== undefined) out.push(`if (${x} <= ${n.exclusiveMinimum}) ${this.#fail(path, `a number > ${n.exclusiveMinimum}`, x)}`);
    if (n.exclusiveMaximum !== undefined) out.push(`if (${x} >= ${n.exclusiveMaximum}) ${this.#fail(path, `a number < ${n.exclusiveMaximum}`, x)}`);
    if (n.multipleOf !== undefined) {
      const q = `${x} / ${n.multipleOf}`;
      out.push(`if (!Number.isInteger(${q}) && Math.abs(${q} - Math.round(${q})) >= 1e-9) ${this.#fail(path, `a multiple of ${n.multipleOf}`, x)}`);
    }
    return out;
  }

  #string(node: NodeCheck, x: string, path: readonly string[]): string[] {
    const s = node.string!;
    const out: string[] = [];
    // Lengths in code points; a string has at least length / 2 of them and at most length.
    if (s.minLength !== undefined) out.push(`if (${x}.length < ${2 * s.minLength} && ${this.#use("codePoints")}(${x}, ${s.minLength}) < ${s.minLength}) ${this.#fail(path, `a string of at least ${s.minLength} characters`, x)}`);
    if (s.maxLength !== undefined) out.push(`if (${x}.length > ${s.maxLength} && ${this.#use("codePoints")}(${x}, ${s.maxLength}) > ${s.maxLength}) ${this.#fail(path, `a string of at most ${s.maxLength} characters`, x)}`);
    if (s.pattern !== undefined) out.push(`if (!${this.#pattern(s.pattern)}.test(${x})) ${this.#fail(path, `a string matching ${JSON.stringify(s.pattern)}`, x)}`);
    return out;
  }

  /** A pattern compiled once for the module: the runtime's linear-time matcher (features/pattern.ts), never a backtracking RegExp on a peer's string. */
  #pattern(source: string): string {
    const known = this.patterns.get(source);
    if (known !== undefined) return known;
    const name = this.#constant(`compilePattern(${JSON.stringify(source)}, { maxLength: ${source.length}, maxProgram: ${Math.max(1000, source.length * 20)} })`, `The pattern ${JSON.stringify(source)}.`);
    this.patterns.set(source, name);
    return name;
  }

  #array(node: NodeCheck, x: string, path: readonly string[], locals: Locals, owner: string): string[] {
    const a = node.array!;
    const out: string[] = [];
    if (a.minItems !== undefined) out.push(`if (${x}.length < ${a.minItems}) ${this.#fail(path, `an array of at least ${a.minItems} items`, x)}`);
    if (a.maxItems !== undefined) out.push(`if (${x}.length > ${a.maxItems}) ${this.#fail(path, `an array of at most ${a.maxItems} items`, x)}`);
    a.prefixItems.forEach((check, i) => {
      const item = locals.name("v");
      const lines = this.#statements(check, item, [...path, String(i)], locals, owner);
      if (lines.length > 0) out.push(`if (${x}.length > ${i}) {`, `  const ${item}: unknown = ${x}[${i}];`, ...lines.map((l) => `  ${l}`), "}");
    });
    if (a.items !== null) {
      const i = locals.name("i");
      const item = locals.name("v");
      const lines = this.#statements(a.items, item, [...path, i], locals, owner);
      if (lines.length > 0) out.push(`for (let ${i} = ${a.prefixItems.length}; ${i} < ${x}.length; ${i}++) {`, `  const ${item}: unknown = ${x}[${i}];`, ...lines.map((l) => `  ${l}`), "}");
    }
    if (a.uniqueItems) out.push(`if (!${this.#use("unique")}(${x})) ${this.#fail(path, "an array of distinct items", x)}`);
    if (a.contains !== undefined) {
      const fn = this.function(a.contains.check, `${stem(owner)}Contains`, `what ${owner} must contain`);
      const count = locals.name("n");
      const { min, max } = a.contains;
      out.push(`let ${count} = 0;`, `for (const item of ${x}) if (${fn}(item, d) === undefined) ${count}++;`);
      out.push(`if (${count} < ${min}) ${this.#fail(path, `an array with at least ${min} items that are ${describeCheck(a.contains.check)}`, x)}`);
      if (max !== null) out.push(`if (${count} > ${max}) ${this.#fail(path, `an array with at most ${max} items that are ${describeCheck(a.contains.check)}`, x)}`);
    }
    return out;
  }

  #object(node: NodeCheck, x: string, path: readonly string[], locals: Locals, owner: string): string[] {
    const o = node.object!;
    const out: string[] = [];
    const obj = locals.name("o");
    out.push(`const ${obj} = ${x} as { readonly [key: string]: unknown };`);
    // Bracket access: the generated code passes noPropertyAccessFromIndexSignature.
    const read = (key: string) => (INHERITED.has(key) ? `${this.#use("own")}(${obj}, ${JSON.stringify(key)})` : `${obj}[${JSON.stringify(key)}]`);
    const declared = new Map(o.properties.map((p) => [p.name, p.check]));
    for (const name of o.required) {
      if (declared.has(name)) continue;
      out.push(`if (${read(name)} === undefined) return ${this.#wrap(path, `${this.#use("missing")}(${JSON.stringify(name)}, "a value")`)};`);
    }
    for (const { name, check } of o.properties) {
      const required = o.required.includes(name);
      const value = locals.name("v");
      const lines = this.#statements(check, value, [...path, JSON.stringify(name)], locals, owner);
      if (!required && lines.length === 0) continue;
      out.push(`const ${value} = ${read(name)};`);
      if (required) out.push(`if (${value} === undefined) return ${this.#wrap(path, `${this.#use("missing")}(${JSON.stringify(name)}, ${text(describeCheck(check))})`)};`, ...lines);
      else out.push(`if (${value} !== undefined) {`, ...lines.map((l) => `  ${l}`), "}");
    }
    if (o.minProperties !== undefined || o.maxProperties !== undefined) {
      const count = `Object.keys(${obj}).length`;
      if (o.minProperties !== undefined) out.push(`if (${count} < ${o.minProperties}) ${this.#fail(path, `an object of at least ${o.minProperties} properties`, x)}`);
      if (o.maxProperties !== undefined) out.push(`if (${count} > ${o.maxProperties}) ${this.#fail(path, `an object of at most ${o.maxProperties} properties`, x)}`);
    }
    for (const { name, requires } of o.dependentRequired ?? []) {
      for (const needed of requires) {
        out.push(`if (${read(name)} !== undefined && ${read(needed)} === undefined) return ${this.#wrap(path, `${this.#use("missing")}(${JSON.stringify(needed)}, ${text(`a value (with ${JSON.stringify(name)})`)})`)};`);
      }
    }
    // The keys not declared: patternProperties, additionalProperties, propertyNames.
    if (o.patternProperties.length > 0 || o.additional !== null || o.propertyNames !== undefined) {
      const key = locals.name("k");
      const value = locals.name("v");
      const inner: string[] = [`const ${value} = ${obj}[${key}];`];
      const keyPath = [...path, key];
      if (o.propertyNames !== undefined) {
        const fn = this.function(o.propertyNames, `${stem(owner)}Names`, `the property names of ${owner}`);
        inner.push(`if (${fn}(${key}, d) !== undefined) return ${this.#wrap(keyPath, `${this.#use("fail")}(${text(`a property name that is ${describeCheck(o.propertyNames)}`)}, ${key})`)};`);
      }
      const matched = locals.name("m");
      const tracks = o.additional !== null;
      if (tracks) inner.push(`let ${matched} = ${o.properties.length > 0 ? `${this.#constant(`new Set<string>(${literal(o.properties.map((p) => p.name))})`)}.has(${key})` : "false"};`);
      for (const { pattern, check } of o.patternProperties) {
        const lines = this.#statements(check, value, keyPath, locals, owner);
        inner.push(`if (${this.#pattern(pattern)}.test(${key})) {`, ...(tracks ? [`  ${matched} = true;`] : []), ...lines.map((l) => `  ${l}`), "}");
      }
      if (o.additional !== null) {
        const lines =
          o.additional.kind === "never"
            ? [`return ${this.#wrap(keyPath, `${this.#use("fail")}("no such property (additionalProperties: false)", ${value})`)};`]
            : this.#statements(o.additional, value, keyPath, locals, owner);
        inner.push(`if (!${matched}) {`, ...lines.map((l) => `  ${l}`), "}");
      }
      out.push(`for (const ${key} of Object.keys(${obj})) {`, ...inner.map((l) => `  ${l}`), "}");
    }
    return out;
  }

  #anyOf(alternatives: Alternatives, x: string, path: readonly string[], locals: Locals, owner: string): string[] {
    const expected = describeAlternatives(alternatives.checks);
    const d = alternatives.discriminator;
    if (d !== null) {
      // The property's value picks the one alternative to check.
      const tag = locals.name("t");
      const out = [
        `if (!(${TYPE_TEST.object(x)})) ${this.#fail(path, expected, x)}`,
        `const ${tag} = (${x} as { readonly [key: string]: unknown })[${JSON.stringify(d.property)}];`,
        `switch (${tag}) {`,
      ];
      const others: Check[] = [];
      alternatives.checks.forEach((check, i) => {
        const value = d.values[i];
        if (value === null || value === undefined) return void others.push(check);
        out.push(`  case ${JSON.stringify(value)}: {`, ...this.#statements(check, x, path, locals, owner).map((l) => `    ${l}`), "    break;", "  }");
      });
      const tags = d.values.filter((v): v is string => typeof v === "string");
      if (others.length === 0) {
        out.push("  default:", `    return ${this.#wrap([...path, JSON.stringify(d.property)], `${this.#use("fail")}(${text(`one of ${tags.map((v) => JSON.stringify(v)).join(", ")}`)}, ${tag})`)};`);
      } else {
        // Any other value: the alternatives without a tag of their own (a request's complete results).
        const rest = others.length === 1 ? this.#statements(others[0]!, x, path, locals, owner) : this.#anyOf({ checks: others, discriminator: null }, x, path, locals, owner);
        out.push("  default: {", ...rest.map((l) => `    ${l}`), "  }");
      }
      out.push("}");
      return out;
    }
    const list = this.#constant(`[${alternatives.checks.map((c, i) => this.function(c, `${stem(owner)}AnyOf${i}`, `an alternative of ${owner}`)).join(", ")}] as const`);
    const e = locals.name("e");
    return [`const ${e} = ${this.#use("anyOf")}(${x}, d, ${list}, ${text(expected)});`, `if (${e} !== undefined) return ${this.#wrap(path, e)};`];
  }
}

/** The stem of the names of functions made inside `owner` (`checkTool` → `Tool`). */
const stem = (owner: string): string => owner.replace(/^check/, "");
