// Client authentication at the token endpoint with `private_key_jwt` (RFC 7523 §2.2, OIDC Core
// §9; the MCP client-credentials extension, SEP-1046): the client signs a short-lived JWT with its
// private key and sends it as `client_assertion`, with `client_assertion_type`
// `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`. Its claims (RFC 7523 §3): `iss` and
// `sub` are the client id, `aud` the authorization server's issuer identifier (RFC 7523bis: the
// issuer, not the token endpoint URL, so that an assertion cannot be replayed at another server),
// `exp` soon, `iat`, and a `jti` of its own.
//
// Signed with jose: it imports the key in every form a deployment holds one (PKCS#8 PEM, a JWK,
// a CryptoKey) and checks the key against the algorithm before signing; oauth4webapi's own
// PrivateKeyJwt would need a CryptoKey imported by the caller.

import { importJWK, importPKCS8, SignJWT, type CryptoKey, type JWK } from "jose";
import { describeValue } from "../../core/protocol.js";
import { numberOption } from "../../core/options.js";

/** `client_assertion_type` of a JWT assertion (RFC 7523 §2.2). */
export const JWT_BEARER_ASSERTION_TYPE: string = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/** Default lifetime of an assertion, in seconds: one token request's worth. */
export const DEFAULT_ASSERTION_LIFETIME_SECONDS: number = 60;

/** The asymmetric JWS algorithms of RFC 7518 and RFC 8037: what a client assertion and a DPoP key may use (never `none` or a MAC). */
export const ASYMMETRIC_JWS_ALGORITHMS: readonly string[] = ["ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512", "EdDSA", "Ed25519"];

export interface PrivateKeyJwtOptions {
  /** The private key: a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), a private JWK, or a CryptoKey. */
  readonly privateKey: string | JWK | CryptoKey;
  /** Its JWS algorithm (default ES256): what the authorization server's `token_endpoint_auth_signing_alg_values_supported` allows. */
  readonly algorithm?: string | undefined;
  /** The `kid` header, when the server's copy of the key set has several keys. */
  readonly keyId?: string | undefined;
  /** How long an assertion is valid, in seconds (default 60, 1 … 3600). */
  readonly lifetimeSeconds?: number | undefined;
}

/** What the flow calls to authenticate a token request (the provider's `addClientAuthentication` shape). */
export type ClientAuthentication = (headers: Headers, params: URLSearchParams, url: string | URL, metadata?: Readonly<Record<string, unknown>>) => Promise<void>;

/** The options checked (a TypeError or RangeError naming the field). */
function checked(options: PrivateKeyJwtOptions): { readonly algorithm: string; readonly lifetime: number } {
  if (typeof options !== "object" || options === null) throw new TypeError(`privateKeyJwt options must be an object, got ${describeValue(options)}`);
  const algorithm = options.algorithm ?? "ES256";
  if (!ASYMMETRIC_JWS_ALGORITHMS.includes(algorithm)) throw new RangeError(`privateKeyJwt algorithm must be one of ${ASYMMETRIC_JWS_ALGORITHMS.join(", ")}, got ${describeValue(algorithm)}`);
  if (options.keyId !== undefined && (typeof options.keyId !== "string" || options.keyId === "")) throw new TypeError(`privateKeyJwt keyId must be a non-empty string, got ${describeValue(options.keyId)}`);
  const key: unknown = options.privateKey;
  if (typeof key !== "string" && (typeof key !== "object" || key === null)) throw new TypeError(`privateKeyJwt privateKey must be a PEM string, a JWK or a CryptoKey, got ${describeValue(key)}`);
  const lifetime = numberOption("lifetimeSeconds", options.lifetimeSeconds, DEFAULT_ASSERTION_LIFETIME_SECONDS, { min: 1, max: 3600 });
  return { algorithm, lifetime };
}

/** The key as jose signs with it (imported once). */
async function signingKey(key: string | JWK | CryptoKey, algorithm: string): Promise<CryptoKey | Uint8Array> {
  if (typeof key === "string") return importPKCS8(key, algorithm);
  if ("kty" in key && typeof key.kty === "string") {
    if (typeof (key as JWK).d !== "string") throw new TypeError("privateKeyJwt privateKey: the JWK has no private part (d)");
    return importJWK(key as JWK, algorithm);
  }
  return key as CryptoKey;
}

/**
 * A `private_key_jwt` client authentication for `clientId`: the provider's
 * `addClientAuthentication` (MemoryOAuthClientProvider's `clientAuthentication` option). The
 * audience is the issuer the flow passes in `metadata.issuer`, else the token endpoint URL.
 */
export function privateKeyJwt(clientId: string, options: PrivateKeyJwtOptions): ClientAuthentication {
  if (typeof clientId !== "string" || clientId === "") throw new TypeError(`privateKeyJwt needs a client id, got ${describeValue(clientId)}`);
  const { algorithm, lifetime } = checked(options);
  let key: Promise<CryptoKey | Uint8Array> | undefined;
  return async (_headers, params, url, metadata) => {
    key ??= signingKey(options.privateKey, algorithm);
    const issuer = metadata?.["issuer"];
    const audience = typeof issuer === "string" && issuer !== "" ? issuer : String(url);
    const header = options.keyId === undefined ? { alg: algorithm } : { alg: algorithm, kid: options.keyId };
    const assertion = await new SignJWT({})
      .setProtectedHeader(header)
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${lifetime}s`)
      .setJti(crypto.randomUUID())
      .sign(await key);
    params.set("client_id", clientId);
    params.set("client_assertion_type", JWT_BEARER_ASSERTION_TYPE);
    params.set("client_assertion", assertion);
  };
}
