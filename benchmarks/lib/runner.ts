// Runs a workload on every implementation, rotating which goes first, each run on a fresh
// connection after a full collection; each implementation on its best revision for the workload.
import { revisionFor, type Contender, type Method, type Revision, type Session } from "./contender.js";
import { ours } from "./ours.js";
import { Probe } from "./probe.js";
import { sdk1 } from "./sdk1.js";
import { sdk2 } from "./sdk2.js";
import { collect, median } from "./stats.js";
import type { Codec } from "./transport.js";

export type Workload<T> = (session: Session, probe: Probe) => Promise<T>;

/** The in-memory contenders. */
export type Side = "ours" | "sdk1" | "sdk2";
export const SIDES: readonly Side[] = ["ours", "sdk1", "sdk2"];

/** One figure (or list of figures) per implementation. */
export type Sides<T, K extends string = Side> = Readonly<Record<K, T>>;

export const contenders: Sides<Contender> = { ours, sdk1, sdk2 };

/**
 * `runs` rounds; in round r the sides start at offset r (ours, sdk1, sdk2; then sdk1, sdk2,
 * ours; …), so each goes first, second and last equally often. Every result of each side.
 */
export async function alternate<K extends string, T>(sides: readonly K[], runs: number, once: (side: K) => Promise<T>): Promise<Sides<T[], K>> {
  const results = Object.fromEntries(sides.map((side) => [side, [] as T[]])) as Record<K, T[]>;
  for (let run = 0; run < runs; run++) {
    for (let i = 0; i < sides.length; i++) {
      const side = sides[(run + i) % sides.length] as K;
      results[side].push(await once(side));
    }
  }
  return results;
}

const probe = new Probe();

async function once<T>(contender: Contender, revision: Revision, codec: Codec, workload: Workload<T>): Promise<T> {
  const session = await contender.connect(revision, codec, probe);
  collect();
  try {
    return await workload(session, probe);
  } finally {
    await session.close();
  }
}

export interface Measured<T> {
  readonly results: Sides<T[]>;
  /** The revision each side ran on. */
  readonly revisions: Sides<Revision>;
}

/** `runs` runs of every implementation, each on its best revision that has the methods in `uses`. */
export async function measure<T>(runs: number, codec: Codec, uses: readonly Method[], workload: Workload<T>): Promise<Measured<T>> {
  const revisions = Object.fromEntries(SIDES.map((side) => [side, revisionFor(contenders[side], uses)])) as Sides<Revision>;
  const results = await alternate(SIDES, runs, (side) => once(contenders[side], revisions[side], codec, workload));
  return { results, revisions };
}

/** The median of each side's figures. */
export function medians<K extends string>(r: Sides<readonly number[], K>): Sides<number, K> {
  return pick(r, (x) => x);
}

/** The median of one figure of each side's results. */
export function pick<K extends string, T>(r: Sides<readonly T[], K>, f: (t: T) => number): Sides<number, K> {
  const entries = Object.entries(r) as [K, readonly T[]][];
  return Object.fromEntries(entries.map(([side, xs]) => [side, median(xs.map(f))])) as Sides<number, K>;
}

/** The fewest of each side's figures (a count every run must reach). */
export function fewest<K extends string, T>(r: Sides<readonly T[], K>, f: (t: T) => number): Sides<number, K> {
  const entries = Object.entries(r) as [K, readonly T[]][];
  return Object.fromEntries(entries.map(([side, xs]) => [side, Math.min(...xs.map(f))])) as Sides<number, K>;
}
