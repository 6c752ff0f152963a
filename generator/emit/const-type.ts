/**
 * The TypeScript type that `as const` gives a JSON value, written out: literals for strings,
 * numbers, booleans and null, `readonly [...]` tuples for arrays and `{ readonly k: ...; }` for
 * objects (keys in their order, `;` between members). The catalog annotates its exported constants with it, so that
 * the output passes `isolatedDeclarations` without losing the literal types. Pure.
 */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `key` as a property name of a type literal: bare when it is an identifier, else quoted. */
export function propertyName(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** The `as const` type of `value`, on one line. */
export function constType(value: JsonValue): string {
  if (value === null || typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`constType: ${value} is not a JSON number`);
    return value < 0 ? `-${JSON.stringify(-value)}` : JSON.stringify(value);
  }
  if (isArray(value)) return value.length === 0 ? "readonly []" : `readonly [${value.map(constType).join(", ")}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{ ${entries.map(([key, item]) => `readonly ${propertyName(key)}: ${constType(item)}`).join("; ")} }`;
}

function isArray(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/**
 * `value` as a TypeScript expression, one member per line (indented by `indent` spaces), keys
 * bare where they are identifiers: what the catalog writes for its constants. Pure.
 */
export function constValue(value: JsonValue, indent = 0): string {
  if (value === null || typeof value !== "object") return constType(value);
  const pad = " ".repeat(indent + 2);
  const close = " ".repeat(indent);
  if (isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) return `[${value.map(constType).join(", ")}]`;
    return `[\n${value.map((item) => `${pad}${constValue(item, indent + 2)},`).join("\n")}\n${close}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${pad}${propertyName(key)}: ${constValue(item, indent + 2)},`).join("\n")}\n${close}}`;
}
