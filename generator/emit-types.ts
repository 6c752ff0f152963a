import { compile, type JSONSchema } from "json-schema-to-typescript";
import type { SchemaDocument, SchemaNode } from "./schema-document.js";
import { isSchemaNode, refName } from "./schema-document.js";

/** Name of the throw-away root type json-schema-to-typescript needs; removed from the output. */
const ROOT = "McpStubgenSchemaRoot";

/**
 * Emits every definition of the schema as an exported TypeScript type with the definition's
 * name, its description as JSDoc, and no `[k: string]: unknown` index signature unless the
 * schema allows additional properties.
 *
 * json-schema-to-typescript does the translation. Before it runs, every `$ref` to a definition
 * becomes a `tsType` naming that definition: the library then emits one type per definition
 * and never copies a referenced schema inline (which it otherwise does when a `$ref` carries a
 * sibling `description`, yielding `Annotations1`, `Annotations2`, … in 2025-11-25).
 */
export async function emitTypes(doc: SchemaDocument, revision: string): Promise<string> {
  const definitions: Record<string, JSONSchema> = {};
  for (const [name, node] of doc.defs) definitions[name] = refsToTsType(doc, node) as JSONSchema;
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
  return inSchemaOrder(indent(rewriteDocComments(dropRoot(raw), doc, revision)), [...doc.defs.keys()]);
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

/** Keywords whose value is one schema, a list of schemas, or a map of name → schema. */
const ONE_SCHEMA = new Set(["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"]);
const SCHEMA_LIST = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);
const SCHEMA_MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** A schema with none of these accepts any JSON value. */
const CONSTRAINS_TYPE = ["type", "$ref", "anyOf", "allOf", "oneOf", "enum", "const", "properties", "patternProperties", "items", "additionalProperties", "not", "tsType"];

/**
 * Prepares a schema node for the library: `$ref`s to definitions become `tsType: Name`, and a
 * schema that says nothing about its type (only a description, as CallToolResult's
 * `structuredContent`) becomes `unknown` rather than the library's guess of an object.
 */
function refsToTsType(doc: SchemaDocument, node: unknown): unknown {
  if (!isSchemaNode(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref") {
      // Refs that do not name a definition (rare) stay for the library to resolve.
      const name = refName(doc, value);
      if (name !== null) out["tsType"] = name;
      else out[key] = value;
    } else if (ONE_SCHEMA.has(key)) {
      out[key] = Array.isArray(value) ? value.map((v) => refsToTsType(doc, v)) : refsToTsType(doc, value);
    } else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
      out[key] = value.map((v) => refsToTsType(doc, v));
    } else if (SCHEMA_MAP.has(key) && isSchemaNode(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, refsToTsType(doc, v)]));
    } else {
      out[key] = value;
    }
  }
  if (!CONSTRAINS_TYPE.some((k) => k in node)) out["tsType"] = "unknown";
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
function rewriteDocComments(source: string, doc: SchemaDocument, revision: string): string {
  return source.replace(
    new RegExp(` \\* This interface was referenced by \`${ROOT}\`'s JSON-Schema\\n \\* via the \`definition\` "([^"]+)"\\.`, "g"),
    (_m, name: string) => ` * MCP ${revision} schema: \`#/${doc.defsKey}/${name}\``,
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
