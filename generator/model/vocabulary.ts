/**
 * The generator's shared vocabulary: the words every stage uses for a message (who sends it,
 * what kind it is) and for the TypeScript types that name its parts. One home, imported by the
 * model, the policy tables, the emitters and the diff; it imports nothing itself, so it can sit
 * under any of them without an import cycle.
 */

/** A side of an MCP conversation. */
export type Side = "client" | "server";

/** A message that expects an answer, or one that does not. */
export type MethodKind = "request" | "notification";

/**
 * A TypeScript type expression naming a type of `types.ts`: a definition (`CallToolRequestParams`),
 * or, where the schema inlines the params, the `params` property of the message type
 * (`PingRequest["params"]`, wrapped in `NonNullable<>` when the property is optional).
 */
export type TypeExpr =
  | { readonly kind: "named"; readonly name: string }
  | { readonly kind: "paramsOf"; readonly owner: TypeExpr; readonly optional: boolean }
  | { readonly kind: "memberOf"; readonly union: string; readonly method: string };

/** Renders a TypeExpr as TypeScript; `ns` prefixes definition names (e.g. `T.`). */
export function formatTypeExpr(expr: TypeExpr, ns = ""): string {
  switch (expr.kind) {
    case "named":
      return `${ns}${expr.name}`;
    case "memberOf":
      return `Extract<${ns}${expr.union}, { method: ${JSON.stringify(expr.method)} }>`;
    case "paramsOf": {
      const inner = `${formatTypeExpr(expr.owner, ns)}["params"]`;
      return expr.optional ? `NonNullable<${inner}>` : inner;
    }
  }
}

/**
 * A request's result as a TypeScript type, `ns` prefixing each name: `CallToolResult`,
 * `T.CallToolResult | T.InputRequiredResult`; null for notifications.
 */
export function formatResult(results: readonly string[] | null, ns = ""): string | null {
  return results && results.map((name) => `${ns}${name}`).join(" | ");
}
