// The revisions an every-era server serves (facade/every-era.ts), as the generated cross-revision
// entry hands them over: each revision's own generated module (its index), read for the era facts
// the catalog holds (REVISION, ERA, HTTP, REGISTRY, INPUT_REQUIRED) and nothing else. Here: which
// features each revision has, and which revision a conversation is served by (the first message
// of a stdio or in-memory connection; basic/versioning, "A dual-era server selects its behavior
// from how the client opens").

import { describeValue, type JsonRpcMessage, type Transport } from "../core/protocol.js";
import { isObject } from "../core/json.js";
import { sessionRevisionFor } from "../http/server/eras.js";

/** What the runtime reads of one generated revision's module (out/<revision>/index.ts). */
export interface EraModule {
  /** The catalog's REVISION. */
  readonly REVISION: string;
  /** The catalog's ERA: "session" (initialize, 2024-11-05 … 2025-11-25) or "stateless" (2026-07-28 on); the session versions its Streamable HTTP may negotiate. */
  readonly ERA: { readonly era: string; readonly sessionVersions: object };
  /** The catalog's HTTP binding (stateless revisions): the `_meta` key a request names its protocol version under. */
  readonly HTTP?: { readonly meta: { readonly protocolVersion: string } } | undefined;
  /** The registrations' rules (server.ts's REGISTRY). */
  readonly REGISTRY: { readonly structuredContent: boolean };
  /** Multi round-trip requests (InputRequiredResult): present on the revisions that have them. */
  readonly INPUT_REQUIRED?: unknown;
  /** The Tasks extension: present where it is merged. */
  readonly TASKS_EXTENSION?: unknown;
  /** The generated McpServer of the revision. */
  readonly McpServer: new (options?: never) => object;
}

/**
 * A feature a registration may need that not every revision has. A registration that needs one
 * is made on the revisions that have it only, and the others are named when it is registered
 * (EveryEraServer).
 */
export type EraFeature = "inputRequired" | "tasks" | "structuredContent" | "resourceTemplates" | "serverRequests";

/** Each feature: how a revision's module shows it, and what a revision without it lacks (for the warning). */
const FEATURES: { readonly [F in EraFeature]: { readonly has: (module: EraModule) => boolean; readonly lacks: string } } = {
  inputRequired: { has: (m) => m.INPUT_REQUIRED !== undefined, lacks: "no multi round-trip requests (InputRequiredResult, basic/patterns/mrtr)" },
  tasks: { has: (m) => m.TASKS_EXTENSION !== undefined, lacks: "the Tasks extension is not generated into it" },
  structuredContent: { has: (m) => m.REGISTRY.structuredContent, lacks: "tools have no outputSchema (no structuredContent in its schema)" },
  serverRequests: { has: (m) => m.ERA.era === "session", lacks: "no server-to-client requests outside a request's input rounds (sampling/createMessage, elicitation/create, roots/list: the session era's)" },
  resourceTemplates: { has: (m) => typeof (m.McpServer.prototype as { registerResourceTemplate?: unknown }).registerResourceTemplate === "function", lacks: "no resource templates" },
};

/** The names of the features, for the check of a registration's `requires`. */
export const ERA_FEATURES: readonly EraFeature[] = Object.keys(FEATURES) as EraFeature[];

/** Whether `module` has `feature`. */
export function hasFeature(module: EraModule, feature: EraFeature): boolean {
  return FEATURES[feature].has(module);
}

/** Why a revision without `feature` cannot have a registration that needs it. */
export function lacking(feature: EraFeature): string {
  return FEATURES[feature].lacks;
}

/** One served revision, its era facts read once. */
export interface EraRevision {
  readonly revision: string;
  readonly module: EraModule;
  /** "session" revisions open with initialize; "stateless" ones name their version in every request's `_meta`. */
  readonly stateless: boolean;
  /** The `_meta` key of a stateless revision's protocol version; null for session revisions. */
  readonly metaKey: string | null;
  /** Session revisions: the versions its Streamable HTTP sessions negotiate (none: HTTP+SSE only, 2024-11-05). */
  readonly sessionVersions: readonly string[];
}

/** A dated label (YYYY-MM-DD) sorts by date; any other (`draft`) is newer than all of them. */
const DATED = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The revisions, newest first by their labels' dates, checked once. A dated revision is preferred
 * over an undated one (`draft`) of the same era where a conversation names neither (preferred).
 */
export function readRevisions(modules: readonly EraModule[]): readonly EraRevision[] {
  if (!Array.isArray(modules) || modules.length === 0) throw new TypeError(`revisions must be a non-empty array of generated revision modules, got ${describeValue(modules)}`);
  const seen = new Set<string>();
  const revisions = modules.map((module): EraRevision => {
    const given: unknown = module;
    if (!isObject(given) || typeof given["REVISION"] !== "string" || !isObject(given["ERA"]) || typeof given["McpServer"] !== "function") {
      throw new TypeError(`revisions must hold generated revision modules (REVISION, ERA, McpServer), got ${describeValue(module)}`);
    }
    if (seen.has(module.REVISION)) throw new TypeError(`revisions holds ${module.REVISION} twice`);
    seen.add(module.REVISION);
    const stateless = module.ERA.era === "stateless";
    return { revision: module.REVISION, module, stateless, metaKey: stateless ? (module.HTTP?.meta.protocolVersion ?? null) : null, sessionVersions: Object.keys(module.ERA.sessionVersions) };
  });
  const rank = (label: string): string => (DATED.test(label) ? label : `~${label}`);
  return revisions.sort((a, b) => (rank(a.revision) < rank(b.revision) ? 1 : rank(a.revision) > rank(b.revision) ? -1 : 0));
}

/** The newest dated revision of an era among `revisions` (newest first), else its newest; undefined: none. */
export function preferred(revisions: readonly EraRevision[], stateless: boolean): EraRevision | undefined {
  const era = revisions.filter((r) => r.stateless === stateless);
  return era.find((r) => DATED.test(r.revision)) ?? era[0];
}

/**
 * The revision that serves a conversation whose first message is `message`:
 * - a request whose `_meta` names a protocol version (a stateless revision's key): that revision,
 *   else the preferred stateless one;
 * - `server/discover` (2026-07-28 Lifecycle): the preferred stateless revision;
 * - `initialize`: the newest session revision not newer than the version it asks for, the newest
 *   for an older or unknown one (Lifecycle, Version Negotiation; sessionRevisionFor);
 * - anything else: the preferred session revision (which answers as a server not yet initialized).
 * Where the era a message claims is not served, the other era's preferred revision answers it.
 */
export function revisionFor(revisions: readonly EraRevision[], message: JsonRpcMessage): EraRevision {
  const body = message as { readonly method?: unknown; readonly params?: unknown };
  const params = isObject(body.params) ? body.params : undefined;
  const meta = params !== undefined && isObject(params["_meta"]) ? params["_meta"] : undefined;
  const stateless = revisions.filter((r) => r.stateless);
  const claimed = meta === undefined ? undefined : stateless.find((r) => r.metaKey !== null && meta[r.metaKey] !== undefined);
  if (claimed !== undefined) {
    const version = meta?.[claimed.metaKey!];
    return stateless.find((r) => r.revision === version) ?? preferred(revisions, true)!;
  }
  if (body.method === "server/discover") return preferred(revisions, true) ?? preferred(revisions, false)!;
  const sessions = revisions.filter((r) => !r.stateless);
  if (sessions.length === 0) return preferred(revisions, true)!;
  if (body.method === "initialize") {
    const requested = params?.["protocolVersion"];
    const label = sessionRevisionFor(typeof requested === "string" ? requested : "", sessions.map((r) => r.revision));
    return sessions.find((r) => r.revision === label) ?? preferred(revisions, false)!;
  }
  return preferred(revisions, false)!;
}

/**
 * Serves `transport` (stdio, in memory: one conversation) by the revision its first message picks:
 * the transport is started here, and its first message handed, with every later one, to the
 * connection `open` makes on a view of it (started already, so its start() does nothing).
 */
export function serveByFirstMessage(transport: Transport, pick: (message: JsonRpcMessage) => (view: Transport) => void): Promise<void> {
  transport.onmessage = (first) => {
    const view: Transport = {
      start: () => Promise.resolve(),
      send: (message, options) => transport.send(message, options),
      close: () => transport.close(),
    };
    transport.onmessage = (message) => view.onmessage?.(message);
    transport.onclose = () => view.onclose?.();
    transport.onerror = (error) => view.onerror?.(error);
    pick(first)(view);
    view.onmessage?.(first);
  };
  return transport.start();
}
