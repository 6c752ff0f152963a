// What both HTTP client transports (http-client.ts, 2026-07-28; http-session-client.ts, the
// session revisions) share below the SSE format: the `fetch` they call, their errors, the bound
// on what they read, a bounded body reader and the line splitter of an SSE body. The server
// reads its request body with the same reader (http-server.ts).

import { JsonDepthError } from "../core/json-depth.js";
import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import type { JsonObject, JsonRpcMessage, RequestId } from "../core/protocol.js";

/** The `fetch` the transport calls: the global one, or a wrapper (auth, logging, tests). */
export type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

/** The options both HTTP client transports take. */
export interface HttpClientBaseOptions {
  /** The MCP endpoint (one URL for every HTTP request). */
  readonly url: string | URL;
  /** Default: the global `fetch`. Wrap it to add authorization or to watch the traffic. */
  readonly fetch?: FetchLike | undefined;
  /** Extra headers on every HTTP request (the MCP headers win on a clash). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Largest JSON body, SSE line or SSE event (its data lines together) accepted from the server,
   * in bytes (default DEFAULT_MAX_HTTP_MESSAGE_BYTES, 4 MiB). Beyond it the stream is closed and
   * its request rejects with RequestStreamBrokenError: nothing grows without bound.
   */
  readonly maxMessageBytes?: number | undefined;
  /**
   * Deepest nesting of arrays and objects accepted in a message from the server (default 1000;
   * core/json-depth.ts): a deeper one is refused before it is parsed, as one that is not JSON.
   */
  readonly maxJsonDepth?: number | undefined;
}

/** Default bound of a body, a line or an event read from the server: 4 MiB. */
export const DEFAULT_MAX_HTTP_MESSAGE_BYTES: number = 4 * 1024 * 1024;

/**
 * A request's response stream broke before its response arrived (the connection dropped, the
 * stream ended without a response, the server sent more than `maxMessageBytes` in one piece,
 * or something that is not JSON-RPC). The request is lost: 2026-07-28 has no resumption
 * ("Resumable SSE streams via Last-Event-ID are not supported"), and re-issuing it is a new
 * request with a new id.
 */
export class RequestStreamBrokenError extends Error {
  override name = "RequestStreamBrokenError";
  readonly method: string;
  readonly requestId: RequestId;
  constructor(method: string, requestId: RequestId, problem: string) {
    super(`the response stream of ${method} (id ${String(requestId)}) broke: ${problem}`);
    this.method = method;
    this.requestId = requestId;
  }
}

/** The server answered a POST with an HTTP error status and no JSON-RPC error for it. */
export class HttpStatusError extends Error {
  override name = "HttpStatusError";
  readonly status: number;
  readonly method: string;
  constructor(method: string, status: number) {
    super(`${method}: the server answered HTTP ${status}`);
    this.status = status;
    this.method = method;
  }
}

/** `options.fetch`, else the global `fetch`; a TypeError when there is neither. */
export function fetchOf(given: FetchLike | undefined): FetchLike {
  const fetchFn = given ?? (typeof fetch === "function" ? (input: string | URL, init: RequestInit) => fetch(input, init) : undefined);
  if (fetchFn === undefined) throw new TypeError("no fetch: pass options.fetch");
  return fetchFn;
}

/** `maxMessageBytes` checked: an integer ≥ 1 (default DEFAULT_MAX_HTTP_MESSAGE_BYTES). */
export function maxBytesOf(value: number | undefined): number {
  return numberOption("maxMessageBytes", value, DEFAULT_MAX_HTTP_MESSAGE_BYTES, { min: 1 });
}

/** Why a server's text could not be read as a message ("… that ___"): too deep (refused before the parse), or not JSON. */
export function unreadable(error: unknown): string {
  return error instanceof JsonDepthError ? `nests deeper than ${error.maxDepth} levels (maxJsonDepth)` : "is not JSON";
}

/**
 * A JSON-RPC error response found in the body of an HTTP error (400 HeaderMismatch, 404 Method
 * not found, …), as the answer of request `id`: it belongs to that POST, so a missing or null id
 * is this request's. Undefined when the body is no such error.
 */
export function errorAnswer(message: unknown, id: RequestId): JsonObject | undefined {
  if (!isObject(message) || !isObject(message["error"])) return undefined;
  const own = message["id"];
  return own === undefined || own === null || own === id ? { ...message, id } : undefined;
}

/** Hands `error` to a user callback (onerror, onError) without letting the callback throw into the caller. */
export function report(callback: ((error: Error) => void) | undefined, error: unknown): void {
  try {
    callback?.(error instanceof Error ? error : new Error(String(error)));
  } catch {
    // A throwing callback must not break the transport or the handler.
  }
}

/** Hands a message to a transport's onmessage; what it throws goes to onerror (report). */
export function handOver(onmessage: ((message: JsonRpcMessage) => void) | undefined, message: JsonObject, onerror: ((error: Error) => void) | undefined): void {
  try {
    onmessage?.(message as unknown as JsonRpcMessage);
  } catch (error) {
    report(onerror, error);
  }
}

/** The media type of a Content-Type value (or of a response's), without parameters, lower case. */
export function mediaType(value: string | Response | null): string {
  const text = (typeof value === "string" || value === null ? value : value.headers.get("content-type")) ?? "";
  const semicolon = text.indexOf(";");
  return (semicolon < 0 ? text : text.slice(0, semicolon)).trim().toLowerCase();
}

/** The parts of a line or body as one array. */
export function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** What readBounded gives for a body over the bound (the rest is not read). */
export const TOO_LARGE: unique symbol = Symbol("too large");

/**
 * A whole body, at most `max` bytes: past it the read stops, the body is cancelled and the
 * answer is TOO_LARGE. A failing read rejects with the stream's error.
 */
export async function readBounded(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | typeof TOO_LARGE> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    parts.push(value);
  }
  return parts.length === 0 ? new Uint8Array(0) : concat(parts, size);
}

/**
 * Decodes each line whole; a BOM is kept (ignoreBOM): only the one at the start of the stream is
 * dropped (WHATWG: the stream is UTF-8 decoded once), which the SSE parser does, not one per line.
 */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** One line of an SSE body: its text and its size in bytes (without the line end). */
export interface SseLine {
  readonly text: string;
  readonly bytes: number;
}

/**
 * Splits an SSE body into lines as it arrives (WHATWG HTML, Server-sent events, Parsing an event
 * stream: a line ends with CRLF, LF or CR; a CRLF split across two chunks ends one line). Bounded:
 * a line of more than `max` bytes stops the splitting (`tooLong`) without being buffered further.
 */
export class SseLineSplitter {
  readonly #max: number;
  #line: Uint8Array[] = [];
  #size = 0;
  #afterCR = false;

  constructor(max: number) {
    this.#max = max;
  }

  /** The lines `bytes` completes, in order, and whether a line went over the bound (then stop reading). */
  push(bytes: Uint8Array): { readonly lines: readonly SseLine[]; readonly tooLong: boolean } {
    const lines: SseLine[] = [];
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b !== 0x0a && b !== 0x0d) continue;
      if (b === 0x0a && this.#afterCR && i === start && this.#size === 0) {
        // The LF of a CRLF split across chunks (or right after the CR).
        this.#afterCR = false;
        start = i + 1;
        continue;
      }
      const piece = bytes.subarray(start, i);
      this.#size += piece.byteLength;
      if (this.#size > this.#max) return { lines, tooLong: true };
      this.#line.push(piece);
      lines.push({ text: decoder.decode(concat(this.#line, this.#size)), bytes: this.#size });
      this.#line = [];
      this.#size = 0;
      this.#afterCR = b === 0x0d;
      start = i + 1;
    }
    if (start < bytes.length) {
      const piece = bytes.subarray(start);
      this.#size += piece.byteLength;
      if (this.#size > this.#max) return { lines, tooLong: true };
      this.#line.push(piece);
      this.#afterCR = false;
    }
    return { lines, tooLong: false };
  }
}
