/**
 * The per-revision policy table: the only place where the generator knows something about a
 * particular method or revision that the schema itself does not say. Everything else is read
 * from the schema, so a new revision usually needs no code change: an unknown revision gets
 * DEFAULT_POLICY.
 *
 * Sources: the Cancellation page of each spec revision ("basic/utilities/cancellation"):
 * - 2024-11-05 … 2025-11-25: "The `initialize` request MUST NOT be cancelled by clients."
 * - 2025-11-25 adds: task-augmented requests (params carry `task`) are cancelled with the
 *   `tasks/cancel` request, never `notifications/cancelled`; the schema marks them through a
 *   `task` property of type `TaskMetadata` in the params.
 * - 2026-07-28 has no `initialize` (stateless lifecycle); the rule is vacuous there.
 */
export interface RevisionPolicy {
  /** Requests that MUST NOT be cancelled with `notifications/cancelled`. */
  readonly uncancellable: readonly string[];
  /** Definition name whose presence as the params' `task` property makes a request task-augmentable. */
  readonly taskMetadataType: string;
  /** The immediate result of a task-augmented request (Tasks: "CreateTaskResult"). */
  readonly taskResultType: string;
}

export const DEFAULT_POLICY: RevisionPolicy = {
  uncancellable: ["initialize"],
  taskMetadataType: "TaskMetadata",
  taskResultType: "CreateTaskResult",
};

/** Revision → differences from DEFAULT_POLICY. */
export const REVISION_POLICIES: Readonly<Record<string, Partial<RevisionPolicy>>> = {
  "2024-11-05": {},
  "2025-03-26": {},
  "2025-06-18": {},
  "2025-11-25": {},
  "2026-07-28": {},
  draft: {},
};

export function policyFor(revision: string): RevisionPolicy {
  return { ...DEFAULT_POLICY, ...REVISION_POLICIES[revision] };
}
