// An OAuthClientProvider that keeps everything in memory: for a process that authorizes once
// per run (a CLI, a service with client credentials, tests). It has the SDK's provider shape, so
// it works with this runtime's transports (`authProvider`, with the add-on's `auth` as
// `oauthFlow`) and with the SDK's transports (whose own `auth()` drives it) alike. Credentials
// are kept per authorization server (`issuer`, SEP-2352): another server never sees them.

import { describeValue } from "../../core/protocol.js";
import { DpopKey } from "./dpop-client.js";
import { clientCredentialsGrant, type TokenGrant, type TokenRequestContext } from "./grants.js";
import type { ClientAuthentication } from "./private-key-jwt.js";
import type { IssuerContext, OAuthClientInformation, OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from "./provider.js";

export interface MemoryOAuthClientProviderOptions {
  /** The client's metadata (registration, or the document at `clientMetadataUrl`). */
  readonly clientMetadata: OAuthClientMetadata;
  /** Where the user comes back with the code; leave it out for client credentials. */
  readonly redirectUrl?: string | URL | undefined;
  /** An https URL of the client's metadata document, used as client_id where the server supports it. */
  readonly clientMetadataUrl?: string | undefined;
  /** A pre-registered client (its id, and its secret for a confidential client). */
  readonly clientInformation?: OAuthClientInformation | undefined;
  /** Use the client_credentials grant (no user, no redirect): needs `clientInformation` with a secret, or `clientAuthentication`. */
  readonly clientCredentials?: boolean | undefined;
  /**
   * A grant without a user (grants.ts, id-jag.ts): `clientCredentialsGrant()`, `jwtBearerGrant(jwt)`
   * (workload identity federation), `idJagGrant({...})` (enterprise-managed authorization).
   */
  readonly grant?: TokenGrant | undefined;
  /** How the client authenticates at the token endpoint instead of its secret: `privateKeyJwt(clientId, { privateKey })`. */
  readonly clientAuthentication?: ClientAuthentication | undefined;
  /** A DPoP key (`await DpopKey.generate()`): tokens are requested DPoP-bound; give the transport `dpopKey.middleware(provider)` too. */
  readonly dpopKey?: DpopKey | undefined;
  /** Send the user to the authorization URL (open a browser, print it, …). Required with `redirectUrl`. */
  readonly onRedirect?: ((authorizationUrl: URL) => void | Promise<void>) | undefined;
}

/** Key of what is kept without an issuer (a pre-registered client, the transports' token read). */
const ANY = "";

export class MemoryOAuthClientProvider implements OAuthClientProvider {
  readonly redirectUrl: string | URL | undefined;
  // Optional, not `string | undefined`: the SDK's provider type declares it so (exactOptionalPropertyTypes).
  readonly clientMetadataUrl?: string;
  /** The options' metadata, `redirect_uris` always present (the SDK's provider type requires it). */
  readonly clientMetadata: OAuthClientMetadata & { readonly redirect_uris: string[] };
  readonly #information = new Map<string, OAuthClientInformation>();
  readonly #tokens = new Map<string, OAuthTokens>();
  readonly #onRedirect: ((authorizationUrl: URL) => void | Promise<void>) | undefined;
  readonly #grant: TokenGrant | undefined;
  readonly addClientAuthentication?: ClientAuthentication;
  readonly dpopKey?: DpopKey;
  #verifier: string | undefined;
  /** The tokens saved last: what the transports send (they read without an issuer). */
  #latest: OAuthTokens | undefined;

  constructor(options: MemoryOAuthClientProviderOptions) {
    if (typeof options !== "object" || options === null || typeof options.clientMetadata !== "object" || options.clientMetadata === null) {
      throw new TypeError("MemoryOAuthClientProvider needs options.clientMetadata");
    }
    if (options.redirectUrl !== undefined && typeof options.onRedirect !== "function") throw new TypeError("MemoryOAuthClientProvider: a redirectUrl needs onRedirect");
    if (options.grant !== undefined && typeof options.grant !== "function") throw new TypeError(`MemoryOAuthClientProvider: grant must be a function (clientCredentialsGrant(), jwtBearerGrant(…), idJagGrant(…)), got ${describeValue(options.grant)}`);
    if (options.clientAuthentication !== undefined && typeof options.clientAuthentication !== "function") throw new TypeError(`MemoryOAuthClientProvider: clientAuthentication must be a function (privateKeyJwt(…)), got ${describeValue(options.clientAuthentication)}`);
    if (options.dpopKey !== undefined && !(options.dpopKey instanceof DpopKey)) throw new TypeError(`MemoryOAuthClientProvider: dpopKey must be a DpopKey, got ${describeValue(options.dpopKey)}`);
    if (options.clientCredentials === true && (options.clientInformation === undefined || (options.clientInformation.client_secret === undefined && options.clientAuthentication === undefined))) {
      throw new TypeError("MemoryOAuthClientProvider: clientCredentials needs clientInformation with a client_secret, or clientAuthentication");
    }
    this.redirectUrl = options.redirectUrl;
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
    const redirectUris = options.clientMetadata.redirect_uris ?? (options.redirectUrl === undefined ? [] : [String(options.redirectUrl)]);
    this.clientMetadata = { ...options.clientMetadata, redirect_uris: [...redirectUris] };
    this.#onRedirect = options.onRedirect;
    this.#grant = options.grant ?? (options.clientCredentials === true ? clientCredentialsGrant() : undefined);
    if (options.clientAuthentication !== undefined) this.addClientAuthentication = options.clientAuthentication;
    if (options.dpopKey !== undefined) this.dpopKey = options.dpopKey;
    if (options.clientInformation !== undefined) this.#information.set(ANY, options.clientInformation);
  }

  clientInformation(context?: IssuerContext): OAuthClientInformation | undefined {
    return this.#information.get(context?.issuer ?? ANY) ?? this.#information.get(ANY);
  }

  saveClientInformation(information: OAuthClientInformation, context?: IssuerContext): void {
    this.#information.set(context?.issuer ?? information.issuer ?? ANY, information);
  }

  tokens(context?: IssuerContext): OAuthTokens | undefined {
    return context === undefined ? this.#latest : this.#tokens.get(context.issuer);
  }

  saveTokens(tokens: OAuthTokens, context?: IssuerContext): void {
    this.#tokens.set(context?.issuer ?? tokens.issuer ?? ANY, tokens);
    this.#latest = tokens;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.#onRedirect === undefined) throw new Error("MemoryOAuthClientProvider: the flow needs the user, and there is no onRedirect");
    await this.#onRedirect(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error("MemoryOAuthClientProvider: no PKCE code verifier saved (no authorization was started)");
    return this.#verifier;
  }

  /** The grant's parameters; without a context (the SDK's auth() calls it so) only a grant that needs none works. */
  async prepareTokenRequest(scope?: string, context?: TokenRequestContext): Promise<URLSearchParams | undefined> {
    if (this.#grant === undefined) return undefined;
    return this.#grant(scope, context ?? { issuer: "", tokenEndpoint: "", resource: undefined, fetchFn: (input, init) => fetch(input, init) });
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") {
      this.#tokens.clear();
      this.#latest = undefined;
    }
    if (scope === "all" || scope === "client") for (const key of [...this.#information.keys()]) if (key !== ANY) this.#information.delete(key);
    if (scope === "all" || scope === "verifier") this.#verifier = undefined;
  }
}
