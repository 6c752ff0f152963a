// The bench's handle on a server process (child.ts): start it, ask its probe, read its clock.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { epochNow, type Answer, type Ask, type Ready } from "./ipc.js";
import type { ServerKey } from "./servers.js";

/** An Ask without its id (Omit over each member of the union). */
type Question<T = Ask> = T extends Ask ? Omit<T, "id"> : never;

export interface AbortReport {
  /** Handlers that saw their abort. */
  readonly aborted: number;
  /** When the last one did, on the bench's clock (epoch ms; 0: none did). */
  readonly lastAbortAt: number;
  /** The server process's CPU time so far (µs), when it answered. */
  readonly cpuUs: number;
}

export class RemoteServer {
  #nextId = 0;
  readonly #waiting = new Map<number, (answer: Answer) => void>();
  /** The server's clock minus the bench's (ms), from the fastest of a few round trips. */
  #offset = 0;

  private constructor(
    readonly side: ServerKey,
    readonly url: string,
    readonly child: ChildProcess,
  ) {
    child.on("message", (message) => {
      const answer = message as Answer;
      this.#waiting.get(answer.id)?.(answer);
      this.#waiting.delete(answer.id);
    });
  }

  static async start(side: ServerKey): Promise<RemoteServer> {
    const entry = fileURLToPath(new URL("./child.ts", import.meta.url));
    // BENCH_CPU_PROF=<dir>: each server process writes CPU profiles to <dir>/<side>/ when it exits (the largest is its main thread) (docs/benchmarks.md, Profiles).
    const profile = process.env["BENCH_CPU_PROF"];
    const execArgv = ["--expose-gc", ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}/${side}`] : []), "--import", "tsx"];
    const child = fork(entry, [side], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const url = await new Promise<string>((resolve, reject) => {
      child.once("message", (message) => resolve((message as Ready).url));
      child.once("exit", (code) => reject(new Error(`the ${side} server process exited (${code}) before it listened`)));
    });
    const remote = new RemoteServer(side, url, child);
    await remote.#calibrate();
    return remote;
  }

  #ask(question: Question): Promise<Answer> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.child.send({ ...question, id });
    });
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

  async reset(): Promise<void> {
    await this.#ask({ op: "reset" });
  }

  /** Once n handlers saw their abort, or after timeoutMs. */
  async untilAborted(n: number, timeoutMs: number): Promise<AbortReport> {
    const { aborted, lastAbortAt, cpuUs } = await this.#ask({ op: "untilAborted", n, timeoutMs });
    return { aborted, lastAbortAt: lastAbortAt === 0 ? 0 : lastAbortAt - this.#offset, cpuUs };
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once("exit", () => resolve());
      this.child.disconnect();
    });
  }
}
