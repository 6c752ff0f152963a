// Runs a workload on both implementations, alternating which goes first, each run on a fresh
// connection after a full collection.
import type { Contender, Session } from "./contender.js";
import { ours } from "./ours.js";
import { Probe } from "./probe.js";
import { sdk } from "./sdk.js";
import { collect, median } from "./stats.js";
import type { Codec } from "./transport.js";

export type Workload<T> = (session: Session, probe: Probe) => Promise<T>;

/** One figure (or list of figures) per implementation. */
export interface Pairwise<T> {
  readonly ours: T;
  readonly sdk: T;
}

export const contenders: Pairwise<Contender> = { ours, sdk };

const probe = new Probe();

async function once<T>(contender: Contender, codec: Codec, workload: Workload<T>): Promise<T> {
  const session = await contender.connect(codec, probe);
  collect();
  try {
    return await workload(session, probe);
  } finally {
    await session.close();
  }
}

/** `runs` runs of each implementation, alternating which goes first; every result of each. */
export async function measure<T>(runs: number, codec: Codec, workload: Workload<T>): Promise<Pairwise<T[]>> {
  const results: { ours: T[]; sdk: T[] } = { ours: [], sdk: [] };
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? (["ours", "sdk"] as const) : (["sdk", "ours"] as const);
    for (const side of order) results[side].push(await once(contenders[side], codec, workload));
  }
  return results;
}

/** The median of each side's figures. */
export function medians(r: Pairwise<readonly number[]>): Pairwise<number> {
  return { ours: median(r.ours), sdk: median(r.sdk) };
}

/** The median of one figure of each side's results. */
export function pick<T>(r: Pairwise<readonly T[]>, f: (t: T) => number): Pairwise<number> {
  return medians({ ours: r.ours.map(f), sdk: r.sdk.map(f) });
}
