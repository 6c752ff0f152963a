/**
 * Waiting in tests, in one place: for queued work to run (settle), for a promise the test
 * resolves itself (deferred), for a signal to abort (aborted), and for a condition or a promise
 * with a named failure instead of the test's own timeout (waitFor, within). No helper here sleeps
 * a fixed time on its own: each waits for the thing it names.
 */

/** Lets queued microtasks and timers of 0 ms run (`rounds` macrotask turns). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

/** A promise with its resolve and reject functions. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Resolves with the signal's abort reason once it aborts (at once if it already has; else never). */
export function aborted(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason), { once: true }));
}

/** Polls until `probe` gives a value other than undefined; generous by default. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000, context?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${context ? `\n${context()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The promise, or a rejection naming what did not happen after `timeoutMs` (instead of the test's own 60 s timeout). */
export function within<T>(what: string, promise: Promise<T>, timeoutMs = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Settles (one round at a time, at most `rounds`) until `condition` holds; returns whether it did. */
export async function settleUntil(condition: () => boolean, rounds = 200): Promise<boolean> {
  for (let i = 0; i < rounds && !condition(); i++) await settle(1);
  return condition();
}

/** What a promise has come to so far: "pending", then its value or its rejection reason (for fake-timer tests that step the clock). */
export function outcome(promise: Promise<unknown>): { readonly value: unknown } {
  const seen = { value: "pending" as unknown };
  promise.then(
    (value) => (seen.value = value),
    (error: unknown) => (seen.value = error),
  );
  return seen;
}
