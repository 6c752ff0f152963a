/**
 * DPoP on the client (templates/runtime/addons/oauth/dpop-client.ts):
 *   - at the token endpoint (the flow with the provider's DpopKey): the request carries a proof
 *     (typ dpop+jwt, the key's jwk, htm POST, htu the token endpoint, no ath); an authorization
 *     server asking for its nonce (400 use_dpop_nonce + DPoP-Nonce) gets the request once more with
 *     it, and the token comes back DPoP-bound to the key's thumbprint;
 *   - the middleware leaves a token that is not DPoP-bound as Bearer, without a proof, and turns a
 *     bound one into the DPoP scheme with a proof whose ath is the token's hash (the round trip
 *     with bearerAuth is in dpop-server.test.ts).
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from "jose";
import { auth, DpopKey, MemoryOAuthClientProvider } from "../../../../templates/runtime/addons/oauth/auth.js";
import { loopbackAuthorizationServer, oauthError, type TokenAnswer } from "./support.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("DPoP proofs at the token endpoint", () => {
  it("carries a proof; on use_dpop_nonce it sends the request once more with the nonce; the token is bound to the key", async () => {
    const proofs: Array<{ claims: Record<string, unknown>; jkt: string }> = [];
    const server = await loopbackAuthorizationServer(async ({ headers }, issuer): Promise<TokenAnswer> => {
      const proof = headers.dpop as string;
      const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256"] });
      const jkt = await calculateJwkThumbprint(protectedHeader.jwk as JWK, "sha256");
      proofs.push({ claims: payload, jkt });
      if (payload["htm"] !== "POST" || payload["htu"] !== `${issuer}/token`) return oauthError("invalid_dpop_proof");
      if (payload["nonce"] !== "as-nonce-1") return oauthError("use_dpop_nonce", 400, { "dpop-nonce": "as-nonce-1" });
      return { status: 200, body: { access_token: "bound", token_type: "DPoP", expires_in: 60 } };
    }, { dpop_signing_alg_values_supported: ["ES256"] });
    closers.push(server.close);
    const dpopKey = await DpopKey.generate();
    const provider = new MemoryOAuthClientProvider({ clientMetadata: {}, clientInformation: { client_id: "svc", client_secret: "s" }, clientCredentials: true, dpopKey });
    await expect(auth(provider, { serverUrl: server.resource })).resolves.toBe("AUTHORIZED");
    expect(proofs.map((p) => p.claims["nonce"])).toEqual([undefined, "as-nonce-1"]);
    expect(proofs.every((p) => p.claims["ath"] === undefined && p.jkt === proofs[0]!.jkt)).toBe(true);
    expect(proofs[0]!.jkt).toBe(await dpopKey.thumbprint());
    expect(provider.tokens()).toMatchObject({ access_token: "bound", token_type: "dpop" });
  });

  it("a second use_dpop_nonce is not retried again", async () => {
    const server = await loopbackAuthorizationServer(() => oauthError("use_dpop_nonce", 400, { "dpop-nonce": `n-${Math.random()}` }));
    closers.push(server.close);
    const provider = new MemoryOAuthClientProvider({ clientMetadata: {}, clientInformation: { client_id: "svc", client_secret: "s" }, clientCredentials: true, dpopKey: await DpopKey.generate() });
    await expect(auth(provider, { serverUrl: server.resource })).rejects.toMatchObject({ error: "use_dpop_nonce" });
    expect(server.tokenRequests.length).toBe(2);
  });
});

describe("the DPoP middleware", () => {
  it("leaves a Bearer token as it is, and sends a DPoP-bound one with the DPoP scheme and a proof (ath = its hash)", async () => {
    const seen: Array<{ authorization: string | undefined; dpop: string | undefined }> = [];
    const http = createServer((req, res) => {
      seen.push({ authorization: req.headers.authorization, dpop: req.headers.dpop as string | undefined });
      res.writeHead(200).end("{}");
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp?q=1`;
    const key = await DpopKey.generate("ES256");
    const provider = new MemoryOAuthClientProvider({ clientMetadata: {}, dpopKey: key });
    const fetchFn = key.middleware(provider)((input, init) => fetch(input, init));
    provider.saveTokens({ access_token: "plain", token_type: "Bearer" });
    await fetchFn(url, { method: "POST", headers: { authorization: "Bearer plain" }, body: "{}" });
    provider.saveTokens({ access_token: "bound", token_type: "DPoP" });
    await fetchFn(url, { method: "POST", headers: { authorization: "Bearer bound" }, body: "{}" });
    expect(seen[0]).toEqual({ authorization: "Bearer plain", dpop: undefined });
    expect(seen[1]!.authorization).toBe("DPoP bound");
    expect(decodeProtectedHeader(seen[1]!.dpop!)).toMatchObject({ typ: "dpop+jwt", alg: "ES256", jwk: { kty: "EC", crv: "P-256" } });
    expect(decodeProtectedHeader(seen[1]!.dpop!).jwk).not.toHaveProperty("d");
    expect(decodeJwt(seen[1]!.dpop!)).toMatchObject({ htm: "POST", htu: url.replace("?q=1", ""), ath: createHash("sha256").update("bound").digest("base64url") });
  });

  it("checks its key where made", async () => {
    await expect(DpopKey.generate("HS256")).rejects.toThrow(RangeError);
    expect(() => new DpopKey({} as never)).toThrow(/CryptoKeyPair/);
    const key = await DpopKey.generate();
    expect(() => key.middleware({} as never)).toThrow(/provider/);
    expect(() => new MemoryOAuthClientProvider({ clientMetadata: {}, dpopKey: {} as never })).toThrow(/dpopKey must be a DpopKey/);
  });
});
