/**
 * How long a call blocks the event loop, for the tests of hostile inputs (issue 41: no call may
 * block it for more than 50 ms). A synchronous call holds the loop for as long as it runs; on a
 * machine busy with other processes its wall time also counts the time the OS gave them (a 2-core
 * machine running other test files can stretch 10 ms of work to 60), so the figure asserted is
 * the CPU time the call took (user + system, process.cpuUsage): what it holds the loop for on a
 * core of its own. The best of a few runs, so a moment of contention does not decide it either.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";

function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The least CPU time (ms) of `runs` runs of a synchronous call, and its last result. */
export function blockingMs<T>(call: () => T, runs = 3): { ms: number; result: T } {
  let ms = Number.POSITIVE_INFINITY;
  let result!: T;
  for (let i = 0; i < runs; i++) {
    const start = cpuNow();
    result = call();
    ms = Math.min(ms, cpuNow() - start);
  }
  return { ms, result };
}

/**
 * An asynchronous call, the best of `runs` runs: `cpuMs`, the CPU time the whole call took
 * (every synchronous stretch in it together, so a bound on the longest), and `loopMs`, the
 * longest the event loop was held up meanwhile as perf_hooks monitorEventLoopDelay saw it (wall
 * time: contention included); and the last result.
 */
export async function loopBlockMs<T>(call: () => Promise<T>, runs = 3): Promise<{ cpuMs: number; loopMs: number; result: T }> {
  let cpuMs = Number.POSITIVE_INFINITY;
  let loopMs = Number.POSITIVE_INFINITY;
  let result!: T;
  for (let i = 0; i < runs; i++) {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    // The first sample comes a tick after enable(): let it come before the call starts.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const start = cpuNow();
    result = await call();
    cpuMs = Math.min(cpuMs, cpuNow() - start);
    await new Promise((resolve) => setTimeout(resolve, 5));
    histogram.disable();
    loopMs = Math.min(loopMs, histogram.max / 1e6);
  }
  return { cpuMs, loopMs, result };
}
