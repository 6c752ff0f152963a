/**
 * The result fields the generated McpServer fills where a handler leaves them out (issue 30):
 * - `resultType: "complete"` (2026-07-28 and later, Result: "Servers implementing this protocol
 *   version MUST include this field"): on every client request whose complete results declare it;
 * - `cacheScope` and `ttlMs` (CacheableResult: the list results, resources/read, server/discover):
 *   on the client requests whose complete results all declare both, from the server's
 *   `resultDefaults` option.
 * A request's complete results are its results but InputRequiredResult (ctx.input.required() makes
 * those) and results that do not declare `resultType` as an own property (an extension's task handle
 * is an `allOf`, and brings its own). Extension requests are left alone: their handlers are the
 * extension runtime's. Read from the schema: a revision without these properties gets nothing.
 */
import type { SchemaModel } from "./model.js";
import type { SchemaDocument } from "../load/schema-document.js";
import { propertiesOf } from "./lifecycle.js";

/** The result the multi round-trip pattern answers with; never a complete result. */
const INPUT_REQUIRED_RESULT = "InputRequiredResult";
/** The field every 2026-07-28 result carries, filled with "complete". */
const RESULT_TYPE = "resultType";
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
export function resultDefaultsModel(doc: SchemaDocument, model: SchemaModel): readonly ResultDefaultsRecord[] {
  const records: ResultDefaultsRecord[] = [];
  for (const m of model.methods) {
    if (m.kind !== "request" || !m.from.includes("client") || m.extension !== undefined || m.results === null) continue;
    const candidates = m.results.filter((name) => name !== INPUT_REQUIRED_RESULT);
    const results = candidates.filter((name) => propertiesOf(doc, name).has(RESULT_TYPE));
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
