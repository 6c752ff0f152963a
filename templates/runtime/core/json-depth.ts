// JSON nesting bounded before a peer's text is parsed (issue 41: 2 M nested arrays cost about 3 s
// per JSON.parse, and the value then costs every walk over it). One pass over the text finds
// whether its arrays and objects nest deeper than a bound, stopping at the first level past it,
// so a hostile text is judged in milliseconds; every transport that parses a peer's text asks it
// first: the HTTP servers (http/server/body.ts), stdio, MCPx frames and the HTTP clients.
//
// Not a validation: a text that is no JSON fails its parse after; brackets in strings (escapes
// included) do not count, stray closers only count down.

import { numberOption } from "./options.js";

/** Default bound of the JSON nesting of a request an HTTP server reads: 128 levels of arrays and objects. */
export const DEFAULT_MAX_JSON_DEPTH: number = 128;

/**
 * Default bound of the JSON nesting of a message on a transport that carries messages both ways
 * (stdio, MCPx, the HTTP clients): 1000 levels. Higher than a request's, as results nest deeper
 * (a tools/list result's input schemas may nest 64 levels of schema under the x-mcp-header rule,
 * about 130 levels of JSON); still far below what costs a parse anything (millions of levels).
 */
export const DEFAULT_MAX_MESSAGE_DEPTH: number = 1000;

/** `maxJsonDepth` checked where it is read: an integer from 8 to 100 000 (default `fallback`). */
export function maxJsonDepthOption(value: unknown, fallback: number = DEFAULT_MAX_JSON_DEPTH): number {
  return numberOption("maxJsonDepth", value, fallback, { min: 8, max: 100_000 });
}

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the JSON text in `bytes` (UTF-8) nests arrays and objects deeper than `max`, by one
 * pass over the bytes (strings skipped, escapes included). A text of 2·max bytes or fewer cannot:
 * every level opens and closes. Multi-byte UTF-8 never holds a bracket or a quote byte.
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

/** nestsDeeperThan of a text already decoded (an SSE event's data, a WebSocket frame): the same pass over its UTF-16 code units. */
export function textNestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= 2 * max || opensAtMost(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * Whether the text holds at most `max` `[` and `{` in all (strings included): then nothing nests
 * deeper than `max`. The common case (a message has a few dozen), found by the engine's own
 * indexOf rather than a loop over every byte.
 */
function opensAtMost(text: Uint8Array | string, max: number): boolean {
  let opens = 0;
  for (const open of typeof text === "string" ? ["[", "{"] : [OPEN_ARRAY, OPEN_OBJECT]) {
    for (let at = text.indexOf(open as never); at >= 0; at = text.indexOf(open as never, at + 1)) {
      if (++opens > max) return false;
    }
  }
  return true;
}

/** A peer's JSON text nested deeper than the bound: refused before it is parsed (a SyntaxError, as JSON.parse's own). */
export class JsonDepthError extends SyntaxError {
  override name = "JsonDepthError";
  /** The bound it went past. */
  readonly maxDepth: number;
  constructor(maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth} levels (maxJsonDepth)`);
    this.maxDepth = maxDepth;
  }
}

/** JSON.parse of a peer's text, refused with JsonDepthError when it nests deeper than `maxDepth`. */
export function parseJsonWithin(text: string, maxDepth: number): unknown {
  if (textNestsDeeperThan(text, maxDepth)) throw new JsonDepthError(maxDepth);
  return JSON.parse(text);
}
