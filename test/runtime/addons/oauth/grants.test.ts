/**
 * The grants without a user (templates/runtime/addons/oauth/grants.ts) in the add-on's flow,
 * against a loopback authorization server:
 *   - the JWT bearer grant of workload identity federation (RFC 7523 §2.1, SEP-1933): the
 *     workload's JWT as `assertion`, a fresh one from a function per request, the scope and
 *     resource; a refusal (invalid_grant) ends the flow after exactly one token request (no retry,
 *     no other grant);
 *   - the client credentials grant with a secret;
 *   - assertions that are not compact JWTs are refused before anything is sent.
 */
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair, jwtVerify, SignJWT } from "jose";
import { auth, clientCredentialsGrant, jwtBearerGrant, JWT_BEARER_GRANT, MemoryOAuthClientProvider, type TokenGrant } from "../../../../templates/runtime/addons/oauth/auth.js";
import { issued, loopbackAuthorizationServer, oauthError } from "./support.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const WORKLOAD = "https://idp.workload.test";

function workloadProvider(grant: TokenGrant): MemoryOAuthClientProvider {
  return new MemoryOAuthClientProvider({ clientMetadata: { grant_types: [JWT_BEARER_GRANT] }, clientInformation: { client_id: "workload" }, grant });
}

describe("the JWT bearer grant (workload identity federation)", () => {
  it("sends the workload JWT as the assertion (a fresh one per request), with scope and resource; the server verifies it", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const verified: string[] = [];
    const server = await loopbackAuthorizationServer(async ({ form }, issuer) => {
      if (form.get("grant_type") !== JWT_BEARER_GRANT) return oauthError("unsupported_grant_type");
      try {
        const { payload } = await jwtVerify(form.get("assertion") ?? "", publicKey, { audience: issuer, issuer: WORKLOAD });
        verified.push(payload.jti ?? "");
        return issued(`wif-${verified.length}`);
      } catch {
        return oauthError("invalid_grant");
      }
    }, { grant_types_supported: [JWT_BEARER_GRANT], token_endpoint_auth_methods_supported: ["none"], scopes_supported: ["read"] });
    closers.push(server.close);
    let minted = 0;
    const mint = (): Promise<string> => new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer(WORKLOAD).setSubject("job").setAudience(server.base).setJti(`jwt-${++minted}`).setExpirationTime("5m").sign(privateKey);
    const provider = workloadProvider(jwtBearerGrant(mint));
    await expect(auth(provider, { serverUrl: server.resource, scope: "read" })).resolves.toBe("AUTHORIZED");
    await provider.invalidateCredentials("tokens");
    await expect(auth(provider, { serverUrl: server.resource, scope: "read" })).resolves.toBe("AUTHORIZED");
    expect(verified).toEqual(["jwt-1", "jwt-2"]);
    expect(provider.tokens()?.access_token).toBe("wif-2");
    const [first] = server.tokenRequests;
    expect([first!.form.get("client_id"), first!.form.get("scope"), first!.form.get("resource"), first!.headers.authorization]).toEqual(["workload", "read", server.resource, undefined]);
  });

  it("a refused assertion ends the flow after one token request: no retry, no other grant", async () => {
    const server = await loopbackAuthorizationServer(() => oauthError("invalid_grant"), { grant_types_supported: [JWT_BEARER_GRANT] });
    closers.push(server.close);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setExpirationTime(0).sign((await generateKeyPair("ES256")).privateKey);
    await expect(auth(workloadProvider(jwtBearerGrant(expired)), { serverUrl: server.resource })).rejects.toMatchObject({ error: "invalid_grant" });
    expect(server.tokenRequests.map((r) => r.form.get("grant_type"))).toEqual([JWT_BEARER_GRANT]);
  });

  it("refuses an assertion that is not a compact JWT before sending anything", async () => {
    const server = await loopbackAuthorizationServer(() => issued("never"));
    closers.push(server.close);
    for (const bad of ["not a jwt", "a.b.c\r\nx: y", "x".repeat(20_000)]) {
      await expect(auth(workloadProvider(jwtBearerGrant(() => bad)), { serverUrl: server.resource })).rejects.toThrow(/compact JWT/);
    }
    expect(() => jwtBearerGrant(42 as never)).toThrow(/assertion must be a string or a function/);
    expect(server.tokenRequests).toEqual([]);
  });
});

describe("the client credentials grant", () => {
  it("authenticates with the secret (HTTP Basic) and asks for the scope", async () => {
    const server = await loopbackAuthorizationServer(({ form, headers }) =>
      form.get("grant_type") === "client_credentials" && headers.authorization === `Basic ${btoa("svc:s3cret")}` ? issued("cc") : oauthError("invalid_client", 401),
    );
    closers.push(server.close);
    const provider = new MemoryOAuthClientProvider({ clientMetadata: {}, clientInformation: { client_id: "svc", client_secret: "s3cret" }, grant: clientCredentialsGrant() });
    await expect(auth(provider, { serverUrl: server.resource, scope: "a b" })).resolves.toBe("AUTHORIZED");
    expect(server.tokenRequests[0]!.form.get("scope")).toBe("a b");
    expect(() => new MemoryOAuthClientProvider({ clientMetadata: {}, grant: "client_credentials" as never })).toThrow(/grant must be a function/);
    expect(() => new MemoryOAuthClientProvider({ clientMetadata: {}, clientCredentials: true, clientInformation: { client_id: "svc" } })).toThrow(/client_secret, or clientAuthentication/);
  });
});
