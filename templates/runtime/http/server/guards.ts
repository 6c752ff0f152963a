// The checks of a request's head that guard every HTTP server of the runtime (2026-07-28
// basic/transports/streamable-http, "Security Warning"; the same warning in every revision's
// transport page): Host and Origin against DNS rebinding, and what an Accept header lists. Each
// check is pure; the pipeline (pipeline.ts) turns a problem into a refusal.

import { describeValue } from "../../core/protocol.js";
import type { HttpRequestHead } from "./call.js";

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
export function isLoopbackAddress(address: string): boolean {
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
 * Every handler applies this one rule (the pipeline's first stage).
 */
export function hostProblem(request: HttpRequestHead, localAddress: string | undefined, options: GuardOptions): string | null {
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
// Accept (Sending Messages 2; Listening for Messages from the Server)

/** What an Accept value lists, as the servers ask: JSON, an event stream, both (through `type/*` or `*\/*` too). */
export interface Accepted {
  readonly json: boolean;
  readonly sse: boolean;
}

const NOTHING: Accepted = Object.freeze({ json: false, sse: false });

/** What `accept` lists with a q above 0; nothing for no header. */
export function accepted(accept: string | null): Accepted {
  if (accept === null) return NOTHING;
  // Clients send the same value on every request: the last answer is kept.
  if (accept === lastAccept.value) return lastAccept.answer;
  const answer = parseAccept(accept);
  lastAccept.value = accept;
  lastAccept.answer = answer;
  return answer;
}

const lastAccept: { value: string | null; answer: Accepted } = { value: null, answer: NOTHING };

function parseAccept(accept: string): Accepted {
  let json = false;
  let sse = false;
  for (const part of accept.split(",")) {
    const [range = "", ...parameters] = part.split(";");
    const type = range.trim().toLowerCase();
    const q = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (type === "*/*") return Object.freeze({ json: true, sse: true });
    if (type === "application/json" || type === "application/*") json = true;
    if (type === "text/event-stream" || type === "text/*") sse = true;
  }
  return Object.freeze({ json, sse });
}

/** Whether an Accept value lists both application/json and text/event-stream (a POST's answer may be either). */
export function acceptsBoth(accept: string | null): boolean {
  const { json, sse } = accepted(accept);
  return json && sse;
}

// ---------------------------------------------------------------------------------------------
// The options

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
