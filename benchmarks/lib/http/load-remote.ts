// The bench's handle on the load process (load.ts): start it, have it connect to a server, run
// calls, disconnect.
import type { ChildProcess } from "node:child_process";
import { askerOf, firstMessage, forkTs, stopChild, type LoadAnswer, type LoadAsk, type LoadEra, type Question } from "./ipc.js";

export interface LoadRun {
  /** Wall time of the calls (s), on the load process's clock. */
  readonly seconds: number;
  /** The load process's CPU time over them (µs). */
  readonly cpuUs: number;
}

export class LoadProcess {
  readonly #ask: (question: Question<LoadAsk>) => Promise<LoadAnswer>;

  private constructor(readonly child: ChildProcess) {
    this.#ask = askerOf<LoadAsk, LoadAnswer>(child);
  }

  static async start(): Promise<LoadProcess> {
    const child = forkTs(new URL("./load.ts", import.meta.url), []);
    await firstMessage(child, "load");
    return new LoadProcess(child);
  }

  async #do(question: Question<LoadAsk>): Promise<LoadAnswer> {
    const answer = await this.#ask(question);
    if (answer.error !== undefined) throw new Error(`load process, ${question.op}: ${answer.error}`);
    return answer;
  }

  /** Opens `connections` kept-alive connections to `url` (a session each in the session era). */
  async prepare(era: LoadEra, url: string, connections: number): Promise<void> {
    await this.#do({ op: "prepare", era, url, connections });
  }

  /** `total` echo calls over the prepared connections. */
  async run(total: number): Promise<LoadRun> {
    const { seconds, cpuUs } = await this.#do({ op: "run", total });
    return { seconds, cpuUs };
  }

  /** Ends the sessions and closes the connections. */
  async finish(): Promise<void> {
    await this.#do({ op: "finish" });
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}
