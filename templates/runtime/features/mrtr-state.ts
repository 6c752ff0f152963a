// The signed `requestState` of multi round-trip requests (MRTR, SEP-2322; 2026-07-28
// `basic/patterns/mrtr`): a server's handler seals its state into the InputRequiredResult it
// answers, and the client's retry brings it back verbatim. RequestStateSealer issues and
// verifies such states for one server; mrtr-server.ts calls it from ctx.input.required and
// before a retry's handler runs.
//
// `requestState` is signed with HMAC-SHA256 (Web Crypto) and bound to what it was issued for:
// "servers MUST treat requestState as an attacker-controlled input … MUST protect its integrity
// (e.g. HMAC or AEAD) and MUST reject state that fails verification", and "SHOULD include … the
// authenticated principal, a short expiry (TTL), an identifier for the originating request, e.g.
// the method name and a digest of its salient parameters" (Server Requirements 4 and 5).
// The state is signed, not encrypted: the client can read it.
//
// Format: `v1.<base64url(JSON of Sealed)>.<base64url(HMAC over "v1.<payload>")>`.

import type { HandlerContext } from "../core/endpoint.js";
import { isObject, putOwn } from "../core/json.js";
import { numberOption, type NumberRule } from "../core/options.js";
import { describeValue, ErrorCode, McpError, type JsonObject } from "../core/protocol.js";
import { MemoryReplayGuard, type ReplayGuard } from "./mrtr-replay-guard.js";

/** McpServer option `requestState`: how the state of a round is protected. */
export interface RequestStateOptions {
  /**
   * The HMAC-SHA256 key: a string (its UTF-8 bytes) or bytes, at least 32 bytes. Every server
   * instance that may receive the retry must have the same key (behind a load balancer: set it).
   * Default: a random key made once per process, shared by every server in it.
   */
  readonly key?: string | Uint8Array | undefined;
  /** How long a state stays valid, in ms (default 600 000: ten minutes, time for a person to answer). */
  readonly ttlMs?: number | undefined;
  /**
   * The authenticated principal a state is bound to (Server Requirements 5: a state presented by
   * a different principal is refused, with the same error as a forged one). Called when a state
   * is issued and when one is verified. Default: `ctx.principal?.id` (the HTTP handler's
   * `authenticate`); a function returning undefined leaves states unbound.
   */
  readonly principal?: ((ctx: HandlerContext) => string | undefined) | undefined;
  /**
   * Single use: a state is accepted once, then refused (`replayed`) for the rest of its TTL.
   * true: a MemoryReplayGuard of this server (one process; default 100 000 states at most); a
   * ReplayGuard: that one (shared by every instance behind a load balancer). Default false: the
   * spec lets a state verify more than once within its TTL.
   */
  readonly singleUse?: boolean | ReplayGuard | undefined;
  /** The clock, in ms since the epoch (default Date.now). */
  readonly now?: (() => number) | undefined;
  /** The longest requestState accepted, in characters (default 65 536); longer ones are refused unread. */
  readonly maxLength?: number | undefined;
}

/** Why a requestState was refused (the error's `data.reason`). */
export type StateRefusal = "invalid" | "expired" | "mismatch" | "replayed";

const STATE_MESSAGES: Readonly<Record<StateRefusal, string>> = {
  invalid: "Invalid requestState: it failed integrity verification",
  expired: "Invalid requestState: it has expired",
  mismatch: "Invalid requestState: it was issued for a different request",
  replayed: "Invalid requestState: it was already used",
};

/** The error a refused requestState is answered with: -32602 Invalid params (the tampered-state scenario's code). */
export function stateError(reason: StateRefusal): McpError {
  return new McpError(ErrorCode.InvalidParams, STATE_MESSAGES[reason], { reason });
}

const DEFAULT_TTL_MS = 600_000;
const DEFAULT_MAX_LENGTH = 65_536;
const MIN_KEY_BYTES = 32;
/** Nesting depth beyond which params are not digested (refused instead). */
const MAX_DEPTH = 64;
const STATE_PREFIX = "v1.";
/** Domain separation: the MAC is over "v1.<payload>", the binding tag over this prefix and the binding. */
const BIND_LABEL = "mcp-stubgen/requestState/bind\n";
const PRINCIPAL_LABEL = "mcp-stubgen/requestState/principal\n";
/** Random bytes of a single-use state's nonce: two states issued alike still differ. */
const NONCE_BYTES = 12;
const STATE = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;
/** A requestState's lifetime: whole milliseconds, at least 1. */
const TTL_RULE: NumberRule = { min: 1 };

// --- The platform: Web Crypto and UTF-8, described structurally (no DOM or node types needed). ---

interface Subtle {
  importKey(format: "raw", key: Uint8Array, algorithm: { name: "HMAC"; hash: "SHA-256" }, extractable: false, usages: string[]): Promise<unknown>;
  sign(algorithm: "HMAC", key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: "HMAC", key: unknown, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}
interface Platform {
  readonly crypto?: { readonly subtle?: Subtle; getRandomValues?(array: Uint8Array): Uint8Array };
  readonly TextEncoder: new () => { encode(text: string): Uint8Array };
  readonly TextDecoder: new (label: string, options: { fatal: boolean }) => { decode(bytes: Uint8Array): string };
}
const platform = globalThis as unknown as Platform;

function subtle(): Subtle {
  const s = platform.crypto?.subtle;
  if (s === undefined) throw new McpError(ErrorCode.InternalError, "requestState needs the Web Crypto API (globalThis.crypto.subtle)");
  return s;
}

let utf8Encoder: { encode(text: string): Uint8Array } | undefined;
const utf8 = (text: string): Uint8Array => (utf8Encoder ??= new platform.TextEncoder()).encode(text);

let processKey: Uint8Array | undefined;
/** The default key: 32 random bytes, made once per process. */
function defaultKey(): Uint8Array {
  if (processKey === undefined) {
    const random = platform.crypto?.getRandomValues;
    if (random === undefined) throw new McpError(ErrorCode.InternalError, "requestState needs crypto.getRandomValues for its default key");
    processKey = random.call(platform.crypto, new Uint8Array(MIN_KEY_BYTES));
  }
  return processKey;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    if (i + 1 < bytes.length) out += B64[(n >> 6) & 63]!;
    if (i + 2 < bytes.length) out += B64[n & 63]!;
  }
  return out;
}

/** Decodes base64url without padding; null for anything else (a non-canonical last character included). */
export function fromBase64Url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let j = 0;
  for (const c of text) {
    const v = B64_INDEX.get(c);
    if (v === undefined) return null;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[j++] = (value >> bits) & 255;
    }
  }
  // Leftover bits must be zero, so that each byte string has exactly one encoding.
  if ((value & ((1 << bits) - 1)) !== 0) return null;
  return bytes;
}

/**
 * JSON with object keys sorted, the same text for the same value however its keys were ordered
 * on the wire: what the binding digests. Refuses nesting deeper than MAX_DEPTH.
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) throw new McpError(ErrorCode.InvalidParams, "Invalid params: nested too deeply");
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k], depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The params that identify a request: all but `_meta` and the round's own fields. */
function salient(params: JsonObject | undefined): JsonObject {
  const out: JsonObject = {};
  if (params === undefined) return out;
  for (const key of Object.keys(params)) {
    if (key !== "_meta" && key !== "inputResponses" && key !== "requestState") putOwn(out, key, params[key]);
  }
  return out;
}

/** What a requestState carries, under its MAC (short keys: the state travels in every retry). */
interface Sealed {
  /** Expiry, ms since the epoch. */
  readonly e: number;
  /** Binding tag (base64url, 16 bytes of HMAC). */
  readonly b: string;
  /** The principal's tag (base64url, 16 bytes of HMAC of its id); absent: no principal. */
  readonly p?: string;
  /** A single-use state's nonce (base64url). */
  readonly n?: string;
  /** The handler's state. */
  readonly s?: unknown;
}

/** The default principal of a state: who the transport says sent the request (HTTP: `authenticate`). */
const principalOfRequest = (ctx: HandlerContext): string | undefined => ctx.principal?.id;

/**
 * One server's requestStates: its key, their lifetime and size, whose they are, and whether each
 * is single use. The options are read and checked at construction (a RangeError or TypeError
 * naming the option); the key is imported on first use.
 */
export class RequestStateSealer {
  readonly #keyBytes: Uint8Array | undefined;
  #key: Promise<unknown> | undefined;
  readonly #ttlMs: number;
  readonly #maxLength: number;
  readonly #principal: (ctx: HandlerContext) => string | undefined;
  readonly #guard: ReplayGuard | undefined;
  readonly #now: () => number;

  constructor(options: RequestStateOptions = {}) {
    if (options.key !== undefined) {
      const bytes = typeof options.key === "string" ? utf8(options.key) : Uint8Array.from(options.key);
      if (bytes.length < MIN_KEY_BYTES) throw new RangeError(`requestState.key must be at least ${MIN_KEY_BYTES} bytes, got ${bytes.length}`);
      this.#keyBytes = bytes; // a copy: later changes to the caller's array do not change the key
    }
    this.#ttlMs = numberOption("requestState.ttlMs", options.ttlMs, DEFAULT_TTL_MS, TTL_RULE);
    this.#maxLength = numberOption("requestState.maxLength", options.maxLength, DEFAULT_MAX_LENGTH, { min: 64 });
    this.#principal = options.principal ?? principalOfRequest;
    this.#now = options.now ?? Date.now;
    this.#guard = replayGuardOption(options.singleUse, this.#now);
  }

  /**
   * The requestState of `state` for this request (ctx.input.required's `state`): bound to its
   * method, salient params and principal, valid for `ttlMs` (default: the server's).
   */
  async seal(ctx: HandlerContext, params: JsonObject | undefined, state: unknown, ttlMs: number | undefined): Promise<string> {
    const ttl = numberOption("ttlMs", ttlMs, this.#ttlMs, TTL_RULE);
    const principal = await this.#principalTag(ctx);
    const sealed: Sealed = {
      e: this.#now() + ttl,
      b: await this.#bindTag(ctx, params),
      ...(principal === undefined ? {} : { p: principal }),
      ...(this.#guard === undefined ? {} : { n: nonce() }),
      s: state,
    };
    let json: string;
    try {
      json = JSON.stringify(sealed);
    } catch (error) {
      throw new TypeError(`ctx.input.required: state must be JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const body = `${STATE_PREFIX}${toBase64Url(utf8(json))}`;
    const mac = new Uint8Array(await subtle().sign("HMAC", await this.#cryptoKey(), utf8(body)));
    const text = `${body}.${toBase64Url(mac)}`;
    if (text.length > this.#maxLength) throw new RangeError(`requestState would be ${text.length} characters, over requestState.maxLength (${this.#maxLength})`);
    return text;
  }

  /**
   * Verifies a requestState and resolves to the handler's state in it: its MAC first (anything
   * malformed or forged is "invalid", with no detail: no oracle), then, on state this server
   * issued, its principal, expiry and binding, and last whether it was used before (single use).
   * Rejects with stateError(reason).
   */
  async open(text: string, ctx: HandlerContext, params: JsonObject): Promise<unknown> {
    const match = text.length <= this.#maxLength ? STATE.exec(text) : null;
    const body = match && fromBase64Url(match[1]!);
    const mac = match && fromBase64Url(match[2]!);
    if (body === null || mac === null || mac.length !== 32) throw stateError("invalid");
    const ok = await subtle().verify("HMAC", await this.#cryptoKey(), mac, utf8(`${STATE_PREFIX}${match![1]!}`));
    if (!ok) throw stateError("invalid");
    let sealed: unknown;
    try {
      sealed = JSON.parse(new platform.TextDecoder("utf-8", { fatal: true }).decode(body));
    } catch {
      throw stateError("invalid");
    }
    if (!isObject(sealed) || typeof sealed["e"] !== "number" || typeof sealed["b"] !== "string") throw stateError("invalid");
    if (this.#now() >= sealed["e"]) throw stateError("expired");
    // The tags are themselves under the MAC, so a plain comparison leaks nothing an attacker could
    // use. Another principal's state is refused as a forged one would be: no hint that it is genuine.
    if (sealed["p"] !== (await this.#principalTag(ctx))) throw stateError("invalid");
    if (sealed["b"] !== (await this.#bindTag(ctx, params))) throw stateError("mismatch");
    // Last, so that a state refused above is not used up by the refusal.
    if (this.#guard !== undefined && !(await this.#claim(this.#guard, match![2]!, sealed["e"]))) throw stateError("replayed");
    return (sealed as unknown as Sealed).s;
  }

  #cryptoKey(): Promise<unknown> {
    this.#key ??= subtle().importKey("raw", this.#keyBytes ?? defaultKey(), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    return this.#key;
  }

  /** 16 bytes of HMAC under the key, base64url: the tags a state carries. */
  async #tag(text: string): Promise<string> {
    const mac = new Uint8Array(await subtle().sign("HMAC", await this.#cryptoKey(), utf8(text)));
    return toBase64Url(mac.subarray(0, 16));
  }

  /** The binding tag of a request: method and salient params under the key. */
  #bindTag(ctx: HandlerContext, params: JsonObject | undefined): Promise<string> {
    return this.#tag(`${BIND_LABEL}${ctx.method}\n${canonicalJson(salient(params))}`);
  }

  /**
   * The principal's tag (Server Requirements 5), or undefined when the request has none. A tag,
   * not the id: the state is readable by the client, and the id may be an internal one.
   */
  async #principalTag(ctx: HandlerContext): Promise<string | undefined> {
    let principal: string | undefined;
    try {
      principal = this.#principal(ctx);
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `requestState.principal threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (principal === undefined || principal === "") return undefined;
    if (typeof principal !== "string") throw new McpError(ErrorCode.InternalError, `requestState.principal must return a string or undefined, got ${describeValue(principal)}`);
    return this.#tag(`${PRINCIPAL_LABEL}${principal}`);
  }

  /** The guard's answer for a state's MAC (unique per state); a guard that fails refuses the request. */
  async #claim(guard: ReplayGuard, key: string, expiresAt: number): Promise<boolean> {
    try {
      return (await guard.claim(key, expiresAt)) === true;
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `requestState.singleUse: the replay guard failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A single-use state's nonce: random bytes, base64url. */
function nonce(): string {
  const random = platform.crypto?.getRandomValues;
  if (random === undefined) throw new McpError(ErrorCode.InternalError, "requestState.singleUse needs crypto.getRandomValues");
  return toBase64Url(random.call(platform.crypto, new Uint8Array(NONCE_BYTES)));
}

/** The `singleUse` option, read: no guard, this server's own MemoryReplayGuard, or the one given. */
function replayGuardOption(value: RequestStateOptions["singleUse"], now: () => number): ReplayGuard | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return new MemoryReplayGuard({ now });
  if (typeof value === "object" && value !== null && typeof (value as { claim?: unknown }).claim === "function") return value;
  throw new TypeError(`requestState.singleUse must be a boolean or a ReplayGuard (an object with claim(key, expiresAt)), got ${describeValue(value)}`);
}
