// The authorization of the conformance client's `auth/*` scenarios: an in-memory OAuth client
// provider (the SDK's OAuthClientProvider shape) and the `oauth` add-on's flow, handed to the
// generated HTTP client transports as `authProvider` + `oauthFlow`. The suite's authorization
// server approves every authorization request at once (a redirect to `redirect_uri` with `code`,
// `state` and maybe `iss`), so "the user" here is one GET of the authorization URL without
// following its redirect; the flow then runs again with that code and `iss`.
import { auth, type AuthOptions, type OAuthClientInformation, type OAuthClientMetadata, type OAuthClientProvider, type OAuthTokens } from "../../out/runtime/addons/oauth/auth.js";
import type { ScenarioContext } from "./scenario.js";

const REDIRECT_URL = "http://localhost:3000/callback";
/** The client metadata document URL the suite's CIMD scenario expects as client_id. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** An OAuth client provider held in memory for one scenario run. */
class ConformanceProvider implements OAuthClientProvider {
  readonly redirectUrl = REDIRECT_URL;
  readonly clientMetadataUrl = CLIENT_METADATA_URL;
  readonly clientMetadata: OAuthClientMetadata = { client_name: "mcp-stubgen-everything-client", redirect_uris: [REDIRECT_URL] };
  #information: OAuthClientInformation | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier: string | undefined;
  /** The authorization response of the last redirect: its code and `iss`. */
  callback: { readonly code: string; readonly iss: string | undefined } | undefined;

  constructor(preRegistered?: OAuthClientInformation) {
    this.#information = preRegistered;
  }

  clientInformation(): OAuthClientInformation | undefined {
    return this.#information;
  }
  saveClientInformation(information: OAuthClientInformation): void {
    this.#information = information;
  }
  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error("no PKCE code verifier saved");
    return this.#verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
    if (scope === "all" || scope === "client") this.#information = undefined;
  }

  /** "The user approves": GET the authorization URL, read the code and `iss` from its redirect. */
  async redirectToAuthorization(url: URL): Promise<void> {
    const response = await fetch(url, { redirect: "manual" });
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get("location");
    if (location === null) throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
    const back = new URL(location);
    const error = back.searchParams.get("error");
    if (error !== null) throw new Error(`authorization refused: ${error}`);
    const code = back.searchParams.get("code");
    if (code === null) throw new Error("the authorization response has no code");
    this.callback = { code, iss: back.searchParams.get("iss") ?? undefined };
  }
}

/** What the transports take: the provider and a flow that completes a redirect on its own. */
export function conformanceAuth(context: ScenarioContext): { authProvider: ConformanceProvider; oauthFlow: (provider: OAuthClientProvider, options: AuthOptions) => Promise<"AUTHORIZED" | "REDIRECT"> } {
  const clientId = context["client_id"];
  const clientSecret = context["client_secret"];
  const preRegistered =
    typeof clientId === "string" ? { client_id: clientId, ...(typeof clientSecret === "string" ? { client_secret: clientSecret } : {}), redirect_uris: [REDIRECT_URL] } : undefined;
  const authProvider = new ConformanceProvider(preRegistered);
  const oauthFlow = async (provider: OAuthClientProvider, options: AuthOptions): Promise<"AUTHORIZED" | "REDIRECT"> => {
    const first = await auth(provider, options);
    if (first !== "REDIRECT") return first;
    const callback = authProvider.callback;
    if (callback === undefined) throw new Error("the authorization gave no code");
    authProvider.callback = undefined;
    return auth(provider, { ...options, authorizationCode: callback.code, iss: callback.iss });
  };
  return { authProvider, oauthFlow };
}

/** The `auth/*` scenarios this client plays, per protocol version (the suite's `list --client`). */
export const AUTH_SCENARIOS_2025 = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
] as const;

export const AUTH_SCENARIOS_2026 = [
  ...AUTH_SCENARIOS_2025,
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/authorization-server-migration",
  "auth/iss-supported",
  "auth/iss-not-advertised",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
] as const;

export const AUTH_SCENARIOS_2025_03_26 = ["auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback"] as const;
