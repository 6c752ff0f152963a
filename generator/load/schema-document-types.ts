/** A JSON Schema node as the MCP schemas use it (a plain JSON object). */
export type SchemaNode = { readonly [key: string]: unknown };

export function isSchemaNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
