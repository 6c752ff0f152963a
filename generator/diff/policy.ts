import { canonical, canonicalJson, compareText, type JsonValue } from "./shape.js";
import type { PolicyChange } from "./types.js";
import type { RevisionPolicy } from "../model/policy.js";

/**
 * The revision policy compared key by key, whatever keys it has: a key whose canonical JSON
 * value differs (or that only one side has) is a change; for two arrays the entries added and
 * removed are listed too. Sorted by key. Policy entries are never marked breaking themselves:
 * what they change in the catalog (a request's `cancellable` or `taskAugmentable` flag) is
 * reported, and judged, on the methods.
 */
export function diffPolicy(from: RevisionPolicy, to: RevisionPolicy): PolicyChange[] {
  const before = entries(from);
  const after = entries(to);
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort(compareText);
  return keys.flatMap((key): PolicyChange[] => {
    const a = before.get(key) ?? null;
    const b = after.get(key) ?? null;
    if (canonicalJson(a) === canonicalJson(b)) return [];
    const both = Array.isArray(a) && Array.isArray(b);
    return [{ key, before: a, after: b, added: both ? minus(b, a) : [], removed: both ? minus(a, b) : [], breaking: false }];
  });
}

function entries(policy: RevisionPolicy): Map<string, JsonValue> {
  const values: ReadonlyArray<[string, unknown]> = Object.entries(policy);
  return new Map(values.filter(([, v]) => v !== undefined).map(([k, v]) => [k, canonical(v)]));
}

/** Entries of `list` (canonical JSON) not in `other`, in `list`'s order. */
function minus(list: readonly JsonValue[], other: readonly JsonValue[]): JsonValue[] {
  const seen = new Set(other.map(canonicalJson));
  return list.filter((v) => !seen.has(canonicalJson(v)));
}
