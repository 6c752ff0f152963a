// The server side of authorization, for every HTTP handler (createHttpHandler of 2026-07-28,
// createSessionHttpHandler of the session revisions, createLegacySseHandler): an `authenticate`
// hook for bearer tokens and the OAuth 2.0 Protected Resource Metadata document (RFC 9728) the
// clients discover the authorization server by (basic/authorization of 2025-06-18 and later:
// "MCP servers MUST implement the OAuth 2.0 Protected Resource Metadata specification").
//
// The token is checked by the application (`verify`: a JWT library, an introspection call, a
// lookup); this module only reads the header (RFC 6750 §2.1), bounds it, and answers:
// - no or a malformed token, or `verify` knows none: 401 with `WWW-Authenticate: Bearer
//   resource_metadata="…"` (RFC 9728 §5.1; `scope` when scopes are required, the MCP Scope
//   Selection Strategy) and `error="invalid_token"` when a token was sent (RFC 6750 §3.1);
// - a token without the scopes the request needs: 403 `error="insufficient_scope"` with `scope`
//   (RFC 6750 §3.1; MCP "Runtime Insufficient Scope Errors").
// The principal `verify` returns is what handlers see as `ctx.principal`.
//
// DPoP (RFC 9449, the MCP DPoP extension): a token whose principal has `cnf.jkt` is bound to a
// key; it must come with the `DPoP` scheme (§7.1: as `Bearer` it is refused) and a `DPoP` proof
// header, which the `dpop` option checks (the `oauth` add-on's createDpopVerifier: signature,
// htm/htu, iat, ath, jti, the key against cnf.jkt, nonces). Its refusals are `DPoP` challenges
// with `error="invalid_dpop_proof"` or `"use_dpop_nonce"` and a `DPoP-Nonce` header (§7.1, §9).
// Without `dpop`, a bound token is refused (the binding cannot be checked). The proof's `htu`
// is compared with the resource's origin and the request's path: the URL the client called, also
// behind a proxy that changes the Host.

import { isObject } from "../../core/json.js";
import { numberOption } from "../../core/options.js";
import { describeValue, type Principal } from "../../core/protocol.js";
import type { CallHandler, HttpCall, HttpRequestHead } from "./call.js";
import type { Authenticate } from "./options.js";
import { withFaces, type HttpHandler, type HttpRequestInfo } from "./web-face.js";

/** A principal with the scopes its token grants (space-free strings). */
export interface BearerPrincipal extends Principal {
  readonly scopes?: readonly string[] | undefined;
  /** The token's confirmation (RFC 7800 `cnf`): `jkt`, the thumbprint of the DPoP key it is bound to (RFC 9449 §6). */
  readonly cnf?: { readonly jkt?: string | undefined } | undefined;
}

/** What a DPoP proof check is given (RFC 9449 §4.3). */
export interface DpopProofInput {
  /** The `DPoP` header (one value). */
  readonly proof: string;
  readonly method: string;
  /** The URL the proof's `htu` must name: the resource's origin and the request's path. */
  readonly url: string;
  readonly accessToken: string;
  /** The token's `cnf.jkt`. */
  readonly jkt: string;
}

/** A proof check's answer: accepted, or the `DPoP` challenge's error (and a nonce to send with `use_dpop_nonce`). */
export type DpopProofVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: "invalid_dpop_proof" | "use_dpop_nonce"; readonly description: string; readonly nonce?: string | undefined };

/** The DPoP proof check of bearerAuth (`createDpopVerifier()` of the `oauth` add-on). */
export interface DpopProofChecker {
  /** The JWS algorithms it accepts (the challenge's `algs`). */
  readonly algorithms: readonly string[];
  check(input: DpopProofInput): Promise<DpopProofVerdict>;
}

/** The Protected Resource Metadata document (RFC 9728 §2); other members pass through. */
export interface ProtectedResourceMetadata {
  /** The resource identifier: the MCP server's URL (RFC 8707 canonical URI). */
  readonly resource: string;
  /** The issuers of the authorization servers that issue tokens for it ("MUST contain at least one" in MCP). */
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[] | undefined;
  readonly bearer_methods_supported?: readonly string[] | undefined;
  readonly resource_name?: string | undefined;
  readonly resource_documentation?: string | undefined;
  readonly [member: string]: unknown;
}

export interface BearerAuthOptions {
  /** The MCP server's URL (the protected resource): names the metadata document's URL. */
  readonly resource: string | URL;
  /** The authorization servers' issuer URLs (the metadata's `authorization_servers`). */
  readonly authorizationServers: readonly (string | URL)[];
  /** The scopes the server knows (the metadata's `scopes_supported`). */
  readonly scopesSupported?: readonly string[] | undefined;
  /** More members of the metadata document (`resource_name`, …). */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  /**
   * The principal a token stands for, or undefined when the token is not valid (expired, wrong
   * audience: "MCP servers MUST validate that access tokens were issued specifically for them").
   * What it throws answers 500 (the handler reports it); it is never taken as a refusal.
   */
  readonly verify: (token: string, request: HttpRequestHead) => BearerPrincipal | undefined | Promise<BearerPrincipal | undefined>;
  /**
   * The scopes a request needs: a list, or a function of the request (its `Mcp-Method` and
   * `Mcp-Name` headers name the operation in 2026-07-28; the body is not read yet). Default none.
   */
  readonly requiredScopes?: readonly string[] | ((request: HttpRequestHead) => readonly string[]) | undefined;
  /** Longest token accepted, in characters (default MAX_BEARER_TOKEN_LENGTH); a longer one is refused unread by `verify`. */
  readonly maxTokenLength?: number | undefined;
  /** The DPoP proof check for DPoP-bound tokens (see the file's comment). Default none: bound tokens are refused. */
  readonly dpop?: DpopProofChecker | undefined;
}

/** Default bound of a bearer token: 8 KiB (a JWT with many claims stays well below). */
export const MAX_BEARER_TOKEN_LENGTH: number = 8 * 1024;
/** The well-known path prefix of RFC 9728 §3. */
export const PROTECTED_RESOURCE_WELL_KNOWN: string = "/.well-known/oauth-protected-resource";

/**
 * The URL of a resource's metadata document (RFC 9728 §3.1): the well-known prefix inserted
 * between the host and the path (`https://h/mcp` → `https://h/.well-known/oauth-protected-resource/mcp`). Pure.
 */
export function protectedResourceMetadataUrl(resource: string | URL): URL {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return new URL(`${PROTECTED_RESOURCE_WELL_KNOWN}${path}`, url.origin);
}

/** A quoted-string of RFC 9110 §5.6.4 (`"` and `\` escaped). */
const quoted = (value: string): string => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** What `bearerAuth` gives: the `authenticate` hook and the metadata document. */
export interface BearerAuth {
  /** For the handler's `authenticate` option. */
  readonly authenticate: Authenticate;
  /** The metadata document served at `metadataUrl`. */
  readonly metadata: ProtectedResourceMetadata;
  readonly metadataUrl: URL;
  /** The metadata response for a GET of its path, else undefined (for a router of one's own). */
  serveMetadata(request: Request): Response | undefined;
  /**
   * `handler`, with the metadata document answered before it (same origin, its own path). It
   * keeps what the handler is besides a function (a session handler's `close`, the binding and
   * pipeline the era router reads), and a handler of the runtime keeps its native face
   * (toNodeListener serves it without web objects).
   */
  withMetadata<H extends HttpHandler>(handler: H): H;
}

/** Every option checked (a TypeError or RangeError naming it). */
function checked(options: BearerAuthOptions): {
  readonly verify: BearerAuthOptions["verify"];
  readonly required: (request: HttpRequestHead) => readonly string[];
  readonly maxLength: number;
  readonly dpop: DpopProofChecker | undefined;
} {
  if (!isObject(options)) throw new TypeError(`bearerAuth options must be an object, got ${describeValue(options)}`);
  if (typeof options.verify !== "function") throw new TypeError(`verify must be a function (token, request) => principal | undefined, got ${describeValue(options.verify)}`);
  const servers: unknown = options.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0) throw new TypeError(`authorizationServers must be a non-empty array of URLs, got ${describeValue(servers)}`);
  const required: unknown = options.requiredScopes;
  const scopeList = (value: unknown, name: string): readonly string[] => {
    if (Array.isArray(value) && value.every((s) => typeof s === "string" && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) return value as string[];
    throw new TypeError(`${name} must be an array of scope tokens (RFC 6749 §3.3), got ${describeValue(value)}`);
  };
  if (options.scopesSupported !== undefined) scopeList(options.scopesSupported, "scopesSupported");
  let requiredOf: (request: HttpRequestHead) => readonly string[];
  if (required === undefined) requiredOf = () => [];
  else if (typeof required === "function") requiredOf = (request) => scopeList((required as (r: HttpRequestHead) => unknown)(request), "requiredScopes(request)");
  else {
    const list = scopeList(required, "requiredScopes");
    requiredOf = () => list;
  }
  const maxLength = numberOption("maxTokenLength", options.maxTokenLength, MAX_BEARER_TOKEN_LENGTH, { min: 1, max: 1024 * 1024 });
  const dpop: unknown = options.dpop;
  if (dpop !== undefined && (!isObject(dpop) || typeof dpop["check"] !== "function" || !Array.isArray(dpop["algorithms"]))) {
    throw new TypeError(`dpop must be a DPoP proof checker ({ algorithms, check }: createDpopVerifier() of the oauth add-on), got ${describeValue(dpop)}`);
  }
  return { verify: options.verify, required: requiredOf, maxLength, dpop: dpop as DpopProofChecker | undefined };
}

/**
 * Bearer-token authentication for the HTTP handlers, with the Protected Resource Metadata
 * document: `createHttpHandler(server, { authenticate: auth.authenticate })`, served by
 * `auth.withMetadata(handler)`.
 */
export function bearerAuth(options: BearerAuthOptions): BearerAuth {
  const { verify, required, maxLength, dpop } = checked(options);
  const resourceOrigin = new URL(options.resource).origin;
  const metadataUrl = protectedResourceMetadataUrl(options.resource);
  const metadata: ProtectedResourceMetadata = {
    ...options.metadata,
    resource: new URL(options.resource).href,
    authorization_servers: options.authorizationServers.map((server) => new URL(server).href.replace(/\/$/, "")),
    ...(options.scopesSupported === undefined ? {} : { scopes_supported: [...options.scopesSupported] }),
    bearer_methods_supported: ["header"],
  };
  const document = JSON.stringify(metadata);

  /**
   * A refusal. The error goes in the challenge of `scheme`; with `dpop`, a Bearer refusal also
   * offers the DPoP scheme with its `algs` (RFC 9449 §7.1), and a DPoP one carries `nonce` as
   * `DPoP-Nonce` (§9).
   */
  const challenge = (status: 401 | 403, error: string | undefined, description: string, scopes: readonly string[], scheme: "Bearer" | "DPoP" = "Bearer", nonce?: string): Response => {
    const params = [`resource_metadata=${quoted(metadataUrl.href)}`];
    if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(" "))}`);
    const errorParams = error === undefined ? [] : [`error=${quoted(error)}`, `error_description=${quoted(description)}`];
    const dpopChallenge = dpop === undefined ? undefined : `DPoP ${[...params, `algs=${quoted(dpop.algorithms.join(" "))}`, ...(scheme === "DPoP" ? errorParams : [])].join(", ")}`;
    const bearerChallenge = `Bearer ${[...params, ...errorParams].join(", ")}`;
    const value = scheme === "DPoP" ? (dpopChallenge ?? `DPoP ${[...params, ...errorParams].join(", ")}`) : [bearerChallenge, dpopChallenge].filter((c) => c !== undefined).join(", ");
    const headers: Record<string, string> = { "content-type": "application/json", "www-authenticate": value };
    if (nonce !== undefined && /^[\x21\x23-\x5b\x5d-\x7e]{1,1024}$/.test(nonce)) headers["dpop-nonce"] = nonce;
    return new Response(JSON.stringify({ error: error ?? "unauthorized", error_description: description }), { status, headers });
  };

  /** The refusal of a token's DPoP binding (see the file's comment), else undefined (not bound and sent as Bearer, or the proof holds). */
  const proofRefusal = async (principal: BearerPrincipal, token: string, dpopScheme: boolean, request: HttpRequestHead, scopes: readonly string[]): Promise<Response | undefined> => {
    const jkt: unknown = isObject(principal.cnf) ? principal.cnf["jkt"] : undefined;
    // A server that checks no proofs answers in the Bearer scheme only.
    const scheme = dpop === undefined ? "Bearer" : "DPoP";
    if (jkt === undefined) return dpopScheme ? challenge(401, "invalid_token", "the token is not DPoP-bound", scopes, scheme) : undefined;
    if (typeof jkt !== "string" || jkt === "") return challenge(401, "invalid_token", "the token's key binding (cnf.jkt) is not valid", scopes, scheme);
    if (dpop === undefined) return challenge(401, "invalid_token", "this server does not check DPoP proofs", scopes);
    if (!dpopScheme) return challenge(401, "invalid_token", "a DPoP-bound token must be presented with the DPoP scheme", scopes, "DPoP");
    // One proof (§4.3 step 1): a repeated header arrives joined with ", ", which no JWS contains.
    const proof = request.headers.get("dpop");
    if (proof === null || proof.includes(",")) return challenge(401, "invalid_dpop_proof", "one DPoP proof header is required", scopes, "DPoP");
    const url = new URL(new URL(request.url).pathname, resourceOrigin).href;
    const verdict = await dpop.check({ proof, method: request.method, url, accessToken: token, jkt });
    return verdict.ok ? undefined : challenge(401, verdict.error, verdict.description, scopes, "DPoP", verdict.nonce);
  };

  const authenticate: Authenticate = async (request) => {
    const scopes = required(request);
    const header = request.headers.get("authorization");
    if (header === null) return challenge(401, undefined, "a bearer token is required", scopes);
    // RFC 6750 §2.1, RFC 9449 §7.1: `Bearer` or `DPoP` (case-insensitive scheme) and one token68.
    const match = /^(bearer|dpop) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (match === null || match[2]!.length > maxLength) return challenge(401, "invalid_token", "the Authorization header holds no valid bearer token", scopes);
    const dpopScheme = match[1]!.toLowerCase() === "dpop";
    const token = match[2]!;
    const principal = await verify(token, request);
    if (principal === undefined) return challenge(401, "invalid_token", "the token is not valid for this resource", scopes, dpopScheme && dpop !== undefined ? "DPoP" : "Bearer");
    const refused = await proofRefusal(principal, token, dpopScheme, request, scopes);
    if (refused !== undefined) return refused;
    const granted = new Set(Array.isArray(principal.scopes) ? principal.scopes : []);
    const missing = scopes.filter((scope) => !granted.has(scope));
    if (missing.length > 0) return challenge(403, "insufficient_scope", `this request needs the scope(s) ${missing.join(" ")}`, scopes);
    return principal;
  };

  // Browser-based clients read it from another origin (RFC 9728 §3 has no CORS rule; permissive, it is public).
  const headers = { "content-type": "application/json", "access-control-allow-origin": "*", "cache-control": "max-age=3600" };
  /** The metadata answer to a request of `method` on its path: status, headers, body. */
  const metadataAnswer = (method: string): { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string | undefined } => {
    if (method === "OPTIONS") return { status: 204, headers: { ...headers, "access-control-allow-methods": "GET", "access-control-allow-headers": "mcp-protocol-version" }, body: undefined };
    if (method !== "GET" && method !== "HEAD") return { status: 405, headers: { allow: "GET, HEAD, OPTIONS" }, body: undefined };
    return { status: 200, headers, body: method === "HEAD" ? undefined : document };
  };

  const serveMetadata = (request: Request): Response | undefined => {
    if (new URL(request.url).pathname !== metadataUrl.pathname) return undefined;
    const out = metadataAnswer(request.method);
    return new Response(out.body ?? null, { status: out.status, headers: out.headers });
  };

  const withMetadata = (handler: HttpHandler): HttpHandler => {
    const core = (handler as Partial<CallHandler>).serveCall;
    const wrapped: HttpHandler =
      typeof core !== "function"
        ? (request: Request, info?: HttpRequestInfo) => Promise.resolve(serveMetadata(request) ?? handler(request, info))
        : withFaces(
            {
              serveCall(call: HttpCall): Promise<void> {
                if (call.path !== metadataUrl.pathname) return core.call(handler, call);
                const out = metadataAnswer(call.method);
                call.respond(out.status, out.headers, out.body);
                return Promise.resolve();
              },
            },
            {},
          );
    return keepsOwn(wrapped, handler);
  };

  return {
    authenticate,
    metadata,
    metadataUrl,
    serveMetadata,
    withMetadata: withMetadata as BearerAuth["withMetadata"],
  };
}

/** `wrapper` with the own properties of `handler` it lacks (its getters as getters): what the handler is besides a function. */
function keepsOwn(wrapper: HttpHandler, handler: HttpHandler): HttpHandler {
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(handler))) {
    if (!Object.hasOwn(wrapper, name)) Object.defineProperty(wrapper, name, descriptor);
  }
  return wrapper;
}
