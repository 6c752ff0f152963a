// The authorization of the conformance client's `auth/*` scenarios: the `oauth` add-on's
// MemoryOAuthClientProvider (the SDK's OAuthClientProvider shape) and its flow, handed to the
// generated HTTP client transports as `authProvider` + `oauthFlow`. The suite's authorization
// server approves every authorization request at once (a redirect to `redirect_uri` with `code`,
// `state` and maybe `iss`), so "the user" here is one GET of the authorization URL without
// following its redirect; the flow then runs again with that code and `iss`.
import { auth, MemoryOAuthClientProvider, type AuthOptions, type AuthResult, type MemoryOAuthClientProviderOptions, type OAuthClientProvider } from "../../out/runtime/addons/oauth/auth.js";
import type { ScenarioContext } from "./scenario.js";

const REDIRECT_URL = "http://localhost:3000/callback";
/** The client metadata document URL the suite's CIMD scenario expects as client_id. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** The authorization response "the user" brought back: its code and `iss`. */
interface Callback {
  readonly code: string;
  readonly iss: string | undefined;
}

/** "The user approves": GET the authorization URL, read the code and `iss` from its redirect. */
async function approve(url: URL): Promise<Callback> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel().catch(() => {});
  const location = response.headers.get("location");
  if (location === null) throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
  const back = new URL(location);
  const error = back.searchParams.get("error");
  if (error !== null) throw new Error(`authorization refused: ${error}`);
  const code = back.searchParams.get("code");
  if (code === null) throw new Error("the authorization response has no code");
  return { code, iss: back.searchParams.get("iss") ?? undefined };
}

/** What the transports take: the provider and a flow that completes a redirect on its own (`extra`: more provider options, a DPoP key). */
export function conformanceAuth(context: ScenarioContext, extra: Partial<MemoryOAuthClientProviderOptions> = {}): {
  authProvider: MemoryOAuthClientProvider;
  oauthFlow: (provider: OAuthClientProvider, options: AuthOptions) => Promise<AuthResult>;
} {
  const clientId = context["client_id"];
  const clientSecret = context["client_secret"];
  let callback: Promise<Callback> | undefined;
  const authProvider = new MemoryOAuthClientProvider({
    redirectUrl: REDIRECT_URL,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientMetadata: { client_name: "mcp-stubgen-everything-client", redirect_uris: [REDIRECT_URL] },
    // auth/pre-registration: the suite passes the pre-registered client in the context.
    clientInformation:
      typeof clientId === "string" ? { client_id: clientId, ...(typeof clientSecret === "string" ? { client_secret: clientSecret } : {}), redirect_uris: [REDIRECT_URL] } : undefined,
    onRedirect: (url) => {
      callback = approve(url);
      return callback.then(() => {});
    },
    ...extra,
  });
  const oauthFlow = async (provider: OAuthClientProvider, options: AuthOptions): Promise<AuthResult> => {
    callback = undefined;
    const first = await auth(provider, options);
    if (first !== "REDIRECT") return first;
    if (callback === undefined) throw new Error("the authorization gave no code");
    const { code, iss } = await callback;
    return auth(provider, { ...options, authorizationCode: code, iss });
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
