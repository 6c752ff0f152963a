// The client side of stdio that starts its server (Transports, stdio: "The client launches the
// MCP server as a subprocess"): spawns the command, speaks newline-delimited JSON on its
// stdin/stdout through StdioTransport, and ends it as the spec's shutdown says (Lifecycle,
// Shutdown, stdio: close the input stream to the child, wait for it to exit, SIGTERM if it does
// not exit within a reasonable time, then SIGKILL if it does not exit within a reasonable time
// after SIGTERM). The server's exit, whether asked for or not, and a failed spawn, close the
// transport; `exit` then tells why.
//
// Node only: node:child_process is loaded when start() runs, and Node's objects are described
// structurally, so this file type-checks without @types/node (the output needs no more than
// lib ES2022 + DOM) and importing it costs nothing until a server is started. Imported from the
// revision folder's stdio-spawn.js, never from index.ts.

import { DEFAULT_MAX_MESSAGE_DEPTH, maxJsonDepthOption } from "../core/json-depth.js";
import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import type { JsonRpcMessage, OutgoingMessage, Transport, TransportSendOptions } from "../core/protocol.js";
import { StdioTransport, type ByteSink, type ByteSource } from "./stdio.js";

/** The parts of a child's stdin this transport uses. */
export interface SpawnedStdin extends ByteSink {
  end(): unknown;
  destroy(): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** The parts of a child's stdout and stderr this transport uses. */
export interface SpawnedOutput extends ByteSource {
  destroy(): unknown;
}

/** The parts of node:child_process's ChildProcess this transport uses. */
export interface SpawnedProcess {
  readonly pid?: number | undefined;
  readonly stdin: SpawnedStdin | null;
  readonly stdout: SpawnedOutput | null;
  readonly stderr: SpawnedOutput | null;
  once(event: "spawn", listener: () => void): unknown;
  once(event: "exit" | "close", listener: (code: number | null, signal: string | null) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  kill(signal: string): boolean;
}

/** What node:child_process's `spawn` is called with here. */
export interface SpawnOptions {
  readonly cwd?: string | undefined;
  readonly env: Record<string, string>;
  readonly stdio: ["pipe", "pipe", "inherit" | "ignore" | "pipe"];
  readonly shell: false;
  readonly windowsHide: true;
}

/**
 * node:child_process's `spawn`, as far as this transport uses it. It returns a SpawnedProcess;
 * the return type is left open so that Node's own overloaded `spawn` fits as it is.
 */
export type SpawnFunction = (command: string, args: string[], options: SpawnOptions) => unknown;

/** The module name in a variable: a type checker without @types/node does not look it up. */
const CHILD_PROCESS: string = "node:child_process";

/** Node's spawn, loaded on first use. */
async function nodeSpawn(): Promise<SpawnFunction> {
  const loaded: unknown = await import(CHILD_PROCESS);
  if (!isObject(loaded) || typeof loaded["spawn"] !== "function") throw new Error("StdioClientTransport needs node:child_process (Node.js)");
  return loaded["spawn"] as SpawnFunction;
}

/** This process's environment and platform, where there is a `process` (Node). */
function hostProcess(): { env: Readonly<Record<string, string | undefined>>; platform: string } {
  const found: unknown = (globalThis as { process?: unknown }).process;
  if (!isObject(found) || !isObject(found["env"])) return { env: {}, platform: "" };
  return { env: found["env"] as Record<string, string | undefined>, platform: typeof found["platform"] === "string" ? found["platform"] : "" };
}

/** Node: a timer alone does not keep the process alive. */
function unref(timer: unknown): void {
  if (isObject(timer) && typeof timer["unref"] === "function") (timer["unref"] as () => void).call(timer);
}

/**
 * The environment the server starts from, before `env` is laid over it:
 * - "safe" (default): only the variables a program needs to run (PATH, HOME, USER, … on POSIX;
 *   the system folders, APPDATA, TEMP, … on Windows), so the client's secrets (tokens, keys in
 *   its environment) do not leak into a server it did not write;
 * - "inherit": all of this process's environment;
 * - "none": nothing but `env`.
 */
export type StdioBaseEnv = "safe" | "inherit" | "none";

/** What happens to the server's stderr: shown with this process's ("inherit"), dropped, or each line handed to a callback. */
export type StdioStderr = "inherit" | "ignore" | ((line: string) => void);

export interface StdioClientTransportOptions {
  /** The program to run (looked up in `PATH`; no shell: arguments are never reinterpreted). */
  command: string;
  args?: readonly string[] | undefined;
  /** Variables laid over the base environment (`baseEnv`); an undefined value removes one. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Default "safe": see StdioBaseEnv. */
  baseEnv?: StdioBaseEnv | undefined;
  /** Working folder of the server (default: this process's). */
  cwd?: string | undefined;
  /** Default "inherit". A callback gets each line without its line end; user code, guarded. */
  stderr?: StdioStderr | undefined;
  /**
   * The longest stderr line handed to the callback, in bytes (default 16 KiB); the rest of a
   * longer line is dropped, so a server that never writes a newline cannot grow this process.
   */
  maxStderrLineBytes?: number | undefined;
  /** How long `close()` waits for the server to exit after its stdin is closed, before SIGTERM (ms, default 2000; 0: at once). */
  closeGraceMs?: number | undefined;
  /** How long after SIGTERM before SIGKILL (ms, default 2000; 0: at once). */
  killGraceMs?: number | undefined;
  /** StdioTransportOptions.maxMessageBytes for the server's stdout. */
  maxMessageBytes?: number | undefined;
  /** StdioTransportOptions.maxQueuedBytes for the server's stdin. */
  maxQueuedBytes?: number | undefined;
  /** StdioTransportOptions.maxJsonDepth for the server's stdout. */
  maxJsonDepth?: number | undefined;
  /** Starts the process (default: node:child_process's spawn, loaded when start() runs). */
  spawn?: SpawnFunction | undefined;
}

/** Why the transport closed: the server's exit code or signal, or the error that kept it from starting. */
export interface StdioExit {
  /** The exit code; null when a signal ended it or it never started. */
  readonly code: number | null;
  /** The signal that ended it (e.g. "SIGTERM" after close() had to send it); null otherwise. */
  readonly signal: string | null;
  /** The spawn failed (ENOENT: no such command, EACCES, …): no process ran. */
  readonly error?: Error | undefined;
  /** close() asked for the exit (true), or the server exited on its own (false). */
  readonly requested: boolean;
}

/** Default `closeGraceMs` and `killGraceMs`: 2 s each. */
export const DEFAULT_CLOSE_GRACE_MS: number = 2000;
/** Default `maxStderrLineBytes`: 16 KiB. */
export const DEFAULT_MAX_STDERR_LINE_BYTES: number = 16 * 1024;

/** Variables a program needs to run, per platform family ("safe"). */
const SAFE_VARIABLES: Readonly<Record<"posix" | "win32", readonly string[]>> = {
  posix: ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR"],
  win32: [
    "APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT", "PROCESSOR_ARCHITECTURE",
    "PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE", "WINDIR",
  ],
};

/** The "safe" base environment: SAFE_VARIABLES of this platform, from `source` (default process.env). */
export function safeEnvironment(source: Readonly<Record<string, string | undefined>> = hostProcess().env): Record<string, string> {
  const names = SAFE_VARIABLES[hostProcess().platform === "win32" ? "win32" : "posix"];
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    // A value starting with "()" is an exported shell function, not something to pass on.
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return env;
}

const BASE_ENV: Readonly<Record<StdioBaseEnv, () => Record<string, string | undefined>>> = {
  safe: () => safeEnvironment(),
  inherit: () => ({ ...hostProcess().env }),
  none: () => ({}),
};

/** The environment the server gets: the base, then `env` over it (undefined removes). */
function environment(base: StdioBaseEnv, env: Readonly<Record<string, string | undefined>> | undefined): Record<string, string> {
  const merged = { ...BASE_ENV[base](), ...env };
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(merged)) if (value !== undefined) out[name] = value;
  return out;
}

const STDERR_MODES: Readonly<Record<"inherit" | "ignore" | "callback", "inherit" | "ignore" | "pipe">> = {
  inherit: "inherit",
  ignore: "ignore",
  callback: "pipe",
};

const NEWLINE = 0x0a;

/** Splits stderr chunks into lines of at most `max` bytes each (the rest of a longer line is dropped). */
class LineSplitter {
  readonly #max: number;
  readonly #deliver: (line: string) => void;
  readonly #decoder = new TextDecoder();
  #pieces: Uint8Array[] = [];
  #bytes = 0;

  constructor(max: number, deliver: (line: string) => void) {
    this.#max = max;
    this.#deliver = deliver;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      this.#keep(chunk.subarray(start, end));
      if (newline < 0) return;
      this.flush();
      start = newline + 1;
    }
  }

  /** Hands over the line so far (at the end of the stream too: a last line without a newline). */
  flush(): void {
    if (this.#pieces.length === 0) return;
    const line = new Uint8Array(this.#bytes);
    let offset = 0;
    for (const piece of this.#pieces) {
      line.set(piece, offset);
      offset += piece.length;
    }
    this.#pieces = [];
    this.#bytes = 0;
    const text = this.#decoder.decode(line);
    this.#deliver(text.endsWith("\r") ? text.slice(0, -1) : text);
  }

  /** Keeps bytes of the current line up to the bound (a copy: the chunk's buffer may be reused). */
  #keep(bytes: Uint8Array): void {
    const room = this.#max - this.#bytes;
    if (room <= 0 || bytes.length === 0) return;
    const kept = bytes.length > room ? bytes.subarray(0, room) : bytes;
    this.#pieces.push(new Uint8Array(kept));
    this.#bytes += kept.length;
  }
}

type Phase = "new" | "starting" | "open" | "closing" | "closed";

/**
 * A client transport that runs its server as a child process. `start()` spawns it (and rejects
 * when the spawn fails); `close()` shuts it down; either way, once the process is gone, `exit`
 * is set and `onclose` runs once.
 */
export class StdioClientTransport implements Transport {
  readonly #options: StdioClientTransportOptions;
  readonly #closeGraceMs: number;
  readonly #killGraceMs: number;
  readonly #maxStderrLineBytes: number;
  #phase: Phase = "new";
  #child: SpawnedProcess | undefined;
  #stdio: StdioTransport | undefined;
  #spawned = false;
  #requested = false;
  /** start()'s promise: a close() meanwhile waits for it. */
  #starting: Promise<void> | undefined;
  #exit: StdioExit | undefined;
  readonly #exited: Promise<void>;
  #markExited: () => void = () => {};
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;

  constructor(options: StdioClientTransportOptions) {
    if (typeof options.command !== "string" || options.command === "") throw new TypeError("StdioClientTransport: command must be a non-empty string");
    const stderr = options.stderr ?? "inherit";
    if (typeof stderr !== "function" && stderr !== "inherit" && stderr !== "ignore") {
      throw new TypeError(`StdioClientTransport: stderr must be "inherit", "ignore" or a function, got ${JSON.stringify(stderr)}`);
    }
    const baseEnv = options.baseEnv ?? "safe";
    if (!Object.hasOwn(BASE_ENV, baseEnv)) throw new TypeError(`StdioClientTransport: baseEnv must be "safe", "inherit" or "none", got ${JSON.stringify(baseEnv)}`);
    this.#options = options;
    this.#closeGraceMs = numberOption("closeGraceMs", options.closeGraceMs, DEFAULT_CLOSE_GRACE_MS, { min: 0 });
    this.#killGraceMs = numberOption("killGraceMs", options.killGraceMs, DEFAULT_CLOSE_GRACE_MS, { min: 0 });
    this.#maxStderrLineBytes = numberOption("maxStderrLineBytes", options.maxStderrLineBytes, DEFAULT_MAX_STDERR_LINE_BYTES, { min: 1 });
    // StdioTransport's bounds, checked now rather than at start() (with its rule): a bad value is
    // the caller's mistake, found where it is made.
    numberOption("maxMessageBytes", options.maxMessageBytes, 1, { min: 1 });
    numberOption("maxQueuedBytes", options.maxQueuedBytes, 1, { min: 1 });
    maxJsonDepthOption(options.maxJsonDepth, DEFAULT_MAX_MESSAGE_DEPTH);
    this.#exited = new Promise((resolve) => (this.#markExited = resolve));
  }

  /** The server's process id, once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Why the transport closed; undefined while the server runs (or before start). */
  get exit(): StdioExit | undefined {
    return this.#exit;
  }

  /** Spawns the server; resolves once it runs, rejects when it cannot be started (the transport is then closed). */
  start(): Promise<void> {
    if (this.#phase !== "new") return Promise.reject(new Error("StdioClientTransport: already started"));
    this.#phase = "starting";
    this.#starting = this.#spawn();
    return this.#starting;
  }

  async #spawn(): Promise<void> {
    const o = this.#options;
    const stderr = o.stderr ?? "inherit";
    let child: SpawnedProcess;
    try {
      const spawn = o.spawn ?? (await nodeSpawn());
      child = spawn(o.command, [...(o.args ?? [])], {
        cwd: o.cwd,
        env: environment(o.baseEnv ?? "safe", o.env),
        stdio: ["pipe", "pipe", STDERR_MODES[typeof stderr === "function" ? "callback" : stderr]],
        shell: false,
        windowsHide: true,
      }) as SpawnedProcess;
    } catch (error) {
      // Synchronous refusals (a NUL byte in an argument, a cwd that is not a string).
      const failure = error instanceof Error ? error : new Error(String(error));
      this.#finish({ code: null, signal: null, error: failure, requested: false });
      throw failure;
    }
    this.#child = child;
    return new Promise<void>((resolve, reject) => {
      child.once("spawn", () => {
        this.#spawned = true;
        if (this.#phase === "starting") this.#phase = "open";
        resolve(); // a close() called meanwhile is under way
      });
      // Node emits "error" for a spawn that failed (then no "exit"), a kill that failed, or a
      // message that could not be sent: only the first ends a transport that never ran.
      child.on("error", (error) => {
        if (!this.#spawned) {
          const failure = new Error(`cannot start ${JSON.stringify(o.command)}: ${error.message}`, { cause: error });
          this.#finish({ code: null, signal: null, error: failure, requested: false });
          reject(failure);
          return;
        }
        this.#report(error);
      });
      // "close": the process exited and its stdio streams ended. A grandchild keeping the pipes
      // open would hold it back: "exit" then ends the wait for it after killGraceMs.
      child.once("close", (code, signal) => this.#processGone(code, signal));
      child.once("exit", () => {
        const timer = setTimeout(() => {
          child.stdout?.destroy();
          child.stdin?.destroy();
          child.stderr?.destroy();
        }, this.#killGraceMs);
        unref(timer);
        void this.#exited.then(() => clearTimeout(timer));
      });
      // A pipe that fails (EPIPE once the server is gone) must not crash this process.
      child.stdin?.on("error", (error) => this.#report(error));
      if (typeof stderr === "function" && child.stderr) this.#readStderr(child.stderr, stderr);
      if (child.stdout === null || child.stdin === null) return; // not with stdio "pipe"
      const stdio = new StdioTransport({
        input: child.stdout,
        output: child.stdin,
        maxMessageBytes: o.maxMessageBytes,
        maxQueuedBytes: o.maxQueuedBytes,
        maxJsonDepth: o.maxJsonDepth,
      });
      stdio.onmessage = (message) => this.onmessage?.(message);
      stdio.onerror = (error) => this.#report(error);
      // The server closed its stdout: nothing more can arrive, so it is shut down like a close().
      stdio.onclose = () => void this.#shutDown(false);
      this.#stdio = stdio;
      void stdio.start();
    });
  }

  send(message: OutgoingMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#phase !== "open" || this.#stdio === undefined) return Promise.reject(new Error(`transport ${this.#phase === "closed" || this.#phase === "closing" ? "closed" : "not started"}`));
    return this.#stdio.send(message, options);
  }

  /**
   * Shuts the server down: closes its stdin, waits closeGraceMs for it to exit, sends SIGTERM,
   * waits killGraceMs, sends SIGKILL. Resolves once it has exited (onclose has run then).
   */
  async close(): Promise<void> {
    if (this.#phase === "new") {
      this.#finish({ code: null, signal: null, requested: true });
      return;
    }
    if (this.#phase === "starting") await this.#starting?.catch(() => {});
    await this.#shutDown(true);
  }

  async #shutDown(requested: boolean): Promise<void> {
    const child = this.#child;
    if (child === undefined || this.#phase === "closed") return this.#exited;
    if (this.#phase === "closing") {
      this.#requested ||= requested;
      return this.#exited;
    }
    this.#phase = "closing";
    this.#requested = requested;
    child.stdin?.end();
    const steps: ReadonlyArray<readonly [number, string]> = [
      [this.#closeGraceMs, "SIGTERM"],
      [this.#killGraceMs, "SIGKILL"],
    ];
    for (const [waitMs, signal] of steps) {
      if (await this.#exitsWithin(waitMs)) return;
      try {
        child.kill(signal);
      } catch (error) {
        this.#report(error);
      }
    }
    await this.#exited;
  }

  /** Whether the process exits within `ms` (at once when it already has). */
  #exitsWithin(ms: number): Promise<boolean> {
    if (this.#exit !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.#exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  #processGone(code: number | null, signal: string | null): void {
    if (this.#phase === "closed") return; // a failed spawn, already reported
    const requested = this.#requested;
    if (!requested && (code !== 0 || signal !== null)) {
      this.#report(new Error(`the server process exited ${signal === null ? `with code ${code}` : `on ${signal}`}`));
    }
    this.#finish({ code, signal, requested });
  }

  /** Closed for good: `exit` set, the stdio reader stopped, onclose called once. */
  #finish(exit: StdioExit): void {
    if (this.#phase === "closed") return;
    this.#phase = "closed";
    this.#exit = exit;
    const stdio = this.#stdio;
    this.#stdio = undefined;
    if (stdio !== undefined) {
      stdio.onclose = undefined;
      void stdio.close();
    }
    this.#markExited();
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  }

  #readStderr(stream: SpawnedOutput, callback: (line: string) => void): void {
    const lines = new LineSplitter(this.#maxStderrLineBytes, (line) => {
      try {
        callback(line);
      } catch (error) {
        this.#report(error);
      }
    });
    stream.on("data", (chunk: Uint8Array | string) => lines.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk));
    stream.on("end", () => lines.flush());
    stream.on("error", (error) => this.#report(error));
  }

  /** onerror is user code: it must not break the transport. */
  #report(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Nowhere left to report it.
    }
  }
}
