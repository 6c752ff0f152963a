// A request body as the servers take it: bytes bounded in size (the face reads them), then JSON
// bounded in nesting before it is parsed (core/json-depth.ts). Everything here is a peer's:
// nothing grows or recurses without a bound.

import { nestsDeeperThan } from "../../core/json-depth.js";
import { BROKEN, TOO_LARGE, type BodyRead } from "./call.js";
import { PARSE_ERROR, type Refusal } from "./replies.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The refusal of a body the face could not read whole: over the bound (413, the connection closes), or broken (400). */
export function bodyRefusal(read: typeof TOO_LARGE | typeof BROKEN, max: number): Refusal {
  return read === TOO_LARGE
    ? { status: 413, message: `Payload Too Large: the body exceeds ${max} bytes`, headers: { connection: "close" } }
    : { status: 400, message: "Bad Request: the body could not be read" };
}

/** The parsed body, or the refusal: nested deeper than `maxDepth` (400), not UTF-8 or not JSON (400 Parse error). */
export function parseBody(read: BodyRead, maxBytes: number, maxDepth: number): { readonly value: unknown } | Refusal {
  if (read === TOO_LARGE || read === BROKEN) return bodyRefusal(read, maxBytes);
  if (nestsDeeperThan(read, maxDepth)) return { status: 400, message: `Bad Request: the body nests deeper than ${maxDepth} levels (maxJsonDepth)` };
  try {
    return { value: JSON.parse(decoder.decode(read)) as unknown };
  } catch {
    return PARSE_ERROR;
  }
}
