/**
 * Merging an extension's schema into a revision's: the document the rest of the pipeline sees
 * when a revision is generated with `--extension ID`.
 *
 * Extension schemas are shaped unlike the core ones (the Tasks schema was generated from Zod):
 * their messages are `allOf` compositions of the JSON-RPC envelope, they carry copies of the
 * core types they use, and they have no direction unions. The merge:
 * - recognises a copied core type: a definition whose name the core has and whose schema equals
 *   the core's once annotations (description, title, examples, $comment, $schema, $id) are set
 *   aside is the core's, and is not added again; the same name with another schema is an error
 *   (the extension would redefine a core type);
 * - adds the extension's own definitions, each message flattened into the core's message shape
 *   (`{ properties: { id, jsonrpc, method, params }, required }`), so the model, the emitters and
 *   `diff` read it like any core message;
 * - adds each message to the direction unions its senders (the extension's table) send in.
 * Results the extension widens are the model's business (ModelOptions.extensions), and so is
 * the rest of the table. Pure: the core document is not changed.
 */
import { StubgenError } from "../errors.js";
import { join } from "../load/json-pointer.js";
import { isSchemaNode, refName, type ExtensionSource, type SchemaDocument, type SchemaNode } from "../load/schema-document.js";
import { mapSubschemas } from "../load/schema-walk.js";
import { extensionMethods, type ExtensionMethod, type ExtensionPolicy } from "./extensions.js";

/** Annotation keywords that do not change what a schema accepts. */
const ANNOTATIONS = new Set(["description", "title", "examples", "$comment", "$schema", "$id", "deprecated", "readOnly", "writeOnly"]);

export interface MergedExtension {
  readonly doc: SchemaDocument;
  /** The extension's messages with their senders (for the model's table checks). */
  readonly methods: readonly ExtensionMethod[];
  /** Definitions taken as the core's (same name, same schema), sorted. */
  readonly shared: readonly string[];
  /** Definitions the extension added, in its document order. */
  readonly added: readonly string[];
}

/** The core document with the extension merged in. Pure. */
export function mergeExtension(core: SchemaDocument, id: string, ext: SchemaDocument, policy: ExtensionPolicy | undefined): MergedExtension {
  const methods = extensionMethods(id, ext, policy);
  const messageByDef = new Map(methods.map((m) => [m.definition, m]));
  const defs = new Map(core.defs);
  const shared: string[] = [];
  const added: string[] = [];
  for (const [name, node] of ext.defs) {
    const pointer = join("", ext.defsKey, name);
    const own = withCoreRefs(ext, node, core.defsKey);
    const message = messageByDef.get(name);
    const coreNode = core.defs.get(name);
    if (coreNode !== undefined) {
      if (message === undefined && sameSchema(withoutAnnotations(own), withoutAnnotations(coreNode))) {
        shared.push(name);
        continue;
      }
      throw new StubgenError(
        `extension ${id} defines ${name}, which the core schema (${core.file}) defines differently; expected the core's schema ` +
          `(a copy that differs only in annotations) or another name`,
        { file: ext.file, pointer },
      );
    }
    defs.set(name, message === undefined ? withoutKey(own, "$schema") : flattenMessage(ext, message, own, core.defsKey));
    added.push(name);
  }
  const unionOf = { request: "Request", notification: "Notification" } as const;
  for (const message of methods) {
    for (const side of message.from) {
      const union = `${side === "client" ? "Client" : "Server"}${unionOf[message.kind]}`;
      defs.set(union, withMember(core, union, defs.get(union), message, side));
    }
  }
  const root: SchemaNode = { ...core.root, [core.defsKey]: Object.fromEntries(defs) };
  const extensions: ExtensionSource[] = [...(core.extensions ?? []), { id, file: ext.file, sha256: ext.sha256, defsKey: ext.defsKey, definitions: added }];
  return { doc: { ...core, defs, root, extensions }, methods, shared: shared.sort(), added };
}

/** The direction union with a `$ref` to the message appended to its `anyOf`. */
function withMember(core: SchemaDocument, union: string, node: SchemaNode | undefined, message: ExtensionMethod, side: string): SchemaNode {
  const defsKey = core.defsKey;
  const ref = { $ref: `#/${defsKey}/${message.definition}` };
  if (node === undefined) {
    throw new StubgenError(`expected a ${union} in the core schema: the extension's table says the ${side} sends ${message.method}`, {
      file: core.file,
      pointer: join("", core.defsKey),
    });
  }
  const list = node["anyOf"];
  if (Array.isArray(list)) return { ...node, anyOf: [...list, ref] };
  if (typeof node["$ref"] === "string") return { anyOf: [{ $ref: node["$ref"] }, ref] };
  throw new StubgenError(`expected ${union} to be an anyOf of message types or a single "$ref" to add ${message.method} to`, {
    file: core.file,
    pointer: join("", core.defsKey, union),
  });
}

/**
 * A message as the core writes one: the envelope's `id` (requests) and `jsonrpc`, and the
 * member's `method`, `params` and required list, with its description when it has one.
 */
function flattenMessage(ext: SchemaDocument, message: ExtensionMethod, node: SchemaNode, defsKey: string): SchemaNode {
  const members = Array.isArray(node["allOf"]) ? node["allOf"].filter(isSchemaNode) : [node];
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  if (message.kind === "request") {
    properties["id"] = { $ref: `#/${defsKey}/RequestId` };
    required.add("id");
  }
  properties["jsonrpc"] = { const: "2.0", type: "string" };
  required.add("jsonrpc");
  // A member's own keywords count, including those beside a `$ref` (2020-12 allows siblings);
  // the `$ref`'d envelope itself is replaced by the id and jsonrpc above.
  for (const member of members) {
    const props = member["properties"];
    if (isSchemaNode(props)) {
      for (const [key, value] of Object.entries(props)) if (key !== "id" && key !== "jsonrpc") properties[key] = value;
    }
    const list = member["required"];
    if (Array.isArray(list)) for (const key of list) if (typeof key === "string") required.add(key);
  }
  if (!isSchemaNode(properties["method"])) {
    throw new StubgenError(`expected the message ${message.method} to declare properties.method`, { file: ext.file, pointer: message.pointer });
  }
  const description = members.map((m) => m["description"]).find((d) => typeof d === "string") ?? node["description"];
  return {
    ...(typeof description === "string" ? { description } : {}),
    properties,
    required: [...required],
    type: "object",
  };
}

/** A copy of the node with `$ref`s into the extension's definitions rewritten to the core's key. */
function withCoreRefs(ext: SchemaDocument, node: SchemaNode, defsKey: string): SchemaNode {
  if (ext.defsKey === defsKey) return node;
  const rewrite = (value: unknown): unknown => {
    if (!isSchemaNode(value)) return value;
    const copy = mapSubschemas(value, rewrite);
    const name = refName(ext, copy["$ref"]);
    if (name !== null) copy["$ref"] = `#/${defsKey}/${name}`;
    return copy;
  };
  return rewrite(node) as SchemaNode;
}

function withoutKey(node: SchemaNode, key: string): SchemaNode {
  const { [key]: _, ...rest } = node;
  return rest;
}

/** The value with annotation keywords removed at every level (keeps property names that look like them). */
function withoutAnnotations(value: unknown, inProperties = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutAnnotations(item));
  if (!isSchemaNode(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!inProperties && ANNOTATIONS.has(key)) continue;
    if (!inProperties && (key === "const" || key === "enum" || key === "default")) out[key] = child;
    else out[key] = withoutAnnotations(child, !inProperties && (key === "properties" || key === "patternProperties" || key === "$defs" || key === "definitions"));
  }
  return out;
}

/** Deep equality of JSON values, object key order aside. */
function sameSchema(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameSchema(item, b[i]));
  }
  if (!isSchemaNode(a) || !isSchemaNode(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameSchema(a[key], b[key]));
}
