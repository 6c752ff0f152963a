/**
 * A real nginx (Debian's) in front of instances, for the load-balancer tests (issue 44, item 5):
 * the project's own config, examples/deploy/nginx.conf, with its placeholders filled (a prefix of
 * its own under a temporary directory for the pid, the log and the temporary files; a free
 * loopback port; one `server` line per upstream), run in the foreground (`-g 'daemon off;'`), so
 * it needs no root and leaves nothing behind. CI installs the package when the binary is missing
 * (.ci/run); a machine without it fails here with that advice rather than skipping.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./redis-server.js";

export interface Nginx {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** What nginx wrote to its error log so far. */
  errorLog(): string;
  /** Ends nginx (SIGQUIT: a graceful stop, then SIGKILL after 3 s) and removes its directory. */
  stop(): Promise<void>;
}

const BINARY = process.env["NGINX"] ?? (spawnSync("nginx", ["-v"]).error === undefined ? "nginx" : "/usr/sbin/nginx");
export const NGINX_CONFIG = "examples/deploy/nginx.conf";

/** Throws with advice when the binary is not there. */
export function checkNginx(): void {
  const probe = spawnSync(BINARY, ["-v"], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(`${BINARY} not found: the load-balancer tests need a real nginx (Debian: apt-get install nginx; .ci/run installs it)`);
  }
}

/** The shipped config with its placeholders filled (in directives: the comments that name them stay as they are). */
export function renderConfig(prefix: string, listen: string, upstreams: readonly string[]): string {
  const servers = upstreams.map((hostPort) => `server ${hostPort} max_fails=1 fail_timeout=1s;`).join("\n    ");
  const fill = (line: string): string => line.replaceAll("__PREFIX__", prefix).replaceAll("__LISTEN__", listen).replaceAll("__UPSTREAMS__", servers);
  return readFileSync(NGINX_CONFIG, "utf8")
    .split("\n")
    .map((line) => (line.trimStart().startsWith("#") ? line : fill(line)))
    .join("\n");
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Starts nginx round-robin over `upstreams` ("127.0.0.1:PORT" each); the caller stops it. */
export async function startNginx(upstreams: readonly string[]): Promise<Nginx> {
  checkNginx();
  const prefix = mkdtempSync(join(tmpdir(), "mcp-nginx-"));
  // Run as root (a CI container), nginx's workers are `nobody`: they must reach the prefix.
  chmodSync(prefix, 0o755);
  const port = await freePort();
  const config = join(prefix, "nginx.conf");
  writeFileSync(config, renderConfig(prefix, `127.0.0.1:${port}`, upstreams));
  const child: ChildProcess = spawn(BINARY, ["-p", prefix, "-c", config, "-e", join(prefix, "error.log"), "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const errorLog = (): string => {
    try {
      return readFileSync(join(prefix, "error.log"), "utf8");
    } catch {
      return "";
    }
  };
  const deadline = Date.now() + 10_000;
  while (!(await accepting(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      rmSync(prefix, { recursive: true, force: true });
      throw new Error(`nginx did not start on port ${port}: ${stderr}\n${errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    errorLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => child.kill("SIGKILL"), 3_000);
          child.once("exit", () => (clearTimeout(force), resolve()));
          child.kill("SIGQUIT");
        });
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
