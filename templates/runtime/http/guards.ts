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
  /**
   * DNS rebinding protection (Security Warning: servers MUST validate `Origin`). On by default:
   * a request that arrived at a loopback address (or whose address is unknown) must name a
   * loopback host (`localhost`, `127.0.0.1`, `[::1]`, any valid port) in `Host`, and in `Origin`
   * when it has one; a request that arrived at any other address is refused unless its `Host` is
   * in `allowedHosts`, and its `Origin` must be in `allowedOrigins` or the request's own.
   * Failures get 403 (a `Host` that is no `host[:port]` gets 400). false: no check.
   */
  readonly dnsRebindingProtection?: boolean | undefined;
  /** The `Host` values accepted, replacing the loopback rule: `name` (any port) or `name:port`. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** The `Origin` values accepted (e.g. `https://app.example.com`), replacing the default rule. */
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

/**
 * A `Host` value (RFC 9110 7.2: `uri-host [ ":" port ]`, RFC 3986 3.2.2) split into its host name
 * (lower case) and port, or null when it is not one: an IPv6 literal must be closed and followed
 * by nothing or a port, and a port is digits up to 65535, so `[::1]evil` and
 * `localhost:evil.example` are no Host at all (RFC 9112 3.2: answered with 400).
 */
export function parseHost(host: string): ParsedHost | null {
  // A handler parses each request's Host twice (its syntax, then the Host/Origin rule), and a
  // client sends the same Host every time: the last answer is kept (one string, one frozen result).
  if (host === lastHost) return lastParsed;
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._~!$&'()*+,;=%-]+)(?::([0-9]{0,5}))?$/.exec(host.toLowerCase());
  const port = match?.[2] ?? "";
  const parsed = match === null || (port !== "" && Number(port) > 65535) ? null : Object.freeze({ name: match[1] ?? "", port });
  lastHost = host;
  lastParsed = parsed;
  return parsed;
}

type ParsedHost = { readonly name: string; readonly port: string };
let lastHost: string | undefined;
let lastParsed: ParsedHost | null = null;

/**
 * Why a request's `Host` header is no Host (RFC 9112 3.2: 400), or null. The one syntax rule of
 * both the web handler and the node adapter (which needs a valid Host to build the request URL).
 */
export function hostSyntaxProblem(host: string | null | undefined): string | null {
  if (host === null || host === undefined || host === "") return null;
  return parseHost(host) === null ? `Host ${describeValue(host)} is not a valid host[:port]` : null;
}

/** The host name of a `Host` value, lower case; "" when it is not a valid Host. */
function hostnameOf(host: string): string {
  return parseHost(host)?.name ?? "";
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
 * where the request arrived. At a loopback address (or none known) the Host must be a loopback
 * name with at most a port; anywhere else it must be listed in `allowedHosts`, so a server bound
 * to a LAN address refuses every request until the user names its hosts (or turns the check off).
 * An Origin must be in `allowedOrigins`, else a loopback origin (loopback) or the Host's own.
 * The web handler and the node adapter (through it) apply this one rule.
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
    if (name === "" || !allowedHosts.some((h) => h.toLowerCase() === lower || h.toLowerCase() === name)) return `Host ${describeValue(host)} is not allowed`;
  } else if (!local) {
    // Off loopback any name may resolve to this server (DNS rebinding), and an Origin equal to the
    // Host is what a rebinding page sends: only the names the user lists are safe.
    return `Host ${describeValue(host)} is not allowed: this server was reached at ${describeValue(localAddress)}, not a loopback address; list the host names clients use in allowedHosts (or set dnsRebindingProtection: false)`;
  } else if (!LOOPBACK_HOSTNAMES.has(hostnameOf(host))) {
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

/** The 413 of readRequestBody, made only for a body that is too large (not for every request). */
function tooLarge(max: number): Refusal {
  return { status: 413, message: `Payload Too Large: the body exceeds ${max} bytes`, headers: { connection: "close" } };
}

/**
 * The body, read up to `max` bytes, or the refusal: 413 past the bound (a declared
 * Content-Length over it is refused unread; the connection is then closed), 400 when the stream
 * fails (the client went away mid-body, typically).
 */
export async function readRequestBody(request: Request, max: number): Promise<Uint8Array | Refusal> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) return tooLarge(max);
  const body = request.body;
  if (body === null) return new Uint8Array(0);
  let bytes: Uint8Array | typeof TOO_LARGE;
  try {
    bytes = await readBounded(body, max);
  } catch {
    return { status: 400, message: "Bad Request: the body could not be read" };
  }
  return bytes === TOO_LARGE ? tooLarge(max) : bytes;
}

// ---------------------------------------------------------------------------------------------
// Who sent the request (the handlers' `authenticate` option)

/**
 * The `authenticate` option of the HTTP handlers: the principal that sent a request, or the
 * Response that refuses it (a 401 with `WWW-Authenticate`, a 403, …), which is sent as it is.
 */
export type Authenticate = (request: Request) => Principal | Response | Promise<Principal | Response>;

/** The Host/Origin options as read at construction: arrays of strings, or nothing (else a TypeError). */
export function checkGuardOptions(options: GuardOptions): void {
  const { dnsRebindingProtection } = options;
  if (dnsRebindingProtection !== undefined && typeof dnsRebindingProtection !== "boolean") {
    throw new TypeError(`dnsRebindingProtection must be a boolean, got ${describeValue(dnsRebindingProtection)}`);
  }
  for (const name of ["allowedHosts", "allowedOrigins"] as const) {
    const list: unknown = options[name];
    if (list !== undefined && !(Array.isArray(list) && list.every((entry) => typeof entry === "string" && entry !== ""))) {
      throw new TypeError(`${name} must be an array of non-empty strings, got ${describeValue(list)}`);
    }
  }
}

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
