// The suite's scenarios of the authorization extensions, played with the `oauth` add-on: client
// credentials (client_secret_basic, private_key_jwt), enterprise-managed authorization (ID-JAG),
// DPoP (with and without nonces) and workload identity federation (JWT bearer). The suite passes
// the credentials in MCP_CONFORMANCE_CONTEXT; each runner builds a MemoryOAuthClientProvider
// from them, and the era's `play` connects with it, lists the tools and calls test-tool.
import {
  auth,
  clientCredentialsGrant,
  DpopKey,
  idJagGrant,
  jwtBearerGrant,
  MemoryOAuthClientProvider,
  privateKeyJwt,
  type AuthOptions,
  type AuthResult,
  type OAuthClientProvider,
} from "../../out/runtime/addons/oauth/auth.js";
import type { FetchMiddleware } from "../../out/runtime/http/auth.js";
import { conformanceAuth } from "./auth.js";
import type { ScenarioContext, ScenarioRunner, ScenarioTable } from "./scenario.js";

/** The authorization options a scenario gives the era's HTTP transport. */
export interface AuthTransport {
  readonly authProvider: MemoryOAuthClientProvider;
  readonly oauthFlow: (provider: OAuthClientProvider, options: AuthOptions) => Promise<AuthResult>;
  readonly middleware?: FetchMiddleware[];
}

/** Connects to `url` with these options, lists the tools and calls test-tool (the era's client). */
export type PlayAuthorized = (url: string, transport: AuthTransport) => Promise<void>;

/** A context member the scenario must have passed, as a string. */
function given(context: ScenarioContext, name: string): string {
  const value = context[name];
  if (typeof value !== "string" || value === "") throw new Error(`MCP_CONFORMANCE_CONTEXT has no ${name}`);
  return value;
}

const METADATA = { client_name: "mcp-stubgen-everything-client", grant_types: ["client_credentials"] };

/** A provider without a user: a pre-registered client and one grant. */
function machine(options: ConstructorParameters<typeof MemoryOAuthClientProvider>[0]): AuthTransport {
  return { authProvider: new MemoryOAuthClientProvider(options), oauthFlow: auth };
}

/** The provider of each scenario, from its context. */
const TRANSPORTS: Readonly<Record<string, (context: ScenarioContext) => AuthTransport | Promise<AuthTransport>>> = {
  // SEP-1046: client_credentials, the secret in HTTP Basic.
  "auth/client-credentials-basic": (context) =>
    machine({ clientMetadata: METADATA, clientInformation: { client_id: given(context, "client_id"), client_secret: given(context, "client_secret") }, clientCredentials: true }),
  // SEP-1046: client_credentials with a private_key_jwt assertion (the suite's PKCS#8 key).
  "auth/client-credentials-jwt": (context) => {
    const clientId = given(context, "client_id");
    const algorithm = typeof context["signing_algorithm"] === "string" ? context["signing_algorithm"] : "ES256";
    return machine({
      clientMetadata: { ...METADATA, token_endpoint_auth_method: "private_key_jwt" },
      clientInformation: { client_id: clientId, token_endpoint_auth_method: "private_key_jwt" },
      clientAuthentication: privateKeyJwt(clientId, { privateKey: given(context, "private_key_pem"), algorithm }),
      grant: clientCredentialsGrant(),
    });
  },
  // SEP-990: the IdP's ID token exchanged for an ID-JAG, then the JWT bearer grant (client_secret_basic).
  "auth/enterprise-managed-authorization": (context) => enterpriseManaged(context),
  // The stable referee 0.1.16's name for the same flow (SEP-990 cross-app access, the same context).
  "auth/cross-app-access-complete-flow": (context) => enterpriseManaged(context),
  // SEP-1933: the workload's JWT as a JWT bearer assertion; a public client (auth method none).
  "auth/wif-jwt-bearer": (context) =>
    machine({
      clientMetadata: { client_name: METADATA.client_name, grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"] },
      clientInformation: { client_id: given(context, "client_id") },
      grant: jwtBearerGrant(given(context, "valid_jwt")),
    }),
  // SEP-1932: the authorization code flow with a DPoP key; the transport's requests carry proofs.
  "auth/dpop": dpop,
  "auth/dpop-nonce": dpop,
};

/** SEP-990: the IdP's ID token exchanged for an ID-JAG (RFC 8693), then the JWT bearer grant at the AS. */
function enterpriseManaged(context: ScenarioContext): AuthTransport | Promise<AuthTransport> {
  return machine({
    clientMetadata: { client_name: METADATA.client_name, grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"] },
    clientInformation: { client_id: given(context, "client_id"), client_secret: given(context, "client_secret") },
    grant: idJagGrant({
      idpTokenEndpoint: given(context, "idp_token_endpoint"),
      idpIssuer: given(context, "idp_issuer"),
      idToken: given(context, "idp_id_token"),
      idpClientId: given(context, "idp_client_id"),
    }),
  });
}

async function dpop(context: ScenarioContext): Promise<AuthTransport> {
  const dpopKey = await DpopKey.generate("ES256");
  const { authProvider, oauthFlow } = conformanceAuth(context, { dpopKey });
  return { authProvider, oauthFlow, middleware: [dpopKey.middleware(authProvider)] };
}

/** The extension scenarios, for an era whose client `play`s them. */
export function authExtensionScenarios(play: PlayAuthorized): ScenarioTable {
  return Object.fromEntries(
    Object.entries(TRANSPORTS).map(([name, transport]): [string, ScenarioRunner] => [name, async (url, context) => play(url, await transport(context))]),
  );
}
