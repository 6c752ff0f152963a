// Small checks of JSON-RPC 2.0 messages and of what handlers give, for the endpoint.

import { assignOwn, copyOwn, isObject } from "./json.js";
import { describeValue, type JsonObject, type OutgoingMessage, type RequestId } from "./protocol.js";

/**
 * The functions of a handler table, by method, from its own properties only: a method named
 * `constructor`, `toString` or `__proto__` finds nothing inherited from Object.prototype.
 */
export function ownHandlers<F>(table: Readonly<Record<string, F | undefined>> | undefined): Map<string, F> {
  const handlers = new Map<string, F>();
  if (table === undefined) return handlers;
  for (const method of Object.keys(table)) {
    const handler = table[method];
    if (typeof handler === "function") handlers.set(method, handler);
  }
  return handlers;
}

/** The message of a value a handler threw, without trusting it (a getter may throw). */
export function thrownMessage(error: unknown): string {
  try {
    if (error instanceof Error && typeof error.message === "string") return error.message;
  } catch {
    // fall through
  }
  return "Internal error";
}

/** What is wrong with a response object (`result` or `error` present), or null when it is valid. */
export function responseProblem(message: JsonObject): string | null {
  const hasError = "error" in message;
  if (hasError && "result" in message) return "it has both result and error";
  if (!hasError) return isObject(message["result"]) ? null : `result must be an object, got ${describeValue(message["result"])}`;
  const error = message["error"];
  if (!isObject(error)) return `error must be an object, got ${describeValue(error)}`;
  if (typeof error["code"] !== "number" || !Number.isInteger(error["code"])) return `error.code must be an integer, got ${describeValue(error["code"])}`;
  if (typeof error["message"] !== "string") return `error.message must be a string, got ${describeValue(error["message"])}`;
  return null;
}

/** A JSON-RPC error response; `id` null: the request's id could not be read. */
export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): OutgoingMessage {
  const error = data === undefined ? { code, message } : { code, message, data };
  return id === null ? { jsonrpc: "2.0", id: null, error } : { jsonrpc: "2.0", id, error };
}

/** Params with `_meta` filled from `fill` (the endpoint's requestMeta); keys the caller gave win (copies: copyOwn, not spread). */
export function withRequestMeta(fill: JsonObject | undefined, params: JsonObject | undefined): JsonObject | undefined {
  if (fill === undefined) return params;
  const own = isObject(params?.["_meta"]) ? params["_meta"] : undefined;
  const meta = copyOwn(fill);
  if (own !== undefined) assignOwn(meta, own);
  const filled = params === undefined ? {} : copyOwn(params);
  filled["_meta"] = meta;
  return filled;
}

/**
 * A result with `_meta` filled from `fill` (the endpoint's resultMeta); keys the handler gave
 * win, and a `_meta` that is not an object is the handler's to answer for (left as it is).
 */
export function withResultMeta(fill: JsonObject | undefined, result: JsonObject): JsonObject {
  if (fill === undefined) return result;
  const own = result["_meta"];
  if (own !== undefined && !isObject(own)) return result;
  const filled = copyOwn(result);
  filled["_meta"] = own === undefined ? fill : assignOwn(copyOwn(fill), own);
  return filled;
}
