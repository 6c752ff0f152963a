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

/** Sets `target[key]` as a plain data property, even when `key` is `__proto__` (a key of the peer's or a handler's choosing). */
export function putOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `target` with the own enumerable properties of `source` copied onto it, each a plain data
 * property. Object.assign would [[Set]] an own `__proto__` key (JSON.parse makes them) and so
 * change the target's prototype; such a source is copied key by key with defineProperty.
 */
export function assignOwn(target: JsonObject, source: JsonObject): JsonObject {
  if (!Object.hasOwn(source, "__proto__")) return Object.assign(target, source);
  for (const key of Object.keys(source)) Object.defineProperty(target, key, { value: source[key], enumerable: true, writable: true, configurable: true });
  return target;
}

/**
 * A shallow copy of an object, for a copy the caller then adds a property to (a request's
 * `_meta`, a result's default fields). Not `{ ...object, key: value }`: on V8 (Node 20) a spread
 * followed by a new property gives each copy a hidden class of its own, so every later read of
 * the copy (the peer's dispatch, the schema checks, JSON.stringify) misses its inline caches
 * (measured: 430 ns per copy, then 1 µs per schema check of it, against 90 ns and 30 ns).
 */
export function copyOwn(object: JsonObject): JsonObject {
  return assignOwn({}, object);
}

/** UTF-8 length of a string without encoding it (JSON text has no lone surrogates: JSON.stringify escapes them). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    // 2 bytes below U+0800; a surrogate pair is 4 bytes for 2 units; the rest of the BMP is 3.
    bytes += unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
