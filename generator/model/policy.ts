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
 * - 2026-07-28 has no `initialize` (stateless lifecycle); the rule is vacuous there. Its
 *   cancellation, subscriptions and transports pages change who may cancel what:
 *   - only the client cancels requests; the server sends notifications/cancelled for one
 *     purpose only, to end a `subscriptions/listen` stream (that request's id);
 *   - over Streamable HTTP closing the request's SSE stream is the cancel (no notification);
 *     over stdio the client sends notifications/cancelled;
 *   - senders SHOULD time out every request, MAY reset on progress, SHOULD keep a maximum;
 *   - every request carries the client's protocol version, capabilities and info in `_meta`
 *     (`RequestMetaObject`); the generator checks that the schema declares those keys.
 *   The schema says none of this except the `_meta` keys, so it lives here.
 */
import type { Side } from "./vocabulary.js";

export interface RevisionPolicy {
  /** Requests that MUST NOT be cancelled with `notifications/cancelled`. */
  readonly uncancellable: readonly string[];
  /** Definition name whose presence as the params' `task` property makes a request task-augmentable. */
  readonly taskMetadataType: string;
  /** The immediate result of a task-augmented request (Tasks: "CreateTaskResult"). */
  readonly taskResultType: string;
  /** Sides that may cancel the requests they sent with notifications/cancelled. */
  readonly cancellers: readonly Side[];
  /** Requests that their receiver may end by sending notifications/cancelled for them. */
  readonly endableByReceiver: readonly string[];
  /** Long-lived requests (subscriptions): exempt from the default timeout and cap. */
  readonly longLived: readonly string[];
  /** Cancel by closing the request's own stream when the transport has one, instead of notifying. */
  readonly cancelByClosingStream: boolean;
  /** Default timeout (ms) of every request; null: none unless the caller sets one. */
  readonly defaultTimeoutMs: number | null;
  /** Default hard cap (ms) over a whole request, progress resets included; null: none. */
  readonly defaultMaxTotalTimeoutMs: number | null;
  /** The `_meta` the client fills on every request: the definition and its keys; null: none. */
  readonly requestMeta: RequestMetaPolicy | null;
}

export interface RequestMetaPolicy {
  /** The definition whose properties these are. */
  readonly type: string;
  readonly protocolVersion: string;
  readonly clientCapabilities: string;
  readonly clientInfo: string;
}

/** 2026-07-28 and the draft after it. */
const STATELESS: Partial<RevisionPolicy> = {
  cancellers: ["client"],
  endableByReceiver: ["subscriptions/listen"],
  longLived: ["subscriptions/listen"],
  cancelByClosingStream: true,
  // The spec gives no numbers; these follow the official SDK's 60 s request timeout, with a
  // ten-minute cap for requests that reset their timeout on progress.
  defaultTimeoutMs: 60_000,
  defaultMaxTotalTimeoutMs: 600_000,
  requestMeta: {
    type: "RequestMetaObject",
    protocolVersion: "io.modelcontextprotocol/protocolVersion",
    clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
    clientInfo: "io.modelcontextprotocol/clientInfo",
  },
};

export const DEFAULT_POLICY: RevisionPolicy = {
  uncancellable: ["initialize"],
  taskMetadataType: "TaskMetadata",
  taskResultType: "CreateTaskResult",
  cancellers: ["client", "server"],
  endableByReceiver: [],
  longLived: [],
  cancelByClosingStream: false,
  defaultTimeoutMs: null,
  defaultMaxTotalTimeoutMs: null,
  requestMeta: null,
};

/** Revision → differences from DEFAULT_POLICY. */
export const REVISION_POLICIES: Readonly<Record<string, Partial<RevisionPolicy>>> = {
  "2024-11-05": {},
  "2025-03-26": {},
  "2025-06-18": {},
  "2025-11-25": {},
  "2026-07-28": STATELESS,
  draft: STATELESS,
};

export function policyFor(revision: string): RevisionPolicy {
  return { ...DEFAULT_POLICY, ...REVISION_POLICIES[revision] };
}
