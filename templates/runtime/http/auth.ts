// Authorization for every HTTP client transport (http-client.ts, http-session-client.ts,
// legacy-sse-client.ts, fallback-client.ts): the `authProvider`, `oauthFlow` and `middleware`
// options, in the shapes of the official TypeScript SDK, declared here structurally (nothing is
// imported) so that a provider written for the SDK plugs in unchanged:
//
// - `AuthProvider` (SDK v2): `token()` before every request, `onUnauthorized()` on a 401, then
//   the request is sent once more (a second 401 is an UnauthorizedError);
// - `OAuthClientProvider` (SDK v1 and v2): its `tokens().access_token` is the token; on a 401 the
//   OAuth flow runs (`oauthFlow`: the `auth` of the `oauth` add-on, or the SDK's own `auth`), and
//   on a 403 `insufficient_scope` the flow runs again for the union of the scopes (step-up,
//   2025-11-25 basic/authorization "Scope Challenge Handling"; SEP-2350), at most
//   `maxStepUpRetries` times per request;
// - `middleware`: `(next: FetchLike) => FetchLike` functions around `fetch`, composed as the SDK's
//   `applyMiddlewares` does (the first wraps `fetch`, the last sees each request first).
//
// The authorization header is added outside the middleware, so a middleware sees it; the OAuth
// flow's own requests (metadata, registration, token) go through the middleware but carry no
// token. Everything read from the server (its WWW-Authenticate challenge) is bounded.

import { describeValue } from "../core/protocol.js";
import { numberOption } from "../core/options.js";
import { fetchOf, HttpStatusError, type FetchLike } from "./fetch.js";

/** A fetch whose `init` may be left out, as the SDK's `FetchLike` (what middleware and auth providers are given). */
export type LooseFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** A fetch middleware: wraps the next `fetch` of the chain (SDK: `Middleware`). */
export type FetchMiddleware = (next: LooseFetch) => LooseFetch;

/** What `AuthProvider.onUnauthorized` is given (SDK v2: `UnauthorizedContext`). */
export interface UnauthorizedContext {
  /** The 401 response: its `WWW-Authenticate` names the resource metadata and the scope. */
  readonly response: Response;
  /** The MCP server URL (the transport's `url`). */
  readonly serverUrl: URL;
  /** The transport's fetch with its middleware and without the token: for the provider's own requests. */
  readonly fetchFn: LooseFetch;
}

/** A bearer token source (SDK v2: `AuthProvider`). */
export interface AuthProvider {
  /** The token for the next request, or undefined for none. Called before every request. */
  token(): Promise<string | undefined>;
  /** Called on a 401: refresh the credentials; the request is then sent once more. */
  onUnauthorized?(context: UnauthorizedContext): Promise<void>;
}

/**
 * The part of an OAuth client provider (SDK v1 and v2: `OAuthClientProvider`) the transports
 * read: `tokens()` for the access token, `clientInformation()` to tell it from an AuthProvider
 * (as the SDK does). The flow (`oauthFlow`) uses the rest; the `oauth` add-on declares all of it.
 */
export interface OAuthClientProviderLike {
  tokens(context?: { readonly issuer: string }): unknown;
  clientInformation(context?: { readonly issuer: string }): unknown;
}

/** What an OAuth flow is asked to do (the options of the SDK's `auth()` this runtime passes). */
export interface OAuthFlowOptions {
  readonly serverUrl: string | URL;
  /** From the server's challenge (RFC 9728 §5.1), when it named one. */
  readonly resourceMetadataUrl?: URL | undefined;
  /** The scopes to ask for (a challenge's `scope`, unioned with those held on a step-up). */
  readonly scope?: string | undefined;
  /** Set on a step-up that asks for more than the tokens hold: no refresh, a new authorization. */
  readonly forceReauthorization?: boolean | undefined;
  /** The authorization code of a redirect (`finishAuth`). */
  readonly authorizationCode?: string | undefined;
  readonly fetchFn?: LooseFetch | undefined;
  /**
   * The protocol version of the request that was refused (its `MCP-Protocol-Version`), for the
   * metadata requests of the discovery (Authorization: clients SHOULD send it there); absent: none.
   */
  readonly protocolVersion?: string | undefined;
}

/**
 * Runs the OAuth flow for a provider: "AUTHORIZED" when it now holds tokens, "REDIRECT" when the
 * user must authorize first (the provider's `redirectToAuthorization` was called). The `auth` of
 * the `oauth` add-on, and the SDK's own `auth`, have this shape. Declared as a method so that a
 * flow written for a richer provider type (the SDK's) is accepted.
 */
export interface OAuthFlow {
  run(provider: OAuthClientProviderLike, options: OAuthFlowOptions): Promise<"AUTHORIZED" | "REDIRECT">;
}

/** The authorization options of every HTTP client transport. */
export interface HttpClientAuthOptions {
  /** A token source: an AuthProvider, or an OAuthClientProvider (which needs `oauthFlow` to get tokens). */
  readonly authProvider?: AuthProvider | OAuthClientProviderLike | undefined;
  /**
   * The OAuth flow an OAuthClientProvider runs on a 401 or a 403 insufficient_scope: the `auth`
   * export of the `oauth` add-on (`--addon oauth`), or the SDK's `auth`.
   */
  readonly oauthFlow?: OAuthFlow["run"] | undefined;
  /** Fetch middleware, applied as the SDK's `applyMiddlewares(...middleware)(fetch)`. */
  readonly middleware?: readonly FetchMiddleware[] | undefined;
  /** Step-up authorizations (403 insufficient_scope) per request, at most (default 1, as the SDK). */
  readonly maxStepUpRetries?: number | undefined;
}

/** Default of `maxStepUpRetries`. */
export const DEFAULT_MAX_STEP_UP_RETRIES: number = 1;
/** Longest token accepted from a provider, in characters: a bigger one is the provider's bug. */
export const MAX_TOKEN_LENGTH: number = 16 * 1024;
/** Longest `WWW-Authenticate` value parsed; the rest is ignored. */
export const MAX_CHALLENGE_LENGTH: number = 8 * 1024;

/** The server refused the credentials (401), also after one refresh; or the flow needs the user. */
export class UnauthorizedError extends HttpStatusError {
  override name = "UnauthorizedError";
  /** The server's challenge, parsed (its `resource_metadata`, `scope`, `error`). */
  readonly challenge: BearerChallenge;
  constructor(method: string, challenge: BearerChallenge, problem: string) {
    super(method, 401);
    this.message = `${method}: unauthorized (HTTP 401): ${problem}`;
    this.challenge = challenge;
  }
}

/** The server wants more scopes (403 insufficient_scope) and no step-up could get them. */
export class InsufficientScopeError extends HttpStatusError {
  override name = "InsufficientScopeError";
  readonly challenge: BearerChallenge;
  /** The scopes the server named (`scope` of its challenge). */
  readonly requiredScope: string | undefined;
  constructor(method: string, challenge: BearerChallenge, problem: string) {
    super(method, 403);
    this.message = `${method}: insufficient scope (HTTP 403${challenge.scope === undefined ? "" : `, scope "${challenge.scope}"`}): ${problem}`;
    this.challenge = challenge;
    this.requiredScope = challenge.scope;
  }
}

// ---------------------------------------------------------------------------------------------
// The Bearer challenge (RFC 6750 §3, RFC 9728 §5.1)

/** The parameters of a `Bearer` challenge of a WWW-Authenticate header (lower-case names). */
export interface BearerChallenge {
  readonly error?: string | undefined;
  readonly errorDescription?: string | undefined;
  readonly scope?: string | undefined;
  /** `resource_metadata`, when it is an absolute http(s) URL. */
  readonly resourceMetadataUrl?: URL | undefined;
}

/**
 * The `Bearer` challenge of a WWW-Authenticate value (RFC 9110 §11.6.1: challenges are
 * `scheme [token68 | #auth-param]`, comma separated; auth-param values are tokens or quoted
 * strings with `\` escapes). Other schemes' challenges are skipped. At most
 * MAX_CHALLENGE_LENGTH characters are read. Pure; never throws.
 */
export function parseBearerChallenge(header: string | null): BearerChallenge {
  if (header === null) return {};
  const text = header.slice(0, MAX_CHALLENGE_LENGTH);
  const params = new Map<string, string>();
  let scheme: string | undefined;
  let at = 0;
  const skipSpace = (): void => {
    while (at < text.length && (text[at] === " " || text[at] === "\t")) at++;
  };
  const token = (): string => {
    const start = at;
    while (at < text.length && /[!#$%&'*+\-.^_`|~0-9A-Za-z/]/.test(text[at]!)) at++;
    return text.slice(start, at);
  };
  while (at < text.length) {
    skipSpace();
    if (text[at] === ",") {
      at++;
      continue;
    }
    const name = token();
    if (name === "") break; // not a challenge we can read: stop
    skipSpace();
    if (text[at] !== "=") {
      // A new challenge's scheme (possibly followed by a token68, skipped).
      if (scheme?.toLowerCase() === "bearer") break;
      scheme = name;
      continue;
    }
    at++;
    skipSpace();
    let value = "";
    if (text[at] === '"') {
      at++;
      while (at < text.length && text[at] !== '"') {
        if (text[at] === "\\" && at + 1 < text.length) at++;
        value += text[at];
        at++;
      }
      at++;
    } else {
      value = token();
      while (text[at] === "=") at++; // the padding of a token68
    }
    if (scheme?.toLowerCase() === "bearer" && !params.has(name.toLowerCase())) params.set(name.toLowerCase(), value);
  }
  const metadata = params.get("resource_metadata");
  let resourceMetadataUrl: URL | undefined;
  try {
    const url = metadata === undefined ? undefined : new URL(metadata);
    if (url !== undefined && (url.protocol === "https:" || url.protocol === "http:")) resourceMetadataUrl = url;
  } catch {
    // not a URL: ignored, as if absent
  }
  return {
    error: params.get("error"),
    errorDescription: params.get("error_description"),
    scope: params.get("scope"),
    resourceMetadataUrl,
  };
}

/** The scopes of space-separated lists, each once, in order of first appearance. Pure. */
export function scopeUnion(...lists: readonly (string | undefined)[]): string | undefined {
  const scopes = new Set<string>();
  for (const list of lists) for (const scope of list?.split(" ") ?? []) if (scope !== "") scopes.add(scope);
  return scopes.size === 0 ? undefined : [...scopes].join(" ");
}

// ---------------------------------------------------------------------------------------------
// The options, checked where read

/** True for an OAuthClientProvider (it has `tokens` and `clientInformation`, as the SDK tells them apart). */
export function isOAuthClientProvider(value: unknown): value is OAuthClientProviderLike {
  return typeof value === "object" && value !== null && typeof (value as { tokens?: unknown }).tokens === "function" && typeof (value as { clientInformation?: unknown }).clientInformation === "function";
}

function isAuthProvider(value: unknown): value is AuthProvider {
  if (typeof value !== "object" || value === null) return false;
  const { token, onUnauthorized } = value as { token?: unknown; onUnauthorized?: unknown };
  return typeof token === "function" && (onUnauthorized === undefined || typeof onUnauthorized === "function");
}

/** `middleware` checked: an array of functions (else a TypeError). */
function middlewareOf(value: unknown): readonly FetchMiddleware[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((m) => typeof m === "function")) return value as FetchMiddleware[];
  throw new TypeError(`middleware must be an array of functions (next: FetchLike) => FetchLike, got ${describeValue(value)}`);
}

/**
 * `fetch` with the middleware applied: `middleware.reduce((next, m) => m(next), fetch)`; each must
 * return a function. Every link tolerates a call without `init` (an SDK middleware may make one).
 */
export function applyMiddleware(fetchFn: FetchLike, middleware: readonly FetchMiddleware[]): LooseFetch {
  const loose: LooseFetch = (input, init) => fetchFn(input, init ?? {});
  return middleware.reduce<LooseFetch>((next, wrap, index) => {
    const wrapped: unknown = wrap(next);
    if (typeof wrapped !== "function") throw new TypeError(`middleware[${index}] must return a fetch function, got ${describeValue(wrapped)}`);
    return wrapped as LooseFetch;
  }, loose);
}

/**
 * The fetch an HTTP client transport calls: `options.fetch` (else the global one), wrapped in
 * `options.middleware`, then in the authorization of `options.authProvider`. Every option is
 * checked here, at the transport's construction (a TypeError or RangeError naming it).
 */
export function clientFetch(options: { readonly url: string | URL; readonly fetch?: FetchLike | undefined } & HttpClientAuthOptions): FetchLike {
  const chained = applyMiddleware(fetchOf(options.fetch), middlewareOf(options.middleware));
  const provider: unknown = options.authProvider;
  const flow: unknown = options.oauthFlow;
  if (flow !== undefined && typeof flow !== "function") throw new TypeError(`oauthFlow must be a function (provider, options) => Promise<"AUTHORIZED" | "REDIRECT">, got ${describeValue(flow)}`);
  const maxStepUps = numberOption("maxStepUpRetries", options.maxStepUpRetries, DEFAULT_MAX_STEP_UP_RETRIES, { min: 0, max: 10 });
  if (provider === undefined) return chained;
  const serverUrl = new URL(options.url);
  if (isOAuthClientProvider(provider)) {
    return new Authorizer(serverUrl, chained, maxStepUps, provider, flow as OAuthFlow["run"] | undefined).fetch;
  }
  if (isAuthProvider(provider)) return new Authorizer(serverUrl, chained, maxStepUps, provider, undefined).fetch;
  throw new TypeError(`authProvider must be an AuthProvider ({ token(), onUnauthorized?() }) or an OAuthClientProvider ({ tokens(), clientInformation(), … }), got ${describeValue(provider)}`);
}

/** The JSON-RPC method of a request body (for error messages), else the HTTP method. */
function methodOf(init: RequestInit): string {
  if (typeof init.body === "string") {
    const match = /"method"\s*:\s*"([^"\\]{1,128})"/.exec(init.body.slice(0, 4096));
    if (match !== null) return match[1]!;
  }
  return init.method ?? "GET";
}

/** Ends a response's body without reading it. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** The authorization around a fetch: adds the token, answers 401 and 403 insufficient_scope. */
class Authorizer {
  readonly #serverUrl: URL;
  readonly #next: LooseFetch;
  readonly #maxStepUps: number;
  readonly #provider: AuthProvider | OAuthClientProviderLike;
  readonly #flow: OAuthFlow["run"] | undefined;
  /** The last challenge's resource metadata URL, and every scope challenged so far (SEP-2350). */
  #resourceMetadataUrl: URL | undefined;
  #scope: string | undefined;

  constructor(serverUrl: URL, next: LooseFetch, maxStepUps: number, provider: AuthProvider | OAuthClientProviderLike, flow: OAuthFlow["run"] | undefined) {
    this.#serverUrl = serverUrl;
    this.#next = next;
    this.#maxStepUps = maxStepUps;
    this.#provider = provider;
    this.#flow = flow;
  }

  readonly fetch: FetchLike = async (input, init) => {
    const method = methodOf(init);
    let refreshed = false;
    let stepUps = 0;
    for (;;) {
      const response = await this.#send(input, init, method);
      if (response.status === 401) {
        const challenge = this.#remember(response);
        if (refreshed) {
          await discard(response);
          throw new UnauthorizedError(method, challenge, "refused again after the credentials were refreshed");
        }
        await this.#unauthorized(response, challenge, method, init);
        await discard(response);
        refreshed = true;
        continue;
      }
      if (response.status === 403) {
        const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
        if (challenge.error === "insufficient_scope") {
          await discard(response);
          await this.#stepUp(challenge, method, stepUps, init);
          stepUps++;
          continue;
        }
      }
      return response;
    }
  };

  /** The request with the current token (`Authorization: Bearer`, replacing one the caller set). */
  async #send(input: string | URL, init: RequestInit, method: string): Promise<Response> {
    const token = await this.#token(method);
    if (token === undefined) return this.#next(input, init);
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    return this.#next(input, { ...init, headers });
  }

  async #token(method: string): Promise<string | undefined> {
    let token: unknown;
    if (isOAuthClientProvider(this.#provider)) {
      const tokens: unknown = await this.#provider.tokens();
      token = typeof tokens === "object" && tokens !== null ? (tokens as { access_token?: unknown }).access_token : undefined;
    } else {
      token = await this.#provider.token();
    }
    if (token === undefined || token === "") return undefined;
    if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
      throw new TypeError(`${method}: the auth provider's token must be a string of at most ${MAX_TOKEN_LENGTH} visible ASCII characters, got ${describeValue(token)}`);
    }
    return token;
  }

  #remember(response: Response): BearerChallenge {
    const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
    if (challenge.resourceMetadataUrl !== undefined) this.#resourceMetadataUrl = challenge.resourceMetadataUrl;
    this.#scope = scopeUnion(this.#scope, challenge.scope);
    return challenge;
  }

  /** A 401: the provider refreshes (onUnauthorized), or the OAuth flow runs; else UnauthorizedError. */
  async #unauthorized(response: Response, challenge: BearerChallenge, method: string, init: RequestInit): Promise<void> {
    const provider = this.#provider;
    if (!isOAuthClientProvider(provider)) {
      if (provider.onUnauthorized === undefined) {
        await discard(response);
        throw new UnauthorizedError(method, challenge, "the auth provider has no onUnauthorized to refresh its token");
      }
      await provider.onUnauthorized({ response, serverUrl: this.#serverUrl, fetchFn: this.#next });
      return;
    }
    await this.#runFlow(method, challenge, { scope: this.#scope }, UnauthorizedError, init);
  }

  /** A 403 insufficient_scope: the OAuth flow for the union of the scopes, or InsufficientScopeError. */
  async #stepUp(challenge: BearerChallenge, method: string, stepUps: number, init: RequestInit): Promise<void> {
    const provider = this.#provider;
    if (!isOAuthClientProvider(provider)) throw new InsufficientScopeError(method, challenge, "an AuthProvider cannot ask for more scopes");
    if (stepUps >= this.#maxStepUps) throw new InsufficientScopeError(method, challenge, `still refused after ${stepUps} step-up authorization(s) (maxStepUpRetries)`);
    if (challenge.resourceMetadataUrl !== undefined) this.#resourceMetadataUrl = challenge.resourceMetadataUrl;
    const tokens: unknown = await provider.tokens();
    const held = typeof tokens === "object" && tokens !== null ? (tokens as { scope?: unknown }).scope : undefined;
    const heldScope = typeof held === "string" ? held : undefined;
    const scope = scopeUnion(this.#scope, heldScope, challenge.scope);
    this.#scope = scope;
    // More than the tokens hold: a refresh cannot widen them, a new authorization is needed.
    const wanted = scope?.split(" ") ?? [];
    const have = new Set(heldScope?.split(" ") ?? []);
    await this.#runFlow(method, challenge, { scope, forceReauthorization: wanted.some((s) => !have.has(s)) }, InsufficientScopeError, init);
  }

  async #runFlow(
    method: string,
    challenge: BearerChallenge,
    extra: { readonly scope: string | undefined; readonly forceReauthorization?: boolean },
    Failure: typeof UnauthorizedError | typeof InsufficientScopeError,
    init: RequestInit,
  ): Promise<void> {
    // The refused request's protocol version (the transport's own), for the discovery's requests.
    const protocolVersion = new Headers(init.headers).get("mcp-protocol-version") ?? undefined;
    if (this.#flow === undefined) throw new Failure(method, challenge, "an OAuthClientProvider needs options.oauthFlow (the `auth` of the oauth add-on, or the SDK's) to get tokens");
    const result = await this.#flow(this.#provider as OAuthClientProviderLike, {
      serverUrl: this.#serverUrl,
      resourceMetadataUrl: this.#resourceMetadataUrl,
      ...extra,
      fetchFn: this.#next,
      ...(protocolVersion === undefined ? {} : { protocolVersion }),
    });
    if (result !== "AUTHORIZED") throw new Failure(method, challenge, "the authorization needs the user (the provider's redirectToAuthorization was called): finish it, then retry");
  }
}
