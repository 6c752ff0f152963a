// A request body as the servers take it: bytes bounded in size (the face reads them), then JSON
// bounded in nesting before it is parsed. Everything here is a peer's: nothing grows or recurses
// without a bound.

import { BROKEN, TOO_LARGE, type BodyRead } from "./call.js";
import { PARSE_ERROR, type Refusal } from "./replies.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the JSON text in `bytes` nests arrays and objects deeper than `max`, by one pass over
 * the bytes (strings skipped, escapes included). A text of 2·max bytes or fewer cannot: every
 * level opens and closes. Not a validation: a text that is no JSON fails its parse after.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  if (bytes.length <= 2 * max || opensAtMost(bytes, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * Whether `bytes` holds at most `max` bytes `[` and `{` in all (strings included): then nothing
 * nests deeper than `max`. The common case (a request has a few dozen), found by the engine's own
 * indexOf rather than a loop over every byte.
 */
function opensAtMost(bytes: Uint8Array, max: number): boolean {
  let opens = 0;
  for (const open of [OPEN_ARRAY, OPEN_OBJECT]) {
    for (let at = bytes.indexOf(open); at >= 0; at = bytes.indexOf(open, at + 1)) {
      if (++opens > max) return false;
    }
  }
  return true;
}

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
