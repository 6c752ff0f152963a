/**
 * What changed in a schema whose bytes no longer match its pin, in one short clause for
 * `schema pull`'s message: "2 definitions changed (EchoResult, Tool), 1 method added (demo/shout)".
 * Made with the diff's own machinery when both versions can be read; else byte counts.
 */
import { diffRevisions } from "./diff.js";
import type { RevisionDiff } from "./types.js";
import { readSchemaDocument } from "../load/schema-document.js";
import { buildModel } from "../model/model.js";
import { policyFor } from "../model/policy.js";
import type { LoadedRevision } from "../model/revision.js";

/** Names shown per kind of change; more are counted, not named. */
const NAMED = 4;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function part(names: readonly string[], noun: string, verb: string): string[] {
  const unique = [...new Set(names)];
  if (unique.length === 0) return [];
  const shown = unique.slice(0, NAMED).join(", ") + (unique.length > NAMED ? ", …" : "");
  return [`${plural(unique.length, noun)} ${verb} (${shown})`];
}

/** The diff's definitions and methods added, removed and changed, with a few names each; "" when it has none. Pure. */
export function changeSummary(diff: RevisionDiff): string {
  return [
    ...part(diff.definitions.added.map((d) => d.definition), "definition", "added"),
    ...part(diff.definitions.removed.map((d) => d.definition), "definition", "removed"),
    ...part(diff.definitions.changed.map((d) => d.definition), "definition", "changed"),
    ...part(diff.methods.added.map((m) => m.method), "method", "added"),
    ...part(diff.methods.removed.map((m) => m.method), "method", "removed"),
    ...part(diff.methods.changed.map((m) => m.method), "method", "changed"),
  ].join(", ");
}

/** A schema's text as the diff takes it (no extensions, the revision's policy). */
function loaded(revision: string, text: string, file: string): LoadedRevision {
  const doc = readSchemaDocument(text, file);
  const policy = policyFor(revision);
  return { doc, policy, model: buildModel(doc, { revision, policy, resultOverrides: {}, extensions: [] }) };
}

const bytes = (text: string) => plural(Buffer.byteLength(text), "byte");

/**
 * What changed from `before` (the pinned bytes, when the cache holds them; null: it does not) to
 * `after`, in one clause. Pure.
 */
export function schemaChange(revision: string, before: string | null, after: string, file: string): string {
  if (before === null) return `${bytes(after)} now (the pinned copy is not in the cache to compare)`;
  let summary: string;
  try {
    summary = changeSummary(diffRevisions(loaded(revision, before, `${file} (pinned)`), loaded(revision, after, file)));
  } catch {
    return `${bytes(before)} → ${bytes(after)} (not a schema the diff can read)`;
  }
  return summary === "" ? `no definition or method changed (${bytes(before)} → ${bytes(after)})` : summary;
}
