// The bench's handle on a server process (child.ts): start it, ask its probe, read its clock.
import type { ChildProcess } from "node:child_process";
import { askerOf, epochNow, firstMessage, forkTs, stopChild, type Answer, type Ask, type Question, type Ready } from "./ipc.js";
import type { ServerKey } from "./servers.js";

export interface AbortReport {
  /** Handlers that saw their abort. */
  readonly aborted: number;
  /** When the last one did, on the bench's clock (epoch ms; 0: none did). */
  readonly lastAbortAt: number;
  /** The server process's CPU time so far (µs), when it answered. */
  readonly cpuUs: number;
}

export class RemoteServer {
  readonly #ask: (question: Question<Ask>) => Promise<Answer>;
  /** The server's clock minus the bench's (ms), from the fastest of a few round trips. */
  #offset = 0;

  private constructor(
    readonly side: ServerKey,
    readonly url: string,
    readonly child: ChildProcess,
  ) {
    this.#ask = askerOf<Ask, Answer>(child);
  }

  static async start(side: ServerKey): Promise<RemoteServer> {
    // BENCH_CPU_PROF=<dir>: each server process writes CPU profiles to <dir>/<side>/ when it exits (the largest is its main thread) (docs/benchmarks.md, Profiles).
    const profile = process.env["BENCH_CPU_PROF"];
    const execArgv = ["--expose-gc", ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}/${side}`] : [])];
    const child = forkTs(new URL("./child.ts", import.meta.url), [side], execArgv);
    const { url } = await firstMessage<Ready>(child, `${side} server`);
    const remote = new RemoteServer(side, url, child);
    await remote.#calibrate();
    return remote;
  }

  async #calibrate(): Promise<void> {
    let best = Infinity;
    for (let i = 0; i < 20; i++) {
      const sent = epochNow();
      const { now } = await this.#ask({ op: "clock" });
      const back = epochNow();
      if (back - sent < best) {
        best = back - sent;
        this.#offset = now - (sent + back) / 2;
      }
    }
  }

  /** CPU time the server process has used so far (µs). */
  async cpuUs(): Promise<number> {
    return (await this.#ask({ op: "counts" })).cpuUs;
  }

  /** The server's heapUsed after full collections (bytes). */
  async heapBytes(): Promise<number> {
    return (await this.#ask({ op: "heap" })).heapBytes;
  }

  /** The server's rss and heapUsed after full collections (bytes). */
  async memory(): Promise<{ readonly rssBytes: number; readonly heapBytes: number }> {
    const { rssBytes, heapBytes } = await this.#ask({ op: "memory" });
    return { rssBytes, heapBytes };
  }

  /** The statuses an edge server has answered so far, by status ("0": closed unanswered). */
  async statuses(): Promise<Readonly<Record<string, number>>> {
    return (await this.#ask({ op: "statuses" })).statuses ?? {};
  }

  async reset(): Promise<void> {
    await this.#ask({ op: "reset" });
  }

  /** Once n handlers saw their abort, or after timeoutMs. */
  async untilAborted(n: number, timeoutMs: number): Promise<AbortReport> {
    const { aborted, lastAbortAt, cpuUs } = await this.#ask({ op: "untilAborted", n, timeoutMs });
    return { aborted, lastAbortAt: lastAbortAt === 0 ? 0 : lastAbortAt - this.#offset, cpuUs };
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}
