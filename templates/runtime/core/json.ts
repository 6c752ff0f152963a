// The ground floor of the runtime: tiny helpers on JSON values (and on what handlers return) that
// every other module uses.
// It imports nothing, so anything may import it without a cycle.

/** Params or result objects on the wire (an object, not an array, not null). */
export type JsonObject = { [key: string]: unknown };

/** An object, not an array and not null: the shape of params, results, `_meta` and schemas. */
export const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** A JSON-RPC request id: a string or an integer (JSON-RPC 2.0; MCP forbids null). */
export const isRequestId = (id: unknown): id is string | number => typeof id === "string" || (typeof id === "number" && Number.isInteger(id));

/** A promise or another thenable: what a handler returns when it answers later rather than at once. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
