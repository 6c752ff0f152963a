/**
 * A real `redis-server` for tests (issue 31: real parts, not mocks): each call starts its own
 * process on a free loopback port, with no persistence (unless asked: `persistent`) and no config file, and `stop()` ends it.
 * `kill()` and `start()` again on the same port are for fault tests (Redis gone mid-run and back).
 * CI installs the Debian package when the binary is missing (.ci/run); a machine without it fails
 * here with that advice rather than skipping.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** Starts the process again on the same port (after `kill`): an empty Redis, unless started `persistent`. */
  start(): Promise<void>;
  /** Ends the process at once (SIGKILL): clients see the connection drop. */
  kill(): Promise<void>;
  /** Ends the process (SIGTERM, then SIGKILL after 2 s) and waits for its exit. Safe to call twice. */
  stop(): Promise<void>;
}

const BINARY = process.env["REDIS_SERVER"] ?? "redis-server";
const READY = /Ready to accept connections/;
const START_TIMEOUT_MS = 10_000;

/** Throws with advice when the binary is not there. */
export function checkRedisServer(): void {
  const probe = spawnSync(BINARY, ["--version"], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(`${BINARY} not found: the Redis tests need a real redis-server (Debian: apt-get install redis-server; .ci/run installs it)`);
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Options of startRedisServer. */
export interface RedisServerOptions {
  /**
   * Keep the data across kill() and start(): an append-only file in a temporary folder, synced
   * at every write (`appendfsync always`), so a SIGKILL loses nothing that was acknowledged. For
   * the fault tests that stop Redis mid-run and check that no stored task is lost. Default: no
   * persistence (a restarted Redis is empty).
   */
  readonly persistent?: boolean;
}

function launch(port: number, dir: string | undefined): Promise<ChildProcess> {
  const persistence = dir === undefined ? ["--save", "", "--appendonly", "no"] : ["--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", dir];
  const args = ["--port", String(port), "--bind", "127.0.0.1", ...persistence, "--daemonize", "no", "--protected-mode", "yes", "--loglevel", "notice"];
  const child = spawn(BINARY, args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => fail(new Error(`redis-server did not start on port ${port} within ${START_TIMEOUT_MS} ms:\n${log}`)), START_TIMEOUT_MS);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      if (log.length < 64_000) log += chunk.toString("utf8");
      if (READY.test(log)) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (log.length < 64_000) log += chunk.toString("utf8");
    });
    child.once("error", (err) => fail(err));
    child.once("exit", (code, signal) => fail(new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${log}`)));
  });
}

function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 2_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

/** Starts a redis-server on a free loopback port; the caller stops it (afterAll). */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  checkRedisServer();
  const port = await freePort();
  const dir = options.persistent === true ? mkdtempSync(join(tmpdir(), "mcp-redis-")) : undefined;
  let child: ChildProcess | undefined = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child !== undefined && child.exitCode === null && child.signalCode === null) return;
      child = await launch(port, dir);
    },
    async kill() {
      if (child !== undefined) await ended(child, "SIGKILL");
    },
    async stop() {
      if (child !== undefined) await ended(child, "SIGTERM");
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
