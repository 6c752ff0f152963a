/**
 * Enterprise-managed authorization (templates/runtime/addons/oauth/id-jag.ts) against a loopback
 * identity provider and authorization server: the ID token is exchanged at the IdP (RFC 8693:
 * subject_token/_type, requested_token_type id-jag, audience = the authorization server's issuer,
 * resource = the MCP server), and the ID-JAG the IdP signed goes to the authorization server as a
 * JWT bearer assertion with the client's own authentication. An IdP that issues something else,
 * or refuses, stops the flow before the authorization server is asked.
 */
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair, jwtVerify, SignJWT, type CryptoKey } from "jose";
import { auth, idJagGrant, JWT_BEARER_GRANT, MemoryOAuthClientProvider } from "../../../../templates/runtime/addons/oauth/auth.js";
import { ID_JAG_TOKEN_TYPE, ID_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT } from "../../../../templates/runtime/addons/oauth/id-jag.js";
import { issued, loopbackAuthorizationServer, oauthError, type Loopback, type TokenAnswer, type TokenRequest } from "./support.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const IDP_CLIENT = "idp-client";

interface Enterprise extends Loopback {
  readonly idToken: string;
  readonly exchanges: TokenRequest[];
}

/** The IdP (POST /idp/token) and the authorization server (POST /token) on one port. */
async function enterprise(answerExchange?: (request: TokenRequest) => TokenAnswer): Promise<Enterprise> {
  const idp = await generateKeyPair("ES256");
  const exchanges: TokenRequest[] = [];
  let idpIssuer = "";
  const exchange = async (request: TokenRequest, base: string): Promise<TokenAnswer> => {
    exchanges.push(request);
    if (answerExchange !== undefined) return answerExchange(request);
    const { form } = request;
    const wanted = { grant_type: TOKEN_EXCHANGE_GRANT, subject_token_type: ID_TOKEN_TYPE, requested_token_type: ID_JAG_TOKEN_TYPE, audience: base, resource: `${base}/mcp`, client_id: IDP_CLIENT };
    if (Object.entries(wanted).some(([name, value]) => form.get(name) !== value)) return oauthError("invalid_request");
    const { payload } = await jwtVerify(form.get("subject_token") ?? "", idp.publicKey, { issuer: idpIssuer, audience: IDP_CLIENT });
    const jag = await new SignJWT({ client_id: "xaa", resource: form.get("resource") })
      .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt" })
      .setIssuer(idpIssuer)
      .setSubject(payload.sub ?? "")
      .setAudience(form.get("audience") ?? "")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(idp.privateKey);
    return { status: 200, body: { access_token: jag, issued_token_type: ID_JAG_TOKEN_TYPE, token_type: "N_A" } };
  };
  const server = await loopbackAuthorizationServer(
    (request, issuer) => grant(request, issuer, idp.publicKey),
    { grant_types_supported: [JWT_BEARER_GRANT], token_endpoint_auth_methods_supported: ["client_secret_basic"] },
    { "/idp/token": exchange },
  );
  closers.push(server.close);
  idpIssuer = `${server.base}/idp`;
  const idToken = await new SignJWT({ email: "ann@corp.test" }).setProtectedHeader({ alg: "ES256" }).setIssuer(idpIssuer).setSubject("ann").setAudience(IDP_CLIENT).setIssuedAt().setExpirationTime("1h").sign(idp.privateKey);
  return { ...server, idToken, exchanges };
}

/** The authorization server's JWT bearer grant: the ID-JAG verified with the IdP's key, for this issuer and client. */
async function grant({ form, headers }: TokenRequest, issuer: string, idpKey: CryptoKey): Promise<TokenAnswer> {
  if (form.get("grant_type") !== JWT_BEARER_GRANT || headers.authorization !== `Basic ${btoa("xaa:xaa-secret")}`) return oauthError("invalid_client", 401);
  try {
    const { payload } = await jwtVerify(form.get("assertion") ?? "", idpKey, { audience: issuer, typ: "oauth-id-jag+jwt" });
    return payload["client_id"] === "xaa" && payload["resource"] === `${issuer}/mcp` ? issued(`for-${payload.sub}`) : oauthError("invalid_grant");
  } catch {
    return oauthError("invalid_grant");
  }
}

function provider(server: Enterprise): MemoryOAuthClientProvider {
  return new MemoryOAuthClientProvider({
    clientMetadata: { grant_types: [JWT_BEARER_GRANT] },
    clientInformation: { client_id: "xaa", client_secret: "xaa-secret" },
    grant: idJagGrant({ idpTokenEndpoint: `${server.base}/idp/token`, idpIssuer: `${server.base}/idp`, idToken: () => server.idToken, idpClientId: IDP_CLIENT }),
  });
}

describe("enterprise-managed authorization (ID-JAG)", () => {
  it("exchanges the ID token for an ID-JAG at the IdP, then presents it as a JWT bearer assertion", async () => {
    const server = await enterprise();
    const p = provider(server);
    await expect(auth(p, { serverUrl: server.resource, scope: "files:read" })).resolves.toBe("AUTHORIZED");
    expect(p.tokens()?.access_token).toBe("for-ann");
    expect(server.exchanges.map((e) => e.form.get("scope"))).toEqual(["files:read"]);
    const [request] = server.tokenRequests;
    expect([request!.form.get("grant_type"), request!.form.get("scope"), request!.form.get("resource")]).toEqual([JWT_BEARER_GRANT, "files:read", server.resource]);
  });

  it("stops before the authorization server when the IdP issues no ID-JAG, or refuses", async () => {
    const other = await enterprise(() => ({ status: 200, body: { access_token: "a.b.c", issued_token_type: "urn:ietf:params:oauth:token-type:access_token", token_type: "N_A" } }));
    await expect(auth(provider(other), { serverUrl: other.resource })).rejects.toThrow(/not an ID-JAG/);
    expect(other.tokenRequests).toEqual([]);
    const refusing = await enterprise(() => oauthError("invalid_grant"));
    await expect(auth(provider(refusing), { serverUrl: refusing.resource })).rejects.toMatchObject({ error: "invalid_grant" });
    expect([refusing.exchanges.length, refusing.tokenRequests.length]).toEqual([1, 0]);
  });

  it("checks its options where read", () => {
    expect(() => idJagGrant({ idpTokenEndpoint: "not a url", idToken: "t", idpClientId: "c" })).toThrow(/idpTokenEndpoint/);
    expect(() => idJagGrant({ idpTokenEndpoint: "https://idp.test/token", idToken: 7 as never, idpClientId: "c" })).toThrow(/idToken/);
    expect(() => idJagGrant({ idpTokenEndpoint: "https://idp.test/token", idToken: "t", idpClientId: "" })).toThrow(/idpClientId/);
  });
});
