// The one builder of the HTTP servers' JSON-RPC error responses, and the refusals the pipeline
// answers with. An error about the request as a whole has no `id` (2026-07-28
// basic/transports/streamable-http: the error response "has no `id`" when none can be named);
// one about a request names its id.

import { ErrorCode, type RequestId } from "../../core/protocol.js";
import type { HttpCall, ResponseHeaders } from "./call.js";

/** A request refused: the HTTP status, the JSON-RPC error, extra headers. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
  /** The JSON-RPC error code (default InvalidRequest; 500: InternalError). */
  readonly code?: number | undefined;
  /** The id of the request refused; undefined: none can be named. */
  readonly id?: RequestId | undefined;
  readonly data?: unknown;
  readonly headers?: ResponseHeaders | undefined;
  /** No body at all (the answer to a HEAD). */
  readonly empty?: boolean | undefined;
}

/** A web Response to send as it is (authenticate's refusals), or a refusal of ours. */
export type Answer = Refusal | Response;

export const JSON_HEADERS: ResponseHeaders = Object.freeze({ "content-type": "application/json" });

/** A JSON-RPC error response's text; `id` undefined: the response has no id. */
export function errorText(id: RequestId | undefined, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return JSON.stringify(id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error });
}

/** Headers of a JSON response with `extra` (the same object when there are none). */
export function jsonHeaders(extra: ResponseHeaders | undefined): ResponseHeaders {
  return extra === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...extra };
}

/** A refusal of status `status`: InvalidRequest, or InternalError for a 5xx, unless `code` says otherwise. */
export function refusal(status: number, message: string, extra: Omit<Refusal, "status" | "message"> = {}): Refusal {
  return { status, message, ...extra };
}

/** Writes a refusal (or an authenticate's Response) as the call's response. */
export function answer(call: HttpCall, refused: Answer): Promise<void> | void {
  if (refused instanceof Response) return call.respondWith(refused);
  if (refused.empty === true) return call.respond(refused.status, refused.headers ?? {});
  const code = refused.code ?? (refused.status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidRequest);
  call.respond(refused.status, jsonHeaders(refused.headers), errorText(refused.id, code, refused.message, refused.data));
}

/** The 500 of a server whose own code failed (the failure goes to onError). */
export const INTERNAL_ERROR: Refusal = Object.freeze({ status: 500, message: "Internal error", code: ErrorCode.InternalError });

/** The 400 of a body that is no JSON. */
export const PARSE_ERROR: Refusal = Object.freeze({ status: 400, message: "Parse error", code: ErrorCode.ParseError });
