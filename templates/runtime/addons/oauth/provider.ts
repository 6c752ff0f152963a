// The OAuth client provider the `oauth` add-on's `auth` drives: the shape of the official SDK's
// `OAuthClientProvider` (v1 and v2), declared structurally, so the SDK's own providers
// (ClientCredentialsProvider, PrivateKeyJwtProvider, a provider written for the SDK) and one
// written against this file are interchangeable. The transports read only the part of it in
// runtime/http/auth.ts (`OAuthClientProviderLike`).

import type { OAuthClientProviderLike } from "../../http/auth.js";
import type { DpopKey } from "./dpop-client.js";
import type { TokenRequestContext } from "./grants.js";

/**
 * RFC 7591 §2 client metadata (what dynamic registration sends, and a metadata document holds).
 * Arrays are mutable, as in the SDK's type, so that a provider of either type fits the other.
 */
export interface OAuthClientMetadata {
  readonly redirect_uris?: string[] | undefined;
  readonly client_name?: string | undefined;
  readonly grant_types?: string[] | undefined;
  readonly response_types?: string[] | undefined;
  readonly token_endpoint_auth_method?: string | undefined;
  readonly scope?: string | undefined;
  readonly [member: string]: unknown;
}

/** A registered client (pre-registered, registered dynamically, or a metadata document URL as its id). */
export interface OAuthClientInformation {
  readonly client_id: string;
  readonly client_secret?: string | undefined;
  readonly token_endpoint_auth_method?: string | undefined;
  /** The authorization server that issued it (SEP-2352: credentials are bound to their issuer). */
  readonly issuer?: string | undefined;
  readonly [member: string]: unknown;
}

/** A token response (RFC 6749 §5.1), with the issuer that granted it. */
export interface OAuthTokens {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in?: number | undefined;
  readonly refresh_token?: string | undefined;
  readonly scope?: string | undefined;
  readonly issuer?: string | undefined;
  readonly [member: string]: unknown;
}

/** Which authorization server a stored credential belongs to (SDK: `OAuthClientInformationContext`). */
export interface IssuerContext {
  readonly issuer: string;
}

type MaybePromise<T> = T | Promise<T>;

/** The SDK's `OAuthClientProvider`, as far as the flow uses it. */
export interface OAuthClientProvider extends OAuthClientProviderLike {
  /** Where the authorization server sends the user back; undefined for flows without a user (client_credentials). */
  readonly redirectUrl: string | URL | undefined;
  /** An https URL of this client's metadata document, used as its client_id where supported (CIMD). */
  readonly clientMetadataUrl?: string | undefined;
  readonly clientMetadata: OAuthClientMetadata;
  state?(): MaybePromise<string>;
  clientInformation(context?: IssuerContext): MaybePromise<OAuthClientInformation | undefined>;
  saveClientInformation?(information: OAuthClientInformation, context?: IssuerContext): MaybePromise<void>;
  tokens(context?: IssuerContext): MaybePromise<OAuthTokens | undefined>;
  saveTokens(tokens: OAuthTokens, context?: IssuerContext): MaybePromise<void>;
  redirectToAuthorization(authorizationUrl: URL): MaybePromise<void>;
  saveCodeVerifier(codeVerifier: string): MaybePromise<void>;
  codeVerifier(): MaybePromise<string>;
  /** Client authentication of its own at the token endpoint (private_key_jwt, …), instead of the secret. */
  addClientAuthentication?(headers: Headers, params: URLSearchParams, url: string | URL, metadata?: Readonly<Record<string, unknown>>): MaybePromise<void>;
  /**
   * The grant of a flow without a user: `grant_type` and its parameters (client_credentials,
   * jwt-bearer). The flow also passes whom the token is for (the SDK's providers ignore it).
   */
  prepareTokenRequest?(scope?: string, context?: TokenRequestContext): MaybePromise<URLSearchParams | undefined>;
  /** A DPoP key (RFC 9449): token requests carry its proofs, and the tokens come back DPoP-bound. Not in the SDK's type (whose `dpop()` is its own session class). */
  readonly dpopKey?: DpopKey | undefined;
  invalidateCredentials?(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): MaybePromise<void>;
  /** Overrides the check of the protected resource metadata's `resource` against the server URL. */
  validateResourceURL?(serverUrl: string | URL, resource?: string): Promise<URL | undefined>;
}
