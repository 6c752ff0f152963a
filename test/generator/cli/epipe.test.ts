/**
 * `mcp-stubgen generate --all | head`: when the reader of stdout goes away (EPIPE), the CLI
 * stops printing quietly (no stack trace) and exits with the code the command would have had.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { CLI, fileList, REVISIONS, tempDirs, TEST_CACHE_DIR } from "./support.js";

const tmp = tempDirs();

/** Runs the CLI with stdout a pipe whose reading end is closed at once. */
function runWithClosedStdout(args: readonly string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("stdout closed by its reader (EPIPE)", () => {
  it("generate --all: exit 0, nothing on stderr, every revision still written", async () => {
    const cwd = tmp();
    const r = await runWithClosedStdout(["generate", "--all", "--out", "OUT", "--cache", TEST_CACHE_DIR], cwd);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const written = new Set(fileList(join(cwd, "OUT")).map((f) => f.split("/")[0]));
    // every-era: the one server of every revision, written beside them (several revisions, shared runtime).
    expect([...written].sort()).toEqual([...REVISIONS, "every-era", "runtime"].sort());
  });

  it("catalog (a long table): exit 0, nothing on stderr", async () => {
    const r = await runWithClosedStdout(["catalog", "--revision", "2025-11-25", "--cache", TEST_CACHE_DIR], tmp());
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  it("generate --check keeps its exit code (1: out of date)", async () => {
    const r = await runWithClosedStdout(["generate", "--revision", "2025-11-25", "--out", "OUT", "--check", "--cache", TEST_CACHE_DIR], tmp());
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
  });
});
