// The measurements. Each takes a connected session (and the probe its slow tool reports to),
// runs one workload and returns the figure(s) of one run.
import { getEventListeners, setMaxListeners } from "node:events";
import type { Session } from "./contender.js";
import type { Probe } from "./probe.js";
import { collect, percentile, tick, within } from "./stats.js";

const ignore = (): void => {};

/** Requests per second of n pings, each sent after the previous one answered. */
export async function sequentialPings(session: Session, n: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await session.ping();
  return n / ((performance.now() - t0) / 1000);
}

/** Requests per second of n tools/call requests all sent at once. */
export async function concurrentCalls(session: Session, n: number): Promise<number> {
  const t0 = performance.now();
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) calls.push(session.callTool("echo"));
  await Promise.all(calls);
  return n / ((performance.now() - t0) / 1000);
}

/**
 * Starts n slow calls, waits until every handler runs, aborts every call from the client (with
 * controller.abort(), no reason, as callers usually do), and waits until every call rejected and
 * every handler saw its signal abort, or 5 s passed. Returns how many handlers saw the abort.
 */
async function startAndCancel(session: Session, probe: Probe, n: number): Promise<number> {
  probe.reset();
  const controllers: AbortController[] = [];
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    calls.push(session.callTool("slow", controller.signal).catch(ignore));
  }
  await probe.untilStarted(n);
  for (const controller of controllers) controller.abort();
  await Promise.all(calls);
  await within(probe.untilAborted(n), 5000);
  return probe.aborted;
}

export interface StormResult {
  readonly ms: number;
  /** Handlers whose signal fired. */
  readonly sawAbort: number;
}

/** The cancel storm: n slow calls, all cancelled by the client once their handlers run. */
export async function cancelStorm(session: Session, probe: Probe, n: number): Promise<StormResult> {
  const t0 = performance.now();
  const sawAbort = await startAndCancel(session, probe, n);
  return { ms: performance.now() - t0, sawAbort };
}

export interface LatencyResult {
  readonly p50: number;
  readonly p99: number;
}

/**
 * n cancels one after another: each slow call is aborted once its handler runs, and the time
 * from controller.abort() to the handler's abort listener is recorded (ms).
 */
export async function abortLatency(session: Session, probe: Probe, n: number): Promise<LatencyResult> {
  probe.reset();
  const samples: number[] = [];
  for (let i = 1; i <= n; i++) {
    const controller = new AbortController();
    const call = session.callTool("slow", controller.signal).catch(ignore);
    await probe.untilStarted(i);
    const t0 = performance.now();
    controller.abort();
    await probe.untilAborted(i);
    samples.push(probe.lastAbortAt - t0);
    await call;
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await tick();
    collect();
  }
  return process.memoryUsage().heapUsed;
}

async function cancelInBatches(session: Session, probe: Probe, n: number, batch: number): Promise<void> {
  for (let done = 0; done < n; done += batch) {
    const size = Math.min(batch, n - done);
    const sawAbort = await startAndCancel(session, probe, size);
    if (sawAbort < size) throw new Error(`only ${sawAbort} of ${size} handlers saw their abort`);
  }
}

/**
 * heapUsed growth (MB, after full collections) over n cancelled requests, in batches. The
 * connection first cancels `prime` requests, so that what both implementations keep on purpose,
 * bounded (ours: the last 1,024 cancelled and finished ids), is there before the first reading:
 * what is measured is growth with the number of requests.
 */
export async function heapGrowth(session: Session, probe: Probe, n: number, batch: number, prime: number): Promise<number> {
  await cancelInBatches(session, probe, prime, batch);
  const before = await settledHeap();
  await cancelInBatches(session, probe, n, batch);
  const after = await settledHeap();
  return (after - before) / 2 ** 20;
}

/** Abort listeners left on one signal passed to n tools/call requests that have all settled. */
export async function listenersLeft(session: Session, n: number): Promise<number> {
  const controller = new AbortController();
  // Silences MaxListenersExceededWarning where listeners pile up; counting them is the point.
  setMaxListeners(n + 1, controller.signal);
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) calls.push(session.callTool("echo", controller.signal));
  await Promise.all(calls);
  return getEventListeners(controller.signal, "abort").length;
}
