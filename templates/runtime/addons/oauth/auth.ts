// The OAuth flow of the `oauth` add-on: `auth(provider, options)`, the shape of the official SDK's
// `auth()`, for the transports' `oauthFlow` option (runtime/http/auth.ts). It follows
// basic/authorization of the revision the server speaks (2025-03-26 … 2026-07-28):
//   1. discovery: protected resource metadata, then authorization server metadata (discovery.ts);
//      the metadata's `resource` must name this server (RFC 8707 / RFC 9728 §3.3), and the
//      credentials of another authorization server are not reused (SEP-2352);
//   2. the client id: pre-registered (`clientInformation()`), else a Client ID Metadata Document
//      URL when the server supports it (`client_id_metadata_document_supported`), else dynamic
//      registration (RFC 7591);
//   3. a grant: the code of a redirect (PKCE S256, the `iss` of the response checked, RFC 9207),
//      a refresh (unless a step-up needs more scopes), the provider's own grant
//      (`prepareTokenRequest`, given the issuer and resource: client_credentials, jwt-bearer,
//      an ID-JAG; grants.ts, id-jag.ts), or a new authorization: the provider's
//      `redirectToAuthorization(url)`, "REDIRECT".
// With a DPoP key on the provider (`provider.dpopKey`, dpop-client.ts) every token request carries
// a proof (RFC 9449 §5) and is sent once more when the server asks for its nonce (§8).
// The scopes: the challenge's, else the resource's `scopes_supported`, else none (Scope Selection
// Strategy), with `offline_access` added when the authorization server offers it. The client
// authenticates at the token endpoint with the method registered, else the first of
// client_secret_basic and client_secret_post the server supports, else none (a public client).
// The OAuth requests and responses themselves (metadata checks, PKCE, token requests and their
// responses, registration, the `iss` check) are oauth4webapi's.

import * as oauth from "oauth4webapi";
import { fetchOf, type FetchLike } from "../../http/fetch.js";
import { describeValue } from "../../core/protocol.js";
import { defaultEndpoints, discoverAuthorizationServer, discoverResource, isLoopback, requestOptions } from "./discovery.js";
import { DpopKey } from "./dpop-client.js";
import type { OAuthClientInformation, OAuthClientProvider, OAuthTokens } from "./provider.js";

export type { IssuerContext, OAuthClientInformation, OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from "./provider.js";
export { MAX_METADATA_BYTES } from "./discovery.js";
export { MemoryOAuthClientProvider, type MemoryOAuthClientProviderOptions } from "./memory-provider.js";
export { clientCredentialsGrant, jwtBearerGrant, JWT_BEARER_GRANT, type TokenGrant, type TokenRequestContext } from "./grants.js";
export { idJagGrant, type IdJagGrantOptions } from "./id-jag.js";
export { privateKeyJwt, type ClientAuthentication, type PrivateKeyJwtOptions } from "./private-key-jwt.js";
export { DpopKey } from "./dpop-client.js";

/** The options of `auth` (those of the SDK's `auth()` this flow reads). */
export interface AuthOptions {
  readonly serverUrl: string | URL;
  /** The code of the authorization response (after "REDIRECT"); exchanged for tokens. */
  readonly authorizationCode?: string | undefined;
  /** The `iss` of the authorization response, when it had one (RFC 9207). */
  readonly iss?: string | undefined;
  readonly scope?: string | undefined;
  readonly resourceMetadataUrl?: URL | undefined;
  readonly forceReauthorization?: boolean | undefined;
  readonly fetchFn?: FetchLike | undefined;
  /** Sent as `MCP-Protocol-Version` on the metadata requests (the transport passes the version it speaks); absent: not sent. */
  readonly protocolVersion?: string | undefined;
}

export type AuthResult = "AUTHORIZED" | "REDIRECT";

/** The flow failed: the reason, and the OAuth error code of the server when it sent one. */
export class OAuthFlowError extends Error {
  override name = "OAuthFlowError";
  readonly code: string | undefined;
  constructor(message: string, code?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Is `serverUrl` within `resource` (same origin, path below it)? (2025-06-18 Resource Parameter; SDK: checkResourceAllowed) */
function resourceCovers(resource: URL, serverUrl: URL): boolean {
  if (resource.origin !== serverUrl.origin) return false;
  const base = resource.pathname.endsWith("/") ? resource.pathname : `${resource.pathname}/`;
  const path = serverUrl.pathname.endsWith("/") ? serverUrl.pathname : `${serverUrl.pathname}/`;
  return path.startsWith(base);
}

/** The token endpoint authentication of a client (see the file's comment). */
function clientAuthentication(provider: OAuthClientProvider, information: OAuthClientInformation, as: oauth.AuthorizationServer): oauth.ClientAuth {
  const custom = provider.addClientAuthentication;
  if (custom !== undefined) {
    return async (server, _client, body, headers) => {
      await custom.call(provider, headers, body, server.token_endpoint ?? "", server as unknown as Readonly<Record<string, unknown>>);
    };
  }
  const secret = information.client_secret;
  if (secret === undefined || secret === "") return oauth.None();
  const supported = as.token_endpoint_auth_methods_supported;
  const method = information.token_endpoint_auth_method ?? (supported === undefined ? "client_secret_basic" : ["client_secret_basic", "client_secret_post"].find((m) => supported.includes(m)));
  if (method === "client_secret_post") return oauth.ClientSecretPost(secret);
  if (method === "none") return oauth.None();
  return clientSecretBasic(information.client_id, secret);
}

/** application/x-www-form-urlencoded of one value (WHATWG URL: `*-._` and alphanumerics stay, space is `+`). */
const formEncode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * client_secret_basic (RFC 6749 §2.3.1: id and secret form-urlencoded, then HTTP Basic). Not
 * oauth4webapi's ClientSecretBasic, which also percent-encodes `-`, `.`, `_` and `*`: correct to
 * a decoder, but an authorization server that compares the raw value (as the conformance suite's
 * does) then sees `pre%2Dregistered` for `pre-registered`; the WHATWG form encoding leaves them.
 */
function clientSecretBasic(clientId: string, secret: string): oauth.ClientAuth {
  return (_as, _client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${formEncode(clientId)}:${formEncode(secret)}`)}`);
  };
}

/**
 * The `application_type` of a registration (SEP-837, OIDC Dynamic Client Registration §2):
 * "native" when every redirect URI is a loopback or custom-scheme one (RFC 8252), else "web".
 */
function applicationType(provider: OAuthClientProvider): "native" | "web" {
  const uris = provider.clientMetadata.redirect_uris ?? (provider.redirectUrl === undefined ? [] : [String(provider.redirectUrl)]);
  const native = uris.every((uri) => {
    try {
      const url = new URL(uri);
      return (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "localhost" || isLoopback(url);
    } catch {
      return false;
    }
  });
  return uris.length > 0 && native ? "native" : "web";
}

/**
 * A registration response (RFC 7591 §3.2.1: 201 with the client's information). Read here
 * rather than by oauth4webapi's processDynamicClientRegistrationResponse, which refuses a
 * response without `client_secret_expires_at` next to a secret, an omission common enough
 * among authorization servers to be tolerated: the secret is then taken as not expiring.
 */
async function registration(response: Response): Promise<OAuthClientInformation> {
  const body = await response.text();
  if (response.status !== 201 && response.status !== 200) throw new OAuthFlowError(`dynamic client registration: HTTP ${response.status}: ${body.slice(0, 200)}`);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new OAuthFlowError("dynamic client registration: the response is not JSON");
  }
  if (typeof value !== "object" || value === null || typeof (value as { client_id?: unknown }).client_id !== "string") throw new OAuthFlowError("dynamic client registration: the response has no client_id");
  return value as OAuthClientInformation;
}

/** What a token response is stored as: the fields of OAuthTokens, stamped with the issuer. */
function stored(response: oauth.TokenEndpointResponse, issuer: string): OAuthTokens {
  const tokens: Record<string, unknown> = { access_token: response.access_token, token_type: response.token_type, issuer };
  if (response.expires_in !== undefined) tokens["expires_in"] = response.expires_in;
  if (response.refresh_token !== undefined) tokens["refresh_token"] = response.refresh_token;
  if (response.scope !== undefined) tokens["scope"] = response.scope;
  return tokens as OAuthTokens;
}

/**
 * A token request and the processing of its response, sent once more when the authorization
 * server refused it for want of a DPoP nonce (RFC 9449 §8: `use_dpop_nonce`; the DPoP handle
 * kept the nonce of that refusal). Without DPoP, or on any other error, the error stands.
 */
async function tokenRequest(dpop: boolean, attempt: () => Promise<oauth.TokenEndpointResponse>): Promise<oauth.TokenEndpointResponse> {
  try {
    return await attempt();
  } catch (error) {
    if (!dpop || !oauth.isDPoPNonceError(error)) throw error;
    return attempt();
  }
}

/** The OAuth error code of a failed token or registration response (oauth4webapi's ResponseBodyError), else undefined. */
function oauthErrorCode(error: unknown): string | undefined {
  return error instanceof oauth.ResponseBodyError ? error.error : undefined;
}

/**
 * Runs the OAuth flow for `provider` against the MCP server `options.serverUrl`: "AUTHORIZED"
 * when the provider now holds tokens (saved with `saveTokens`), "REDIRECT" when the user must
 * authorize first (`redirectToAuthorization` was called: call `auth` again with the code).
 */
export async function auth(provider: OAuthClientProvider, options: AuthOptions): Promise<AuthResult> {
  const fetchFn = fetchOf(options.fetchFn);
  const serverUrl = new URL(options.serverUrl);

  // 1. Discovery.
  const version = options.protocolVersion;
  if (version !== undefined && (typeof version !== "string" || !/^[\x21-\x7e]{1,64}$/.test(version))) {
    throw new TypeError(`auth: protocolVersion must be a short string of visible ASCII characters, got ${describeValue(version)}`);
  }
  const { resourceServer, resource, issuerText, as } = await discover(provider, serverUrl, options.resourceMetadataUrl, fetchFn, version);
  const context = { issuer: as.issuer };
  const dpop = provider.dpopKey;
  if (dpop !== undefined && !(dpop instanceof DpopKey)) throw new TypeError(`the provider's dpopKey must be a DpopKey, got ${describeValue(dpop)}`);
  const http = requestOptions(fetchFn, new URL(as.token_endpoint ?? as.issuer));
  const resourceParameter: Record<string, string> = resource === undefined ? {} : { resource };

  // 2. The client id.
  const information = await clientInformationFor(provider, as, fetchFn);
  const client: oauth.Client = { client_id: information.client_id };
  const clientAuth = clientAuthentication(provider, information, as);
  const tokenHttp = dpop === undefined ? http : { ...http, DPoP: dpop.handle(client) };
  const send = (attempt: () => Promise<oauth.TokenEndpointResponse>): Promise<AuthResult> => tokenRequest(dpop !== undefined, attempt).then(save);
  const save = async (response: oauth.TokenEndpointResponse): Promise<AuthResult> => {
    await provider.saveTokens(stored(response, as.issuer), context);
    return "AUTHORIZED";
  };

  // 3a. The code of a redirect: the response's `iss` checked (RFC 9207 §2.4), then exchanged with the PKCE verifier.
  if (options.authorizationCode !== undefined) {
    const callback = new URLSearchParams({ code: options.authorizationCode });
    if (options.iss !== undefined) callback.set("iss", options.iss);
    const parameters = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck);
    const redirectUri = String(provider.redirectUrl ?? "");
    const verifier = await provider.codeVerifier();
    return send(async () => {
      const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, parameters, redirectUri, verifier, { ...tokenHttp, additionalParameters: resourceParameter });
      return oauth.processAuthorizationCodeResponse(as, client, response);
    });
  }

  // 3b. A refresh, unless a step-up needs scopes the tokens do not hold (a refresh cannot widen them, RFC 6749 §6).
  const tokens = await provider.tokens(context);
  const ownTokens = tokens !== undefined && (tokens.issuer === undefined || tokens.issuer === as.issuer) ? tokens : undefined;
  if (ownTokens?.refresh_token !== undefined && options.forceReauthorization !== true) {
    try {
      const refreshToken = ownTokens.refresh_token;
      return await send(async () => oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, { ...tokenHttp, additionalParameters: resourceParameter })));
    } catch (error) {
      if (oauthErrorCode(error) !== "invalid_grant") throw error;
      await provider.invalidateCredentials?.("tokens");
    }
  }

  const scope = selectScope(options.scope, resourceServer, provider, as);

  // 3c. The provider's own grant (no user): client_credentials, jwt-bearer, …
  const prepared = await provider.prepareTokenRequest?.(scope, { issuer: as.issuer, tokenEndpoint: as.token_endpoint ?? "", resource, fetchFn });
  if (prepared !== undefined) {
    const grantType = prepared.get("grant_type");
    if (grantType === null) throw new OAuthFlowError("prepareTokenRequest returned no grant_type");
    const parameters = new URLSearchParams(prepared);
    parameters.delete("grant_type");
    for (const [name, value] of Object.entries(resourceParameter)) if (!parameters.has(name)) parameters.set(name, value);
    return send(async () => oauth.processGenericTokenEndpointResponse(as, client, await oauth.genericTokenEndpointRequest(as, client, clientAuth, grantType, parameters, tokenHttp)));
  }
  if (provider.clientMetadata.grant_types?.includes("client_credentials") === true && provider.redirectUrl === undefined) {
    const parameters: Record<string, string> = { ...resourceParameter };
    if (scope !== undefined) parameters["scope"] = scope;
    return send(async () => oauth.processClientCredentialsResponse(as, client, await oauth.clientCredentialsGrantRequest(as, client, clientAuth, parameters, tokenHttp)));
  }

  // 3d. A new authorization (the user).
  await startAuthorization(provider, as, client, { scope, resource, requireS256: issuerText !== undefined });
  return "REDIRECT";
}

/** What discovery found (step 1): the resource's metadata and identifier, and the authorization server's metadata. */
interface Discovered {
  readonly resourceServer: oauth.ResourceServer | undefined;
  /** Exactly as the metadata publishes it (RFC 8707 §2: a pathless one stays without the "/" a URL parser would add). */
  readonly resource: string | undefined;
  /** The first authorization server the resource names, when it has metadata. */
  readonly issuerText: string | undefined;
  readonly as: oauth.AuthorizationServer;
}

/** Step 1: the protected resource metadata (its `resource` checked against the server), then the authorization server's. */
async function discover(provider: OAuthClientProvider, serverUrl: URL, resourceMetadataUrl: URL | undefined, fetchFn: FetchLike, version: string | undefined): Promise<Discovered> {
  const resourceServer = await discoverResource(fetchFn, serverUrl, resourceMetadataUrl, version);
  let resource: string | undefined;
  if (resourceServer !== undefined) {
    if (provider.validateResourceURL !== undefined) resource = (await provider.validateResourceURL(serverUrl, resourceServer.resource))?.href;
    else {
      if (!resourceCovers(new URL(resourceServer.resource), serverUrl)) throw new OAuthFlowError(`the protected resource metadata names the resource ${resourceServer.resource}, not this server (${serverUrl.href})`);
      resource = resourceServer.resource;
    }
  }
  const issuerText = resourceServer?.authorization_servers?.[0];
  // 2025-03-26 (no resource metadata): the MCP server's origin is the authorization server.
  const issuer = new URL(issuerText ?? serverUrl.origin);
  const as = (await discoverAuthorizationServer(fetchFn, issuer, version)) ?? (issuerText === undefined ? defaultEndpoints(serverUrl) : undefined);
  if (as === undefined) throw new OAuthFlowError(`no authorization server metadata for ${issuer.href}`);
  return { resourceServer, resource, issuerText, as };
}

/**
 * The client's information at `as` (step 2): pre-registered (unless another authorization
 * server's, SEP-2352), else a Client ID Metadata Document URL the server supports, else one
 * registered dynamically (RFC 7591) and saved with the provider.
 */
async function clientInformationFor(provider: OAuthClientProvider, as: oauth.AuthorizationServer, fetchFn: FetchLike): Promise<OAuthClientInformation> {
  const context = { issuer: as.issuer };
  const held = await provider.clientInformation(context);
  if (held !== undefined && (held.issuer === undefined || held.issuer === as.issuer)) return held;
  if (as.client_id_metadata_document_supported === true && provider.clientMetadataUrl !== undefined) {
    return { client_id: provider.clientMetadataUrl, token_endpoint_auth_method: "none", issuer: as.issuer };
  }
  if (as.registration_endpoint === undefined) {
    throw new OAuthFlowError(`no client id for ${as.issuer}: not pre-registered, no client metadata document URL it supports, and it offers no dynamic registration`);
  }
  const metadata = { application_type: applicationType(provider), ...provider.clientMetadata } as Partial<oauth.OmitSymbolProperties<oauth.Client>>;
  const response = await oauth.dynamicClientRegistrationRequest(as, metadata, requestOptions(fetchFn, new URL(as.registration_endpoint)));
  const information = { ...(await registration(response)), issuer: as.issuer };
  await provider.saveClientInformation?.(information, context);
  return information;
}

/**
 * Sends the user to the authorization endpoint (step 3d): PKCE S256 ("MUST use S256 if
 * technically capable"; a server with metadata that does not advertise it is refused: 2025-11-25
 * Authorization Code Protection), the state, scope and resource.
 */
async function startAuthorization(
  provider: OAuthClientProvider,
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  ask: { readonly scope: string | undefined; readonly resource: string | undefined; readonly requireS256: boolean },
): Promise<void> {
  if (as.authorization_endpoint === undefined) throw new OAuthFlowError(`${as.issuer} has no authorization_endpoint`);
  const methods = as.code_challenge_methods_supported;
  if (ask.requireS256 && (methods === undefined || !methods.includes("S256"))) {
    throw new OAuthFlowError(`${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported), which MCP requires`);
  }
  if (provider.redirectUrl === undefined) throw new OAuthFlowError("the provider has no redirectUrl and no grant of its own (prepareTokenRequest)");
  const verifier = oauth.generateRandomCodeVerifier();
  await provider.saveCodeVerifier(verifier);
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("redirect_uri", String(provider.redirectUrl));
  url.searchParams.set("state", (await provider.state?.()) ?? oauth.generateRandomState());
  if (ask.scope !== undefined) url.searchParams.set("scope", ask.scope);
  if (ask.resource !== undefined) url.searchParams.set("resource", ask.resource);
  await provider.redirectToAuthorization(url);
}

/**
 * The scope to ask for (2025-11-25 Scope Selection Strategy): the challenge's (the transport
 * passes it, unioned with those asked before), else every `scopes_supported` of the resource,
 * else the client metadata's `scope`, else none; `offline_access` added when the authorization
 * server lists it (a refresh token without asking the user again).
 */
function selectScope(challenged: string | undefined, resourceServer: oauth.ResourceServer | undefined, provider: OAuthClientProvider, as: oauth.AuthorizationServer): string | undefined {
  const base = challenged ?? resourceServer?.scopes_supported?.join(" ") ?? provider.clientMetadata.scope;
  const scopes = (base ?? "").split(" ").filter((s) => s !== "");
  if (scopes.length > 0 && as.scopes_supported?.includes("offline_access") === true && !scopes.includes("offline_access")) scopes.push("offline_access");
  return scopes.length === 0 ? undefined : scopes.join(" ");
}
