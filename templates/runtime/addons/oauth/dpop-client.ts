// DPoP on the client (RFC 9449; the MCP DPoP extension, SEP-1932): one key pair per client, a
// fresh proof JWT on every request that uses a DPoP-bound token, and the servers' nonces.
//   - At the token endpoint the flow (auth.ts) passes `handle(client)`, oauth4webapi's DPoP
//     handle over the same key pair: it signs the token request's proof (§5) and keeps the
//     authorization server's nonce (§8); the flow retries once on `use_dpop_nonce`.
//   - At the MCP server, `middleware(provider)` (for the transports' `middleware` option) turns
//     the `Authorization: Bearer <token>` the transport sets into `DPoP <token>` when the
//     provider's tokens are DPoP-bound (`token_type` DPoP, §7.1), adds a proof with `ath` (the
//     token's hash, §4.2), keeps the resource server's nonce from `DPoP-Nonce` (§9), and sends a
//     request refused with `use_dpop_nonce` once more with it.
// The resource server's proofs are signed here with jose: oauth4webapi signs a proof only as part
// of the request it sends itself (protectedResourceRequest), which turns every 401 into an
// exception, while the transport must see the 401 to run its own flow.

import * as oauth from "oauth4webapi";
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { describeValue } from "../../core/protocol.js";
import type { FetchMiddleware, LooseFetch } from "../../http/auth.js";
import { ASYMMETRIC_JWS_ALGORITHMS } from "./private-key-jwt.js";

/** The JWS algorithms a DPoP key may use here (RFC 9449 §4.2: asymmetric only). */
export const DPOP_ALGORITHMS: readonly string[] = ASYMMETRIC_JWS_ALGORITHMS;
/** Servers whose nonce is kept, at most (the least recently used one is forgotten first). */
export const MAX_NONCE_ORIGINS: number = 32;
/** Longest `DPoP-Nonce` kept, in characters (RFC 9449 §8.1: `1*NQCHAR`). */
export const MAX_NONCE_LENGTH: number = 1024;

/** The part of an OAuth client provider the middleware reads: its current tokens. */
export interface DpopTokenSource {
  tokens(): unknown;
}

/** base64url of SHA-256 (the `ath` of RFC 9449 §4.2). */
async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return base64url.encode(digest);
}

/** `htu`: the URL without query and fragment (RFC 9449 §4.2). */
const htuOf = (url: URL): string => `${url.origin}${url.pathname}`;

/** A client's DPoP key pair, its proofs and the nonces servers gave it. */
export class DpopKey {
  readonly algorithm: string;
  readonly #keys: CryptoKeyPair;
  #jwk: Promise<JWK> | undefined;
  #handle: oauth.DPoPHandle | undefined;
  /** Origin → the last nonce it sent, in order of use (a bounded LRU). */
  readonly #nonces = new Map<string, string>();

  /** A DPoP key over `keys` (the public key extractable); `algorithm` must fit the key. */
  constructor(keys: CryptoKeyPair, algorithm: string = "ES256") {
    if (!DPOP_ALGORITHMS.includes(algorithm)) throw new RangeError(`DpopKey algorithm must be one of ${DPOP_ALGORITHMS.join(", ")}, got ${describeValue(algorithm)}`);
    const pair: unknown = keys;
    if (typeof pair !== "object" || pair === null || !(keys.privateKey instanceof CryptoKey) || !(keys.publicKey instanceof CryptoKey)) {
      throw new TypeError(`DpopKey needs a CryptoKeyPair (privateKey and publicKey CryptoKeys), got ${describeValue(pair)}`);
    }
    if (keys.privateKey.type !== "private" || keys.publicKey.type !== "public" || !keys.publicKey.extractable) throw new TypeError("DpopKey: the pair must hold a private key and an extractable public key");
    this.algorithm = algorithm;
    this.#keys = keys;
  }

  /** A new key pair for `algorithm` (default ES256, what MCP servers must support), its private key not extractable. */
  static async generate(algorithm: string = "ES256"): Promise<DpopKey> {
    if (!DPOP_ALGORITHMS.includes(algorithm)) throw new RangeError(`DpopKey algorithm must be one of ${DPOP_ALGORITHMS.join(", ")}, got ${describeValue(algorithm)}`);
    const { privateKey, publicKey } = await generateKeyPair(algorithm);
    return new DpopKey({ privateKey, publicKey }, algorithm);
  }

  /** oauth4webapi's DPoP handle over this key pair, for token requests (one per key: it keeps the authorization servers' nonces). */
  handle(client: oauth.Client): oauth.DPoPHandle {
    this.#handle ??= oauth.DPoP(client, this.#keys);
    return this.#handle;
  }

  /** The public key's JWK (only its public members). */
  publicJwk(): Promise<JWK> {
    this.#jwk ??= exportJWK(this.#keys.publicKey).then(({ kty, crv, x, y, n, e }) => Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, v]) => v !== undefined)) as JWK);
    return this.#jwk;
  }

  /** The key's SHA-256 JWK thumbprint (RFC 7638): the `cnf.jkt` of the tokens bound to it, and `dpop_jkt` (RFC 9449 §10). */
  async thumbprint(): Promise<string> {
    return calculateJwkThumbprint(await this.publicJwk(), "sha256");
  }

  /** The nonce `origin` gave last, if any. */
  nonce(origin: string): string | undefined {
    const nonce = this.#nonces.get(origin);
    if (nonce !== undefined) {
      this.#nonces.delete(origin);
      this.#nonces.set(origin, nonce);
    }
    return nonce;
  }

  /** Keeps the `DPoP-Nonce` of a response (a visible-ASCII value of bounded length; anything else is ignored). */
  rememberNonce(origin: string, response: Response): string | undefined {
    const nonce = response.headers.get("dpop-nonce");
    if (nonce === null || nonce.length > MAX_NONCE_LENGTH || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(nonce)) return undefined;
    this.#nonces.delete(origin);
    if (this.#nonces.size >= MAX_NONCE_ORIGINS) this.#nonces.delete(this.#nonces.keys().next().value as string);
    this.#nonces.set(origin, nonce);
    return nonce;
  }

  /** A proof for one request (RFC 9449 §4.2): `ath` when it carries an access token, `nonce` when the server gave one. */
  async proof(method: string, url: URL, accessToken?: string): Promise<string> {
    const claims: Record<string, string> = { jti: crypto.randomUUID(), htm: method.toUpperCase(), htu: htuOf(url) };
    if (accessToken !== undefined) claims["ath"] = await sha256(accessToken);
    const nonce = this.nonce(url.origin);
    if (nonce !== undefined) claims["nonce"] = nonce;
    return new SignJWT(claims).setProtectedHeader({ alg: this.algorithm, typ: "dpop+jwt", jwk: await this.publicJwk() }).setIssuedAt().sign(this.#keys.privateKey);
  }

  /**
   * The fetch middleware of the requests to the MCP server (see the file's comment). Requests
   * without a bearer token (the flow's own) and tokens that are not DPoP-bound pass unchanged.
   */
  middleware(provider: DpopTokenSource): FetchMiddleware {
    if (typeof provider !== "object" || provider === null || typeof provider.tokens !== "function") {
      throw new TypeError(`DpopKey.middleware needs the OAuth client provider whose tokens it sends, got ${describeValue(provider)}`);
    }
    return (next: LooseFetch): LooseFetch =>
      async (input, init) => {
        const headers = new Headers(init?.headers);
        const token = /^bearer (\S+)$/i.exec(headers.get("authorization") ?? "")?.[1];
        if (token === undefined || !(await this.#bound(provider, token))) return next(input, init);
        const url = new URL(input);
        const send = async (): Promise<Response> => {
          headers.set("authorization", `DPoP ${token}`);
          headers.set("dpop", await this.proof(init?.method ?? "GET", url, token));
          const response = await next(input, { ...init, headers });
          this.rememberNonce(url.origin, response);
          return response;
        };
        const response = await send();
        // §9: a 401 `use_dpop_nonce` with a DPoP-Nonce: once more with it (a body that is a stream cannot be sent twice).
        const resendable = init?.body === undefined || init.body === null || typeof init.body === "string" || init.body instanceof Uint8Array;
        if (response.status !== 401 || !resendable || !/use_dpop_nonce/.test(response.headers.get("www-authenticate") ?? "") || !response.headers.has("dpop-nonce")) return response;
        await response.body?.cancel().catch(() => {});
        return send();
      };
  }

  /** Is `token` the provider's current access token, issued with `token_type` DPoP? */
  async #bound(provider: DpopTokenSource, token: string): Promise<boolean> {
    const tokens: unknown = await provider.tokens();
    if (typeof tokens !== "object" || tokens === null) return false;
    const { access_token: current, token_type: type } = tokens as { access_token?: unknown; token_type?: unknown };
    return current === token && typeof type === "string" && type.toLowerCase() === "dpop";
  }
}
