import { join } from "./json-pointer.js";
import { isSchemaNode, type SchemaNode } from "./schema-document-types.js";

/**
 * Where JSON Schema keywords hold sub-schemas. Walking only these (and not every object in the
 * document) keeps property *names* such as "$ref", "const" or "title" from being read as
 * keywords.
 */
const ONE_SCHEMA = new Set(["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems", "additionalItems"]);
const SCHEMA_LIST = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);
const SCHEMA_MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** Calls `visit` for each direct sub-schema of `node` with its pointer. */
export function forEachSubschema(node: SchemaNode, pointer: string, visit: (child: unknown, pointer: string) => void): void {
  for (const [key, value] of Object.entries(node)) {
    if (ONE_SCHEMA.has(key)) {
      if (Array.isArray(value)) value.forEach((v, i) => visit(v, join(pointer, key, i)));
      else visit(value, join(pointer, key));
    } else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
      value.forEach((v, i) => visit(v, join(pointer, key, i)));
    } else if (SCHEMA_MAP.has(key) && isSchemaNode(value)) {
      for (const [name, v] of Object.entries(value)) visit(v, join(pointer, key, name));
    }
  }
}

/** Rebuilds a schema node, mapping each direct sub-schema through `map` (other keywords copied). */
export function mapSubschemas(node: SchemaNode, map: (child: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (ONE_SCHEMA.has(key)) out[key] = Array.isArray(value) ? value.map(map) : map(value);
    else if (SCHEMA_LIST.has(key) && Array.isArray(value)) out[key] = value.map(map);
    else if (SCHEMA_MAP.has(key) && isSchemaNode(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v)]));
    else out[key] = value;
  }
  return out;
}
