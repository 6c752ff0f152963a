import { compareText, renderShape, shapeOf, type PropertyShape, type Shape } from "./shape.js";
import type { SchemaDocument } from "../load/schema-document.js";

/**
 * Decides whether a type change narrows: `covers(after, before)` is true when every value the
 * old type accepts is also accepted by the new one (no change, or a widening). The rules, on
 * normalized shapes (diff-shape.ts):
 *
 * - `unknown` accepts everything; `never` is accepted by everything; equal renderings match.
 * - A union is covered when each member is; a union covers what one of its members covers.
 * - A `$ref` matches the same name on the other side (that definition's own changes are listed
 *   under its name). Other `$ref`s are expanded to their definition (old names in the old
 *   schema, new names in the new one) and compared structurally, so a params object moved
 *   into a named definition, or a definition renamed, is not a narrowing by itself.
 * - A literal is covered by its primitive type (`"a"` by `string`, `1` by `integer` and
 *   `number`); `integer` by `number`; arrays by their items.
 * - An object covers another when each of its properties was there (and required when it is
 *   now required) with a covered type, or is new and optional; each removed property is
 *   still accepted by the new index signature; and the old index signature is covered by the
 *   new one.
 * - An intersection (`allOf`) whose members are all objects (after expanding `$ref`s) is
 *   compared as the one object they make together.
 * - Anything else (other intersections, a `$ref` that names no definition, a
 *   type replaced by another) is a narrowing.
 */
export interface Coverage {
  covers(after: Shape, before: Shape): boolean;
}

/** A coverage check between the definitions of two schema documents. */
export function createCoverage(from: SchemaDocument, to: SchemaDocument): Coverage {
  const expand = (doc: SchemaDocument, cache: Map<string, Shape | null>) => (name: string) => {
    if (!cache.has(name)) cache.set(name, doc.defs.has(name) ? shapeOf(doc, doc.defs.get(name)) : null);
    return cache.get(name) ?? null;
  };
  const expandBefore = expand(from, new Map());
  const expandAfter = expand(to, new Map());
  const results = new Map<string, boolean>();

  const covers = (after: Shape, before: Shape): boolean => {
    if (after.kind === "unknown" || before.kind === "never") return true;
    const a = renderShape(after);
    const b = renderShape(before);
    if (a === b) return true;
    const key = `${a}\u0000${b}`;
    const known = results.get(key);
    if (known !== undefined) return known;
    // Assumed while being decided: a recursive type covers itself unless shown otherwise.
    results.set(key, true);
    const result = decide(after, before);
    results.set(key, result);
    return result;
  };

  const decide = (after: Shape, before: Shape): boolean => {
    if (before.kind === "union") return before.members.every((member) => covers(after, member));
    if (before.kind === "ref") {
      // The same name on both sides rendered equal and was decided above.
      const name = before.name;
      if (after.kind === "union" && after.members.some((m) => m.kind === "ref" && m.name === name)) return true;
      const target = expandBefore(name);
      return target !== null && covers(after, target);
    }
    if (after.kind === "union") return after.members.some((member) => covers(member, before));
    if (after.kind === "ref") {
      const target = expandAfter(after.name);
      return target !== null && covers(target, before);
    }
    if (before.kind === "intersection" || after.kind === "intersection") {
      const mergedBefore = before.kind === "intersection" ? mergeObjects(before.members, expandBefore) : before;
      const merged = after.kind === "intersection" ? mergeObjects(after.members, expandAfter) : after;
      return merged !== null && mergedBefore !== null && covers(merged, mergedBefore);
    }
    if (before.kind === "literal" && after.kind === "primitive") return literalFits(before.value, after.type);
    if (before.kind === "primitive" && after.kind === "primitive") return before.type === "integer" && after.type === "number";
    if (before.kind === "array" && after.kind === "array") return covers(after.items, before.items);
    if (before.kind === "object" && after.kind === "object") return objectCovers(after, before);
    return false;
  };

  const objectCovers = (after: ObjectShape, before: ObjectShape): boolean => {
    const old = new Map(before.properties.map((p) => [p.name, p]));
    for (const prop of after.properties) {
      const was = old.get(prop.name);
      if (was === undefined ? prop.required : (prop.required && !was.required) || !covers(prop.shape, was.shape)) return false;
    }
    const kept = new Set(after.properties.map((p) => p.name));
    for (const prop of before.properties) {
      if (!kept.has(prop.name) && (after.additional === null || !covers(after.additional, prop.shape))) return false;
    }
    return before.additional === null || (after.additional !== null && covers(after.additional, before.additional));
  };

  return { covers };
}

type ObjectShape = Extract<Shape, { kind: "object" }>;

/** Deepest nesting of allOf, and longest chain of aliases, followed when merging an intersection. */
const MAX_DEPTH = 32;

/**
 * The object an intersection of objects makes (properties united, required when any member
 * requires them, index signature only when every member has one); null when a member is not
 * an object.
 */
function mergeObjects(members: readonly Shape[], expand: (name: string) => Shape | null, depth = 0): ObjectShape | null {
  // A bound on nesting: an allOf that contains itself makes no object.
  if (depth > MAX_DEPTH) return null;
  const objects: ObjectShape[] = [];
  for (const member of members) {
    const resolved = followRefs(member, expand);
    const target = resolved?.kind === "intersection" ? mergeObjects(resolved.members, expand, depth + 1) : resolved;
    if (target === null || target.kind !== "object") return null;
    objects.push(target);
  }
  const properties = new Map<string, PropertyShape>();
  for (const prop of objects.flatMap((o) => o.properties)) {
    const seen = properties.get(prop.name);
    properties.set(prop.name, seen ? { ...seen, required: seen.required || prop.required } : prop);
  }
  const additional = objects.every((o) => o.additional !== null) ? (objects[0]?.additional ?? null) : null;
  return { kind: "object", properties: [...properties.values()].sort((a, b) => compareText(a.name, b.name)), additional };
}

/** The shape behind a chain of `$ref`s (a definition that is another's alias); null when one names nothing or the chain loops. */
function followRefs(shape: Shape, expand: (name: string) => Shape | null): Shape | null {
  let current: Shape | null = shape;
  for (let hops = 0; current?.kind === "ref"; hops++) {
    if (hops > MAX_DEPTH) return null;
    current = expand(current.name);
  }
  return current;
}

function literalFits(value: string | number | boolean | null, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "null":
      return value === null;
    default:
      return false;
  }
}
