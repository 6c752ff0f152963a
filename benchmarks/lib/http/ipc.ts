// The messages between the bench (the HTTP client) and a server process: the bench asks, the
// server answers with its probe's counts and its clock. Times are epoch milliseconds with
// sub-millisecond precision (performance.timeOrigin + performance.now()) of the sender's process.
// Also the plumbing every child process of the bench shares (the load process too, load-remote.ts).
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export type Ask =
  | { readonly id: number; readonly op: "reset" }
  | { readonly id: number; readonly op: "clock" }
  | { readonly id: number; readonly op: "counts" }
  /** heapUsed after full collections, in the answer's heapBytes. */
  | { readonly id: number; readonly op: "heap" }
  /** rss and heapUsed after full collections, in the answer's rssBytes and heapBytes. */
  | { readonly id: number; readonly op: "memory" }
  /** The statuses an edge server has answered so far (edge-servers.ts), in the answer's statuses. */
  | { readonly id: number; readonly op: "statuses" }
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
  /** heapUsed after full collections (bytes); 0 unless asked by op "heap" or "memory". */
  readonly heapBytes: number;
  /** The resident set size after full collections (bytes); 0 unless asked by op "memory". */
  readonly rssBytes: number;
  /** Responses by status ("0": closed unanswered); only from op "statuses", and {} unless the server is an edge one. */
  readonly statuses?: Readonly<Record<string, number>>;
}

export interface Ready {
  readonly ready: true;
  readonly url: string;
}

/** Which client the load process plays: a 2026-07-28 tools/call (client.ts), or a 2025-11-25 one on a session (session-client.ts). */
export type LoadEra = "2026" | "session";

/** What the bench asks the load process (load.ts): connect, run the calls, disconnect. */
export type LoadAsk =
  /** Opens `connections` kept-alive connections to `url` (and a session for each, in the session era); not timed. */
  | { readonly id: number; readonly op: "prepare"; readonly era: LoadEra; readonly url: string; readonly connections: number }
  /** `total` echo calls over the prepared connections, each sending its next once the previous was answered and checked. */
  | { readonly id: number; readonly op: "run"; readonly total: number }
  /** Ends the sessions and closes the connections. */
  | { readonly id: number; readonly op: "finish" };

export interface LoadAnswer {
  readonly id: number;
  /** Wall time of the run (s); 0 for the other ops. */
  readonly seconds: number;
  /** The load process's own CPU time over the run (µs); 0 for the other ops. */
  readonly cpuUs: number;
  /** Why the op failed (a refused call, a dropped connection). */
  readonly error?: string;
}

export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** A message without its id (Omit over each member of a union). */
export type Question<T> = T extends { readonly id: number } ? Omit<T, "id"> : never;

/**
 * Asks over a child process's IPC channel: each question gets the next id, and resolves with the
 * answer that carries it. Answers without a waiting id (a Ready) are left to other listeners.
 */
export function askerOf<Q extends { readonly id: number }, A extends { readonly id: number }>(child: ChildProcess): (question: Question<Q>) => Promise<A> {
  let nextId = 0;
  const waiting = new Map<number, (answer: A) => void>();
  child.on("message", (message) => {
    const answer = message as A;
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  return (question) => {
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      child.send({ ...question, id });
    });
  };
}

/** Forks `entry` (a .ts file beside the bench) under tsx with `args`; `execArgv` goes before the --import. */
export function forkTs(entry: URL, args: readonly string[], execArgv: readonly string[] = []): ChildProcess {
  return fork(fileURLToPath(entry), [...args], { execArgv: [...execArgv, "--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

/** Resolves with the child's first message (its Ready); rejects if it exits first. */
export function firstMessage<T>(child: ChildProcess, name: string): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once("message", (message) => resolve(message as T));
    child.once("exit", (code) => reject(new Error(`the ${name} process exited (${code}) before it was ready`)));
  });
}

/** Disconnects a child (it exits on disconnect) and resolves once it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.disconnect();
  });
}
