/**
 * Wire validation as data: what the generated validators (validators.ts of each revision,
 * emit/validators-view.ts) check, compiled from the revision's schema at generate time so that
 * nothing interprets a schema per message. The model reads the schema; the emitter only renders
 * this tree.
 *
 * What is checked (the runtime applies each where a peer's message arrives, core/endpoint.ts):
 * - the params of every request and notification of the catalog (both directions);
 * - the result of every request, against the union of its results;
 * - the result of every input request of a multi round-trip request (the answers a client puts
 *   in `inputResponses`, checked by features/mrtr-server.ts).
 *
 * Semantics are JSON Schema's (2020-12, or draft-07 where the schema says so: a `$ref` there
 * replaces its siblings, an array `items` is a tuple). Annotations are ignored, `format` among
 * them (an annotation in both dialects unless a format-assertion vocabulary is declared). What
 * the schema allows, the validators allow: no `additionalProperties` means extra properties pass.
 * An assertion keyword the compiler does not implement is an error naming its pointer: ignoring
 * it would let through what the schema forbids. A definition whose published schema contradicts
 * the spec's `schema.ts` (spec-typing.ts SPEC_TYPE_FACTS) is checked as `schema.ts` types it.
 */
import { StubgenError } from "../errors.js";
import { escapeToken, join, resolvePointer } from "../load/json-pointer.js";
import { definition, deref, isSchemaNode, refName, type Located, type SchemaDocument, type SchemaNode } from "../load/schema-document.js";
import { INPUT_REQUIRED_RESULT, INPUT_RESPONSES, type InputRequestsModel } from "./input-requests.js";
import { DIRECTION_UNIONS, type SchemaModel } from "./model.js";
import { specTypeFact } from "./spec-typing.js";

export type JsonType = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One check: anything, nothing, a named check (a function of validators.ts), or a schema node's checks. */
export type Check = { readonly kind: "any" } | { readonly kind: "never" } | { readonly kind: "ref"; readonly name: string } | NodeCheck;

export interface NodeCheck {
  readonly kind: "node";
  /** The JSON types allowed (`integer` a kind of number); null: any. */
  readonly types: readonly JsonType[] | null;
  /** `const`: the one value allowed. */
  readonly const?: { readonly value: JsonValue } | undefined;
  readonly enum?: readonly JsonValue[] | undefined;
  readonly number?: NumberBounds | undefined;
  readonly string?: StringBounds | undefined;
  readonly array?: ArrayCheck | undefined;
  readonly object?: ObjectCheck | undefined;
  readonly allOf: readonly Check[];
  /** Alternatives, and the property whose `const` tells them apart when there is one. */
  readonly anyOf?: Alternatives | undefined;
  readonly oneOf?: readonly Check[] | undefined;
  readonly not?: Check | undefined;
  readonly conditional?: { readonly if: Check; readonly then: Check | null; readonly else: Check | null } | undefined;
}

export interface NumberBounds {
  readonly minimum?: number | undefined;
  readonly maximum?: number | undefined;
  readonly exclusiveMinimum?: number | undefined;
  readonly exclusiveMaximum?: number | undefined;
  readonly multipleOf?: number | undefined;
}

export interface StringBounds {
  /** In code points (Validation §6.3). */
  readonly minLength?: number | undefined;
  readonly maxLength?: number | undefined;
  readonly pattern?: string | undefined;
}

export interface ArrayCheck {
  /** Checks of the first items, in order (2020-12 `prefixItems`, draft-07 array `items`). */
  readonly prefixItems: readonly Check[];
  /** Check of every item after those; null: anything. */
  readonly items: Check | null;
  readonly minItems?: number | undefined;
  readonly maxItems?: number | undefined;
  readonly uniqueItems: boolean;
  readonly contains?: { readonly check: Check; readonly min: number; readonly max: number | null } | undefined;
}

export interface ObjectCheck {
  /** Property → its check, in schema order. */
  readonly properties: ReadonlyArray<{ readonly name: string; readonly check: Check }>;
  readonly required: readonly string[];
  /** Checks of the properties whose names match a pattern. */
  readonly patternProperties: ReadonlyArray<{ readonly pattern: string; readonly check: Check }>;
  /** Check of the other properties; null: any (the schema says nothing, or `{}`/`true`). */
  readonly additional: Check | null;
  readonly propertyNames?: Check | undefined;
  readonly minProperties?: number | undefined;
  readonly maxProperties?: number | undefined;
  readonly dependentRequired?: ReadonlyArray<{ readonly name: string; readonly requires: readonly string[] }> | undefined;
}

export interface Alternatives {
  readonly checks: readonly Check[];
  /**
   * A property whose value picks the one alternative to check (the failure is that one's, not a
   * guess among them). `values[i]` is alternative i's; null: the alternatives checked for any
   * other value (none: another value is a failure). Either every alternative is an object that
   * requires the property with a distinct string `const`, or the alternatives are results told
   * apart by `resultType` (ValidationModel's `resultTags`).
   */
  readonly discriminator: { readonly property: string; readonly values: readonly (string | null)[] } | null;
}

/** The validation of one revision: its named checks and what each message is checked with. */
export interface ValidationModel {
  /** Named checks (one function each in validators.ts): definitions by name, then other `$ref` targets. */
  readonly named: ReadonlyArray<{ readonly name: string; readonly check: Check; readonly pointer: string; readonly recursive: boolean }>;
  /** Request method → the check of its params, and whether the message must carry them (its schema's `required`). */
  readonly requests: ReadonlyArray<{ readonly method: string; readonly check: Check; readonly required: boolean }>;
  readonly notifications: ReadonlyArray<{ readonly method: string; readonly check: Check; readonly required: boolean }>;
  /** Request method → the check of its result (the union of its results). */
  readonly results: ReadonlyArray<{ readonly method: string; readonly check: Check }>;
  /** Input request method (multi round-trip requests) → the check of the client's answer. */
  readonly inputs: ReadonlyArray<{ readonly method: string; readonly check: Check }>;
}

/** Keywords that assert something the compiler does not implement: a schema using one is refused. */
const UNSUPPORTED = ["unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef", "dependentSchemas", "dependencies"] as const;
const TYPES: ReadonlySet<string> = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);
const ANY: Check = { kind: "any" };
const NEVER: Check = { kind: "never" };
const OBJECT: Check = { kind: "node", types: ["object"], allOf: [] };
/** The Result property that "allows the client to determine how to parse the result object" (basic/index, Result). */
const RESULT_TYPE = "resultType";

/** The definitions and other `$ref` targets compiled so far, by `$ref` pointer. */
interface Context {
  readonly doc: SchemaDocument;
  /**
   * Definitions checked as objects only, their values left to their receiver (InputResponses:
   * basic/patterns/mrtr, the server checks each answer to what it asked against that request's
   * result and "SHOULD ignore any information it does not recognize").
   */
  readonly receiverChecked: ReadonlySet<string>;
  /** Result definition → the `resultType` that names it where the schema types resultType as any string (InputRequiredResult). */
  readonly resultTags: ReadonlyMap<string, string>;
  readonly byPointer: Map<string, { name: string; check: Check | undefined; pointer: string }>;
  readonly names: Set<string>;
}

const fail = (ctx: Context, pointer: string, message: string): never => {
  throw new StubgenError(`wire validation: ${message}`, { file: ctx.doc.file, pointer });
};

function nonNegativeInteger(ctx: Context, node: SchemaNode, keyword: string, pointer: string): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) fail(ctx, join(pointer, keyword), `expected ${keyword} to be a non-negative integer`);
  return value as number;
}

function finiteNumber(ctx: Context, node: SchemaNode, keyword: string, pointer: string): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) fail(ctx, join(pointer, keyword), `expected ${keyword} to be a number`);
  return value as number;
}

function schemaList(ctx: Context, node: SchemaNode, keyword: string, pointer: string): unknown[] | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) fail(ctx, join(pointer, keyword), `expected ${keyword} to be a non-empty array of schemas`);
  return value as unknown[];
}

/** A name for the check of a `$ref` target that is no definition (`#/$defs/A/properties/b`): unique, an identifier. */
function pointerName(ctx: Context, pointer: string): string {
  const base = `ref${pointer.replace(/[^A-Za-z0-9]+/g, "_")}`;
  let name = base;
  for (let i = 2; ctx.names.has(name); i++) name = `${base}${i}`;
  return name;
}

/** The named check of a `$ref` (compiled once; a cycle finds its entry while it is being compiled). */
function refCheck(ctx: Context, ref: string, at: string): Check {
  const pointer = decodeURIComponent(ref.slice(1));
  let entry = ctx.byPointer.get(pointer);
  if (entry === undefined) {
    const target = resolvePointer(ctx.doc.root, pointer);
    if (target === undefined) fail(ctx, at, `"$ref" ${JSON.stringify(ref)} resolves to nothing`);
    const defName = refName(ctx.doc, ref);
    const name = defName ?? pointerName(ctx, pointer);
    entry = { name, check: undefined, pointer };
    ctx.byPointer.set(pointer, entry);
    ctx.names.add(name);
    // A definition the spec's schema.ts types otherwise (JSONValue: any JSON value) is checked as schema.ts types it.
    const fact = defName !== null && isSchemaNode(target) ? specTypeFact(defName, target) : undefined;
    entry.check = fact?.accepts === "any" ? ANY : defName !== null && ctx.receiverChecked.has(defName) ? OBJECT : compile(ctx, target, pointer);
  }
  // A target that checks nothing is not called at all (a target still being compiled, a cycle, is).
  return entry.check?.kind === "any" ? ANY : { kind: "ref", name: entry.name };
}

/** Compiles one schema (an object or a boolean) at `pointer`. */
function compile(ctx: Context, schema: unknown, pointer: string): Check {
  if (schema === true) return ANY;
  if (schema === false) return NEVER;
  if (!isSchemaNode(schema)) return fail(ctx, pointer, "expected a schema (an object or a boolean)");
  for (const keyword of UNSUPPORTED) {
    if (schema[keyword] !== undefined) fail(ctx, join(pointer, keyword), `${keyword} is not supported by the generated validators (expected a schema without it)`);
  }
  const ref = schema["$ref"];
  if (ref !== undefined && typeof ref !== "string") fail(ctx, join(pointer, "$ref"), 'expected "$ref" to be a string');
  const refChecks = typeof ref === "string" ? [refCheck(ctx, ref, join(pointer, "$ref"))] : [];
  // draft-07: "All other properties in a "$ref" object MUST be ignored" (Core §8.3).
  if (refChecks.length > 0 && ctx.doc.dialect === "draft-07") return refChecks[0]!;
  const sub = (value: unknown, ...tokens: Array<string | number>): Check => compile(ctx, value, join(pointer, ...tokens));

  let types: JsonType[] | null = null;
  if (schema["type"] !== undefined) {
    const raw = schema["type"];
    const list = Array.isArray(raw) ? raw : [raw];
    if (list.length === 0 || !list.every((t) => typeof t === "string" && TYPES.has(t))) fail(ctx, join(pointer, "type"), "expected type to be a JSON type or a non-empty list of them");
    types = [...new Set(list as JsonType[])];
  }
  const node: { -readonly [K in keyof NodeCheck]: NodeCheck[K] } = { kind: "node", types, allOf: refChecks };
  if (Object.hasOwn(schema, "const")) node.const = { value: schema["const"] as JsonValue };
  if (schema["enum"] !== undefined) {
    if (!Array.isArray(schema["enum"])) fail(ctx, join(pointer, "enum"), "expected enum to be an array");
    node.enum = schema["enum"] as JsonValue[];
  }

  const numberBounds: { -readonly [K in keyof NumberBounds]: NumberBounds[K] } = {};
  for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] as const) {
    const value = finiteNumber(ctx, schema, keyword, pointer);
    if (value !== undefined) numberBounds[keyword] = value;
  }
  if (numberBounds.multipleOf !== undefined && numberBounds.multipleOf <= 0) fail(ctx, join(pointer, "multipleOf"), "expected multipleOf to be > 0");
  if (Object.keys(numberBounds).length > 0) node.number = numberBounds;

  const minLength = nonNegativeInteger(ctx, schema, "minLength", pointer);
  const maxLength = nonNegativeInteger(ctx, schema, "maxLength", pointer);
  const pattern = schema["pattern"];
  if (pattern !== undefined) {
    if (typeof pattern !== "string") fail(ctx, join(pointer, "pattern"), "expected pattern to be a string");
    checkPattern(ctx, pattern as string, join(pointer, "pattern"));
  }
  if (minLength !== undefined || maxLength !== undefined || pattern !== undefined) node.string = { minLength, maxLength, pattern: pattern as string | undefined };

  // Arrays: `prefixItems` (2020-12) or an array `items` (draft-07), then `items` / `additionalItems` for the rest.
  const itemsIsList = Array.isArray(schema["items"]);
  const prefixKey = schema["prefixItems"] !== undefined ? "prefixItems" : itemsIsList ? "items" : null;
  const prefix = prefixKey === null ? [] : (schemaList(ctx, schema, prefixKey, pointer) ?? []).map((item, i) => sub(item, prefixKey, i));
  const restKey = itemsIsList ? "additionalItems" : "items";
  const rest = schema[restKey] === undefined ? null : sub(schema[restKey], restKey);
  const minItems = nonNegativeInteger(ctx, schema, "minItems", pointer);
  const maxItems = nonNegativeInteger(ctx, schema, "maxItems", pointer);
  const contains =
    schema["contains"] === undefined
      ? undefined
      : { check: sub(schema["contains"], "contains"), min: nonNegativeInteger(ctx, schema, "minContains", pointer) ?? 1, max: nonNegativeInteger(ctx, schema, "maxContains", pointer) ?? null };
  if (prefix.length > 0 || (rest !== null && rest.kind !== "any") || minItems !== undefined || maxItems !== undefined || schema["uniqueItems"] === true || contains !== undefined) {
    node.array = { prefixItems: prefix, items: rest?.kind === "any" ? null : rest, minItems, maxItems, uniqueItems: schema["uniqueItems"] === true, contains };
  }

  node.object = objectCheck(ctx, schema, pointer, sub);

  const all = schemaList(ctx, schema, "allOf", pointer);
  if (all !== undefined) node.allOf = [...refChecks, ...all.map((item, i) => sub(item, "allOf", i))];
  const any = schemaList(ctx, schema, "anyOf", pointer);
  if (any !== undefined) {
    const checks = any.map((item, i) => sub(item, "anyOf", i));
    node.anyOf = { checks, discriminator: discriminatorOf(ctx, checks) };
  }
  const one = schemaList(ctx, schema, "oneOf", pointer);
  if (one !== undefined) node.oneOf = one.map((item, i) => sub(item, "oneOf", i));
  if (schema["not"] !== undefined) node.not = sub(schema["not"], "not");
  if (schema["if"] !== undefined && (schema["then"] !== undefined || schema["else"] !== undefined)) {
    node.conditional = {
      if: sub(schema["if"], "if"),
      then: schema["then"] === undefined ? null : sub(schema["then"], "then"),
      else: schema["else"] === undefined ? null : sub(schema["else"], "else"),
    };
  }
  return simplified(node);
}

function objectCheck(ctx: Context, schema: SchemaNode, pointer: string, sub: (value: unknown, ...tokens: Array<string | number>) => Check): ObjectCheck | undefined {
  const props = schema["properties"];
  if (props !== undefined && !isSchemaNode(props)) fail(ctx, join(pointer, "properties"), "expected properties to be an object");
  const properties = Object.entries((props ?? {}) as SchemaNode).map(([name, value]) => ({ name, check: sub(value, "properties", name) }));
  const required = schema["required"];
  if (required !== undefined && (!Array.isArray(required) || !required.every((k) => typeof k === "string"))) fail(ctx, join(pointer, "required"), "expected required to be an array of strings");
  const patterns = schema["patternProperties"];
  if (patterns !== undefined && !isSchemaNode(patterns)) fail(ctx, join(pointer, "patternProperties"), "expected patternProperties to be an object");
  const patternProperties = Object.entries((patterns ?? {}) as SchemaNode).map(([pattern, value]) => {
    checkPattern(ctx, pattern, join(pointer, "patternProperties", pattern));
    return { pattern, check: sub(value, "patternProperties", pattern) };
  });
  const additionalCheck = schema["additionalProperties"] === undefined ? null : sub(schema["additionalProperties"], "additionalProperties");
  const additional = additionalCheck?.kind === "any" ? null : additionalCheck;
  const propertyNames = schema["propertyNames"] === undefined ? undefined : sub(schema["propertyNames"], "propertyNames");
  const minProperties = nonNegativeInteger(ctx, schema, "minProperties", pointer);
  const maxProperties = nonNegativeInteger(ctx, schema, "maxProperties", pointer);
  const dependent = schema["dependentRequired"];
  let dependentRequired: ObjectCheck["dependentRequired"];
  if (dependent !== undefined) {
    if (!isSchemaNode(dependent)) fail(ctx, join(pointer, "dependentRequired"), "expected dependentRequired to be an object");
    dependentRequired = Object.entries(dependent as SchemaNode).map(([name, list]) => {
      if (!Array.isArray(list) || !list.every((k) => typeof k === "string")) fail(ctx, join(pointer, "dependentRequired", name), "expected an array of property names");
      return { name, requires: list as string[] };
    });
  }
  const checked = properties.filter((p) => p.check.kind !== "any");
  // Result.resultType: "when a client receives a result from a server implementing an earlier
  // protocol version (which does not include resultType), the client MUST treat the absent field
  // as "complete"" (its description in the schema): required by the schema, never by the validators.
  const requiredList = ((required ?? []) as string[]).filter((name) => name !== RESULT_TYPE);
  if (checked.length === 0 && requiredList.length === 0 && patternProperties.length === 0 && additional === null && propertyNames === undefined && minProperties === undefined && maxProperties === undefined && dependentRequired === undefined) {
    return undefined;
  }
  return { properties, required: requiredList, patternProperties, additional, propertyNames, minProperties, maxProperties, dependentRequired };
}

/** A pattern must compile as an ECMAScript regular expression with the `u` flag (2020-12 Validation §4.3). */
function checkPattern(ctx: Context, pattern: string, pointer: string): void {
  try {
    new RegExp(pattern, "u");
  } catch {
    fail(ctx, pointer, `expected ${JSON.stringify(pattern)} to be a regular expression (ECMA-262, with the u flag)`);
  }
}

/** A node that asserts nothing is `any`; one that is only a `$ref` is that ref. */
function simplified(node: NodeCheck): Check {
  const onlyAllOf =
    node.types === null &&
    node.const === undefined &&
    node.enum === undefined &&
    node.number === undefined &&
    node.string === undefined &&
    node.array === undefined &&
    node.object === undefined &&
    node.anyOf === undefined &&
    node.oneOf === undefined &&
    node.not === undefined &&
    node.conditional === undefined;
  if (!onlyAllOf) return node;
  const parts = node.allOf.filter((c) => c.kind !== "any");
  if (parts.length === 0) return ANY;
  if (parts.length === 1) return parts[0]!;
  return { ...node, allOf: parts };
}

/** The node a check stands for, following named checks. */
function nodeOf(ctx: Context, check: Check): NodeCheck | null {
  let current: Check | undefined = check;
  for (let i = 0; current !== undefined && current.kind === "ref" && i < 32; i++) {
    const name: string = current.name;
    current = [...ctx.byPointer.values()].find((entry) => entry.name === name)?.check;
  }
  return current !== undefined && current.kind === "node" ? current : null;
}

/**
 * The property whose `const` tells the alternatives apart: every one is an object (only) that
 * requires it, with a distinct string const. Null when there is none (the alternatives are then
 * tried in turn).
 */
function discriminatorOf(ctx: Context, checks: readonly Check[]): Alternatives["discriminator"] {
  if (checks.length < 2) return null;
  const nodes = checks.map((check) => nodeOf(ctx, check));
  if (nodes.some((node) => node === null || node.types === null || node.types.length !== 1 || node.types[0] !== "object" || node.object === undefined)) return resultTypeOf(ctx, checks);
  const constOf = (node: NodeCheck, property: string): string | null => {
    if (!node.object!.required.includes(property)) return null;
    const check = node.object!.properties.find((p) => p.name === property)?.check;
    const target = check === undefined ? null : nodeOf(ctx, check);
    const value = target?.const?.value;
    return typeof value === "string" ? value : null;
  };
  for (const { name } of nodes[0]!.object!.properties) {
    const values = nodes.map((node) => constOf(node!, name));
    if (values.every((v): v is string => v !== null) && new Set(values).size === values.length) return { property: name, values };
  }
  return resultTypeOf(ctx, checks);
}


/**
 * Results told apart by `resultType`: each alternative declares it; an alternative whose
 * resultType is a string const, or whose definition the model tags (InputRequiredResult:
 * "input_required"), takes that value; the others (a request's complete results) take every other
 * value. Null unless at least one is tagged and the tags are distinct.
 */
function resultTypeOf(ctx: Context, checks: readonly Check[]): Alternatives["discriminator"] {
  const values: Array<string | null> = [];
  for (const check of checks) {
    // The property through the alternative's own node and its allOf parts (an extension's results are allOf compositions).
    const declared = objectParts(ctx, check).flatMap((node) => node.object?.properties.filter((p) => p.name === RESULT_TYPE) ?? []);
    if (declared.length === 0) return null;
    const tag = check.kind === "ref" ? ctx.resultTags.get(check.name) : undefined;
    const value = tag ?? declared.map((p) => nodeOf(ctx, p.check)?.const?.value).find((v): v is string => typeof v === "string");
    values.push(value ?? null);
  }
  const tags = values.filter((v): v is string => v !== null);
  return tags.length > 0 && new Set(tags).size === tags.length ? { property: RESULT_TYPE, values } : null;
}

/** The nodes a value must pass as the check says: its node and its allOf parts, named checks followed. */
function objectParts(ctx: Context, check: Check, depth = 0): NodeCheck[] {
  const node = nodeOf(ctx, check);
  if (node === null || depth > 8) return [];
  return [node, ...node.allOf.flatMap((part) => objectParts(ctx, part, depth + 1))];
}

/** The params schema of each message of a direction union: the member's `properties.params`, `$ref`s followed. */
function messageParams(doc: SchemaDocument, union: string): Map<string, Located | null> {
  const out = new Map<string, Located | null>();
  const def = definition(doc, union);
  if (def === null) return out;
  const list = def.node["anyOf"] ?? def.node["oneOf"];
  const keyword = def.node["anyOf"] !== undefined ? "anyOf" : "oneOf";
  const members: Located[] = Array.isArray(list)
    ? list.filter(isSchemaNode).map((node, i) => ({ node, pointer: join(def.pointer, keyword, i), name: null }))
    : [def];
  for (const member of members) {
    const target = deref(doc, member);
    const props = target.node["properties"];
    const method = isSchemaNode(props) && isSchemaNode(props["method"]) ? props["method"]["const"] : undefined;
    if (typeof method !== "string" || out.has(method)) continue;
    const params = isSchemaNode(props) ? props["params"] : undefined;
    out.set(method, isSchemaNode(params) || typeof params === "boolean" ? { node: isSchemaNode(params) ? params : {}, pointer: join(target.pointer, "properties", "params"), name: null } : null);
  }
  return out;
}

/** The check of a value that may be any of these definitions (one: its check; several: anyOf). */
function unionOf(ctx: Context, names: readonly string[]): Check {
  const checks = names.map((name) => refCheck(ctx, `#/${ctx.doc.defsKey}/${escapeToken(name)}`, join("", ctx.doc.defsKey, name)));
  if (checks.length === 1) return checks[0]!;
  return { kind: "node", types: null, allOf: [], anyOf: { checks, discriminator: discriminatorOf(ctx, checks) } };
}

/** Named checks reachable from others through `$ref`s that lead back to themselves (a recursive schema). */
function recursiveNames(named: ReadonlyArray<{ readonly name: string; readonly check: Check }>): Set<string> {
  const edges = new Map<string, Set<string>>();
  const refsOf = (check: Check, into: Set<string>): void => {
    if (check.kind === "ref") {
      into.add(check.name);
      return;
    }
    if (check.kind !== "node") return;
    const children: Check[] = [...check.allOf];
    if (check.array !== undefined) children.push(...check.array.prefixItems, ...(check.array.items === null ? [] : [check.array.items]), ...(check.array.contains === undefined ? [] : [check.array.contains.check]));
    if (check.object !== undefined) {
      children.push(...check.object.properties.map((p) => p.check), ...check.object.patternProperties.map((p) => p.check));
      if (check.object.additional !== null) children.push(check.object.additional);
      if (check.object.propertyNames !== undefined) children.push(check.object.propertyNames);
    }
    if (check.anyOf !== undefined) children.push(...check.anyOf.checks);
    if (check.oneOf !== undefined) children.push(...check.oneOf);
    if (check.not !== undefined) children.push(check.not);
    if (check.conditional !== undefined) children.push(check.conditional.if, ...[check.conditional.then, check.conditional.else].filter((c): c is Check => c !== null));
    for (const child of children) refsOf(child, into);
  };
  for (const { name, check } of named) {
    const into = new Set<string>();
    refsOf(check, into);
    edges.set(name, into);
  }
  const recursive = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(edges.get(next) ?? []));
    }
  }
  return recursive;
}

/**
 * The wire validation of a revision (its merged document and catalog). `taskResult`: the result
 * a task-augmented request is answered with (the policy's `taskResultType`, CreateTaskResult),
 * added to the results of the requests whose params may carry `task`. Pure.
 */
export function validationModel(doc: SchemaDocument, model: SchemaModel, inputRequests: InputRequestsModel | null, taskResult: string | null = null): ValidationModel {
  // InputRequiredResult is told from a complete result by resultType "input_required" (the schema types it as any string).
  const resultTags = new Map<string, string>(inputRequests === null ? [] : [[INPUT_REQUIRED_RESULT.definition, INPUT_REQUIRED_RESULT.resultType]]);
  const receiverChecked = new Set<string>(inputRequests === null ? [] : [INPUT_RESPONSES]);
  const ctx: Context = { doc, resultTags, receiverChecked, byPointer: new Map(), names: new Set(doc.defs.keys()) };
  const params = new Map(DIRECTION_UNIONS.map((u) => [u.union, messageParams(doc, u.union)]));
  const paramsCheck = (method: string, kind: "request" | "notification"): Check | null => {
    for (const u of DIRECTION_UNIONS) {
      if (u.kind !== kind) continue;
      const at = params.get(u.union)?.get(method);
      if (at !== undefined && at !== null) return compile(ctx, at.node, at.pointer);
    }
    return null;
  };
  const requests: Array<{ method: string; check: Check; required: boolean }> = [];
  const notifications: Array<{ method: string; check: Check; required: boolean }> = [];
  const results: Array<{ method: string; check: Check }> = [];
  for (const record of model.methods) {
    const check = paramsCheck(record.method, record.kind) ?? ANY;
    if (check.kind !== "any" || record.paramsRequired) (record.kind === "request" ? requests : notifications).push({ method: record.method, check, required: record.paramsRequired });
    if (record.kind === "request" && record.results !== null && record.results.length > 0) {
      // Cancellation (2025-11-25): a task-augmented request is answered with the task's handle.
      const task = record.taskAugmentable && taskResult !== null && doc.defs.has(taskResult) && !record.results.includes(taskResult) ? [taskResult] : [];
      results.push({ method: record.method, check: unionOf(ctx, [...record.results, ...task]) });
    }
  }
  const inputs = (inputRequests?.inputs ?? []).map((input) => ({ method: input.method, check: unionOf(ctx, [input.result]) }));
  const entries = [...ctx.byPointer.values()].map((entry) => ({ name: entry.name, check: entry.check!, pointer: entry.pointer }));
  const recursive = recursiveNames(entries);
  return { named: entries.map((entry) => ({ ...entry, recursive: recursive.has(entry.name) })), requests, notifications, results, inputs };
}
