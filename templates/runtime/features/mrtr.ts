// Multi round-trip requests (MRTR, SEP-2322; 2026-07-28 `basic/patterns/mrtr`), both halves:
// the receiving side (createInputRequired, the endpoint's hook around handlers) and, at the
// end of this file, the sending side (createAnswerInput, the endpoint's hook on the send path).
// The endpoint declares both hook types (core/endpoint.ts); this file imports only core.
//
// The receiving side:
// A handler of a request that may answer `InputRequiredResult` (the catalog's INPUT_REQUIRED
// methods: prompts/get, resources/read, tools/call) asks the client for input with
// `ctx.input.required(...)`; the client retries the request with `inputResponses` (and the
// `requestState` it was given), and the handler reads the typed answers with
// `ctx.input.responses(...)` and its own state with `ctx.input.state()`.
//
// `requestState` is signed with HMAC-SHA256 (Web Crypto) and bound to what it was issued for:
// "servers MUST treat requestState as an attacker-controlled input … MUST protect its integrity
// (e.g. HMAC or AEAD) and MUST reject state that fails verification", and "SHOULD include … the
// authenticated principal, a short expiry (TTL), an identifier for the originating request, e.g.
// the method name and a digest of its salient parameters" (Server Requirements 4 and 5).
// The state is signed, not encrypted: the client can read it.
//
// Nothing here runs for a request whose params carry neither `inputResponses` nor
// `requestState` until the handler reads `ctx.input`: no crypto, no allocation.

import type {
  AnyRequestHandler,
  HandlerContext,
  InputContextApi,
  InputRequestLike,
  InputRequiredHook,
  RequiredOptions,
  SendHook,
  SendPath,
} from "../core/endpoint.js";
import { isObject } from "../core/json.js";
import { at, checkValue, issueText, type Check } from "../core/validation.js";
import { numberOption, type NumberRule } from "../core/options.js";
import { timerDelay } from "../core/outgoing.js";
import {
  CancellationForbiddenError,
  cancelledInListener,
  describeValue,
  ErrorCode,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
  type JsonObject,
  type RequestId,
  type RequestOptions,
} from "../core/protocol.js";

export type { InputContextApi, InputRequestLike, InputRequiredHook, RequiredOptions };

/** A sub-capability some uses of an input request need (`elicitation.url` for `mode: "url"`). */
export interface SubCapabilityRule {
  /** The param of the input request that decides. */
  readonly param: string;
  /** Its values that need the sub-capability (null: the param left out), or "present": any value. */
  readonly values: readonly (string | null)[] | "present";
  readonly sub: string;
  /** A capability object declaring none of its sub-capabilities grants this one too (elicitation: {} is form mode). */
  readonly impliedByEmpty: boolean;
}

/** One input a server may ask for (a member of the schema's InputRequest union). */
export interface InputRule {
  /** The ClientCapabilities property the client must declare; null: none. */
  readonly capability: string | null;
  readonly subCapabilities: readonly SubCapabilityRule[];
  /** The result definition the answer must match (checked by the input's check of validators.ts, VALIDATORS.inputs). */
  readonly result: string;
}

/** The catalog's INPUT_REQUIRED: the revision's MRTR facts, read from its schema by the generator. */
export interface InputRequiredRules {
  /** Requests whose handlers may answer InputRequiredResult ("Supported Requests"). */
  readonly methods: readonly string[];
  /** The `_meta` key of the client capabilities of a request; null: none per request. */
  readonly capabilitiesMetaKey: string | null;
  /** MissingRequiredClientCapabilityError's code (-32021); null: the schema has none (-32602 then). */
  readonly missingCapabilityCode: number | null;
  /** The inputs, by method. */
  readonly inputs: { readonly [method: string]: InputRule };
}

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

/**
 * What makes a requestState single use: `claim` records a state's key until the state expires
 * and says whether this is the first time. It must be atomic over everything that shares it
 * (a shared store: one atomic set-if-absent with that expiry). A throw or a rejection refuses the
 * request (-32603): a guard that cannot answer never lets a state through.
 */
export interface ReplayGuard {
  /** true: `key` was not claimed before and now is, until `expiresAt` (ms since the epoch); false: a replay. */
  claim(key: string, expiresAt: number): boolean | Promise<boolean>;
}

export interface MemoryReplayGuardOptions {
  /** States remembered at most (default 100 000); past it, with none expired, a claim fails (the request is refused). */
  readonly maxEntries?: number | undefined;
  /** The clock, in ms since the epoch (default Date.now). */
  readonly now?: (() => number) | undefined;
}

const DEFAULT_REPLAY_ENTRIES = 100_000;

/**
 * The in-memory ReplayGuard: the keys claimed, each until its expiry, in a min-heap by expiry so
 * that expired keys are dropped from the top on each claim (no scan). Bounded: when
 * `maxEntries` live keys are held, a claim throws instead of forgetting one (forgetting would
 * let that state be replayed).
 */
export class MemoryReplayGuard implements ReplayGuard {
  readonly #keys = new Set<string>();
  /** [expiresAt, key], a binary min-heap on expiresAt. */
  readonly #heap: Array<readonly [number, string]> = [];
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryReplayGuardOptions = {}) {
    this.#maxEntries = numberOption("maxEntries", options.maxEntries, DEFAULT_REPLAY_ENTRIES, { min: 1 });
    this.#now = options.now ?? Date.now;
  }

  /** Keys remembered now (expired ones included until the next claim drops them). */
  get size(): number {
    return this.#keys.size;
  }

  claim(key: string, expiresAt: number): boolean {
    const now = this.#now();
    while (this.#heap.length > 0 && this.#heap[0]![0] <= now) this.#keys.delete(this.#pop()[1]);
    if (this.#keys.has(key)) return false;
    if (expiresAt <= now) return false;
    if (this.#keys.size >= this.#maxEntries) throw new Error(`the replay guard holds ${this.#maxEntries} unexpired states (maxEntries); try again later`);
    this.#keys.add(key);
    this.#push([expiresAt, key]);
    return true;
  }

  #push(entry: readonly [number, string]): void {
    const heap = this.#heap;
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]![0] <= entry[0]) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): readonly [number, string] {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right]![0] < heap[left]![0] ? right : left;
      if (heap[child]![0] >= last[0]) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

const RESULT_TYPE = "input_required";
const DEFAULT_TTL_MS = 600_000;
const DEFAULT_MAX_LENGTH = 65_536;
const MIN_KEY_BYTES = 32;
/** Nesting depth beyond which params are not digested nor answers validated (refused instead). */
const MAX_DEPTH = 64;
const STATE_PREFIX = "v1.";
/** Domain separation: the MAC is over "v1.<payload>", the binding tag over this prefix and the binding. */
const BIND_LABEL = "mcp-stubgen/requestState/bind\n";
const PRINCIPAL_LABEL = "mcp-stubgen/requestState/principal\n";
/** Random bytes of a single-use state's nonce: two states issued alike still differ. */
const NONCE_BYTES = 12;
const STATE = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;

const own = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** Sets a property even when it is named `__proto__` (a key of the peer's or the handler's choosing). */
function put(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

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
    if (key !== "_meta" && key !== "inputResponses" && key !== "requestState") put(out, key, params[key]);
  }
  return out;
}

// --- Capabilities. ---

function applies(rule: SubCapabilityRule, params: unknown): boolean {
  const value = isObject(params) ? params[rule.param] : undefined;
  if (rule.values === "present") return value !== undefined;
  return rule.values.includes(value === undefined ? null : typeof value === "string" ? value : "\u0000");
}

/**
 * The capabilities an input request needs that `declared` lacks, as a ClientCapabilities object
 * (`{ elicitation: { url: {} } }`), or null when it has them all.
 */
export function missingCapabilities(rule: InputRule, params: unknown, declared: JsonObject): JsonObject | null {
  if (rule.capability === null) return null;
  const needed = rule.subCapabilities.filter((sub) => applies(sub, params));
  const have = declared[rule.capability];
  if (!isObject(have)) {
    const subs: JsonObject = {};
    for (const sub of needed) if (!sub.impliedByEmpty) put(subs, sub.sub, {});
    return { [rule.capability]: subs };
  }
  const declaresAnySub = rule.subCapabilities.some((sub) => have[sub.sub] !== undefined);
  const lacking = needed.filter((sub) => !isObject(have[sub.sub]) && !(sub.impliedByEmpty && !declaresAnySub));
  if (lacking.length === 0) return null;
  const subs: JsonObject = {};
  for (const sub of lacking) put(subs, sub.sub, {});
  return { [rule.capability]: subs };
}

/** Merges missing-capability objects (two levels deep: capability, then sub-capability). */
function mergeCapabilities(into: JsonObject, more: JsonObject): void {
  for (const [capability, subs] of Object.entries(more)) {
    const existing = into[capability];
    if (isObject(existing) && isObject(subs)) Object.assign(existing, subs);
    else put(into, capability, isObject(subs) ? { ...subs } : {});
  }
}

// --- The hook. ---

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

const STATE_MESSAGES: Readonly<Record<StateRefusal, string>> = {
  invalid: "Invalid requestState: it failed integrity verification",
  expired: "Invalid requestState: it has expired",
  mismatch: "Invalid requestState: it was issued for a different request",
  replayed: "Invalid requestState: it was already used",
};

/** The default principal of a state: who the transport says sent the request (HTTP: `authenticate`). */
const principalOfRequest = (ctx: HandlerContext): string | undefined => ctx.principal?.id;

/** The error a refused requestState is answered with: -32602 Invalid params (the tampered-state scenario's code). */
export function stateError(reason: StateRefusal): McpError {
  return new McpError(ErrorCode.InvalidParams, STATE_MESSAGES[reason], { reason });
}

class InputRequired implements InputRequiredHook {
  readonly #rules: InputRequiredRules;
  readonly #answers: ReadonlyMap<string, Check>;
  readonly #methods: ReadonlySet<string>;
  readonly #keyBytes: Uint8Array | undefined;
  #key: Promise<unknown> | undefined;
  readonly #ttlMs: number;
  readonly #maxLength: number;
  readonly #principal: (ctx: HandlerContext) => string | undefined;
  readonly #guard: ReplayGuard | undefined;
  readonly #now: () => number;
  /** Results made by required(): already checked, so after() passes them through. */
  readonly #issued = new WeakSet<object>();

  constructor(rules: InputRequiredRules, options: RequestStateOptions = {}, answers: { readonly [method: string]: Check } = {}) {
    this.#rules = rules;
    this.#answers = new Map(Object.keys(answers).map((method) => [method, answers[method]!]));
    this.#methods = new Set(rules.methods);
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

  /** The check of the answer to an input request (the generated VALIDATORS.inputs); undefined: none. */
  answerCheck(method: string): Check | undefined {
    return this.#answers.get(method);
  }

  has(method: string): boolean {
    return this.#methods.has(method);
  }

  context(ctx: HandlerContext, params: JsonObject | undefined): InputContextApi {
    return new InputContext(this, ctx, params);
  }

  before(ctx: HandlerContext & { readonly input: InputContextApi }, params: JsonObject | undefined): Promise<void> | undefined {
    if (params === undefined) return undefined;
    const responses = params["inputResponses"];
    const state = params["requestState"];
    if (responses === undefined && state === undefined) return undefined; // the hot path
    // Error Handling: "Servers SHOULD validate that the data provided by the client is a valid
    // InputResponses object … Protocol errors … SHOULD return a JSON-RPC error response".
    if (responses !== undefined && !isObject(responses)) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses must be an object, got ${describeValue(responses)}`);
    }
    if (state === undefined) return undefined;
    if (typeof state !== "string") throw new McpError(ErrorCode.InvalidParams, `Invalid params: requestState must be a string, got ${describeValue(state)}`);
    const input = ctx.input;
    if (!(input instanceof InputContext)) throw new McpError(ErrorCode.InternalError, "ctx.input is not this server's");
    return this.#open(state, ctx, params).then((sealed) => input.verified(sealed.s));
  }

  after(method: string, result: unknown, ctx: HandlerContext): void {
    if (!isObject(result) || result["resultType"] !== RESULT_TYPE) return;
    // Supported Requests: "Servers MUST NOT send InputRequiredResult responses on any other client requests."
    if (!this.#methods.has(method)) {
      throw new McpError(ErrorCode.InternalError, `Internal error: ${method} may not answer ${RESULT_TYPE} (only ${this.#rules.methods.join(", ")})`);
    }
    if (this.#issued.has(result)) return;
    // A result the handler built itself gets the checks required() makes.
    const requests = result["inputRequests"];
    if (requests !== undefined && !isObject(requests)) throw new McpError(ErrorCode.InternalError, "Internal error: inputRequests must be an object");
    const hasRequests = requests !== undefined && Object.keys(requests).length > 0;
    if (!hasRequests && typeof result["requestState"] !== "string") {
      throw new McpError(ErrorCode.InternalError, "Internal error: an InputRequiredResult needs inputRequests or requestState");
    }
    if (requests !== undefined) this.check(requests as { readonly [key: string]: InputRequestLike }, ctx);
  }

  /** The rule of an input method, own properties only. */
  rule(method: unknown): InputRule | undefined {
    return typeof method === "string" && own(this.#rules.inputs, method) ? this.#rules.inputs[method] : undefined;
  }

  /** The client capabilities this request declared (its `_meta`), or none. */
  declared(ctx: HandlerContext): JsonObject {
    const key = this.#rules.capabilitiesMetaKey;
    const caps = key === null ? undefined : ctx._meta?.[key];
    return isObject(caps) ? caps : {};
  }

  /**
   * Checks a handler's input requests: known methods (TypeError otherwise: a programming error),
   * and capabilities the client declared: Server Requirements 7, "Servers MUST NOT send an
   * inputRequests that the client has not declared support for in its capabilities", answered
   * with MissingRequiredClientCapabilityError (basic/index: "-32021 whose
   * data.requiredCapabilities lists the missing capabilities").
   */
  check(requests: { readonly [key: string]: InputRequestLike }, ctx: HandlerContext): void {
    const declared = this.declared(ctx);
    const missing: JsonObject = {};
    const names: string[] = [];
    for (const key of Object.keys(requests)) {
      const request = requests[key];
      const rule = isObject(request) ? this.rule(request["method"]) : undefined;
      if (rule === undefined) {
        const method = isObject(request) ? request["method"] : undefined;
        throw new TypeError(`input request ${JSON.stringify(key)}: ${JSON.stringify(method)} is not one of ${Object.keys(this.#rules.inputs).join(", ")}`);
      }
      const lacking = missingCapabilities(rule, (request as InputRequestLike).params, declared);
      if (lacking !== null) {
        mergeCapabilities(missing, lacking);
        names.push(`${key} (${String((request as InputRequestLike).method)})`);
      }
    }
    if (names.length === 0) return;
    const list = Object.entries(missing).map(([cap, subs]) => (isObject(subs) && Object.keys(subs).length > 0 ? Object.keys(subs).map((s) => `${cap}.${s}`).join(", ") : cap));
    throw new McpError(
      this.#rules.missingCapabilityCode ?? ErrorCode.InvalidParams,
      `Missing required client capability: ${list.join(", ")} (to ask for ${names.join(", ")})`,
      { requiredCapabilities: missing },
    );
  }

  /** Builds the InputRequiredResult of required(). */
  async issue(ctx: HandlerContext, params: JsonObject | undefined, requests: { readonly [key: string]: InputRequestLike }, options: RequiredOptions): Promise<JsonObject> {
    if (!isObject(requests)) throw new TypeError("ctx.input.required(requests): requests must be an object of input requests");
    this.check(requests, ctx);
    const inputRequests: JsonObject = {};
    for (const key of Object.keys(requests)) {
      const request = requests[key]!;
      put(inputRequests, key, request.params === undefined ? { method: request.method } : { method: request.method, params: request.params });
    }
    const result: JsonObject = { resultType: RESULT_TYPE };
    const asks = Object.keys(inputRequests).length > 0;
    if (asks) result["inputRequests"] = inputRequests;
    // Server Requirements 6: "at least one of inputRequests or requestState".
    if (options.state !== undefined) result["requestState"] = await this.#seal(ctx, params, options.state, options.ttlMs);
    else if (!asks) throw new TypeError("ctx.input.required: give at least one input request or a state");
    this.#issued.add(result);
    return result;
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

  async #seal(ctx: HandlerContext, params: JsonObject | undefined, state: unknown, ttlMs: number | undefined): Promise<string> {
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
   * Verifies a requestState: its MAC first (anything malformed or forged is "invalid", with no
   * detail: no oracle), then, on state this server issued, its expiry and its binding.
   */
  async #open(text: string, ctx: HandlerContext, params: JsonObject): Promise<Sealed> {
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
    return sealed as unknown as Sealed;
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

/** A requestState's lifetime: whole milliseconds, at least 1. */
const TTL_RULE: NumberRule = { min: 1 };

/** One request's ctx.input. Its functions are bound: a handler may destructure them. */
class InputContext implements InputContextApi {
  readonly #hook: InputRequired;
  readonly #ctx: HandlerContext;
  readonly #params: JsonObject | undefined;
  #state: unknown = undefined;

  constructor(hook: InputRequired, ctx: HandlerContext, params: JsonObject | undefined) {
    this.#hook = hook;
    this.#ctx = ctx;
    this.#params = params;
  }

  /** Called by the hook once the request's requestState is verified. */
  verified(state: unknown): void {
    this.#state = state;
  }

  /** Whether this request's client capabilities allow asking for `method` (with these params). */
  readonly supports = (method: string, params?: unknown): boolean => {
    const rule = this.#hook.rule(method);
    return rule !== undefined && missingCapabilities(rule, params, this.#hook.declared(this.#ctx)) === null;
  };

  /** The state this handler sealed in the previous round, verified; undefined when the request carried none. */
  readonly state = (): unknown => this.#state;

  /**
   * The answers to `requests` when the retry carries one for every key, each checked against
   * the result of the method asked (-32602 when it does not match: Error Handling, "Protocol
   * errors … SHOULD return a JSON-RPC error response"); undefined when any is missing (then
   * ask again: "the server SHOULD respond with a new InputRequiredResult requesting the missing
   * information again"). Answers to keys not asked are ignored ("SHOULD ignore any information
   * it does not recognize").
   */
  readonly responses = (requests: { readonly [key: string]: InputRequestLike }): { [key: string]: unknown } | undefined => {
    if (!isObject(requests)) throw new TypeError("ctx.input.responses(requests): requests must be an object of input requests");
    const given = this.#params?.["inputResponses"];
    if (!isObject(given)) return undefined;
    const out: JsonObject = {};
    let complete = true;
    for (const key of Object.keys(requests)) {
      const request = requests[key];
      const rule = isObject(request) ? this.#hook.rule(request["method"]) : undefined;
      if (rule === undefined) throw new TypeError(`input request ${JSON.stringify(key)}: unknown method ${JSON.stringify(isObject(request) ? request["method"] : request)}`);
      if (!own(given, key)) {
        complete = false;
        continue;
      }
      const answer = given[key];
      const method = String((request as InputRequestLike).method);
      const check = this.#hook.answerCheck(method);
      const issue = check === undefined ? undefined : checkValue(check, answer);
      if (issue !== undefined) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses${issueText(at(key, issue))} (the answer to ${method}, ${rule.result})`, {
          pointer: `/inputResponses${at(key, issue).pointer}`,
          expected: issue.expected,
        });
      }
      put(out, key, answer);
    }
    return complete ? out : undefined;
  };

  /** An InputRequiredResult asking for `requests`, with `state` sealed into requestState when given. */
  readonly required = (requests: { readonly [key: string]: InputRequestLike }, options: RequiredOptions = {}): Promise<JsonObject> =>
    this.#hook.issue(this.#ctx, this.#params, requests, options);
}

/** The hook of a server whose revision has multi round-trip requests (its catalog's INPUT_REQUIRED). */
export function createInputRequired(rules: InputRequiredRules, options?: RequestStateOptions, answers?: { readonly [method: string]: Check }): InputRequiredHook {
  return new InputRequired(rules, options, answers);
}

// ---------------------------------------------------------------------------------------------
// The client half: the sending side's hook on the endpoint's send path (EndpointOptions.answerInput)

/** Most input requests answered in one round of a multi round-trip request; more are refused. */
const MAX_INPUT_REQUESTS = 64;

/** The sending side's share of multi round-trip requests (createAnswerInput). */
export interface AnswerInputOptions {
  /** The requests that may answer InputRequiredResult (INPUT_REQUIRED.methods). */
  readonly methods: ReadonlySet<string>;
  /** The input requests a server may embed (INPUT_REQUIRED.inputs): answered by the handler of that method. */
  readonly inputs: ReadonlySet<string>;
  /** Most retries of one request (each answers one InputRequiredResult); one more is refused. */
  readonly maxRounds: number;
  /** true: InputRequiredResult is returned as it is unless a call's options say otherwise. */
  readonly returnInputRequired?: boolean | undefined;
}

/** The `resultType` of an InputRequiredResult (2026-07-28 ResultType). */
const INPUT_REQUIRED = "input_required";

/**
 * Whether a call's result asks for input (`resultType: "input_required"`): for callers who drive
 * the rounds (`returnInputRequired: true`), it narrows the call's union (core/typed.ts
 * InputAnswered) to the InputRequiredResult, and its else branch to the complete result. Any
 * value may be given; only an object with that `resultType` is one.
 */
export function isInputRequired<R>(result: R): result is Extract<R, { resultType: typeof INPUT_REQUIRED }> {
  return isObject(result) && result["resultType"] === INPUT_REQUIRED;
}

/**
 * Whether a call's result is the complete one (an object whose `resultType` is not
 * "input_required"; an earlier revision's server sends none, which the client MUST treat as
 * "complete"): isInputRequired's counterpart, narrowing the union to the complete result.
 */
export function isComplete<R>(result: R): result is Exclude<R, { resultType: typeof INPUT_REQUIRED }> {
  return isObject(result) && result["resultType"] !== INPUT_REQUIRED;
}

/** Why an InputRequiredResult could not be answered (InputRequiredError). */
export type InputRequiredRefusal = "rounds" | "no-handler" | "invalid";

/**
 * A request ended on an InputRequiredResult this side could not answer: more rounds than
 * maxInputRounds, an input request without a handler, or a result that breaks the rules
 * (neither inputRequests nor requestState, an input request of a method a server may not ask
 * for). `result` is the server's InputRequiredResult, for callers who drive the rounds themselves.
 */
export class InputRequiredError extends Error {
  override name = "InputRequiredError";
  readonly method: string;
  readonly why: InputRequiredRefusal;
  readonly result: JsonObject;
  constructor(method: string, why: InputRequiredRefusal, result: JsonObject, detail: string) {
    super(`${method}: could not answer the server's InputRequiredResult: ${detail}`);
    this.method = method;
    this.why = why;
    this.result = result;
  }
}

/**
 * A request that the server may answer with InputRequiredResult (2026-07-28, basic/patterns/
 * mrtr, Client Requirements): each input request is answered by this side's handler of its
 * method (ctx.signal aborts with the call), then the original request is retried, with a new
 * id, carrying `inputResponses` and the exact `requestState` (none when the server sent none),
 * until a final result or maxRounds retries. The caller's signal runs through every round:
 * aborting it aborts the handlers in progress and sends no further retry. The timeout
 * (timeoutMs, else the endpoint's default) covers all rounds together.
 */
function requestWithInput(
  path: SendPath,
  answer: AnswerInputOptions,
  method: string,
  params: JsonObject | undefined,
  options: RequestOptions | undefined,
  related: RequestId | undefined,
): Promise<unknown> {
  let total: number | undefined;
  try {
    total = timerDelay("timeoutMs", options?.timeoutMs ?? path.defaultTimeoutMs);
  } catch (error) {
    return Promise.reject(error);
  }
  const deadline = total === undefined ? undefined : Date.now() + total;
  // Round 0 is a plain `then`, not an async function: most calls end in it, and so pay for one
  // promise fewer. Its timeout is the whole of `total`, and its errors are the call's as they are.
  return path
    .send(method, params, { ...options, timeoutMs: total ?? 0 }, related)
    .then((result) => (asksForInput(result) ? laterRounds(path, answer, method, params, options, related, total, deadline, result) : result));
}

/** isInputRequired, typed for the send path's unknown results. */
function asksForInput(result: unknown): result is JsonObject {
  return isObject(result) && result["resultType"] === INPUT_REQUIRED;
}

/** The rounds after the first: `result` is the InputRequiredResult of round 0. */
async function laterRounds(
  path: SendPath,
  answer: AnswerInputOptions,
  method: string,
  params: JsonObject | undefined,
  options: RequestOptions | undefined,
  related: RequestId | undefined,
  total: number | undefined,
  deadline: number | undefined,
  first: JsonObject,
): Promise<unknown> {
  const signal = options?.signal;
  // The params of a retry, made only when the server asks for input (most calls end in round 0).
  let base: JsonObject | undefined;
  let result: JsonObject = first;
  for (let round = 1; ; round++) {
    // `result` is round - 1's InputRequiredResult.
    const inputRequests = result["inputRequests"];
    const requestState = result["requestState"];
    // Servers MUST include at least one of inputRequests or requestState (Server Requirements).
    if ((inputRequests === undefined && requestState === undefined) || (inputRequests !== undefined && !isObject(inputRequests)) || (requestState !== undefined && typeof requestState !== "string")) {
      throw new InputRequiredError(method, "invalid", result, "it needs inputRequests (an object) or requestState (a string)");
    }
    if (round > answer.maxRounds) throw new InputRequiredError(method, "rounds", result, `more than ${answer.maxRounds} rounds`);
    const inputResponses = inputRequests === undefined ? undefined : await answerInputs(path, answer, method, result, inputRequests, signal, deadline, total);
    if (signal?.aborted) throw new RequestCancelledError(method, undefined, signal.reason);
    if (base === undefined) {
      base = { ...params };
      delete base["inputResponses"];
      delete base["requestState"];
    }
    const retry: JsonObject = { ...base };
    if (inputResponses !== undefined) retry["inputResponses"] = inputResponses;
    if (typeof requestState === "string") retry["requestState"] = requestState;
    const remaining = deadline === undefined ? undefined : Math.max(1, deadline - Date.now());
    let next: unknown;
    try {
      next = await path.send(method, retry, { ...options, timeoutMs: remaining ?? 0 }, related);
    } catch (error) {
      // A later round's timeout is the whole call's.
      if (error instanceof RequestTimeoutError && total !== undefined) throw new RequestTimeoutError(method, total);
      throw error;
    }
    if (!asksForInput(next)) return next;
    result = next;
  }
}

/**
 * Answers every input request of one InputRequiredResult at once, each by this side's handler
 * of its method. Rejects as soon as the caller aborts (RequestCancelledError) or the deadline
 * passes (RequestTimeoutError): the handlers' ctx.signal aborts with it.
 */
function answerInputs(
  path: SendPath,
  answer: AnswerInputOptions,
  method: string,
  result: JsonObject,
  inputRequests: JsonObject,
  signal: AbortSignal | undefined,
  deadline: number | undefined,
  total: number | undefined,
): Promise<JsonObject> {
  const jobs: Array<[string, AnyRequestHandler, string, JsonObject | undefined]> = [];
  const keys = Object.keys(inputRequests);
  // The server's map is hostile input: a bounded number of handlers run for one round.
  if (keys.length > MAX_INPUT_REQUESTS) throw new InputRequiredError(method, "invalid", result, `more than ${MAX_INPUT_REQUESTS} input requests`);
  for (const key of keys) {
    const request = inputRequests[key];
    const inputMethod = isObject(request) ? request["method"] : undefined;
    const inputParams = isObject(request) ? request["params"] : undefined;
    if (typeof inputMethod !== "string" || !answer.inputs.has(inputMethod) || (inputParams !== undefined && !isObject(inputParams))) {
      throw new InputRequiredError(method, "invalid", result, `input request ${describeValue(key)} is not one a server may send`);
    }
    const handler = path.handler(inputMethod);
    if (handler === undefined) throw new InputRequiredError(method, "no-handler", result, `no handler for ${inputMethod} (input request ${describeValue(key)})`);
    jobs.push([key, handler, inputMethod, inputParams]);
  }
  const controller = new AbortController();
  return new Promise<JsonObject>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (error: Error, reason: unknown): void => {
      cleanup();
      controller.abort(reason);
      reject(error);
    };
    const onAbort = (): void => stop(cancelledInListener(method, undefined, signal?.reason), signal?.reason);
    const cleanup = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    if (deadline !== undefined && total !== undefined) {
      const ms = Math.max(0, deadline - Date.now());
      timer = setTimeout(() => stop(new RequestTimeoutError(method, total), `${method} timed out after ${total} ms`), ms);
    }
    const answers = jobs.map(([key, handler, inputMethod, inputParams]) => {
      const ctx: HandlerContext = {
        signal: controller.signal,
        requestId: key,
        method: inputMethod,
        _meta: isObject(inputParams?.["_meta"]) ? inputParams["_meta"] : undefined,
        // Asked by the server inside a result, not sent by a peer over a transport: no principal, no HTTP request.
        principal: undefined,
        http: undefined,
        sendProgress: () => Promise.resolve(),
        notify: (m, p) => path.notify(m, p),
        request: (m, p, o) => path.request(m, p, o?.signal === undefined ? { ...o, signal: controller.signal } : o),
        end: () => Promise.reject(new CancellationForbiddenError(inputMethod, "not-permitted")),
      };
      // A handler that throws instead of rejecting is contained like a rejection.
      return new Promise<unknown>((done) => done(handler(inputParams, ctx))).then((value): [string, JsonObject] => [key, isObject(value) ? value : {}]);
    });
    Promise.all(answers).then(
      (pairs) => {
        if (controller.signal.aborted) return;
        cleanup();
        resolve(Object.fromEntries(pairs));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        stop(error instanceof Error ? error : new Error(String(error)), "an input handler failed");
      },
    );
  });
}

/**
 * The sending side of multi round-trip requests as a hook on the endpoint's send path: a request
 * to one of `answer.methods` is taken over (answered and retried, requestWithInput) unless the
 * caller drives the rounds (returnInputRequired here, or in the call's options, which win); a
 * call's maxInputRounds replaces `answer.maxRounds`.
 */
export function createAnswerInput(answer: AnswerInputOptions): SendHook {
  numberOption("maxRounds", answer.maxRounds, undefined, { min: 0 });
  return {
    request(path, method, params, options, related) {
      if (!answer.methods.has(method) || (options?.returnInputRequired ?? answer.returnInputRequired ?? false)) return undefined;
      // A call's own bound replaces the client's (RequestOptions.maxInputRounds).
      let rounds: number | undefined;
      try {
        rounds = numberOption("maxInputRounds", options?.maxInputRounds, undefined, { min: 0 });
      } catch (error) {
        return Promise.reject(error);
      }
      return requestWithInput(path, rounds === undefined ? answer : { ...answer, maxRounds: rounds }, method, params, options, related);
    },
    answerInputRequests(path, method, inputRequests, signal) {
      try {
        return answerInputs(path, answer, method, { inputRequests }, inputRequests, signal, undefined, undefined);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
