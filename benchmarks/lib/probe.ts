// What the benchmark's slow tool handler reports: how many handlers started, how many saw their
// signal abort, and when the last abort listener ran. Lets a scenario wait until every handler
// is running before it aborts, and until every handler has seen its abort.

interface Waiter {
  readonly count: () => number;
  readonly target: number;
  readonly resolve: () => void;
}

export class Probe {
  started = 0;
  aborted = 0;
  /** performance.now() when the most recent abort listener ran. */
  lastAbortAt = 0;
  #waiter: Waiter | undefined;

  reset(): void {
    this.started = 0;
    this.aborted = 0;
    this.lastAbortAt = 0;
    this.#waiter = undefined;
  }

  /** Called by a slow handler when it starts; it passes its signal. */
  handlerStarted(signal: AbortSignal): void {
    signal.addEventListener(
      "abort",
      () => {
        this.lastAbortAt = performance.now();
        this.aborted++;
        this.#check();
      },
      { once: true },
    );
    this.started++;
    this.#check();
  }

  /** Resolves once `started` reaches n. */
  untilStarted(n: number): Promise<void> {
    return this.#until(() => this.started, n);
  }

  /** Resolves once `aborted` reaches n. */
  untilAborted(n: number): Promise<void> {
    return this.#until(() => this.aborted, n);
  }

  #until(count: () => number, target: number): Promise<void> {
    if (count() >= target) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiter = { count, target, resolve };
    });
  }

  #check(): void {
    const waiter = this.#waiter;
    if (waiter !== undefined && waiter.count() >= waiter.target) {
      this.#waiter = undefined;
      waiter.resolve();
    }
  }
}

/**
 * The slow tool: registers with the probe, then stays pending until its signal aborts, and
 * rejects then with the abort reason, as a handler that stops its work would (no new Error: its
 * stack capture would cost both contenders alike and only blur the comparison).
 */
export function slowTool(probe: Probe, signal: AbortSignal): Promise<never> {
  probe.handlerStarted(signal);
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** Result of the fast tool. */
export const ECHO_RESULT = { content: [{ type: "text" as const, text: "ok" }] };

/** The same for a 2026-07-28 handler of ours, which returns the result as sent (it says it is complete). */
export const ECHO_RESULT_COMPLETE = { resultType: "complete" as const, ...ECHO_RESULT };

/**
 * The slow tool over HTTP: it also reports progress once, which makes its response an SSE
 * stream whose first event reaches the client while the handler waits; the client then aborts
 * mid-stream. `progress` sends notifications/progress (a no-op without a progressToken).
 */
export function slowToolWithProgress(probe: Probe, signal: AbortSignal, progress: () => Promise<unknown>): Promise<never> {
  const waiting = slowTool(probe, signal);
  // Both at once, so that an abort during the progress send is already handled.
  return Promise.all([waiting, progress()]).then(() => waiting);
}
