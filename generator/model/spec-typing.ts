import { isDeepStrictEqual } from "node:util";
import type { DefinitionTable, SchemaDocument, SchemaNode } from "../load/schema-document.js";
import { isSchemaNode, refName } from "../load/schema-document.js";

/**
 * How the spec's own TypeScript (`schema.ts`, from which each `schema.json` is generated) types
 * what its JSON Schema generator flattens. Each rule reads evidence the generator leaves in the
 * schema; none names a definition.
 *
 * - `object`: the TypeScript `object` type is written `{ type: "object", properties: {},
 *   additionalProperties: true }` and nothing else (an open interface would carry its own
 *   properties or `additionalProperties: {}`). Emitted as `object`.
 * - Open maps: a definition that says only `type: "object"` (2026-07-28's `MetaObject`, written
 *   `Record<string, unknown>`) accepts any properties: emitted with `[k: string]: unknown`.
 * - Inherited index signatures: the generator writes an interface's index signature
 *   (`[key: string]: unknown`, as `additionalProperties: {}`) on that interface only, not on the
 *   interfaces that extend it. Two kinds of evidence mark an extension: the description says
 *   "Extends {@link Base}" (the `…MetaObject`s), or the definition is named `…Base` and repeats
 *   every property of Base unchanged (`InitializeResult`, `PaginatedResult` and every other
 *   `…Result` repeat `Result`'s `_meta`, and from 2026-07-28 its `resultType`). Such a
 *   definition gets the base's index signature.
 */
export function openDefinitions(doc: DefinitionTable): Set<string> {
  const open = new Set<string>();
  const isOpenObject = (node: SchemaNode): boolean => {
    const ap = node["additionalProperties"];
    return ap === true || (isSchemaNode(ap) && Object.keys(ap).length === 0);
  };
  for (const [name, node] of doc.defs) {
    if (!isSchemaNode(node)) continue;
    if (isOpenObject(node)) open.add(name);
    const keys = Object.keys(node).filter((k) => k !== "description" && k !== "title" && k !== "$comment");
    if (keys.length === 1 && node["type"] === "object") open.add(name);
  }
  // Inheritance, to a fixed point (an extension of an extension inherits too).
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, node] of doc.defs) {
      if (open.has(name) || !isSchemaNode(node) || node["type"] !== "object") continue;
      const base = [...open].find((b) => extendsBase(doc, name, node, b));
      if (base !== undefined) {
        open.add(name);
        changed = true;
      }
    }
  }
  return open;
}

/** The description's "Extends {@link Base}" (the spec's JSDoc for `interface X extends Base`), followed transitively. */
function extendsByDescription(doc: DefinitionTable, name: string, base: string, seen = new Set<string>()): boolean {
  const node = doc.defs.get(name);
  if (!isSchemaNode(node) || typeof node["description"] !== "string" || seen.has(name)) return false;
  seen.add(name);
  const parent = /^Extends \{@link (\w+)\}/.exec(node["description"])?.[1];
  return parent !== undefined && (parent === base || extendsByDescription(doc, parent, base, seen));
}

/** A property repeated from the base: unchanged, or narrowed to a definition that extends the base's (`_meta`). */
function repeats(doc: DefinitionTable, own: unknown, inherited: unknown): boolean {
  if (isDeepStrictEqual(own, inherited)) return true;
  if (!isSchemaNode(own) || !isSchemaNode(inherited)) return false;
  const ownRef = typeof own["$ref"] === "string" ? refName(doc, own["$ref"]) : null;
  const baseRef = typeof inherited["$ref"] === "string" ? refName(doc, inherited["$ref"]) : null;
  return ownRef !== null && baseRef !== null && extendsByDescription(doc, ownRef, baseRef);
}

function extendsBase(doc: DefinitionTable, name: string, node: SchemaNode, base: string): boolean {
  if (base === name) return false;
  if (extendsByDescription(doc, name, base)) return true;
  if (!name.endsWith(base)) return false;
  const baseNode = doc.defs.get(base);
  if (!isSchemaNode(baseNode) || !isSchemaNode(baseNode["properties"]) || !isSchemaNode(node["properties"])) return false;
  const baseProps = Object.entries(baseNode["properties"]);
  const props = node["properties"];
  return baseProps.length > 0 && baseProps.every(([k, v]) => repeats(doc, props[k], v));
}

const openByDoc = new WeakMap<SchemaDocument, ReadonlySet<unknown>>();

/**
 * Whether `node` is the schema node of a definition that is open in the spec's TypeScript
 * (`openDefinitions`): `mcp-stubgen diff` reads a missing `additionalProperties` there as an
 * index signature, as types.ts writes it.
 */
export function isOpenDefinitionNode(doc: SchemaDocument, node: unknown): boolean {
  let nodes = openByDoc.get(doc);
  if (nodes === undefined) {
    nodes = new Set([...openDefinitions(doc)].map((name) => doc.defs.get(name)));
    openByDoc.set(doc, nodes);
  }
  return nodes.has(node);
}

/** `{ type: "object", properties: {}, additionalProperties: true }` (and a description at most): TypeScript's `object`. */
export function isTsObject(node: SchemaNode): boolean {
  const keys = Object.keys(node).filter((k) => k !== "description" && k !== "title" && k !== "$comment");
  return (
    keys.length === 3 &&
    node["type"] === "object" &&
    node["additionalProperties"] === true &&
    isSchemaNode(node["properties"]) &&
    Object.keys(node["properties"]).length === 0
  );
}

/** A definition the spec's `schema.ts` types otherwise than its published schema says, and the evidence. */
export interface SpecTypeFact {
  readonly definition: string;
  /** The definition's schema shows the defect: the fact applies to this schema, whatever its revision's label. */
  readonly applies: (node: SchemaNode) => boolean;
  /** The type the spec's `schema.ts` writes. */
  readonly tsType: string;
  /** What the wire validators accept for it (the values of `tsType`): any JSON value. */
  readonly accepts: "any";
  readonly reason: string;
}

/**
 * Definitions whose published schema contradicts the spec's `schema.ts` (a fault of the schema's
 * generator), recognised by the faulty schema itself so that a revision the tool has never seen
 * gets the fact as long as its schema still has the fault. Kept to a minimum.
 */
export const SPEC_TYPE_FACTS: readonly SpecTypeFact[] = [
  {
    definition: "JSONValue",
    // 2026-07-28, draft: the anyOf ends in `type: [string, integer, boolean]`.
    applies: (node) => {
      const members = node["anyOf"];
      const last = Array.isArray(members) ? members.at(-1) : undefined;
      return isSchemaNode(last) && JSON.stringify(last["type"]) === JSON.stringify(["string", "integer", "boolean"]);
    },
    tsType: "string | number | boolean | null | JSONObject | JSONArray",
    accepts: "any",
    reason:
      "schema.ts includes null and numbers (`string | number | boolean | null | JSONObject | JSONArray`), but the schema's generator dropped them: " +
      "the schema's anyOf ends in `type: [string, integer, boolean]`, so nothing in schema.json says null or a fraction is allowed",
  },
];

/** The fact for this definition, if the table has one and the definition's schema shows its evidence. */
export function specTypeFact(definition: string, node: SchemaNode): SpecTypeFact | undefined {
  return SPEC_TYPE_FACTS.find((f) => f.definition === definition && f.applies(node));
}
