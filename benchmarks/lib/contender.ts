// The common face of the implementations under test, and which protocol revision each one runs
// a workload on.
import type { Probe } from "./probe.js";
import type { Codec } from "./transport.js";

/** The slow tool waits for its signal; the echo tool answers at once. */
export type ToolName = "echo" | "slow";

/** The revisions the in-memory rows use. */
export type Revision = "2025-11-25" | "2026-07-28";

/** The requests a workload sends. */
export type Method = "ping" | "tools/call";

/** Which of the workloads' methods each revision has (2026-07-28 removed ping). */
const METHODS: Readonly<Record<Revision, readonly Method[]>> = {
  "2025-11-25": ["ping", "tools/call"],
  "2026-07-28": ["tools/call"],
};

/** A connected client/server pair of one implementation. */
export interface Session {
  /** Rejects on a revision without ping (revisionFor never picks one for a workload that pings). */
  ping(signal?: AbortSignal): Promise<unknown>;
  callTool(name: ToolName, signal?: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}

export interface Contender {
  readonly name: string;
  /** The revisions it speaks, the one it speaks best first. */
  readonly revisions: readonly Revision[];
  /** A client and a server of this implementation over a fresh linked transport pair. */
  connect(revision: Revision, codec: Codec, probe: Probe): Promise<Session>;
}

/** The best revision of a contender that has every method a workload sends. */
export function revisionFor(contender: Contender, uses: readonly Method[]): Revision {
  const revision = contender.revisions.find((r) => uses.every((m) => METHODS[r].includes(m)));
  if (revision === undefined) throw new Error(`${contender.name} speaks no revision with ${uses.join(", ")}`);
  return revision;
}

/** For a session of a revision without ping. */
export function noPing(revision: Revision): Promise<never> {
  return Promise.reject(new Error(`${revision} has no ping`));
}
