// The `x-mcp-header` codec of Streamable HTTP (2026-07-28 basic/transports/streamable-http,
// "Custom Headers from Tool Parameters" and "Value Encoding"), one for both sides: the client
// mirrors annotated tool arguments into `Mcp-Param-*` headers (and encodes `Mcp-Name`), the
// server checks them against the body. Both read a tool's annotations with the same scan, so
// they agree on which tools are valid and which headers a call carries.

import { isObject } from "../core/json.js";
import { describeValue } from "../core/protocol.js";

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** What a client may send unencoded: visible ASCII, space and tab, not starting or ending with whitespace (Value Encoding). */
const PLAIN_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)$/;
/** What a header field value may carry at all: visible ASCII, space and tab (RFC 9110, Field Values). */
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;
/** Canonical Base64: full quads, correct padding only at the end (the SEP-2243 test table rejects the rest). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 9110 token (`1*tchar`): the `x-mcp-header` name constraint (Schema Extension). */
export const TOKEN: RegExp = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Decimal numbers as a header may write an integer (Server Validation: compare numerically). */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

const isSentinel = (value: string): boolean =>
  value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length && value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);

/**
 * A value as an `Mcp-Name` or `Mcp-Param-*` header value (Value Encoding): as it is when it is
 * plain visible ASCII without leading or trailing whitespace and does not look like the
 * sentinel, else `=?base64?{Base64 of its UTF-8}?=` (the empty string too, which a plain header
 * could not tell from a missing one).
 */
export function encodeHeaderValue(value: string): string {
  if (PLAIN_VALUE.test(value) && !isSentinel(value)) return value;
  const bytes = encoder.encode(value);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/**
 * A header value as the client meant it: the UTF-8 text inside a `=?base64?…?=` sentinel, or the
 * value itself. null: invalid (a sentinel that is not canonical Base64 of UTF-8, or characters a
 * header may not carry), which the server MUST reject.
 */
export function decodeHeaderValue(value: string): string | null {
  if (!isSentinel(value)) return FIELD_VALUE.test(value) ? value : null;
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(payload)) return null;
  try {
    const binary = atob(payload);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/** One `x-mcp-header` annotation of a tool: the argument's path of `properties` keys and the header name. */
export interface ToolHeader {
  readonly path: readonly string[];
  readonly header: string;
}

/** Deepest nesting of an inputSchema the scan walks; a deeper one makes the tool invalid. */
export const MAX_SCHEMA_DEPTH = 64;
/**
 * Most objects and arrays the scan visits in one inputSchema; a larger one makes the tool
 * invalid. It bounds the work on a schema object shared under many properties (exponential as
 * a tree) or a cycle, which a server's own handler objects can have.
 */
export const MAX_SCHEMA_NODES = 10_000;

/** The types an annotated parameter may have ("primitive types (integer, string, boolean)"; not number). */
const HEADER_TYPES: ReadonlySet<unknown> = new Set(["string", "integer", "boolean"]);

/**
 * The `x-mcp-header` annotations of a tool's inputSchema, or the reason the tool is invalid
 * (Schema Extension). One rule for both sides: any bad annotation makes the whole tool invalid
 * ("An x-mcp-header annotation anywhere else makes the annotation — and thus the tool definition
 * — invalid"; a client "MUST exclude the invalid tool from the result of tools/list", so a
 * server expects no header for it). Bad: a name that is not a token, a duplicate
 * (case-insensitive), a parameter type other than string, integer or boolean, or an annotation
 * not reachable from the root through `properties` keys alone; and a schema nested deeper than
 * MAX_SCHEMA_DEPTH or larger than MAX_SCHEMA_NODES.
 */
export function toolHeaders(inputSchema: unknown): ToolHeader[] | string {
  const found: ToolHeader[] = [];
  const seen = new Set<string>();
  let nodes = 0;
  // path: the chain of properties keys, or null once the walk left such a chain.
  const visit = (node: unknown, path: string[] | null, depth: number): string | null => {
    if (node === null || typeof node !== "object") return null;
    if (depth > MAX_SCHEMA_DEPTH) return `inputSchema is nested deeper than ${MAX_SCHEMA_DEPTH}`;
    if (++nodes > MAX_SCHEMA_NODES) return `inputSchema has more than ${MAX_SCHEMA_NODES} objects`;
    if (Array.isArray(node)) {
      for (const item of node) {
        const problem = visit(item, null, depth + 1);
        if (problem !== null) return problem;
      }
      return null;
    }
    const schema = node as Record<string, unknown>;
    if (Object.hasOwn(schema, "x-mcp-header")) {
      const header = schema["x-mcp-header"];
      if (path === null || path.length === 0) return "an x-mcp-header annotation is not reachable through properties alone";
      if (typeof header !== "string" || !TOKEN.test(header)) return `x-mcp-header ${describeValue(header)} is not an HTTP token`;
      if (!HEADER_TYPES.has(schema["type"])) return `x-mcp-header ${header} is on a parameter of type ${describeValue(schema["type"])}`;
      const key = header.toLowerCase();
      if (seen.has(key)) return `x-mcp-header ${header} is not unique`;
      seen.add(key);
      found.push({ path, header });
    }
    for (const key of Object.keys(schema)) {
      const child = schema[key];
      if (key === "properties" && isObject(child)) {
        for (const name of Object.keys(child)) {
          const problem = visit(child[name], path === null ? null : [...path, name], depth + 1);
          if (problem !== null) return problem;
        }
      } else {
        const problem = visit(child, null, depth + 1);
        if (problem !== null) return problem;
      }
    }
    return null;
  };
  return visit(inputSchema, [], 0) ?? found;
}

/** The argument at an annotation's path (own properties only), or undefined when there is none (Header extraction). */
export function argumentAt(args: unknown, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** An argument as a header value (Value Encoding, type conversion), or undefined to omit the header. */
export function headerArgument(args: unknown, path: readonly string[]): string | undefined {
  const value = argumentAt(args, path);
  if (typeof value === "string") return encodeHeaderValue(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** Whether a decoded header value stands for the body's value (Server Validation: numbers compare numerically). */
export function headerMatches(decoded: string, value: string | number | boolean): boolean {
  return typeof value === "number" ? DECIMAL.test(decoded) && Number(decoded) === value : decoded === String(value);
}
