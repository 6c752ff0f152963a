// The messages between the bench (the HTTP client) and a server process: the bench asks, the
// server answers with its probe's counts and its clock. Times are epoch milliseconds with
// sub-millisecond precision (performance.timeOrigin + performance.now()) of the sender's process.

export type Ask =
  | { readonly id: number; readonly op: "reset" }
  | { readonly id: number; readonly op: "clock" }
  | { readonly id: number; readonly op: "counts" }
  /** heapUsed after full collections, in the answer's heapBytes. */
  | { readonly id: number; readonly op: "heap" }
  /** Answered once n handlers saw their abort, or after timeoutMs. */
  | { readonly id: number; readonly op: "untilAborted"; readonly n: number; readonly timeoutMs: number };

export interface Answer {
  readonly id: number;
  readonly now: number;
  readonly started: number;
  readonly aborted: number;
  /** When the last abort listener ran (0: none yet). */
  readonly lastAbortAt: number;
  /** CPU time the server process has used so far (user + system, µs). */
  readonly cpuUs: number;
  /** heapUsed after full collections (bytes); 0 unless asked by op "heap". */
  readonly heapBytes: number;
}

export interface Ready {
  readonly ready: true;
  readonly url: string;
}

export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
