import { compile, type JSONSchema } from "json-schema-to-typescript";
import type { DefinitionTable, SchemaNode } from "../load/schema-document.js";
import { isSchemaNode, refName } from "../load/schema-document.js";
import { mapSubschemas } from "../load/schema-walk.js";
import { separateExtensionUnions } from "./extension-unions.js";
import { isTsObject, openDefinitions, specTypeFact } from "../model/spec-typing.js";

/** Name of the throw-away root type json-schema-to-typescript needs; removed from the output. */
const ROOT = "McpStubgenSchemaRoot";

/**
 * Emits every definition of the schema as an exported TypeScript type with the definition's
 * name, its description as JSDoc, and no `[k: string]: unknown` index signature unless the
 * schema allows additional properties. The one emitter that reads schema nodes: it takes the
 * definitions table the finished model carries (RevisionModel.typeSource), not the document.
 *
 * json-schema-to-typescript does the translation. Before it runs, every `$ref` to a definition
 * becomes a `tsType` naming that definition: the library then emits one type per definition
 * and never copies a referenced schema inline (which it otherwise does when a `$ref` carries a
 * sibling `description`, yielding `Annotations1`, `Annotations2`, … in 2025-11-25).
 */
export interface EmitTypesOptions {
  /**
   * Index signatures only where a definition's own schema writes `additionalProperties`: no
   * inherited ones, no open `{ type: "object" }` definitions. Object literals of results then
   * reject misspelt properties, at the price of assignability with the spec's `schema.ts`
   * (values of the spec's or an SDK's result types no longer fit ours). Default off.
   */
  readonly strictObjects?: boolean | undefined;
}

export async function emitTypes(doc: DefinitionTable, revision: string, options: EmitTypesOptions = {}): Promise<string> {
  const definitions: Record<string, JSONSchema> = {};
  const open = options.strictObjects === true ? new Set<string>() : openDefinitions(doc);
  // With an extension merged: the spec's own direction unions, and `…WithExtensions` beside them.
  const defs = separateExtensionUnions(doc);
  for (const [name, node] of defs) {
    const schema = refsToTsType(doc, node) as JSONSchema;
    // Open in the spec's TypeScript (see spec-typing.ts): an index signature, as the spec has.
    if (open.has(name) && schema.additionalProperties === undefined) schema.additionalProperties = {};
    // A definition whose published schema contradicts the spec's schema.ts (a table in spec-typing.ts, one reason per entry).
    const fact = specTypeFact(name, node);
    definitions[name] = fact === undefined ? schema : ({ description: schema.description, tsType: fact.tsType } as JSONSchema);
  }
  const raw = await compile(
    { title: ROOT, type: "object", properties: {}, additionalProperties: false, definitions },
    ROOT,
    {
      bannerComment: "",
      additionalProperties: false,
      unreachableDefinitions: true,
      declareExternallyReferenced: true,
      format: false,
      strictIndexSignatures: false,
      ignoreMinAndMaxItems: true,
      // Keep definition names exactly as the schema spells them (the default would re-case them).
      customName: (_schema, keyName) => keyName,
    },
  );
  return inSchemaOrder(indent(rewriteDocComments(dropRoot(raw), doc, revision)), [...defs.keys()]);
}

/**
 * The library emits aliases before interfaces; put the declarations back in schema order so the
 * file reads like the schema. Each declaration starts with its doc comment at column 0.
 */
function inSchemaOrder(source: string, order: readonly string[]): string {
  const blocks = source.split(/\n(?=\/\*\*)/);
  const byName = new Map<string, string>();
  const rest: string[] = [];
  for (const block of blocks) {
    const name = /^export (?:interface|type) (\w+)/m.exec(block)?.[1];
    if (name !== undefined && !byName.has(name)) byName.set(name, block.trimEnd());
    else rest.push(block.trimEnd());
  }
  const ordered = order.flatMap((name) => {
    const block = byName.get(name);
    byName.delete(name);
    return block === undefined ? [] : [block];
  });
  return [...ordered, ...byName.values(), ...rest].join("\n\n") + "\n";
}

/** A schema with none of these accepts any JSON value. */
const CONSTRAINS_TYPE = ["type", "$ref", "anyOf", "allOf", "oneOf", "enum", "const", "properties", "patternProperties", "items", "additionalProperties", "not", "tsType"];

/**
 * Prepares a schema node for the library: `$ref`s to definitions become `tsType: Name`; a
 * schema that says nothing about its type (only a description, as CallToolResult's
 * `structuredContent`) becomes `unknown` rather than the library's guess of an object; the
 * `false` schema (`{ not: {} }`) becomes `never`; and `title` is dropped, since the library
 * would declare a titled sub-schema as a separate type under that title.
 */
function refsToTsType(doc: DefinitionTable, node: unknown): unknown {
  if (!isSchemaNode(node)) return node;
  const out = mapSubschemas(node, (child) => refsToTsType(doc, child));
  delete out["title"];
  if (typeof node["$ref"] === "string") {
    // Refs that do not name a definition (rare) stay for the library to resolve.
    const name = refName(doc, node["$ref"]);
    if (name !== null) {
      delete out["$ref"];
      out["tsType"] = name;
    }
  }
  const keys = Object.keys(node);
  if (keys.length === 1 && isSchemaNode(node["not"]) && Object.keys(node["not"]).length === 0) out["tsType"] = "never";
  if (!CONSTRAINS_TYPE.some((k) => k in node)) out["tsType"] = "unknown";
  if (isTsObject(node)) out["tsType"] = "object";
  return out satisfies SchemaNode;
}

function dropRoot(source: string): string {
  const lines = source.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`export interface ${ROOT} `) || l.startsWith(`export type ${ROOT} `));
  if (start < 0) return source;
  let end = start;
  if (lines[start]!.trimEnd().endsWith("{")) while (end < lines.length && lines[end] !== "}") end++;
  // Also drop a doc comment right above it.
  let from = start;
  if (lines[from - 1]?.trim() === "*/") while (from > 0 && !lines[from - 1]!.startsWith("/**")) from--;
  if (from !== start) from--;
  lines.splice(from, end - from + 1);
  return lines.join("\n");
}

/** Replaces the library's "referenced by … via the `definition`" note with the schema location. */
function rewriteDocComments(source: string, doc: DefinitionTable, revision: string): string {
  const fromExtension = new Map((doc.extensions ?? []).flatMap((ext) => ext.definitions.map((name): [string, typeof ext] => [name, ext])));
  return source.replace(
    new RegExp(` \\* This interface was referenced by \`${ROOT}\`'s JSON-Schema\\n \\* via the \`definition\` "([^"]+)"\\.`, "g"),
    (_m, name: string) => {
      const ext = fromExtension.get(name);
      // A union the schema does not have (extension-unions.ts: `…WithExtensions`).
      if (!doc.defs.has(name)) return ` * Not a definition of the schema: made by mcp-stubgen for the merged extensions.`;
      return ext === undefined ? ` * MCP ${revision} schema: \`#/${doc.defsKey}/${name}\`` : ` * MCP extension ${ext.id} schema: \`#/${ext.defsKey}/${name}\``;
    },
  );
}

/** Indents the unformatted output by bracket depth (strings and comments are skipped). */
export function indent(source: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const rawLine of source.split("\n")) {
    const line = rawLine.trim();
    if (line === "") {
      out.push("");
      continue;
    }
    if (line.startsWith("/*") || line.startsWith("*")) {
      out.push("  ".repeat(depth) + (line.startsWith("*") ? ` ${line}` : line));
      continue;
    }
    const { leadingClosers, net } = bracketBalance(line);
    out.push("  ".repeat(Math.max(0, depth - leadingClosers)) + line);
    depth = Math.max(0, depth + net);
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n").trim() + "\n";
}

function bracketBalance(line: string): { leadingClosers: number; net: number } {
  let net = 0;
  let leadingClosers = 0;
  let leading = true;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      for (i++; i < line.length && line[i] !== ch; i++) if (line[i] === "\\") i++;
      leading = false;
      continue;
    }
    if (ch === "{" || ch === "(" || ch === "[") {
      net++;
      leading = false;
    } else if (ch === "}" || ch === ")" || ch === "]") {
      net--;
      if (leading) leadingClosers++;
    } else if (ch !== " ") {
      leading = false;
    }
  }
  return { leadingClosers, net };
}
