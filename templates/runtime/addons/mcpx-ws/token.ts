// MCPx gateway tokens (v0.1 SPEC §5.1, token-based): a JWT whose claims give the participant id,
// the topic and the capabilities, `{ participantId, topic, capabilities }`. Clients never choose
// their id; the token does. Verified with `jose`: HS256 with a shared secret, or RS256/ES256
// against a JWKS (a local key set or a remote URL).

import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, SignJWT, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import type { McpxParticipantInfo } from "../../transports/mcpx-envelope.js";

/** What a verified token grants. */
export interface McpxGrant {
  readonly participantId: string;
  readonly topic: string;
  readonly capabilities: readonly string[];
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
}

/** Bounds on what a token may grant: ids, topics and capabilities are echoed to every participant. */
const MAX_ID = 256;
const MAX_CAPABILITIES = 64;
const MIN_SECRET_BYTES = 32;

const secretBytes = (secret: string | Uint8Array): Uint8Array => (typeof secret === "string" ? new TextEncoder().encode(secret) : secret);

const isName = (value: unknown): value is string => typeof value === "string" && value !== "" && value.length <= MAX_ID;

/** The grant in a verified payload, checked claim by claim. */
function grantOf(payload: Record<string, unknown>): McpxGrant {
  const { participantId, topic, capabilities } = payload;
  if (!isName(participantId) || participantId.startsWith("system:")) throw new Error("participantId claim: a non-empty string of at most 256 characters, not system:*");
  if (!isName(topic)) throw new Error("topic claim: a non-empty string of at most 256 characters");
  if (!Array.isArray(capabilities) || capabilities.length > MAX_CAPABILITIES || !capabilities.every(isName)) {
    throw new Error(`capabilities claim: an array of at most ${MAX_CAPABILITIES} strings`);
  }
  return { participantId, topic, capabilities: [...capabilities] };
}

/** A verifier for HS256 (secret) or RS256/ES256 (JWKS) tokens; `exp` and `nbf` are checked when present. */
export function createMcpxTokenVerifier(keys: McpxTokenKeys, options: McpxTokenOptions = {}): McpxTokenVerifier {
  const claims = { ...(options.issuer === undefined ? {} : { issuer: options.issuer }), ...(options.audience === undefined ? {} : { audience: options.audience }) };
  if ("secret" in keys) {
    const secret = secretBytes(keys.secret);
    if (secret.byteLength < MIN_SECRET_BYTES) throw new RangeError(`an HS256 secret needs at least ${MIN_SECRET_BYTES} bytes`);
    return async (token) => grantOf((await jwtVerify(token, secret, { algorithms: ["HS256"], ...claims })).payload);
  }
  const keySet: JWTVerifyGetKey = keys.jwks instanceof URL ? createRemoteJWKSet(keys.jwks) : createLocalJWKSet(keys.jwks);
  return async (token) => grantOf((await jwtVerify(token, keySet, { algorithms: ["RS256", "ES256"], ...claims })).payload);
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
