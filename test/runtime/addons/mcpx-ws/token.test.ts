/**
 * MCPx gateway tokens (addons/mcpx-ws/token.ts) with jose: HS256 with a shared secret, ES256 and
 * RS256 against a JWKS (a local key set, and a remote one served over loopback HTTP); the claims
 * checked one by one; expired, forged and wrongly signed tokens refused; a token without `exp`
 * refused, or with `maxLifetimeMs` bounded from its `iat` (issue 41); the grant's `expiresAt`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { createMcpxTokenVerifier, signMcpxToken } from "../../../../templates/runtime/addons/mcpx-ws/token.js";

const SECRET = "token-test-secret-0123456789abcdef012345";
const GRANT = { participantId: "alice", topic: "room", capabilities: ["mcp/*", "chat"] };

const key = new TextEncoder().encode(SECRET);
/** The `exp` of a token (seconds), read back from its payload. */
const expOf = (token: string): number => (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { exp: number }).exp;
const now = (): number => Math.floor(Date.now() / 1000);

describe("HS256", () => {
  const verify = createMcpxTokenVerifier({ secret: SECRET });

  it("gives back the grant a token was signed with, and when it ends (its exp)", async () => {
    const token = await signMcpxToken(SECRET, GRANT);
    expect(await verify(token)).toEqual({ ...GRANT, expiresAt: expOf(token) * 1000 });
    expect(expOf(token) - now()).toBeGreaterThanOrEqual(3599);
  });

  it("refuses another secret, a forged payload, an expired token, an unsigned one", async () => {
    const other = await signMcpxToken("another-secret-0123456789abcdef0123456", GRANT);
    const [header, , signature] = (await signMcpxToken(SECRET, GRANT)).split(".");
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...GRANT, participantId: "admin" })).toString("base64url")}.${signature}`;
    const expired = await new SignJWT({ ...GRANT }).setProtectedHeader({ alg: "HS256" }).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(new TextEncoder().encode(SECRET));
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(GRANT)).toString("base64url")}.`;
    for (const token of [other, forged, expired, unsigned, "", "a.b.c"]) await expect(verify(token)).rejects.toThrow();
  });

  it("checks each claim: ids and topics non-empty and bounded, not system:*, capabilities an array of at most 64 strings", async () => {
    const bad = [
      { ...GRANT, participantId: "" },
      { ...GRANT, participantId: "system:gateway" },
      { ...GRANT, participantId: "x".repeat(257) },
      { ...GRANT, participantId: 7 },
      { ...GRANT, topic: undefined },
      { ...GRANT, capabilities: "mcp/*" },
      { ...GRANT, capabilities: [1] },
      { ...GRANT, capabilities: Array.from({ length: 65 }, (_, i) => `c${i}`) },
    ];
    for (const claims of bad) {
      const token = await new SignJWT(claims as Record<string, unknown>).setProtectedHeader({ alg: "HS256" }).setExpirationTime("5m").sign(key);
      await expect(verify(token), JSON.stringify(claims).slice(0, 80)).rejects.toThrow(/^(participantId|topic|capabilities) claim/);
    }
  });

  it("refuses a token without exp: it would be valid for ever", async () => {
    const forever = await new SignJWT({ ...GRANT }).setProtectedHeader({ alg: "HS256" }).setIssuedAt().sign(key);
    await expect(verify(forever)).rejects.toThrow('missing required "exp" claim');
  });

  it("refuses a secret shorter than 32 bytes at construction", () => {
    expect(() => createMcpxTokenVerifier({ secret: "short" })).toThrow(RangeError);
  });
});

describe("maxLifetimeMs", () => {
  const verify = createMcpxTokenVerifier({ secret: SECRET }, { maxLifetimeMs: 60_000 });
  const sign = (claims: { iat?: number; exp?: number }) => {
    const jwt = new SignJWT({ ...GRANT }).setProtectedHeader({ alg: "HS256" });
    if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
    if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
    return jwt.sign(key);
  };

  it("a token without exp ends maxLifetimeMs after its iat; one with an earlier exp ends at its exp", async () => {
    const iat = now();
    expect(await verify(await sign({ iat }))).toEqual({ ...GRANT, expiresAt: iat * 1000 + 60_000 });
    expect(await verify(await sign({ iat, exp: iat + 30 }))).toEqual({ ...GRANT, expiresAt: (iat + 30) * 1000 });
    expect(await verify(await sign({ iat, exp: iat + 3600 }))).toEqual({ ...GRANT, expiresAt: iat * 1000 + 60_000 });
  });

  it("refuses a token without iat, with an iat in the future, or older than maxLifetimeMs", async () => {
    await expect(verify(await sign({ exp: now() + 30 }))).rejects.toThrow('missing required "iat" claim');
    await expect(verify(await sign({ iat: now() + 3600 }))).rejects.toThrow("it should be in the past");
    await expect(verify(await sign({ iat: now() - 61, exp: now() + 3600 }))).rejects.toThrow("too far in the past");
  });

  it("is a whole number of ms ≥ 1000, else a RangeError naming it at construction", () => {
    for (const bad of [999, 1000.5, Number.NaN, -1, 0]) {
      expect(() => createMcpxTokenVerifier({ secret: SECRET }, { maxLifetimeMs: bad }), String(bad)).toThrow(/^maxLifetimeMs must be/);
    }
    expect(() => createMcpxTokenVerifier({ secret: SECRET }, { maxLifetimeMs: 1000 })).not.toThrow();
  });
});

describe("JWKS", () => {
  const servers: Array<ReturnType<typeof createServer>> = [];
  afterAll(() => servers.forEach((s) => s.close()));

  it("ES256 against a local key set; a key not in the set is refused", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const stranger = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" };
    const verify = createMcpxTokenVerifier({ jwks: { keys: [jwk] } }, { issuer: "https://issuer.test" });
    const sign = (key: CryptoKey, iss = "https://issuer.test") => new SignJWT({ ...GRANT }).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(iss).setExpirationTime("5m").sign(key);
    expect(await verify(await sign(privateKey))).toMatchObject(GRANT);
    await expect(verify(await sign(stranger.privateKey))).rejects.toThrow();
    await expect(verify(await sign(privateKey, "https://elsewhere.test"))).rejects.toThrow();
  });

  it("RS256 against a remote key set served over loopback HTTP", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const body = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "r1", alg: "RS256", use: "sig" }] });
    const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const verify = createMcpxTokenVerifier({ jwks: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`) });
    const token = await new SignJWT({ ...GRANT }).setProtectedHeader({ alg: "RS256", kid: "r1" }).setExpirationTime("5m").sign(privateKey);
    expect(await verify(token)).toEqual({ ...GRANT, expiresAt: expOf(token) * 1000 });
    // HS256 with the public key's bytes as a secret: the algorithm confusion is refused.
    const confused = await new SignJWT({ ...GRANT }).setProtectedHeader({ alg: "HS256", kid: "r1" }).sign(new TextEncoder().encode(body));
    await expect(verify(confused)).rejects.toThrow();
  });
});
