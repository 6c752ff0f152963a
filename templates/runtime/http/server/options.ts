// The options every HTTP server of the runtime shares (createHttpHandler, createSessionHttpHandler,
// createLegacySseHandler), each read and checked once, where the handler is made: a bad value is
// a RangeError or TypeError naming it then, not a surprise at the first request.

import { maxJsonDepthOption } from "../../core/json-depth.js";
import { numberOption } from "../../core/options.js";
import { defaultLogger, describeValue, type Logger, type Principal } from "../../core/protocol.js";
import type { HttpRequestHead } from "./call.js";
import { checkGuardOptions, type GuardOptions } from "./guards.js";

/**
 * Who sent a request: a principal (`{ id, …claims }`), or a web Response to answer with instead
 * (401 with `WWW-Authenticate`, 403, …). It is given the request's head (a `Request` on the web
 * face; on node:http a view of the same method, url and headers), never its body, which is not
 * read yet.
 */
export type Authenticate = (request: HttpRequestHead) => Principal | Response | Promise<Principal | Response>;

/** The options of every HTTP handler; the Host/Origin rule's (dnsRebindingProtection, allowedHosts, allowedOrigins) are GuardOptions'. */
export interface HttpServerOptions extends GuardOptions {
  /**
   * Who sent each request (see Authenticate). Asked after the Host/Origin check and before
   * anything else, on every request, so that an unauthenticated client costs no body read. The
   * principal reaches handlers as `ctx.principal` and binds what the runtime keeps between
   * requests (sessions, tasks, `requestState`, listen streams) and the quotas per principal.
   * Default: none (every request is anonymous).
   */
  readonly authenticate?: Authenticate | undefined;
  /** Largest request body read, in bytes (default 4 MiB, at least 128); a larger one is refused with 413 and the connection closed. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Deepest nesting of arrays and objects accepted in a request body (default 128, at least 8):
   * a deeper body is refused with 400 before it is parsed, so that no later walk of it (the
   * validators, a handler, JSON.stringify) can be made to recurse without bound.
   */
  readonly maxJsonDepth?: number | undefined;
  /**
   * Interval (ms) of SSE comment lines on open response streams, so that idle long-lived streams
   * are not closed by intermediaries (Streamable HTTP, Receiving Messages). Default 15000; at
   * least 1000; 0: none.
   */
  readonly keepAliveMs?: number | undefined;
  /**
   * Bytes at most written to one SSE stream and not yet taken by its client (at least 1024;
   * each handler says its default). Sends on a stream wait while 64 KiB (or this bound, when
   * smaller) wait unread, so a sender that awaits them never reaches it; a write that would take
   * a stream with unread bytes past it ends that stream as its client's fault (each handler says
   * what that ends: a request, a stream, a session).
   */
  readonly maxStreamBufferBytes?: number | undefined;
  /** Failures of the HTTP layer itself (a stream that could not be written, a throwing authenticate). */
  readonly onError?: ((error: Error) => void) | undefined;
  /**
   * Warnings of the HTTP layer, one line each: a handler without `authenticate` that serves a
   * request arriving at an address other than loopback says so once. Default: stderr (as
   * McpServer's `logger`); null: none.
   */
  readonly logger?: Logger | null | undefined;
}

/** The shared options as read: every bound a number, `authenticate` a function or nothing. */
export interface ServerSettings {
  readonly authenticate: Authenticate | undefined;
  readonly guards: GuardOptions;
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly keepAliveMs: number;
  readonly maxStreamBufferBytes: number;
  readonly onError: ((error: Error) => void) | undefined;
  /** Where warnings go; null: nowhere. */
  readonly logger: Logger | null;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;

/** Reads the shared options; `maxStreamBufferBytes` defaults to the handler's own bound. */
export function readServerOptions(options: HttpServerOptions, defaults: { readonly maxStreamBufferBytes: number }): ServerSettings {
  if (typeof options !== "object" || options === null) throw new TypeError(`options must be an object, got ${describeValue(options)}`);
  checkGuardOptions(options);
  const { authenticate, onError, logger } = options;
  if (authenticate !== undefined && typeof authenticate !== "function") throw new TypeError(`authenticate must be a function, got ${describeValue(authenticate)}`);
  if (onError !== undefined && typeof onError !== "function") throw new TypeError(`onError must be a function, got ${describeValue(onError)}`);
  if (logger !== undefined && logger !== null && typeof logger !== "function") throw new TypeError(`logger must be a function or null, got ${describeValue(logger)}`);
  return {
    authenticate,
    guards: options,
    maxBodyBytes: numberOption("maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, { min: 128 }),
    maxJsonDepth: maxJsonDepthOption(options.maxJsonDepth),
    keepAliveMs: numberOption("keepAliveMs", options.keepAliveMs, DEFAULT_KEEP_ALIVE_MS, { min: 1000, zeroIsOff: true }),
    maxStreamBufferBytes: numberOption("maxStreamBufferBytes", options.maxStreamBufferBytes, defaults.maxStreamBufferBytes, { min: 1024 }),
    onError,
    logger: logger === undefined ? defaultLogger : logger,
  };
}

/** A boolean option: `fallback` when unset, else a TypeError naming it. */
export function flagOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === "boolean") return value;
  throw new TypeError(`${name} must be a boolean, got ${describeValue(value)}`);
}

/** One of `allowed`: `fallback` when unset, else a RangeError naming it. */
export function choiceOption<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (allowed.includes(value as T)) return value as T;
  throw new RangeError(`${name} must be one of ${allowed.join(", ")}, got ${describeValue(value)}`);
}

/** A path option: a string starting with "/" and without a query or fragment. */
export function pathOption(name: string, value: unknown, fallback: string): string;
export function pathOption(name: string, value: unknown, fallback: undefined): string | undefined;
export function pathOption(name: string, value: unknown, fallback: string | undefined): string | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !value.startsWith("/") || /[?#]/.test(value)) {
    throw new TypeError(`${name} must be a path starting with "/" (no query, no fragment), got ${describeValue(value)}`);
  }
  return value;
}
