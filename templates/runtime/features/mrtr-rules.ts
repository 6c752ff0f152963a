// Multi round-trip requests (MRTR, SEP-2322; 2026-07-28 `basic/patterns/mrtr`): the revision's
// rules as the catalog states them (INPUT_REQUIRED: which requests may answer
// `InputRequiredResult`, which input requests a server may embed), and the one thing they decide
// about a request on their own: which client capabilities an input request needs, and whether the
// client declared them (Server Requirements 7; basic/index, MissingRequiredClientCapabilityError).
// Pure; both the receiving side (mrtr-server.ts) and the generated catalog read these types.

import { isObject, putOwn, type JsonObject } from "../core/json.js";
import { ErrorCode, McpError } from "../core/protocol.js";
import type { InputRequestLike } from "../core/endpoint.js";

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

/** The rule of an input method, own properties only (a peer's or a handler's `__proto__` is no method). */
export function inputRule(rules: InputRequiredRules, method: unknown): InputRule | undefined {
  return typeof method === "string" && Object.hasOwn(rules.inputs, method) ? rules.inputs[method] : undefined;
}

/** The client capabilities a request declared in its `_meta` (under the rules' key), or none. */
export function declaredCapabilities(rules: InputRequiredRules, meta: JsonObject | undefined): JsonObject {
  const key = rules.capabilitiesMetaKey;
  const caps = key === null ? undefined : meta?.[key];
  return isObject(caps) ? caps : {};
}

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
    for (const sub of needed) if (!sub.impliedByEmpty) putOwn(subs, sub.sub, {});
    return { [rule.capability]: subs };
  }
  const declaresAnySub = rule.subCapabilities.some((sub) => have[sub.sub] !== undefined);
  const lacking = needed.filter((sub) => !isObject(have[sub.sub]) && !(sub.impliedByEmpty && !declaresAnySub));
  if (lacking.length === 0) return null;
  const subs: JsonObject = {};
  for (const sub of lacking) putOwn(subs, sub.sub, {});
  return { [rule.capability]: subs };
}

/** Merges missing-capability objects (two levels deep: capability, then sub-capability). */
function mergeCapabilities(into: JsonObject, more: JsonObject): void {
  for (const [capability, subs] of Object.entries(more)) {
    const existing = into[capability];
    if (isObject(existing) && isObject(subs)) Object.assign(existing, subs);
    else putOwn(into, capability, isObject(subs) ? { ...subs } : {});
  }
}

/**
 * Checks a handler's input requests: known methods (TypeError otherwise: a programming error),
 * and capabilities the client declared: Server Requirements 7, "Servers MUST NOT send an
 * inputRequests that the client has not declared support for in its capabilities", answered
 * with MissingRequiredClientCapabilityError (basic/index: "-32021 whose
 * data.requiredCapabilities lists the missing capabilities").
 */
export function checkInputRequests(rules: InputRequiredRules, requests: { readonly [key: string]: InputRequestLike }, declared: JsonObject): void {
  const missing: JsonObject = {};
  const names: string[] = [];
  for (const key of Object.keys(requests)) {
    const request = requests[key];
    const rule = isObject(request) ? inputRule(rules, request["method"]) : undefined;
    if (rule === undefined) {
      const method = isObject(request) ? request["method"] : undefined;
      throw new TypeError(`input request ${JSON.stringify(key)}: ${JSON.stringify(method)} is not one of ${Object.keys(rules.inputs).join(", ")}`);
    }
    const lacking = missingCapabilities(rule, (request as InputRequestLike).params, declared);
    if (lacking !== null) {
      mergeCapabilities(missing, lacking);
      names.push(`${key} (${String((request as InputRequestLike).method)})`);
    }
  }
  if (names.length === 0) return;
  const list = Object.entries(missing).map(([cap, subs]) => (isObject(subs) && Object.keys(subs).length > 0 ? Object.keys(subs).map((s) => `${cap}.${s}`).join(", ") : cap));
  throw new McpError(rules.missingCapabilityCode ?? ErrorCode.InvalidParams, `Missing required client capability: ${list.join(", ")} (to ask for ${names.join(", ")})`, {
    requiredCapabilities: missing,
  });
}
