/**
 * The direction unions of a document with extensions merged, as types.ts writes them: the core
 * union keeps the spec's own members (an SDK that checks `ClientRequest` against the spec's
 * schema.ts gets the spec's), and `<Union>WithExtensions` (right after it) is the core union or
 * the extensions' messages: the merge (model/merge-extension.ts) appended them to the union the
 * model reads. A document without extensions, or a union no extension added to, is unchanged.
 * Pure.
 */
import { isSchemaNode, refName, type DefinitionTable, type SchemaNode } from "../load/schema-document.js";

/** The unions an extension's messages join (merge-extension.ts: `${side}${Request|Notification}`). */
export const DIRECTION_UNIONS: readonly string[] = ["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"];

/** The suffix of the union with the extensions' messages. */
export const WITH_EXTENSIONS = "WithExtensions";

/** `doc.defs` with each direction union split into the core's and `…WithExtensions`. */
export function separateExtensionUnions(doc: DefinitionTable): ReadonlyMap<string, SchemaNode> {
  const added = new Set((doc.extensions ?? []).flatMap((ext) => ext.definitions));
  if (added.size === 0) return doc.defs;
  const out = new Map<string, SchemaNode>();
  for (const [name, node] of doc.defs) {
    const members = DIRECTION_UNIONS.includes(name) && Array.isArray(node["anyOf"]) ? node["anyOf"].filter(isSchemaNode) : [];
    const fromExtension = (member: SchemaNode) => added.has(refName(doc, member["$ref"]) ?? "");
    const extra = members.filter(fromExtension);
    if (extra.length === 0) {
      out.set(name, node);
      continue;
    }
    const core = members.filter((m) => !fromExtension(m));
    const { anyOf: _, ...rest } = node;
    out.set(name, core.length === 1 ? { ...rest, ...core[0] } : { ...rest, anyOf: core });
    const names = (doc.extensions ?? []).map((ext) => ext.id).join(", ");
    out.set(`${name}${WITH_EXTENSIONS}`, {
      description: `${name} and the messages the extensions merged into this output (${names}) add to it.`,
      anyOf: [{ $ref: `#/${doc.defsKey}/${name}` }, ...extra],
    });
  }
  return out;
}
