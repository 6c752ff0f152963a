/**
 * The result fields the generated McpServer fills where a handler leaves them out (issue 30):
 * - `resultType: "complete"` (2026-07-28 and later, Result: "Servers implementing this protocol
 *   version MUST include this field"): on every client request whose complete results declare it;
 * - `cacheScope` and `ttlMs` (CacheableResult: the list results, resources/read, server/discover):
 *   on the client requests whose complete results all declare both, from the server's
 *   `resultDefaults` option.
 * A request's complete results are its results but InputRequiredResult (ctx.input.required() makes
 * those, where the revision has the pattern) and results that do not declare `resultType` as an own
 * property, or declare it as a const other than "complete" (an extension's task handle
 * is an `allOf`, and brings its own). Extension requests are left alone: their handlers are the
 * extension runtime's. Read from the schema: a revision without these properties gets nothing.
 */
import type { SchemaModel } from "./model.js";
import { definition, deref, isSchemaNode, type SchemaDocument } from "../load/schema-document.js";
import { propertiesOf } from "./lifecycle.js";

/** The result the multi round-trip pattern answers with; never a complete result. */
const INPUT_REQUIRED_RESULT = "InputRequiredResult";
/** The field every 2026-07-28 result carries, filled with "complete". */
const RESULT_TYPE = "resultType";
const COMPLETE = "complete";
/** The fields of CacheableResult, filled from the server's resultDefaults option. */
const CACHE_FIELDS = ["cacheScope", "ttlMs"] as const;

export type DefaultedField = typeof RESULT_TYPE | (typeof CACHE_FIELDS)[number];

/** One client request whose handler results get defaults. */
export interface ResultDefaultsRecord {
  readonly method: string;
  /** Its complete result types (definition names), in the order the schema gives them. */
  readonly results: readonly string[];
  /** Its results that are neither complete nor InputRequiredResult (a task handle): typed as they are. */
  readonly others: readonly string[];
  /** The fields filled where the handler's result has none. */
  readonly fields: readonly DefaultedField[];
}

/** The requests whose results get defaults, sorted by method; empty where the schema has no `resultType`. Pure. */
export function resultDefaultsModel(doc: SchemaDocument, model: SchemaModel, inputMethods: readonly string[] = []): readonly ResultDefaultsRecord[] {
  const records: ResultDefaultsRecord[] = [];
  for (const m of model.methods) {
    if (m.kind !== "request" || !m.from.includes("client") || m.extension !== undefined || m.results === null) continue;
    // Where the multi round-trip pattern is the revision's (`inputMethods`), ctx.input.required()
    // makes the InputRequiredResult and types it; elsewhere it is a result like the others.
    const candidates = m.results.filter((name) => name !== INPUT_REQUIRED_RESULT || !inputMethods.includes(m.method));
    const results = candidates.filter((name) => propertiesOf(doc, name).has(RESULT_TYPE) && resultTypeAllowsComplete(doc, name));
    if (results.length === 0) continue;
    const cacheable = results.every((name) => CACHE_FIELDS.every((field) => propertiesOf(doc, name).has(field)));
    records.push({
      method: m.method,
      results,
      others: candidates.filter((name) => !results.includes(name)),
      fields: cacheable ? [RESULT_TYPE, ...CACHE_FIELDS] : [RESULT_TYPE],
    });
  }
  return records;
}

/** Whether a result's `resultType` may be "complete": anything but a `const` (or one-value `enum`) of another value. */
function resultTypeAllowsComplete(doc: SchemaDocument, name: string): boolean {
  const at = definition(doc, name);
  if (at === null) return false;
  const properties = deref(doc, at).node["properties"];
  const node = isSchemaNode(properties) ? properties[RESULT_TYPE] : undefined;
  if (!isSchemaNode(node)) return true;
  if (node["const"] !== undefined) return node["const"] === COMPLETE;
  const values = node["enum"];
  return !Array.isArray(values) || values.includes(COMPLETE);
}
