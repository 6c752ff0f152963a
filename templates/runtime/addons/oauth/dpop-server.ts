// DPoP on the server (RFC 9449 §4.3, §7.1, §9; the MCP DPoP extension, SEP-1932): the proof
// check `bearerAuth({ dpop: createDpopVerifier() })` runs for every request whose token is
// DPoP-bound (its principal's `cnf.jkt`). A proof is accepted when:
//   - it is at most `maxProofLength` characters, a JWS of `typ` dpop+jwt signed with one of
//     `algorithms` (never `none` or a MAC) by the public key of its `jwk` header (jose verifies
//     the signature with the embedded key, refusing a private or symmetric one);
//   - `htm` is the request's method and `htu` its URL, query and fragment ignored (§4.3 8–9);
//   - `iat` is at most `maxAgeSeconds` old and `clockSkewSeconds` ahead (§4.3 11, §11.1);
//   - `ath` is the hash of the access token presented (§4.3 12), and the key's thumbprint is the
//     token's `cnf.jkt` (§6, §7.1);
//   - with `requireNonce`, its `nonce` is one this server issued recently (§9), else the answer is
//     `use_dpop_nonce` with a fresh one;
//   - its `jti` was not seen in the window (§11.1). The jti record is bounded: `maxReplayEntries`
//     entries, each dropped when no proof it stands for could be accepted any more (its window
//     passed); when full, new proofs are refused until entries expire (it fails closed rather than
//     forget a jti that could still be replayed).
// Nonces are stateless: the time slot and an HMAC of it under a per-verifier secret, valid for
// the current and the previous slot, so no memory grows with the clients.
// jose does the JWS part: compact serialization, header and key checks, the algorithm against
// the key type, the JWK thumbprint (RFC 7638). oauth4webapi has a DPoP check too, but only inside
// its JWT access token validation (a token from the issuer's JWKS, no jti record, no nonces),
// which does not fit bearerAuth's `verify`, where the application checks the token.

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWTPayload } from "jose";
import { numberOption } from "../../core/options.js";
import { describeValue } from "../../core/protocol.js";
import type { DpopProofChecker, DpopProofInput, DpopProofVerdict } from "../../http/server/bearer.js";
import { ASYMMETRIC_JWS_ALGORITHMS } from "./private-key-jwt.js";

/** The algorithms accepted by default: the asymmetric JWS algorithms of RFC 7518 and RFC 8037. */
export const DEFAULT_DPOP_ALGORITHMS: readonly string[] = ASYMMETRIC_JWS_ALGORITHMS;
/** Default of `maxAgeSeconds`: the 5 minutes the suite and common servers use. */
export const DEFAULT_DPOP_MAX_AGE_SECONDS: number = 300;
/** Default of `clockSkewSeconds`. */
export const DEFAULT_DPOP_CLOCK_SKEW_SECONDS: number = 5;
/** Default of `maxReplayEntries`: each is ~100 bytes, so 10,000 hold about 1 MB. */
export const DEFAULT_DPOP_MAX_REPLAY_ENTRIES: number = 10_000;
/** Default of `maxProofLength`: a proof with an RSA-4096 key stays near 2 KiB. */
export const DEFAULT_DPOP_MAX_PROOF_LENGTH: number = 8 * 1024;
/** Default of `nonceLifetimeSeconds`. */
export const DEFAULT_DPOP_NONCE_LIFETIME_SECONDS: number = 300;
/** Longest `jti` accepted, in characters. */
const MAX_JTI_LENGTH = 256;

export interface DpopVerifierOptions {
  /** The JWS algorithms accepted (default DEFAULT_DPOP_ALGORITHMS; none of `none`, HS*). Also the challenge's `algs`. */
  readonly algorithms?: readonly string[] | undefined;
  /** Oldest `iat` accepted, in seconds before now (default 300, 1 … 3600). */
  readonly maxAgeSeconds?: number | undefined;
  /** Newest `iat` accepted, in seconds after now (default 5, 0 … 300). */
  readonly clockSkewSeconds?: number | undefined;
  /** Most jti values remembered at once (default 10,000, 1 … 10,000,000); when full, new proofs are refused. */
  readonly maxReplayEntries?: number | undefined;
  /** Longest proof read, in characters (default 8 KiB, 256 … 65,536). */
  readonly maxProofLength?: number | undefined;
  /** Require a server nonce in every proof (RFC 9449 §9). Default false. */
  readonly requireNonce?: boolean | undefined;
  /** How long a nonce this server issued stays valid, in seconds (default 300, 10 … 86,400); it is valid one more slot after. */
  readonly nonceLifetimeSeconds?: number | undefined;
  /** The nonces' HMAC key, at least 32 bytes: the same on every instance behind one URL (default: random per verifier). */
  readonly nonceSecret?: Uint8Array | undefined;
  /** The clock, in ms (tests). */
  readonly now?: (() => number) | undefined;
}

interface Settings {
  readonly algorithms: string[];
  readonly maxAgeSeconds: number;
  readonly clockSkewSeconds: number;
  readonly maxReplayEntries: number;
  readonly maxProofLength: number;
  readonly nonceLifetimeSeconds: number;
  readonly requireNonce: boolean;
  readonly secret: Uint8Array;
  readonly now: () => number;
}

/** Every option checked (a TypeError or RangeError naming it). */
function settings(options: DpopVerifierOptions): Settings {
  if (typeof options !== "object" || options === null) throw new TypeError(`createDpopVerifier options must be an object, got ${describeValue(options)}`);
  const algorithms = options.algorithms ?? DEFAULT_DPOP_ALGORITHMS;
  if (!Array.isArray(algorithms) || algorithms.length === 0 || !algorithms.every((a) => DEFAULT_DPOP_ALGORITHMS.includes(a))) {
    throw new RangeError(`algorithms must be a non-empty list of ${DEFAULT_DPOP_ALGORITHMS.join(", ")}, got ${describeValue(algorithms)}`);
  }
  if (options.requireNonce !== undefined && typeof options.requireNonce !== "boolean") throw new TypeError(`requireNonce must be a boolean, got ${describeValue(options.requireNonce)}`);
  const secret = options.nonceSecret ?? randomBytes(32);
  if (!(secret instanceof Uint8Array) || secret.byteLength < 32) throw new RangeError(`nonceSecret must be a Uint8Array of at least 32 bytes, got ${describeValue(secret)}`);
  if (options.now !== undefined && typeof options.now !== "function") throw new TypeError(`now must be a function returning ms, got ${describeValue(options.now)}`);
  return {
    algorithms: [...algorithms],
    maxAgeSeconds: numberOption("maxAgeSeconds", options.maxAgeSeconds, DEFAULT_DPOP_MAX_AGE_SECONDS, { min: 1, max: 3600 }),
    clockSkewSeconds: numberOption("clockSkewSeconds", options.clockSkewSeconds, DEFAULT_DPOP_CLOCK_SKEW_SECONDS, { min: 0, max: 300 }),
    maxReplayEntries: numberOption("maxReplayEntries", options.maxReplayEntries, DEFAULT_DPOP_MAX_REPLAY_ENTRIES, { min: 1, max: 10_000_000 }),
    maxProofLength: numberOption("maxProofLength", options.maxProofLength, DEFAULT_DPOP_MAX_PROOF_LENGTH, { min: 256, max: 65_536 }),
    nonceLifetimeSeconds: numberOption("nonceLifetimeSeconds", options.nonceLifetimeSeconds, DEFAULT_DPOP_NONCE_LIFETIME_SECONDS, { min: 10, max: 86_400 }),
    requireNonce: options.requireNonce === true,
    secret,
    now: options.now ?? Date.now,
  };
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");

/**
 * The jti values of accepted proofs, each until its window passed (insertion order is expiry
 * order: every entry lives the same time from its insertion). Bounded by `max`.
 */
class ReplayRecord {
  readonly #expiries = new Map<string, number>();
  constructor(
    readonly max: number,
    readonly lifetimeMs: number,
  ) {}

  get size(): number {
    return this.#expiries.size;
  }

  /** "fresh" (now recorded), "replayed", or "full" (nothing recorded: no room). */
  record(key: string, now: number): "fresh" | "replayed" | "full" {
    for (const [old, expiry] of this.#expiries) {
      if (expiry > now) break;
      this.#expiries.delete(old);
    }
    if (this.#expiries.has(key)) return "replayed";
    if (this.#expiries.size >= this.max) return "full";
    this.#expiries.set(key, now + this.lifetimeMs);
    return "fresh";
  }
}

/** The stateless nonces: `<slot>.<HMAC(slot)>`. */
class Nonces {
  constructor(
    readonly secret: Uint8Array,
    readonly slotMs: number,
  ) {}

  #mac(slot: number): string {
    return b64url(createHmac("sha256", this.secret).update(String(slot)).digest().subarray(0, 16));
  }

  issue(now: number): string {
    const slot = Math.floor(now / this.slotMs);
    return `${slot}.${this.#mac(slot)}`;
  }

  valid(nonce: unknown, now: number): boolean {
    if (typeof nonce !== "string" || nonce.length > 64) return false;
    const match = /^(\d{1,15})\.([A-Za-z0-9_-]{22})$/.exec(nonce);
    if (match === null) return false;
    const slot = Number(match[1]);
    const current = Math.floor(now / this.slotMs);
    if (slot !== current && slot !== current - 1) return false;
    return timingSafeEqual(Buffer.from(match[2]!), Buffer.from(this.#mac(slot)));
  }
}

/** `origin + pathname` of a URL (query and fragment ignored, RFC 3986 normalization by URL), or undefined. */
function htuOf(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 4096) return undefined;
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

const refuse = (description: string): DpopProofVerdict => ({ ok: false, error: "invalid_dpop_proof", description });

/** The claims of a verified proof checked against the request (§4.3 steps 8–12); a refusal, else undefined. */
function claimsProblem(payload: JWTPayload, input: DpopProofInput, s: Settings, now: number, ath: string): string | undefined {
  if (typeof payload.jti !== "string" || payload.jti === "" || payload.jti.length > MAX_JTI_LENGTH) return `jti must be a string of 1 to ${MAX_JTI_LENGTH} characters`;
  if (payload["htm"] !== input.method.toUpperCase()) return "htm is not the request's method";
  const htu = htuOf(payload["htu"]);
  if (htu === undefined || htu !== htuOf(input.url)) return "htu is not the request's URL";
  const iat = payload.iat;
  if (typeof iat !== "number" || !Number.isFinite(iat)) return "iat is missing";
  if (iat < now / 1000 - s.maxAgeSeconds || iat > now / 1000 + s.clockSkewSeconds) return "iat is outside the accepted window";
  if (payload["ath"] !== ath) return "ath is not the hash of the access token presented";
  return undefined;
}

/**
 * The DPoP proof check of `bearerAuth({ dpop })` (see the file's comment). Every option is
 * checked here. `issueNonce()` gives a current nonce (for a `DPoP-Nonce` header of one's own).
 */
export function createDpopVerifier(options: DpopVerifierOptions = {}): DpopProofChecker & { issueNonce(): string; readonly replayEntries: number } {
  const s = settings(options);
  const replays = new ReplayRecord(s.maxReplayEntries, (s.maxAgeSeconds + s.clockSkewSeconds) * 1000);
  const nonces = new Nonces(s.secret, s.nonceLifetimeSeconds * 1000);

  const check = async (input: DpopProofInput): Promise<DpopProofVerdict> => {
    const { proof } = input;
    if (typeof proof !== "string" || proof.length === 0 || proof.length > s.maxProofLength) return refuse(`the DPoP header must hold one proof of at most ${s.maxProofLength} characters`);
    let verified: Awaited<ReturnType<typeof jwtVerify>>;
    try {
      verified = await jwtVerify(proof, EmbeddedJWK, { algorithms: s.algorithms, typ: "dpop+jwt" });
    } catch {
      return refuse("the proof is not a dpop+jwt JWS signed by its jwk with an accepted algorithm");
    }
    const now = s.now();
    const ath = createHash("sha256").update(input.accessToken).digest("base64url");
    const problem = claimsProblem(verified.payload, input, s, now, ath);
    if (problem !== undefined) return refuse(problem);
    const jwk = verified.protectedHeader.jwk;
    if (jwk === undefined || (await calculateJwkThumbprint(jwk, "sha256")) !== input.jkt) return refuse("the proof's key is not the one the token is bound to (cnf.jkt)");
    if (s.requireNonce && !nonces.valid(verified.payload["nonce"], now)) {
      return { ok: false, error: "use_dpop_nonce", description: "a fresh nonce from this server is required", nonce: nonces.issue(now) };
    }
    const key = createHash("sha256").update(input.jkt).update("\0").update(verified.payload.jti as string).digest("base64url").slice(0, 32);
    const recorded = replays.record(key, now);
    if (recorded === "replayed") return refuse("the proof was used before (jti)");
    if (recorded === "full") return refuse("too many recent proofs to remember; retry shortly");
    return { ok: true };
  };

  return {
    algorithms: s.algorithms,
    check,
    issueNonce: () => nonces.issue(s.now()),
    get replayEntries(): number {
      return replays.size;
    },
  };
}
