import { createCoverage } from "./covers.js";
import { diffDefinitions } from "./definitions.js";
import { diffCancellable, diffMethodChanges, diffMethodPresence } from "./methods.js";
import { diffPolicy } from "./policy.js";
import type { DiffSummary, RevisionDiff, RevisionInput } from "./types.js";

export type * from "./types.js";

/**
 * What changes between two revisions of the schema, for someone about to vendor regenerated
 * output: methods per direction, method types and flags, definitions, and the cancellation
 * policy, each entry marked breaking or not. Pure (data in, data out) and deterministic:
 * every list is sorted, and every object is built with a fixed key order, so
 * `JSON.stringify(diff)` is stable.
 */
export function diffRevisions(from: RevisionInput, to: RevisionInput): RevisionDiff {
  const presence = diffMethodPresence(from.model, to.model);
  const coverage = createCoverage(from.doc, to.doc);
  const changed = diffMethodChanges(from, to, coverage, createCoverage(to.doc, from.doc));
  const definitions = diffDefinitions(from.doc, to.doc, coverage);
  const policy = diffPolicy(from.policy, to.policy);
  const cancellable = diffCancellable(from.model, to.model);
  const all = [...presence.added, ...presence.removed, ...changed, ...definitions.added, ...definitions.removed, ...definitions.changed, ...policy, ...cancellable];
  const summary: DiffSummary = {
    methodsAdded: presence.added.length,
    methodsRemoved: presence.removed.length,
    methodsChanged: new Set(changed.map((c) => `${c.kind} ${c.method}`)).size,
    definitionsAdded: definitions.added.length,
    definitionsRemoved: definitions.removed.length,
    definitionsChanged: new Set(definitions.changed.map((c) => c.definition)).size,
    policyKeysChanged: policy.length,
    cancellableChanged: cancellable.length,
    changes: all.length,
    breaking: all.filter((c) => c.breaking).length,
  };
  return {
    from: from.model.revision,
    to: to.model.revision,
    summary,
    methods: { added: presence.added, removed: presence.removed, changed },
    definitions,
    cancellation: { policy, methods: cancellable },
  };
}

/** Whether the diff holds a change marked breaking (`--fail-on breaking`). */
export function hasBreakingChanges(diff: RevisionDiff): boolean {
  return diff.summary.breaking > 0;
}
