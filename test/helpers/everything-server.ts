/**
 * The everything-server (examples/everything-server.ts) as a child process on a free loopback
 * port, for the tests that talk to it over real HTTP. Resolves once it printed its URL; rejects
 * if it exits first.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

export interface RunningEverythingServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp. */
  readonly url: string;
  /** SIGTERM, then waits for the exit (a no-op once it has exited). */
  stop(): Promise<void>;
}

/** `args`: more flags (e.g. `--redis URL --state-key HEX`). */
export async function startEverythingServer(args: readonly string[] = []): Promise<RunningEverythingServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "examples/everything-server.ts", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines = createInterface({ input: child.stdout });
  const url = await Promise.race([
    new Promise<string>((resolve) =>
      lines.on("line", (line) => {
        const found = /^listening on (\S+)/.exec(line)?.[1];
        if (found !== undefined) resolve(found);
      }),
    ),
    once(child, "exit").then(([code]) => Promise.reject(new Error(`everything-server exited with ${String(code)}`))),
  ]);
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
