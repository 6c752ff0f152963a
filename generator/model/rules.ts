import { StubgenError } from "../errors.js";
import { join } from "../load/json-pointer.js";
import type { SchemaModel } from "./model.js";
import type { RequestMetaPolicy, RevisionPolicy } from "./policy.js";
import { definition, isSchemaNode, type SchemaDocument } from "../load/schema-document.js";

/** The revision policy as the generated runtime reads it (the RULES constant of catalog.ts), checked against the schema. */
export type RevisionRules = Pick<
  RevisionPolicy,
  "cancellers" | "endableByReceiver" | "longLived" | "cancelByClosingStream" | "defaultTimeoutMs" | "defaultMaxTotalTimeoutMs"
> & { readonly requestMeta: Omit<RequestMetaPolicy, "type"> | null };

/**
 * Checks the policy against the schema and returns the rules the generated runtime reads. The
 * `_meta` keys must be properties of the policy's definition, and every method the policy
 * names must be a request of the schema: a revision whose schema disagrees with the table is
 * an error, never silently different stubs. Pure.
 */
export function revisionRules(doc: SchemaDocument, model: SchemaModel, policy: RevisionPolicy): RevisionRules {
  const requests = new Set(model.methods.filter((m) => m.kind === "request").map((m) => m.method));
  for (const [field, methods] of [
    ["endableByReceiver", policy.endableByReceiver],
    ["longLived", policy.longLived],
  ] as const) {
    const unknown = methods.find((m) => !requests.has(m));
    if (unknown !== undefined) {
      throw new StubgenError(`the ${model.revision} policy names ${unknown} in ${field}, but the schema has no such request`, { file: doc.file });
    }
  }
  let requestMeta: RevisionRules["requestMeta"] = null;
  if (policy.requestMeta !== null) {
    const { type, ...keys } = policy.requestMeta;
    const def = definition(doc, type);
    if (def === null) {
      throw new StubgenError(`expected a definition ${type} (the request _meta the client fills on every request)`, { file: doc.file, pointer: join("", doc.defsKey) });
    }
    const properties = def.node["properties"];
    for (const key of Object.values(keys)) {
      if (!isSchemaNode(properties) || !isSchemaNode(properties[key])) {
        throw new StubgenError(`expected ${type} to declare the property ${JSON.stringify(key)}`, { file: doc.file, pointer: join(def.pointer, "properties") });
      }
    }
    requestMeta = keys;
  }
  return {
    cancellers: policy.cancellers,
    endableByReceiver: policy.endableByReceiver,
    longLived: policy.longLived,
    cancelByClosingStream: policy.cancelByClosingStream,
    defaultTimeoutMs: policy.defaultTimeoutMs,
    defaultMaxTotalTimeoutMs: policy.defaultMaxTotalTimeoutMs,
    requestMeta,
  };
}
