// The messages of a session POST's body, checked before any reaches a session: one JSON-RPC
// message, or (2025-03-26 sessions) a batch of them (HTTP, Sending Messages to the Server 4-5).

import { isObject, isRequestId } from "../../core/json.js";
import type { JsonRpcMessage, RequestId } from "../../core/protocol.js";
import type { Refusal } from "../server/replies.js";

/** One message of a POST body, checked: what it is. */
export interface Read {
  readonly message: JsonRpcMessage;
  /** Its method; undefined: a response. */
  readonly method: string | undefined;
  readonly id: RequestId | undefined;
  /** A request (or a response): it has an id. */
  readonly hasId: boolean;
}

function invalid(text: string, id?: RequestId): Refusal {
  return { status: 400, id, message: `Invalid Request: ${text}` };
}

/** One message, or the 400 that refuses the whole body. */
export function readMessage(value: unknown): Read | Refusal {
  if (!isObject(value) || value["jsonrpc"] !== "2.0") return invalid("each message must be a JSON-RPC 2.0 object");
  const method = value["method"];
  const params = value["params"];
  const hasId = "id" in value;
  const id = value["id"];
  if (method !== undefined && typeof method !== "string") return invalid("method must be a string");
  if (params !== undefined && !isObject(params)) return invalid("params must be an object", isRequestId(id) ? id : undefined);
  if (hasId && !isRequestId(id)) return invalid("the id must be a string or an integer");
  if (method === undefined && !(hasId && ("result" in value || "error" in value))) return invalid("the message has no method");
  return { message: value as unknown as JsonRpcMessage, method, id: hasId ? (id as RequestId) : undefined, hasId };
}

/** Every message of a body (an array: each of it), or the first refusal. */
export function readMessages(body: unknown): readonly Read[] | Refusal {
  if (!Array.isArray(body)) {
    const one = readMessage(body);
    return "status" in one ? one : [one];
  }
  const read: Read[] = [];
  for (const value of body) {
    const one = readMessage(value);
    if ("status" in one) return one;
    read.push(one);
  }
  return read;
}
