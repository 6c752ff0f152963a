/**
 * The everything-server (examples/everything-server.ts) as a restartable child process on a fixed
 * loopback port, for the drain and load-balancer tests (issue 44): bundled once into plain
 * JavaScript (its packages stay imports, so the bundle lives under node_modules to find them), so
 * an instance restarts in well under a second where tsx would compile the example again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { waitFor } from "./async.js";

const DIR = join("node_modules", ".cache", "mcp-stubgen-test", "everything-instance");
const BUNDLE = join(DIR, "everything-server.mjs");
let bundled: Promise<void> | undefined;

/**
 * The examples find files beside their modules (`new URL("./skills/", import.meta.url)`): in the
 * bundle every module keeps its own file's URL there, not the bundle's.
 */
const MODULE_URLS: Plugin = {
  name: "module-urls",
  setup(b) {
    b.onLoad({ filter: /[\\/]examples[\\/].*\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, "utf8")).replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
      loader: "ts",
    }));
  },
};

/** Bundles examples/everything-server.ts (once per test file). */
export function bundleEverythingServer(): Promise<void> {
  bundled ??= (async () => {
    mkdirSync(DIR, { recursive: true });
    await build({ entryPoints: ["examples/everything-server.ts"], outfile: BUNDLE, bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", logLevel: "error", plugins: [MODULE_URLS] });
  })();
  return bundled;
}

/** One everything-server on a fixed port, stopped with SIGTERM (its drain) and restarted in place. */
export class EverythingInstance {
  readonly port: number;
  readonly #args: readonly string[];
  #child: ChildProcess | undefined;
  /** The exit code of each stop (0: it drained and exited cleanly). */
  readonly exits: (number | null)[] = [];
  /** What it printed (stdout lines, stderr chunks, its exits). */
  readonly lines: string[] = [];

  constructor(port: number, args: readonly string[]) {
    this.port = port;
    this.#args = args;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it; resolves once it listens. */
  async start(): Promise<void> {
    await bundleEverythingServer();
    const child = spawn(process.execPath, [BUNDLE, "--port", String(this.port), ...this.#args], { stdio: ["ignore", "pipe", "pipe"] });
    this.#child = child;
    child.stderr!.on("data", (chunk: Buffer) => this.lines.push(`stderr: ${chunk.toString("utf8").trim()}`));
    child.once("exit", (code, signal) => this.lines.push(`exit ${String(code)} ${String(signal)} at ${new Date().toISOString()}`));
    const lines = createInterface({ input: child.stdout! });
    await Promise.race([
      new Promise<void>((resolve) =>
        lines.on("line", (line) => {
          this.lines.push(line);
          if (line.startsWith("listening on ")) resolve();
        }),
      ),
      once(child, "exit").then(([code]) => Promise.reject(new Error(`instance :${this.port} exited with ${String(code)}: ${this.lines.join("\n")}`))),
    ]);
  }

  /** Sends SIGTERM (the graceful drain) and returns its exit; `exited` resolves with the code. */
  terminate(): Promise<number | null> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child?.exitCode ?? null);
    const exited = once(child, "exit").then(([code]) => {
      this.exits.push(code as number | null);
      return code as number | null;
    });
    child.kill("SIGTERM");
    return exited;
  }

  /** SIGTERM, its exit, then a new process on the same port. */
  async restart(): Promise<void> {
    await this.terminate();
    await this.start();
  }

  /** Waits for a printed line that matches (up to `timeoutMs`). */
  line(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
    return waitFor(`instance :${this.port}: a line matching ${String(pattern)}`, () => this.lines.find((line) => pattern.test(line)), timeoutMs, () => this.lines.join("\n"));
  }
}
