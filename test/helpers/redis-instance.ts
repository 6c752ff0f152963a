/**
 * Instances of test/helpers/redis-instance/server.ts as child processes (one process each, as
 * behind a real load balancer), and the lines they print about the work they run.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { waitFor } from "./async.js";

export interface RedisInstance {
  readonly name: string;
  /** The face its HTTP handlers are served on (test/helpers/faces.ts). */
  readonly face: "native" | "web";
  /** The origin, e.g. http://127.0.0.1:PORT (paths /mcp and /mcp-2025). */
  readonly origin: string;
  /** Every line it printed so far. */
  readonly lines: readonly string[];
  /** Waits for a printed line that matches. */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM (a graceful stop) or SIGKILL (a crash), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts instance `name` with its HTTP handlers on `face`. */
export async function startRedisInstance(name: string, face: "native" | "web", redisUrl: string, stateKey: string): Promise<RedisInstance> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "test/helpers/redis-instance/server.ts", "--name", name, "--face", face, "--redis", redisUrl, "--state-key", stateKey], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => lines.push(line));
  const exited = once(child, "exit");
  const listening = await Promise.race([
    waitFor(`instance ${name} listening`, () => lines.find((l) => l.startsWith("listening on ")), 20_000),
    exited.then(([code]) => Promise.reject(new Error(`instance ${name} exited with ${String(code)}: ${lines.join("\n")}`))),
  ]);
  return {
    name,
    face,
    origin: listening.slice("listening on ".length),
    lines,
    line: (pattern, timeoutMs = 5000) => waitFor(`instance ${name}: a line matching ${String(pattern)}`, () => lines.find((l) => pattern.test(l)), timeoutMs, () => lines.join("\n")),
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}
