/**
 * `private_key_jwt` (templates/runtime/addons/oauth/private-key-jwt.ts) in the add-on's flow
 * against a loopback token endpoint that verifies the client assertion with jose: the signature
 * with the client's public key, `iss` = `sub` = the client id, `aud` = the issuer, a short `exp`,
 * a `jti` new on every assertion, the assertion type; a PEM and a private JWK both sign; a wrong
 * key is refused by the server and the flow fails; the options are checked where read.
 */
import { afterEach, describe, expect, it } from "vitest";
import { decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from "jose";
import { auth, clientCredentialsGrant, MemoryOAuthClientProvider, privateKeyJwt, type PrivateKeyJwtOptions } from "../../../../templates/runtime/addons/oauth/auth.js";
import { issued, loopbackAuthorizationServer, oauthError, type Loopback } from "./support.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const CLIENT = "svc-jwt";

/** A token endpoint that accepts only assertions `publicKey` verifies; it records the verified claims. */
async function verifyingServer(publicKey: CryptoKey, algorithm: string): Promise<Loopback & { claims: Array<Record<string, unknown>> }> {
  const claims: Array<Record<string, unknown>> = [];
  const server = await loopbackAuthorizationServer(
    async ({ form, headers }, issuer) => {
      if (form.get("grant_type") !== "client_credentials" || headers.authorization !== undefined) return oauthError("invalid_request");
      if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" || form.get("client_id") !== CLIENT) return oauthError("invalid_client", 401);
      try {
        const { payload } = await jwtVerify(form.get("client_assertion") ?? "", publicKey, { algorithms: [algorithm], issuer: CLIENT, subject: CLIENT, audience: issuer, maxTokenAge: "2 minutes" });
        claims.push({ ...payload, kid: decodeProtectedHeader(form.get("client_assertion") ?? "").kid });
        return issued(`token-${claims.length}`);
      } catch {
        return oauthError("invalid_client", 401);
      }
    },
    { grant_types_supported: ["client_credentials"], token_endpoint_auth_methods_supported: ["private_key_jwt"], token_endpoint_auth_signing_alg_values_supported: [algorithm] },
  );
  closers.push(server.close);
  return Object.assign(server, { claims });
}

function provider(options: PrivateKeyJwtOptions): MemoryOAuthClientProvider {
  return new MemoryOAuthClientProvider({
    clientMetadata: { grant_types: ["client_credentials"], token_endpoint_auth_method: "private_key_jwt" },
    clientInformation: { client_id: CLIENT, token_endpoint_auth_method: "private_key_jwt" },
    clientAuthentication: privateKeyJwt(CLIENT, options),
    grant: clientCredentialsGrant(),
  });
}

describe("private_key_jwt client authentication", () => {
  it("signs an assertion the server verifies (PKCS#8 PEM, ES256): iss = sub = client id, aud = issuer, exp soon, a new jti each time", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const server = await verifyingServer(publicKey, "ES256");
    const p = provider({ privateKey: await exportPKCS8(privateKey), lifetimeSeconds: 30 });
    await expect(auth(p, { serverUrl: server.resource })).resolves.toBe("AUTHORIZED");
    await p.invalidateCredentials("tokens");
    await expect(auth(p, { serverUrl: server.resource })).resolves.toBe("AUTHORIZED");
    expect(p.tokens()?.access_token).toBe("token-2");
    const [first, second] = server.claims;
    expect(first).toMatchObject({ iss: CLIENT, sub: CLIENT, aud: server.base });
    expect((first!["exp"] as number) - (first!["iat"] as number)).toBe(30);
    expect(first!["jti"]).not.toBe(second!["jti"]);
    expect(server.tokenRequests[0]!.form.get("resource")).toBe(server.resource);
  });

  it("signs with a private JWK (RS256) and its kid", async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    const server = await verifyingServer(publicKey, "RS256");
    const p = provider({ privateKey: await exportJWK(privateKey), algorithm: "RS256", keyId: "k-1" });
    await expect(auth(p, { serverUrl: server.resource })).resolves.toBe("AUTHORIZED");
    expect(server.claims[0]).toMatchObject({ kid: "k-1", iss: CLIENT });
  });

  it("an assertion signed with another key is refused by the server, and the flow fails", async () => {
    const { publicKey } = await generateKeyPair("ES256");
    const { privateKey: wrong } = await generateKeyPair("ES256", { extractable: true });
    const server = await verifyingServer(publicKey, "ES256");
    await expect(auth(provider({ privateKey: await exportPKCS8(wrong) }), { serverUrl: server.resource })).rejects.toMatchObject({ error: "invalid_client", status: 401 });
    expect(server.claims).toEqual([]);
  });

  it("checks its options where read, and refuses a public JWK when it signs", async () => {
    expect(() => privateKeyJwt("", { privateKey: "pem" })).toThrow(/client id/);
    expect(() => privateKeyJwt(CLIENT, { privateKey: "pem", algorithm: "HS256" })).toThrow(RangeError);
    expect(() => privateKeyJwt(CLIENT, { privateKey: "pem", algorithm: "none" })).toThrow(/algorithm/);
    expect(() => privateKeyJwt(CLIENT, { privateKey: 42 as never })).toThrow(/privateKey/);
    const { publicKey } = await generateKeyPair("ES256", { extractable: true });
    const sign = privateKeyJwt(CLIENT, { privateKey: await exportJWK(publicKey) });
    await expect(sign(new Headers(), new URLSearchParams(), "https://as.test/token", { issuer: "https://as.test" })).rejects.toThrow(/no private part/);
  });
});
