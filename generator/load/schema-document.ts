import { createHash } from "node:crypto";
import { StubgenError } from "../errors.js";
import { join, resolvePointer, unescapeToken } from "./json-pointer.js";
import { parseJson } from "./parse-json.js";
import { isSchemaNode, type SchemaNode } from "./schema-document-types.js";
import { forEachSubschema } from "./schema-walk.js";

export { isSchemaNode, type SchemaNode } from "./schema-document-types.js";

/**
 * A loaded MCP schema: its definitions and where they live. Both dialects are read:
 * draft-07 keeps named schemas under `definitions`, 2020-12 under `$defs`.
 */
export interface SchemaDocument {
  /** Path or URL, for error messages. */
  readonly file: string;
  /** sha256 of the exact bytes read (hex). */
  readonly sha256: string;
  readonly dialect: "draft-07" | "2020-12";
  /** `definitions` or `$defs`. */
  readonly defsKey: "definitions" | "$defs";
  /** Named schemas in document order. */
  readonly defs: ReadonlyMap<string, SchemaNode>;
  readonly root: SchemaNode;
  /** Extensions merged into this document (generate --extension), in the order merged. */
  readonly extensions?: readonly ExtensionSource[];
}

/**
 * A document's named definitions, without its root, file or bytes: what reading definitions by
 * name (`refName`) and emitting their types needs.
 */
export type DefinitionTable = Pick<SchemaDocument, "defsKey" | "defs" | "extensions">;

/** An extension's schema a merged document was made from, for generated files' headers. */
export interface ExtensionSource {
  readonly id: string;
  readonly file: string;
  readonly sha256: string;
  /** `definitions` or `$defs` of the extension's schema. */
  readonly defsKey: "definitions" | "$defs";
  /** The definitions it added (not the core's it copies), in its document order. */
  readonly definitions: readonly string[];
}

export function sha256Hex(bytes: string | Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Parses and checks a schema: JSON syntax, a definitions table, and every `$ref` resolving. */
export function readSchemaDocument(text: string, file: string): SchemaDocument {
  const root = parseJson(text, file);
  if (!isSchemaNode(root)) {
    throw new StubgenError("expected a JSON Schema object at the top level", { file, pointer: "" });
  }
  const defsKey = isSchemaNode(root["$defs"]) ? "$defs" : isSchemaNode(root["definitions"]) ? "definitions" : null;
  if (defsKey === null) {
    throw new StubgenError('expected an object of named schemas under "$defs" (2020-12) or "definitions" (draft-07)', {
      file,
      pointer: "",
    });
  }
  const $schema = typeof root["$schema"] === "string" ? root["$schema"] : "";
  const dialect = $schema.includes("2020-12") || (!$schema && defsKey === "$defs") ? "2020-12" : "draft-07";
  const defs = new Map<string, SchemaNode>();
  for (const [name, node] of Object.entries(root[defsKey] as SchemaNode)) {
    if (!isSchemaNode(node) && typeof node !== "boolean") {
      throw new StubgenError("expected a schema (an object or a boolean)", { file, pointer: join("", defsKey, name) });
    }
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
      throw new StubgenError(`expected a definition name that is a TypeScript identifier, found ${JSON.stringify(name)}`, {
        file,
        pointer: join("", defsKey, name),
      });
    }
    defs.set(name, isSchemaNode(node) ? node : node ? {} : { not: {} });
  }
  const doc: SchemaDocument = { file, sha256: sha256Hex(text), dialect, defsKey, defs, root };
  checkRefs(doc);
  return doc;
}

/**
 * Every sub-schema must be a schema (an object or a boolean), and every `$ref` a local pointer
 * (`#/...`) that resolves inside the document. Walks the sub-schemas only, so a property that
 * happens to be named "$ref" is not taken for one.
 */
function checkRefs(doc: SchemaDocument): void {
  const visit = (node: unknown, pointer: string): void => {
    if (!isSchemaNode(node)) {
      if (typeof node === "boolean") return;
      const found = node === null ? "null" : Array.isArray(node) ? "an array" : `a ${typeof node}`;
      throw new StubgenError(`expected a schema (an object or a boolean), found ${found}`, { file: doc.file, pointer });
    }
    const ref = node["$ref"];
    if (ref !== undefined) {
      const at = join(pointer, "$ref");
      if (typeof ref !== "string" || !ref.startsWith("#")) {
        throw new StubgenError(`expected a local "$ref" ("#/${doc.defsKey}/Name"), found ${JSON.stringify(ref)}`, {
          file: doc.file,
          pointer: at,
        });
      }
      if (resolvePointer(doc.root, decodeURIComponent(ref.slice(1))) === undefined) {
        throw new StubgenError(`"$ref" ${JSON.stringify(ref)} does not resolve to anything in this schema`, {
          file: doc.file,
          pointer: at,
        });
      }
    }
    forEachSubschema(node, pointer, visit);
  };
  for (const [name, node] of doc.defs) visit(node, join("", doc.defsKey, name));
}

/** The definition name a `$ref` points at, when it is `#/<defsKey>/<Name>`; otherwise null. */
export function refName(doc: Pick<SchemaDocument, "defsKey" | "defs">, ref: unknown): string | null {
  if (typeof ref !== "string") return null;
  const prefix = `#/${doc.defsKey}/`;
  if (!ref.startsWith(prefix)) return null;
  const name = unescapeToken(decodeURIComponent(ref.slice(prefix.length)));
  return doc.defs.has(name) && !name.includes("/") ? name : null;
}

/** A schema node together with the pointer it was found at. */
export interface Located {
  readonly node: SchemaNode;
  readonly pointer: string;
  /** Definition name when the node is a named definition. */
  readonly name: string | null;
}

/** Follows `$ref`s (a node that is only a `$ref`, possibly with annotations) to the target. */
export function deref(doc: SchemaDocument, at: Located): Located {
  let current = at;
  const seen = new Set<string>();
  while (typeof current.node["$ref"] === "string") {
    const ref = current.node["$ref"];
    if (seen.has(ref)) {
      throw new StubgenError(`"$ref" cycle through ${ref}`, { file: doc.file, pointer: current.pointer });
    }
    seen.add(ref);
    const pointer = decodeURIComponent(ref.slice(1));
    const target = resolvePointer(doc.root, pointer);
    if (!isSchemaNode(target)) {
      throw new StubgenError(`expected "$ref" ${JSON.stringify(ref)} to point at a schema object`, {
        file: doc.file,
        pointer: join(current.pointer, "$ref"),
      });
    }
    current = { node: target, pointer, name: refName(doc, ref) };
  }
  return current;
}

export function definition(doc: SchemaDocument, name: string): Located | null {
  const node = doc.defs.get(name);
  return node ? { node, pointer: join("", doc.defsKey, name), name } : null;
}
