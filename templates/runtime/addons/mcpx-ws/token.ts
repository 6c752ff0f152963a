// MCPx gateway tokens (v0.1 SPEC §5.1, token-based): a JWT whose claims give the participant id,
// the topic and the capabilities, `{ participantId, topic, capabilities }`. Clients never choose
// their id; the token does. Verified with `jose`: HS256 with a shared secret, or RS256/ES256
// against a JWKS (a local key set or a remote URL).
//
// A token lives until its `exp`, and a token without one is refused: a grant that never ends
// could not be taken back short of changing the key. `maxLifetimeMs` bounds every token's life
// from its `iat` instead (then a token needs `iat`, and `exp` becomes optional). The grant carries
// the end (`expiresAt`), and the gateway closes the participant's socket then (gateway.ts).

import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, SignJWT, type JSONWebKeySet, type JWTVerifyGetKey, type JWTVerifyOptions } from "jose";
import { numberOption } from "../../core/options.js";
import type { McpxParticipantInfo } from "../../transports/mcpx-envelope.js";

/** What a verified token grants. */
export interface McpxGrant {
  readonly participantId: string;
  readonly topic: string;
  readonly capabilities: readonly string[];
  /**
   * When the grant ends (ms since the epoch): the gateway refuses it past then and closes the
   * participant's socket at that moment. createMcpxTokenVerifier always sets it; a verifier of
   * your own should (without it the socket lives until it closes).
   */
  readonly expiresAt?: number | undefined;
}

/** Turns a bearer token into a grant, or throws. */
export type McpxTokenVerifier = (token: string) => Promise<McpxGrant>;

export type McpxTokenKeys =
  /** HS256 with this shared secret (at least 32 bytes). */
  | { readonly secret: string | Uint8Array }
  /** RS256 / ES256 against a key set: the keys themselves, or the URL that serves them. */
  | { readonly jwks: JSONWebKeySet | URL };

export interface McpxTokenOptions {
  /** `iss` the token must carry, when set. */
  issuer?: string | undefined;
  /** `aud` the token must carry, when set. */
  audience?: string | undefined;
  /**
   * The longest a token lives, in ms from its `iat` (an integer ≥ 1000: JWT times are in
   * seconds). Set, it applies to every token: one needs `iat` (not in the future), may leave out
   * `exp`, and ends at the earlier of `exp` and `iat` + this. Default: none, and a token without
   * `exp` is refused.
   */
  maxLifetimeMs?: number | undefined;
}

/** Bounds on what a token may grant: ids, topics and capabilities are echoed to every participant. */
const MAX_ID = 256;
const MAX_CAPABILITIES = 64;
const MIN_SECRET_BYTES = 32;

const secretBytes = (secret: string | Uint8Array): Uint8Array => (typeof secret === "string" ? new TextEncoder().encode(secret) : secret);

const isName = (value: unknown): value is string => typeof value === "string" && value !== "" && value.length <= MAX_ID;

/**
 * When a verified token ends (ms since the epoch): its `exp`, or with `maxLifetimeMs` the earlier
 * of `exp` and `iat` + maxLifetimeMs (jose has checked both are numbers, and whichever is
 * required is there).
 */
function expiryOf(payload: Record<string, unknown>, maxLifetimeMs: number | undefined): number {
  const exp = typeof payload["exp"] === "number" ? payload["exp"] * 1000 : Infinity;
  const iat = payload["iat"];
  return maxLifetimeMs === undefined || typeof iat !== "number" ? exp : Math.min(exp, iat * 1000 + maxLifetimeMs);
}

/** The grant in a verified payload, checked claim by claim. */
function grantOf(payload: Record<string, unknown>, maxLifetimeMs: number | undefined): McpxGrant {
  const { participantId, topic, capabilities } = payload;
  if (!isName(participantId) || participantId.startsWith("system:")) throw new Error("participantId claim: a non-empty string of at most 256 characters, not system:*");
  if (!isName(topic)) throw new Error("topic claim: a non-empty string of at most 256 characters");
  if (!Array.isArray(capabilities) || capabilities.length > MAX_CAPABILITIES || !capabilities.every(isName)) {
    throw new Error(`capabilities claim: an array of at most ${MAX_CAPABILITIES} strings`);
  }
  const expiresAt = expiryOf(payload, maxLifetimeMs);
  if (!(expiresAt > Date.now())) throw new Error(maxLifetimeMs === undefined ? "the token has expired" : `the token has expired (exp, or iat + maxLifetimeMs ${maxLifetimeMs} ms)`);
  return { participantId, topic, capabilities: [...capabilities], expiresAt };
}

/**
 * A verifier for HS256 (secret) or RS256/ES256 (JWKS) tokens: `exp` required (or `iat`, with
 * `maxLifetimeMs`), `nbf` checked when present; the grant's `expiresAt` is when the token ends.
 */
export function createMcpxTokenVerifier(keys: McpxTokenKeys, options: McpxTokenOptions = {}): McpxTokenVerifier {
  const maxLifetimeMs = numberOption("maxLifetimeMs", options.maxLifetimeMs, undefined, { min: 1000 });
  const checks: JWTVerifyOptions = {
    ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
    ...(options.audience === undefined ? {} : { audience: options.audience }),
    // Without maxLifetimeMs a token must end by itself; with it, jose requires `iat`, not in the future.
    ...(maxLifetimeMs === undefined ? { requiredClaims: ["exp"] } : { maxTokenAge: maxLifetimeMs / 1000 }),
  };
  if ("secret" in keys) {
    const secret = secretBytes(keys.secret);
    if (secret.byteLength < MIN_SECRET_BYTES) throw new RangeError(`an HS256 secret needs at least ${MIN_SECRET_BYTES} bytes`);
    return async (token) => grantOf((await jwtVerify(token, secret, { algorithms: ["HS256"], ...checks })).payload, maxLifetimeMs);
  }
  const keySet: JWTVerifyGetKey = keys.jwks instanceof URL ? createRemoteJWKSet(keys.jwks) : createLocalJWKSet(keys.jwks);
  return async (token) => grantOf((await jwtVerify(token, keySet, { algorithms: ["RS256", "ES256"], ...checks })).payload, maxLifetimeMs);
}

/** An HS256 token for `grant` (the example gateway's tokens, tests). `expiresIn` as jose reads it ("1h"). */
export async function signMcpxToken(secret: string | Uint8Array, grant: McpxGrant, expiresIn = "1h"): Promise<string> {
  return new SignJWT({ participantId: grant.participantId, topic: grant.topic, capabilities: [...grant.capabilities] })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(secretBytes(secret));
}

/** The participant info of a grant (welcome, presence). */
export const participantOf = (grant: McpxGrant): McpxParticipantInfo => ({ id: grant.participantId, capabilities: [...grant.capabilities] });
