/**
 * DPoP verification (templates/runtime/addons/oauth/dpop-server.ts, through bearerAuth's `dpop`)
 * against real HTTP on loopback: our 2026-07-28 server behind bearerAuth, our HTTP client
 * transport with the add-on's DpopKey middleware, and raw requests with proofs built by hand.
 *   - the client's proofs are accepted (DPoP scheme, one fresh jti per request);
 *   - a replayed jti, a wrong htu or htm, a wrong ath, a key other than cnf.jkt, a bound token
 *     sent as Bearer: each refused with a DPoP challenge;
 *   - server nonces: the client is refused with use_dpop_nonce and a DPoP-Nonce, retries once
 *     with it, and passes;
 *   - hostile proofs (oversized, malformed, two headers, alg none, HS256 with an oct jwk, a private
 *     jwk, a jwk that did not sign) are refused and the server keeps serving;
 *   - the jti record is bounded: full, it refuses; entries leave when their window passed.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { requestMeta } from "../../../helpers/fixtures.js";
import { DpopKey } from "../../../../templates/runtime/addons/oauth/dpop-client.js";
import { createDpopVerifier, type DpopVerifierOptions } from "../../../../templates/runtime/addons/oauth/dpop-server.js";
import { MemoryOAuthClientProvider } from "../../../../templates/runtime/addons/oauth/memory-provider.js";
import { parseBearerChallenge } from "../../../../templates/runtime/http/auth.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const TOKEN = "tok-alice";
const META = requestMeta({ protocolVersion: "2026-07-28", clientInfo: { name: "dpop-raw", version: "1.0.0" } });

interface Seen {
  /** Per request: the Authorization scheme, the DPoP proof, the status answered and its DPoP-Nonce. */
  readonly requests: Array<{ scheme: string | undefined; proof: string | undefined; status: number; nonce: string | undefined }>;
  readonly principals: Array<string | undefined>;
}

/** Our server behind bearerAuth with DPoP: TOKEN is bound to `jkt`. */
async function dpopServer(jkt: string, options: DpopVerifierOptions = {}): Promise<{ url: string; seen: Seen; verifier: ReturnType<typeof createDpopVerifier> }> {
  const seen: Seen = { requests: [], principals: [] };
  const server = new R.McpServer({
    serverInfo: { name: "dpop", version: "1.0.0" },
    logger: null,
    handlers: {
      "tools/list": (_params, ctx) => {
        seen.principals.push(ctx.principal?.id);
        return { resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [] };
      },
    },
  });
  const verifier = createDpopVerifier(options);
  let listener: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const http = createServer((req, res) => {
    const record = { scheme: req.headers.authorization?.split(" ")[0], proof: req.headers.dpop as string | undefined, status: 0, nonce: undefined as string | undefined };
    // The runtime's node face passes its headers to writeHead: read them there.
    const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string>) => ServerResponse;
    res.writeHead = ((status: number, headers?: Record<string, string>) => {
      record.nonce = headers?.["dpop-nonce"];
      return writeHead(status, headers);
    }) as typeof res.writeHead;
    res.on("finish", () => {
      record.status = res.statusCode;
      seen.requests.push(record);
    });
    listener!(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const guard = R.bearerAuth({
    resource: `${base}/mcp`,
    authorizationServers: ["https://as.example"],
    verify: (token) => (token === TOKEN ? { id: "alice", cnf: { jkt } } : undefined),
    dpop: verifier,
  });
  listener = R.toNodeListener(guard.withMetadata(R.createHttpHandler(server, { authenticate: guard.authenticate })));
  return { url: `${base}/mcp`, seen, verifier };
}

/** Our client with the DpopKey middleware, holding TOKEN as a DPoP-bound token. */
async function dpopClient(url: string, key: DpopKey): Promise<R.McpClient> {
  const provider = new MemoryOAuthClientProvider({ clientMetadata: { client_name: "dpop-test" }, dpopKey: key });
  provider.saveTokens({ access_token: TOKEN, token_type: "DPoP" });
  const client = new R.McpClient({ clientInfo: { name: "dpop-test", version: "1.0.0" }, logger: null });
  await client.connect(R.createHttpClientTransport({ url, authProvider: provider, middleware: [key.middleware(provider)] }));
  closers.push(() => client.close());
  return client;
}

/** A tools/list POST with this Authorization and these DPoP header values. */
async function post(url: string, authorization: string, proofs: readonly string[]): Promise<{ status: number; challenge: string }> {
  const headers = new Headers({ "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list", authorization });
  for (const proof of proofs) headers.append("dpop", proof);
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }) });
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "" };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");
const ath = (token: string): string => createHash("sha256").update(token).digest("base64url");

/** A key pair for proofs built by hand, its public JWK and thumbprint. */
async function handKey(): Promise<{ privateKey: CryptoKey; jwk: JWK; jkt: string }> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, "sha256") };
}

/** A proof signed by `key`, its claims overridable. */
function handProof(key: { privateKey: CryptoKey; jwk: JWK }, url: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ jti: crypto.randomUUID(), htm: "POST", htu: url, ath: ath(TOKEN), iat: Math.floor(Date.now() / 1000), ...claims })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk, ...header })
    .sign(key.privateKey);
}

describe("DPoP verification in bearerAuth", () => {
  it("accepts our client's proofs: the DPoP scheme, a fresh jti on every request", async () => {
    const key = await DpopKey.generate();
    const { url, seen, verifier } = await dpopServer(await key.thumbprint());
    const client = await dpopClient(url, key);
    await client.listTools({});
    await client.listTools({});
    expect(seen.principals).toEqual(["alice", "alice"]);
    const posts = seen.requests.filter((r) => r.proof !== undefined);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(posts.every((r) => r.scheme === "DPoP" && r.status === 200)).toBe(true);
    const jtis = posts.map((r) => decodeJwt(r.proof!).jti);
    expect(new Set(jtis).size).toBe(jtis.length);
    expect(verifier.replayEntries).toBe(jtis.length);
    expect(decodeJwt(posts[0]!.proof!)).toMatchObject({ htm: "POST", htu: url, ath: ath(TOKEN) });
  });

  it("refuses a replayed jti, a wrong htu or htm, a wrong ath, another key, and a bound token sent as Bearer", async () => {
    const key = await handKey();
    const { url } = await dpopServer(key.jkt);
    const proof = await handProof(key, url);
    expect((await post(url, `DPoP ${TOKEN}`, [proof])).status).toBe(200);
    const replay = await post(url, `DPoP ${TOKEN}`, [proof]);
    expect(replay.status).toBe(401);
    expect(replay.challenge).toMatch(/^DPoP .*error="invalid_dpop_proof", error_description="the proof was used before \(jti\)"/);
    for (const [claims, reason] of [
      [{ htu: `${url}/other` }, "htu"],
      [{ htu: url.replace("127.0.0.1", "localhost") }, "htu"],
      [{ htm: "GET" }, "htm"],
      [{ ath: ath("another-token") }, "ath"],
      [{ iat: Math.floor(Date.now() / 1000) - 301 }, "iat"],
    ] as const) {
      const refused = await post(url, `DPoP ${TOKEN}`, [await handProof(key, url, claims)]);
      expect(refused.status, reason).toBe(401);
      expect(refused.challenge, reason).toContain(reason);
    }
    // A query on htu is ignored (RFC 9449 §4.3 step 9).
    expect((await post(url, `DPoP ${TOKEN}`, [await handProof(key, `${url}?x=1`)])).status).toBe(200);
    const other = await handKey();
    expect((await post(url, `DPoP ${TOKEN}`, [await handProof(other, url)])).challenge).toContain("cnf.jkt");
    const asBearer = await post(url, `Bearer ${TOKEN}`, [await handProof(key, url)]);
    expect(asBearer.status).toBe(401);
    expect(asBearer.challenge).toMatch(/^DPoP .*algs="ES256 .*error="invalid_token"/);
    const noProof = await post(url, `DPoP ${TOKEN}`, []);
    expect(noProof.challenge).toContain('error="invalid_dpop_proof"');
    // No token: the Bearer challenge, then the DPoP one with its algs; a client reading Bearer still finds the metadata.
    const anonymous = await fetch(url, { method: "POST", body: "{}" });
    await anonymous.body?.cancel();
    const offered = anonymous.headers.get("www-authenticate") ?? "";
    expect(offered).toMatch(/^Bearer resource_metadata="[^"]+", DPoP resource_metadata="[^"]+", algs="ES256 ES384 ES512 PS256/);
    expect(parseBearerChallenge(offered).resourceMetadataUrl?.pathname).toBe("/.well-known/oauth-protected-resource/mcp");
  });

  it("asks for its nonce (use_dpop_nonce + DPoP-Nonce); the client retries once with it and passes", async () => {
    const key = await DpopKey.generate();
    const { url, seen } = await dpopServer(await key.thumbprint(), { requireNonce: true });
    const client = await dpopClient(url, key);
    await client.listTools({});
    expect(seen.principals).toEqual(["alice"]);
    const [first, second] = seen.requests.filter((r) => r.proof !== undefined);
    expect(first).toMatchObject({ status: 401, nonce: expect.stringMatching(/^\d+\.[\w-]{22}$/) });
    expect(decodeJwt(first!.proof!).nonce).toBeUndefined();
    expect(second!.status).toBe(200);
    expect(decodeJwt(second!.proof!).nonce).toBe(first!.nonce);
    // A forged nonce is refused as one to replace.
    const hand = await handKey();
    const forged = await dpopServer(hand.jkt, { requireNonce: true });
    const refused = await post(forged.url, `DPoP ${TOKEN}`, [await handProof(hand, forged.url, { nonce: `${first!.nonce!.split(".")[0]}.AAAAAAAAAAAAAAAAAAAAAA` })]);
    expect(refused.challenge).toContain('error="use_dpop_nonce"');
  });

  it("refuses hostile proofs without crashing, and keeps serving", async () => {
    const key = await handKey();
    const { url } = await dpopServer(key.jkt);
    const { privateKey: other, publicKey: otherPublic } = await generateKeyPair("ES256", { extractable: true });
    const secret = new Uint8Array(32).fill(7);
    const claims = { jti: "j", htm: "POST", htu: url, ath: ath(TOKEN), iat: Math.floor(Date.now() / 1000) };
    const hostile: Record<string, string[]> = {
      oversized: ["e".repeat(10_000)],
      "not a JWS": ["not-a-jwt"],
      "three empty parts": ["a.b.c"],
      "two DPoP headers": [await handProof(key, url), await handProof(key, url)],
      "alg none": [`${b64({ alg: "none", typ: "dpop+jwt", jwk: key.jwk })}.${b64(claims)}.`],
      "HS256 with an oct jwk": [await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "dpop+jwt", jwk: { kty: "oct", k: Buffer.from(secret).toString("base64url") } as never }).sign(secret)],
      "a private jwk": [await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(other) }).sign(other)],
      "a jwk that did not sign": [await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(otherPublic) }).sign(key.privateKey)],
      "a broken jwk": [await handProof(key, url, {}, { jwk: { kty: "EC", crv: "P-256", x: "zz", y: "zz" } })],
      "typ JWT": [await handProof(key, url, {}, { typ: "JWT" })],
      "no jti": [await handProof(key, url, { jti: undefined })],
      "a 300-character jti": [await handProof(key, url, { jti: "j".repeat(300) })],
    };
    for (const [name, proofs] of Object.entries(hostile)) {
      const refused = await post(url, `DPoP ${TOKEN}`, proofs);
      expect(refused.status, name).toBe(401);
      expect(refused.challenge, name).toContain('error="invalid_dpop_proof"');
    }
    expect((await post(url, `DPoP ${TOKEN}`, [await handProof(key, url)])).status).toBe(200);
  });
});

describe("bearerAuth without a dpop check", () => {
  it("refuses a DPoP-bound token (it cannot check the binding) and the DPoP scheme, answering in the Bearer scheme only; unbound Bearer tokens pass", async () => {
    const guard = R.bearerAuth({
      resource: "https://mcp.example/mcp",
      authorizationServers: ["https://as.example"],
      verify: (token) => (token === "bound" ? { id: "b", cnf: { jkt: "x" } } : token === "plain" ? { id: "p" } : undefined),
    });
    const ask = async (authorization: string) => {
      const answer = await guard.authenticate(new Request("https://mcp.example/mcp", { method: "POST", headers: { authorization, dpop: "a.b.c" } }));
      return answer instanceof Response ? `${answer.status} ${answer.headers.get("www-authenticate")}` : answer.id;
    };
    expect(await ask("Bearer plain")).toBe("p");
    expect(await ask("Bearer bound")).toMatch(/^401 Bearer .*error="invalid_token", error_description="this server does not check DPoP proofs"$/);
    expect(await ask("DPoP bound")).toMatch(/^401 Bearer .*invalid_token/);
    expect(await ask("DPoP plain")).toMatch(/^401 Bearer .*error_description="the token is not DPoP-bound"$/);
  });
});

describe("createDpopVerifier's jti record", () => {
  it("is bounded: full, it refuses new proofs; an entry leaves once its window passed", async () => {
    const key = await handKey();
    let clock = Date.now();
    const verifier = createDpopVerifier({ maxReplayEntries: 2, maxAgeSeconds: 60, clockSkewSeconds: 0, now: () => clock });
    const url = "https://mcp.example/mcp";
    const check = async () => verifier.check({ proof: await handProof(key, url, { iat: Math.floor(clock / 1000) }), method: "POST", url, accessToken: TOKEN, jkt: key.jkt });
    expect(await check()).toEqual({ ok: true });
    expect(await check()).toEqual({ ok: true });
    expect(await check()).toMatchObject({ ok: false, error: "invalid_dpop_proof", description: expect.stringContaining("too many") });
    expect(verifier.replayEntries).toBe(2);
    clock += 61_000;
    expect(await check()).toEqual({ ok: true });
    expect(verifier.replayEntries).toBe(1);
  });

  it("checks its options where read", () => {
    expect(() => createDpopVerifier({ algorithms: ["none"] })).toThrow(/algorithms/);
    expect(() => createDpopVerifier({ algorithms: ["HS256"] })).toThrow(/algorithms/);
    expect(() => createDpopVerifier({ nonceSecret: new Uint8Array(8) })).toThrow(/nonceSecret/);
    expect(() => createDpopVerifier({ maxReplayEntries: 0 })).toThrow(/maxReplayEntries/);
    expect(() => R.bearerAuth({ resource: "https://h/mcp", authorizationServers: ["https://as"], verify: () => undefined, dpop: {} as never })).toThrow(/dpop/);
  });
});
