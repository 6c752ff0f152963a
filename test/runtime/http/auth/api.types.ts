/**
 * Type-level guarantees of authorization (checked by `tsc -p tsconfig.json`, not run): the SDK's
 * providers (v2 and 1.x) and the SDK's `auth` fit our transports' `authProvider` and `oauthFlow`
 * as they are, so do the `oauth` add-on's `auth` and MemoryOAuthClientProvider, and the add-on's
 * provider fits the SDK's transports; a wrong shape is an error.
 */
import {
  auth as sdkAuth,
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
  StreamableHTTPClientTransport,
  type AuthProvider as SdkAuthProvider,
  type Middleware as SdkMiddleware,
  type OAuthClientProvider as SdkOAuthClientProvider,
} from "@modelcontextprotocol/client";
import type { OAuthClientProvider as SdkV1OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { auth, MemoryOAuthClientProvider } from "../../../../templates/runtime/addons/oauth/auth.js";
import * as R from "../../../generated/2026-07-28/index.js";
import * as S from "../../../generated/2025-11-25/index.js";

declare const sdkV2Provider: SdkOAuthClientProvider;
declare const sdkV1Provider: SdkV1OAuthClientProvider;
declare const sdkTokenProvider: SdkAuthProvider;
declare const sdkMiddleware: SdkMiddleware;
const url = "https://mcp.example/mcp";

// The SDK's providers and flow, unchanged, on every HTTP client transport.
R.createHttpClientTransport({ url, authProvider: new ClientCredentialsProvider({ clientId: "c", clientSecret: "s", expectedIssuer: "https://as.example" }), oauthFlow: sdkAuth });
R.createHttpClientTransport({ url, authProvider: new PrivateKeyJwtProvider({ clientId: "c", privateKey: "pem", algorithm: "ES256" }), oauthFlow: sdkAuth });
R.createHttpClientTransport({ url, authProvider: sdkV2Provider, oauthFlow: sdkAuth, middleware: [sdkMiddleware] });
S.createSessionHttpClientTransport({ url, authProvider: sdkV1Provider, oauthFlow: sdkAuth });
S.createFallbackHttpClientTransport({ url, authProvider: sdkTokenProvider });

// The add-on's flow and provider on ours, and its provider on the SDK's transport.
const memory = new MemoryOAuthClientProvider({ clientMetadata: { client_name: "m" }, clientInformation: { client_id: "c", client_secret: "s" }, clientCredentials: true });
R.createHttpClientTransport({ url, authProvider: memory, oauthFlow: auth });
R.createHttpClientTransport({ url, authProvider: sdkV2Provider, oauthFlow: auth });
void new StreamableHTTPClientTransport(new URL(url), { authProvider: memory });

// @ts-expect-error a token source must be async: token() returns a Promise
R.createHttpClientTransport({ url, authProvider: { token: () => "t" } });

// @ts-expect-error not a provider of either shape
R.createHttpClientTransport({ url, authProvider: { tokens: () => undefined } });

// @ts-expect-error a flow resolves to "AUTHORIZED" or "REDIRECT"
R.createHttpClientTransport({ url, authProvider: memory, oauthFlow: async () => true });

// @ts-expect-error middleware wraps a fetch: (next) => fetch
R.createHttpClientTransport({ url, middleware: [(input: string) => input] });

// The server side: verify returns a principal (an id) or undefined; scopes are strings.
R.bearerAuth({ resource: url, authorizationServers: ["https://as.example"], verify: async (token) => (token === "t" ? { id: "u", scopes: ["a"] } : undefined) });

// @ts-expect-error a principal needs an id
R.bearerAuth({ resource: url, authorizationServers: ["https://as.example"], verify: () => ({ scopes: ["a"] }) });

// @ts-expect-error bearerAuth needs the authorization servers its metadata names
R.bearerAuth({ resource: url, verify: () => undefined });
