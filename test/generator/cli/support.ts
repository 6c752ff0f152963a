/**
 * Shared helpers of the end-to-end CLI tests: spawning the built CLI (dist/generator/cli/main.js) in a
 * fresh temporary folder, and snapshots of a folder tree to prove that a failing or checking run
 * left the file system exactly as it was.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { PACKAGE_ROOT } from "../../../generator/project.js";

export { REVISIONS, SHARED_SCHEMAS, TEST_CACHE_DIR, haveSharedSchemas } from "../../helpers/schemas.js";

export const CLI = join(PACKAGE_ROOT, "dist", "generator", "cli", "main.js");
export const CLI_FIXTURES = join(PACKAGE_ROOT, "test", "fixtures", "cli");
export const cliFixture = (name: string): string => join(CLI_FIXTURES, name);

export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }
).version;

interface Manifest {
  readonly revisions: ReadonlyArray<{ readonly id: string; readonly dialect: string; readonly sha256: string }>;
}

export const MANIFEST: Manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, "schema", "revisions.json"), "utf8")) as Manifest;

export function manifestSha256(revision: string): string {
  const info = MANIFEST.revisions.find((r) => r.id === revision);
  if (!info) throw new Error(`no revision ${revision} in schema/revisions.json`);
  return info.sha256;
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node dist/generator/cli/main.js ...args` in `cwd`. Asynchronous (not spawnSync), so a test
 * may serve HTTP from its own process while the CLI downloads from it.
 */
export function runCli(args: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** The lines of a stream's text, without the final newline. */
export const lines = (text: string): string[] => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));

/**
 * Asserts a failed run: exit code 1, nothing on stdout, and exactly one line on stderr, the
 * `mcp-stubgen: error: …` line, which it returns.
 */
export function expectOneErrorLine(result: RunResult): string {
  expect(result.code, `stderr: ${result.stderr}`).toBe(1);
  expect(result.stdout).toBe("");
  const errLines = lines(result.stderr);
  expect(errLines, result.stderr).toHaveLength(1);
  expect(errLines[0]).toMatch(/^mcp-stubgen: error: \S/);
  return errLines[0]!;
}

/**
 * A fresh folder under the OS temp folder for each call, all removed after the file's tests.
 * Call at the top level of a test file.
 */
export function tempDirs(prefix = "stubgen-cli-"): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

export interface Entry {
  readonly type: "file" | "dir" | "symlink";
  readonly size: number;
  readonly mtimeMs: number;
  /** sha256 of a file's bytes. */
  readonly sha256?: string;
}

/**
 * Every entry below `root` (and `root` itself as "."): type, size, mtime and, for files, the
 * sha256 of the contents. Two equal snapshots mean nothing was created, removed or written.
 */
export function snapshot(root: string): Record<string, Entry> {
  const out: Record<string, Entry> = {};
  const visit = (path: string, rel: string) => {
    const st = lstatSync(path);
    if (st.isDirectory()) {
      out[rel] = { type: "dir", size: 0, mtimeMs: st.mtimeMs };
      for (const name of readdirSync(path).sort()) visit(join(path, name), rel === "." ? name : `${rel}/${name}`);
    } else if (st.isSymbolicLink()) {
      out[rel] = { type: "symlink", size: st.size, mtimeMs: st.mtimeMs };
    } else {
      out[rel] = { type: "file", size: st.size, mtimeMs: st.mtimeMs, sha256: createHash("sha256").update(readFileSync(path)).digest("hex") };
    }
  };
  visit(root, ".");
  return out;
}

/** Relative paths of the regular files below `root`, sorted. */
export function fileList(root: string): string[] {
  return Object.entries(snapshot(root))
    .filter(([, e]) => e.type === "file")
    .map(([rel]) => rel)
    .sort();
}

/** Names in `dir` that look like the writer's staging folders (`.<out>.tmp-XXXXXX`) or temp files. */
export function stagingLeftovers(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => /\.tmp-/.test(name)) : [];
}

/** The files of `wrote DIR/ (a.ts, b.ts, …)` lines on stdout, by revision folder. */
export function wroteLines(stdout: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of lines(stdout)) {
    const m = /^wrote (.+)\/ \((.*)\)$/.exec(line);
    if (m) out.set(m[1]!, m[2]!.split(", ").sort());
  }
  return out;
}
