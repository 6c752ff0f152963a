/**
 * Type-level guarantees of the `oauth` add-on's extensions (checked by `tsc -p tsconfig.json`, not
 * run): a provider with a grant, private_key_jwt and a DPoP key still fits the SDK v2's transport
 * and ours, the DPoP middleware fits `middleware`, the verifier fits `bearerAuth`'s `dpop`, and a
 * principal's `cnf.jkt` is a string; wrong shapes are errors.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  auth,
  clientCredentialsGrant,
  DpopKey,
  idJagGrant,
  jwtBearerGrant,
  MemoryOAuthClientProvider,
  privateKeyJwt,
} from "../../../../templates/runtime/addons/oauth/auth.js";
import { createDpopVerifier } from "../../../../templates/runtime/addons/oauth/dpop-server.js";
import * as R from "../../../generated/2026-07-28/index.js";

declare const dpopKey: DpopKey;
const url = "https://mcp.example/mcp";

const machine = new MemoryOAuthClientProvider({
  clientMetadata: { grant_types: ["client_credentials"] },
  clientInformation: { client_id: "c" },
  clientAuthentication: privateKeyJwt("c", { privateKey: "-----BEGIN PRIVATE KEY-----", algorithm: "ES256" }),
  grant: clientCredentialsGrant(),
  dpopKey,
});
R.createHttpClientTransport({ url, authProvider: machine, oauthFlow: auth, middleware: [dpopKey.middleware(machine)] });
void new StreamableHTTPClientTransport(new URL(url), { authProvider: machine });
void new MemoryOAuthClientProvider({ clientMetadata: {}, grant: jwtBearerGrant(async () => "a.b.c") });
void new MemoryOAuthClientProvider({ clientMetadata: {}, grant: idJagGrant({ idpTokenEndpoint: "https://idp/token", idToken: "a.b.c", idpClientId: "c" }) });

R.bearerAuth({ resource: url, authorizationServers: ["https://as.example"], verify: () => ({ id: "u", cnf: { jkt: "thumb" } }), dpop: createDpopVerifier({ requireNonce: true }) });

// @ts-expect-error a grant is a function of the scope and context, not a grant_type name
void new MemoryOAuthClientProvider({ clientMetadata: {}, grant: "client_credentials" });

// @ts-expect-error jwtBearerGrant takes a JWT or a function giving one
jwtBearerGrant(42);

// @ts-expect-error idJagGrant needs the user's ID token
idJagGrant({ idpTokenEndpoint: "https://idp/token", idpClientId: "c" });

// @ts-expect-error cnf.jkt is a thumbprint string
R.bearerAuth({ resource: url, authorizationServers: ["https://as.example"], verify: () => ({ id: "u", cnf: { jkt: 1 } }) });

// @ts-expect-error dpop is a proof checker, not a flag
R.bearerAuth({ resource: url, authorizationServers: ["https://as.example"], verify: () => undefined, dpop: true });
