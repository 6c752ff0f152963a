// Small numeric and timing helpers.

export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/** Nearest-rank percentile (p in 0..100) of a non-empty sample. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) throw new Error("percentile of an empty sample");
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** A full collection; the process must run with --expose-gc. */
export function collect(): void {
  if (globalThis.gc === undefined) throw new Error("run with node --expose-gc");
  globalThis.gc();
}

/** Lets pending microtasks, timers and I/O callbacks run. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Resolves when `done` does, or after ms; true if `done` won. */
export async function within(done: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([done.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
