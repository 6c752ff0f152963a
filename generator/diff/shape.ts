import { isSchemaNode, refName, type SchemaDocument } from "../load/schema-document.js";
import { isOpenDefinitionNode } from "../model/spec-typing.js";

/**
 * A normalized view of a JSON Schema node, for `mcp-stubgen diff`: only what decides the
 * values a type accepts. It keeps `$ref` target names (never followed), `type`, `enum` and
 * `const`, `items`, `properties` with `required`, `additionalProperties`, `anyOf`/`oneOf`
 * (one union) and `allOf` (an intersection). Everything else is left out: annotations
 * (`description`, `title`, `default`, `examples`), `format`, and bounds and patterns
 * (`minimum`, `maxLength`, `pattern`, …). Unions are flattened, deduplicated and sorted, and
 * object properties sorted by name, so the rendering does not depend on the schema's order.
 */
export type Shape =
  | { readonly kind: "unknown" }
  | { readonly kind: "never" }
  | { readonly kind: "ref"; readonly name: string }
  | { readonly kind: "literal"; readonly value: string | number | boolean | null }
  | { readonly kind: "primitive"; readonly type: string }
  | { readonly kind: "array"; readonly items: Shape }
  | { readonly kind: "object"; readonly properties: readonly PropertyShape[]; readonly additional: Shape | null }
  | { readonly kind: "union"; readonly members: readonly Shape[] }
  | { readonly kind: "intersection"; readonly members: readonly Shape[] }
  /** A literal that is not a scalar (an object or array in `const`/`enum`), by its JSON. */
  | { readonly kind: "json"; readonly json: string };

export interface PropertyShape {
  readonly name: string;
  readonly required: boolean;
  readonly shape: Shape;
}

const UNKNOWN: Shape = { kind: "unknown" };
const NEVER: Shape = { kind: "never" };

/** The shape of a schema node (or boolean schema) of `doc`. */
export function shapeOf(doc: SchemaDocument, node: unknown): Shape {
  if (node === true) return UNKNOWN;
  if (node === false) return NEVER;
  if (!isSchemaNode(node)) return UNKNOWN;
  if (isSchemaNode(node["not"]) && Object.keys(node["not"]).length === 0) return NEVER;
  const parts: Shape[] = [];
  if (typeof node["$ref"] === "string") parts.push({ kind: "ref", name: refName(doc, node["$ref"]) ?? node["$ref"] });
  if (node["const"] !== undefined) parts.push(literal(node["const"]));
  else if (Array.isArray(node["enum"])) parts.push(union(node["enum"].map(literal)));
  else if (node["type"] !== undefined || isSchemaNode(node["properties"])) parts.push(typeShape(doc, node));
  for (const keyword of ["anyOf", "oneOf"]) {
    const list = node[keyword];
    if (Array.isArray(list)) parts.push(union(list.map((member) => shapeOf(doc, member))));
  }
  if (Array.isArray(node["allOf"])) parts.push(...node["allOf"].map((member) => shapeOf(doc, member)));
  return intersection(parts);
}

function typeShape(doc: SchemaDocument, node: { readonly [key: string]: unknown }): Shape {
  const declared = node["type"];
  const types = Array.isArray(declared) ? declared.filter((t) => typeof t === "string") : typeof declared === "string" ? [declared] : ["object"];
  return union(
    types.map((type): Shape => {
      if (type === "array") return { kind: "array", items: node["items"] === undefined ? UNKNOWN : shapeOf(doc, node["items"]) };
      if (type === "object") return objectShape(doc, node);
      return { kind: "primitive", type };
    }),
  );
}

function objectShape(doc: SchemaDocument, node: { readonly [key: string]: unknown }): Shape {
  const props = isSchemaNode(node["properties"]) ? node["properties"] : {};
  const required = Array.isArray(node["required"]) ? node["required"] : [];
  const properties = Object.keys(props)
    .sort(compareText)
    .map((name) => ({ name, required: required.includes(name), shape: shapeOf(doc, props[name]) }));
  const extra = node["additionalProperties"];
  // A definition the spec's TypeScript leaves open (an inherited index signature, spec-typing.ts)
  // is open here too, as in types.ts.
  const open = extra === undefined && isOpenDefinitionNode(doc, node);
  const additional = open ? UNKNOWN : extra === undefined || extra === false ? null : shapeOf(doc, extra);
  return { kind: "object", properties, additional };
}

function literal(value: unknown): Shape {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return { kind: "literal", value };
  }
  return { kind: "json", json: canonicalJson(value) };
}

/** A union, flattened, deduplicated and sorted by rendering; `unknown` absorbs, `never` vanishes. */
export function union(members: readonly Shape[]): Shape {
  const flat = members.flatMap((m) => (m.kind === "union" ? m.members : [m])).filter((m) => m.kind !== "never");
  if (flat.some((m) => m.kind === "unknown")) return UNKNOWN;
  const unique = dedupe(flat);
  return unique.length === 0 ? NEVER : unique.length === 1 ? unique[0]! : { kind: "union", members: unique };
}

function intersection(members: readonly Shape[]): Shape {
  const flat = members.flatMap((m) => (m.kind === "intersection" ? m.members : [m])).filter((m) => m.kind !== "unknown");
  if (flat.some((m) => m.kind === "never")) return NEVER;
  const unique = dedupe(flat);
  return unique.length === 0 ? UNKNOWN : unique.length === 1 ? unique[0]! : { kind: "intersection", members: unique };
}

function dedupe(shapes: readonly Shape[]): Shape[] {
  const byText = new Map<string, Shape>();
  for (const shape of shapes) byText.set(renderShape(shape), shape);
  return [...byText.keys()].sort(compareText).map((text) => byText.get(text)!);
}

/**
 * A one-line TypeScript-like rendering: `Name`, `string`, `"a" | "b"`, `Content[]`,
 * `{ a: string; b?: number; [key: string]: unknown }`, `object`, `A & B`.
 */
export function renderShape(shape: Shape): string {
  // Shapes are immutable and built bottom-up, and union/intersection render every member to sort
  // and deduplicate: remembering each shape's text keeps a diff linear in the schema's size.
  let text = rendered.get(shape);
  if (text === undefined) {
    text = renderUncached(shape);
    rendered.set(shape, text);
  }
  return text;
}

const rendered = new WeakMap<Shape, string>();

function renderUncached(shape: Shape): string {
  switch (shape.kind) {
    case "unknown":
    case "never":
      return shape.kind;
    case "ref":
      return shape.name;
    case "literal":
      return JSON.stringify(shape.value);
    case "json":
      return shape.json;
    case "primitive":
      return shape.type;
    case "array": {
      const items = renderShape(shape.items);
      return shape.items.kind === "union" || shape.items.kind === "intersection" ? `(${items})[]` : `${items}[]`;
    }
    case "object": {
      const members = shape.properties.map((p) => `${propertyKey(p.name)}${p.required ? "" : "?"}: ${renderShape(p.shape)}`);
      if (shape.additional !== null) members.push(`[key: string]: ${renderShape(shape.additional)}`);
      return members.length === 0 ? "object" : `{ ${members.join("; ")} }`;
    }
    case "union":
      return shape.members.map(renderShape).join(" | ");
    case "intersection":
      return shape.members.map((m) => (m.kind === "union" ? `(${renderShape(m)})` : renderShape(m))).join(" & ");
  }
}

const propertyKey = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

/** JSON with object keys sorted at every level: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

/**
 * A JSON value with object keys sorted at every level. Maps become objects, Sets arrays;
 * values JSON cannot hold (functions, undefined, symbols) become a descriptive string.
 */
export function canonical(value: unknown): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Set) return [...value].map(canonical);
  if (value instanceof Map) return canonical(Object.fromEntries(value));
  if (value instanceof RegExp) return String(value);
  if (typeof value === "object") {
    const entries = Object.entries(value as object)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => compareText(a, b));
    return Object.fromEntries(entries.map(([k, v]: [string, unknown]) => [k, canonical(v)]));
  }
  return `[${typeof value}]`;
}

export type JsonValue = null | string | number | boolean | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Code-unit order (the same on every machine, unlike localeCompare). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
