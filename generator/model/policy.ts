/**
 * Era knowledge: the one module of the generator that knows protocol revisions by name. A new
 * revision the spec publishes needs nothing here unless its prose changes a rule; then it gets
 * its line in REVISION_POLICIES (docs/architecture.md, "Adding a revision").
 *
 * Three parts:
 * - the era a schema belongs to, read from the schema itself (schemaEra): `initialize` opens a
 *   session (2024-11-05 … 2025-11-25); `server/discover` and per-request `_meta` make the
 *   stateless era (2026-07-28 …);
 * - the policy table: per known revision, what only the spec's prose says (cancellation rules,
 *   timeouts, the HTTP transport's rules, two error conventions), each fact that the schema can
 *   confirm checked against it (rules.ts, checkPolicy);
 * - which known revision's prose a revision follows (resolvePolicy): its own line when it is
 *   known and of the schema's era, else the nearest earlier known revision of that era (the
 *   latest when the label is not a date), unless the config names one (`rulesOf`).
 *
 * Sources: the Cancellation page of each revision ("basic/utilities/cancellation"):
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
 * The transport pages ("basic/transports"): 2024-11-05 has HTTP+SSE; 2025-03-26 replaced it
 * with Streamable HTTP and sessions; 2025-06-18 added the MCP-Protocol-Version header on every
 * request after initialize and removed JSON-RPC batching; 2025-11-25 added priming events.
 */
import { StubgenError } from "../errors.js";
import { definition, deref, isSchemaNode, type SchemaDocument } from "../load/schema-document.js";
import type { Side } from "./vocabulary.js";

/**
 * The protocol era of a revision: `session` (an `initialize` handshake opens a session; 2024-11-05
 * … 2025-11-25) or `stateless` (no handshake: `server/discover`, and every request carries its
 * protocol version in `_meta`; 2026-07-28 …).
 */
export type Era = "session" | "stateless";

export interface RevisionPolicy {
  /** The era these rules are for; a revision only follows the rules of its own era (resolvePolicy). */
  readonly era: Era;
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
  /**
   * The HTTP transport of a session-era revision: `streamable` (Streamable HTTP with sessions,
   * 2025-03-26 …) or `sse` (HTTP+SSE, 2024-11-05); null: the stateless era, whose HTTP binding
   * the schema defines (http-binding.ts).
   */
  readonly sessionHttp: "streamable" | "sse" | null;
  /**
   * Streamable HTTP with sessions, Protocol Version Header (2025-06-18 …): the client sends the
   * negotiated version on every request after initialize; an unsupported one is answered 400.
   */
  readonly versionHeader: boolean;
  /** Streamable HTTP with sessions (2025-11-25): the server opens an SSE stream with a priming event (an id, empty data). */
  readonly priming: boolean;
  /**
   * JSON-RPC batches (2025-03-26 only). The schema says it too (its JSONRPCMessage admits an
   * array), and a generated revision's line must agree with it (checkPolicy); the line is kept
   * for the older versions a session server negotiates, whose schemas are not loaded then.
   */
  readonly batches: boolean;
  /**
   * tools/call with arguments that break the tool's input schema: a tool execution error
   * (`isError: true`; server/tools, Error Handling, SEP-1303, 2025-11-25 …) or a protocol error
   * (-32602). 2026-07-28's schema still shows -32602 for invalid tool arguments in its
   * InvalidParamsError examples; its tools page keeps SEP-1303, which is what we follow.
   */
  readonly invalidToolArguments: "tool-error" | "invalid-params";
  /**
   * resources/read of an unknown resource: -32002 until 2025-11-25; -32602 from 2026-07-28 (its
   * schema: "-32002 (resource not found, 2025-11-25 and earlier; replaced by -32602)").
   */
  readonly resourceNotFoundCode: number;
}

export interface RequestMetaPolicy {
  /** The definition whose properties these are. */
  readonly type: string;
  readonly protocolVersion: string;
  readonly clientCapabilities: string;
  readonly clientInfo: string;
}

/** The session era's rules, as 2025-11-25 has them (the last of the era). */
export const DEFAULT_POLICY: RevisionPolicy = {
  era: "session",
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
  sessionHttp: "streamable",
  versionHeader: true,
  priming: true,
  batches: false,
  invalidToolArguments: "tool-error",
  resourceNotFoundCode: -32002,
};

/** 2026-07-28 and the draft after it. */
const STATELESS: Partial<RevisionPolicy> = {
  era: "stateless",
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
  sessionHttp: null,
  resourceNotFoundCode: -32602,
};

/** Revision → differences from DEFAULT_POLICY. The one table a new revision's prose goes into. */
export const REVISION_POLICIES: Readonly<Record<string, Partial<RevisionPolicy>>> = {
  "2024-11-05": { sessionHttp: "sse", versionHeader: false, priming: false, invalidToolArguments: "invalid-params" },
  "2025-03-26": { versionHeader: false, priming: false, batches: true, invalidToolArguments: "invalid-params" },
  "2025-06-18": { priming: false, invalidToolArguments: "invalid-params" },
  "2025-11-25": {},
  "2026-07-28": STATELESS,
  draft: STATELESS,
};

/** The policy table's line of a revision (DEFAULT_POLICY for a revision it does not know). */
export function policyFor(revision: string): RevisionPolicy {
  return { ...DEFAULT_POLICY, ...REVISION_POLICIES[revision] };
}

/** The revisions the table knows, in the order it lists them (oldest first). */
export const KNOWN_REVISIONS: readonly string[] = Object.keys(REVISION_POLICIES);

/** Revision labels that are dates (basic/versioning: "YYYY-MM-DD") compare as strings. */
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a revision label is a date (2025-11-25), as opposed to a label such as `draft` or `custom`. */
export const isDateLabel = (revision: string): boolean => DATE.test(revision);

/** The requests that open each era's conversation (Lifecycle of each revision), in the order looked for. */
const ERA_MARKERS: ReadonlyArray<{ readonly method: string; readonly era: Era }> = [
  { method: "initialize", era: "session" },
  { method: "server/discover", era: "stateless" },
];

/**
 * The era a schema belongs to, from the client requests it defines: `initialize` → session,
 * `server/discover` → stateless; null for a schema with neither (a fragment, a small test
 * schema), which then takes its label's line, or the session era's rules, which ask nothing of
 * the schema. Pure.
 */
export function schemaEra(clientRequests: ReadonlySet<string>): Era | null {
  return ERA_MARKERS.find((marker) => clientRequests.has(marker.method))?.era ?? null;
}

/**
 * Whether the schema's JSON-RPC messages include batches: its JSONRPCMessage union admits an
 * array (2025-03-26: JSONRPCBatchRequest, JSONRPCBatchResponse). Pure.
 */
export function schemaBatches(doc: SchemaDocument): boolean {
  const message = definition(doc, "JSONRPCMessage");
  if (message === null) return false;
  const members = message.node["anyOf"] ?? message.node["oneOf"];
  if (!Array.isArray(members)) return false;
  return members.some((member, i) => {
    if (!isSchemaNode(member)) return false;
    const target = deref(doc, { node: member, pointer: `${message.pointer}/anyOf/${i}`, name: null }).node;
    return target["type"] === "array" || target["items"] !== undefined;
  });
}

/** A revision's rules and where they come from. */
export interface ResolvedPolicy {
  readonly policy: RevisionPolicy;
  /** The known revision whose line of the table the rules are. */
  readonly basis: string;
  /** True when the basis is another revision than the label (an unknown label, another era, or `rulesOf`). */
  readonly inherited: boolean;
}

/** What the spec's prose alone says, as the inheritance line names it. */
export const PROSE_RULES = "cancellation, timeouts and the HTTP transport's rules";

/**
 * The rules a revision follows, given its schema's era (schemaEra):
 * - `rulesOf` (the config's, for this label): that known revision's, which must be of the era;
 * - a known revision of the schema's era: its own line;
 * - otherwise the nearest known revision of the era dated no later than the label, else the
 *   earliest one after it; a label that is not a date takes the latest dated one.
 * Pure.
 */
export function resolvePolicy(revision: string, shown: Era | null, rulesOf?: string | undefined): ResolvedPolicy {
  // A schema that shows no era takes its label's line, else the session era's (DEFAULT_POLICY).
  const era = shown ?? (Object.hasOwn(REVISION_POLICIES, revision) ? policyFor(revision).era : "session");
  const ofEra = (known: string) => policyFor(known).era === era;
  if (rulesOf !== undefined) {
    if (!Object.hasOwn(REVISION_POLICIES, rulesOf)) {
      throw new StubgenError(`rulesOf for ${revision}: expected a known revision (${KNOWN_REVISIONS.join(", ")}), got ${JSON.stringify(rulesOf)}`);
    }
    if (!ofEra(rulesOf)) {
      throw new StubgenError(
        `rulesOf for ${revision}: ${rulesOf} is of the ${policyFor(rulesOf).era} era, but the schema of ${revision} is of the ${era} era; ` +
          `expected one of ${KNOWN_REVISIONS.filter(ofEra).join(", ")}`,
      );
    }
    return { policy: policyFor(rulesOf), basis: rulesOf, inherited: rulesOf !== revision };
  }
  if (Object.hasOwn(REVISION_POLICIES, revision) && ofEra(revision)) return { policy: policyFor(revision), basis: revision, inherited: false };
  const dated = KNOWN_REVISIONS.filter((known) => isDateLabel(known) && ofEra(known)).sort();
  const basis = !isDateLabel(revision) ? dated.at(-1) : (dated.filter((known) => known <= revision).at(-1) ?? dated[0]);
  if (basis === undefined) return { policy: { ...DEFAULT_POLICY, era }, basis: revision, inherited: false };
  return { policy: policyFor(basis), basis, inherited: true };
}

/** The one line `generate` prints for a revision that follows another's rules. Pure. */
export function inheritanceNote(revision: string, basis: string): string {
  return `${revision}: rules of ${basis} for ${PROSE_RULES} (what only the spec's prose says; the schema decides the rest; set "rulesOf" in the config to choose another)`;
}

/**
 * The session-era protocol versions a server of this revision may negotiate, with what each
 * one's transport page asks: the known ones of the era up to the basis (a server may be given
 * older `protocolVersions`), and the revision itself with its own rules. Empty for the
 * stateless era and for HTTP+SSE. Pure.
 */
export function sessionVersions(revision: string, resolved: ResolvedPolicy, schemaBatches: boolean): ReadonlyArray<{ readonly version: string; readonly versionHeader: boolean; readonly priming: boolean; readonly batches: boolean }> {
  const { policy, basis } = resolved;
  if (policy.era !== "session" || policy.sessionHttp !== "streamable") return [];
  const older = KNOWN_REVISIONS.filter((known) => {
    const line = policyFor(known);
    return isDateLabel(known) && known !== revision && known <= basis && line.era === "session" && line.sessionHttp === "streamable";
  }).sort();
  const rules = (line: RevisionPolicy, batches: boolean) => ({ versionHeader: line.versionHeader, priming: line.priming, batches });
  return [...older.map((version) => ({ version, ...rules(policyFor(version), policyFor(version).batches) })), { version: revision, ...rules(policy, schemaBatches) }];
}

/**
 * Checks a table line against what the schema says of the same facts: its era (the lifecycle
 * request it defines) and JSON-RPC batches. A line that disagrees with its schema is an error,
 * never silently different stubs. Only a revision's own line is checked (an inherited one comes
 * from another schema). Pure.
 */
export function checkPolicy(doc: Pick<SchemaDocument, "file">, revision: string, resolved: ResolvedPolicy, schemaBatches: boolean): void {
  if (resolved.inherited || !Object.hasOwn(REVISION_POLICIES, revision)) return;
  if (resolved.policy.batches !== schemaBatches) {
    throw new StubgenError(
      `the ${revision} policy says JSON-RPC batches are ${resolved.policy.batches ? "" : "not "}part of the protocol, but the schema's JSONRPCMessage ${schemaBatches ? "admits" : "does not admit"} an array`,
      { file: doc.file },
    );
  }
}
