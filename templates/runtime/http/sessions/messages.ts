// The messages of a session POST's body, checked before any reaches a session: one JSON-RPC
// message, or (2025-03-26 sessions) a batch of them (HTTP, Sending Messages to the Server 4-5).

import { classifyMessage, PARAMS_NOT_OBJECT } from "../../core/batch.js";
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

/** One message, or the 400 that refuses the whole body (the checks of core/batch.ts's classifyMessage). */
export function readMessage(value: unknown): Read | Refusal {
  const item = classifyMessage(value);
  if (typeof item !== "string") return { message: value as JsonRpcMessage, ...item };
  const id = isObject(value) && isRequestId(value["id"]) ? value["id"] : undefined;
  // The id of a request whose params are not an object is kept (its error names it).
  return invalid(item, item === PARAMS_NOT_OBJECT ? id : undefined);
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
