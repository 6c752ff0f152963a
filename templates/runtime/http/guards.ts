// The checks a Streamable HTTP request passes before the handler looks at its message (2026-07-28
// basic/transports/streamable-http, "Security Warning", "Sending Messages", "Backward
// Compatibility"): Host and Origin (DNS rebinding), the method, Content-Type, Accept, and the
// body's size. Each gives a refusal (status and message) or null; the handler turns a refusal
// into its JSON-RPC error response. And who sent the request: the handlers' `authenticate` hook.

import { isObject } from "../core/json.js";
import { describeValue, type Principal } from "../core/protocol.js";
import { mediaType, readBounded, TOO_LARGE } from "./fetch.js";

/** What the guards need of the handler's options (HttpHandlerOptions). */
export interface GuardOptions {
  readonly dnsRebindingProtection?: boolean | undefined;
  readonly allowedHosts?: readonly string[] | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
}

/** A request refused before its message is read: the HTTP status, the message, extra headers. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** No JSON body (a HEAD). */
  readonly empty?: boolean | undefined;
}

// ---------------------------------------------------------------------------------------------
// Host and Origin (Security Warning; DNS rebinding)

const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The host name of a `Host` value (`name`, `name:port`, `[v6]`, `[v6]:port`), lower case. */
function hostnameOf(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith("[")) {
    const end = lower.indexOf("]");
    return end < 0 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(":");
  return colon < 0 ? lower : lower.slice(0, colon);
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  return a === "::1" || a.startsWith("127.") || a.startsWith("::ffff:127.");
}

/** The host name of an `Origin` value, or null when it is not a URL (`null`, garbage). */
function originHostname(origin: string): string | null {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Why a request's Host or Origin is refused (403), or null when it is accepted. `localAddress`:
 * where the request arrived; a loopback address (or none known) turns on the loopback rule.
 */
export function hostProblem(request: Request, localAddress: string | undefined, options: GuardOptions): string | null {
  if (options.dnsRebindingProtection === false) return null;
  const local = localAddress === undefined || isLoopbackAddress(localAddress);
  let host = request.headers.get("host");
  if (host === null) {
    try {
      host = new URL(request.url).host;
    } catch {
      host = "";
    }
  }
  const allowedHosts = options.allowedHosts;
  if (allowedHosts !== undefined) {
    const lower = host.toLowerCase();
    const name = hostnameOf(lower);
    if (!allowedHosts.some((h) => h.toLowerCase() === lower || h.toLowerCase() === name)) return `Host ${describeValue(host)} is not allowed`;
  } else if (local && !LOOPBACK_HOSTNAMES.has(hostnameOf(host))) {
    return `Host ${describeValue(host)} is not a loopback host`;
  }
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const allowedOrigins = options.allowedOrigins;
  if (allowedOrigins !== undefined) {
    const lower = origin.toLowerCase();
    return allowedOrigins.some((o) => o.toLowerCase() === lower) ? null : `Origin ${describeValue(origin)} is not allowed`;
  }
  const name = originHostname(origin);
  if (local) return name !== null && LOOPBACK_HOSTNAMES.has(name) ? null : `Origin ${describeValue(origin)} is not a loopback origin`;
  // Elsewhere a browser may only call from the server's own origin unless allowedOrigins says otherwise.
  let sameHost = false;
  try {
    sameHost = new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    sameHost = false;
  }
  return sameHost ? null : `Origin ${describeValue(origin)} is not this server's origin`;
}

// ---------------------------------------------------------------------------------------------
// Method, Content-Type and Accept (Sending Messages 1 and 2; Backward Compatibility)

/**
 * Whether an Accept value lists both application/json and text/event-stream (Sending Messages
 * 2), directly or through `type/*` or `*\/*`, with a q above 0.
 */
export function acceptsBoth(accept: string | null): boolean {
  if (accept === null) return false;
  // Clients send the same value on every request: the last answer is kept.
  if (accept === lastAccept.value) return lastAccept.answer;
  const answer = parseAccept(accept);
  lastAccept.value = accept;
  lastAccept.answer = answer;
  return answer;
}

const lastAccept: { value: string | null; answer: boolean } = { value: null, answer: false };

function parseAccept(accept: string): boolean {
  let json = false;
  let sse = false;
  for (const part of accept.split(",")) {
    const [range = "", ...parameters] = part.split(";");
    const type = range.trim().toLowerCase();
    const q = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (type === "*/*") return true;
    if (type === "application/json" || type === "application/*") json = true;
    if (type === "text/event-stream" || type === "text/*") sse = true;
  }
  return json && sse;
}

/**
 * The refusal of a request that is not a POST of JSON accepting both answers, or null: the
 * endpoint is POST only (GET and DELETE: 405 with `Allow: POST`; a HEAD gets no body), the
 * body application/json (415), Accept both application/json and text/event-stream (406).
 */
export function envelopeProblem(request: Request): Refusal | null {
  if (request.method !== "POST") {
    const headers = { allow: "POST" };
    return request.method === "HEAD"
      ? { status: 405, message: "", headers, empty: true }
      : { status: 405, message: `Method not allowed: ${request.method}; the MCP endpoint accepts POST`, headers };
  }
  if (mediaType(request.headers.get("content-type")) !== "application/json") {
    return { status: 415, message: "Unsupported Media Type: the body must be application/json" };
  }
  if (!acceptsBoth(request.headers.get("accept"))) {
    return { status: 406, message: "Not Acceptable: the Accept header must list application/json and text/event-stream" };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The body

/**
 * The body, read up to `max` bytes, or the refusal: 413 past the bound (a declared
 * Content-Length over it is refused unread; the connection is then closed), 400 when the stream
 * fails (the client went away mid-body, typically).
 */
export async function readRequestBody(request: Request, max: number): Promise<Uint8Array | Refusal> {
  const tooLarge: Refusal = { status: 413, message: `Payload Too Large: the body exceeds ${max} bytes`, headers: { connection: "close" } };
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) return tooLarge;
  const body = request.body;
  if (body === null) return new Uint8Array(0);
  let bytes: Uint8Array | typeof TOO_LARGE;
  try {
    bytes = await readBounded(body, max);
  } catch {
    return { status: 400, message: "Bad Request: the body could not be read" };
  }
  return bytes === TOO_LARGE ? tooLarge : bytes;
}

// ---------------------------------------------------------------------------------------------
// Who sent the request (the handlers' `authenticate` option)

/**
 * The `authenticate` option of the HTTP handlers: the principal that sent a request, or the
 * Response that refuses it (a 401 with `WWW-Authenticate`, a 403, …), which is sent as it is.
 */
export type Authenticate = (request: Request) => Principal | Response | Promise<Principal | Response>;

/** The option as read at construction: a function or nothing (anything else is a TypeError). */
export function authenticateOption(value: unknown): Authenticate | undefined {
  if (value === undefined || typeof value === "function") return value as Authenticate | undefined;
  throw new TypeError(`authenticate must be a function, got ${describeValue(value)}`);
}

/**
 * Runs `authenticate` for one request, before its body is read (an unauthenticated client costs
 * no body). Without the option: no principal. A result that is neither a Response nor an object
 * with a non-empty string `id` is the application's bug: a TypeError (the handler answers 500 and
 * reports it), never a request served as nobody.
 */
export async function authenticateRequest(authenticate: Authenticate | undefined, request: Request): Promise<Principal | Response | undefined> {
  if (authenticate === undefined) return undefined;
  const who: unknown = await authenticate(request);
  if (who instanceof Response) return who;
  if (isObject(who) && typeof who["id"] === "string" && who["id"] !== "") return who as Principal;
  throw new TypeError(`authenticate must return a Principal (an object with a non-empty string id) or a Response, got ${describeValue(who)}`);
}
