// Generation speed: wall time of the CLI per revision (fresh process each, as a build runs it),
// all six revisions in one process, and warm in-process times. Prints a Markdown table.
// Targets (generator-core issue): all six under 3 s, one revision under 1 s, on 2 cores.
// Run with `npm run bench:generate` (it builds first).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { generate, pullSchemas, listSchemas } = await import(join(root, "dist/generator/index.js"));
const cli = join(root, "dist/generator/cli/main.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

// Use the package cache when it is full; else fill a temporary one from ../shared or upstream.
let cacheDir = join(root, ".mcp-stubgen", "schema");
if (listSchemas({ cacheDir }).some((r) => r.state !== "cached")) {
  cacheDir = mkdtempSync(join(tmpdir(), "mcp-stubgen-bench-cache-"));
  const shared = join(root, "..", "shared", "mcp-schema");
  await pullSchemas([], { cacheDir, from: existsSync(shared) ? shared : undefined });
}
const revisions = listSchemas({ cacheDir }).map((r) => r.id);
const out = mkdtempSync(join(tmpdir(), "mcp-stubgen-bench-out-"));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const cliRun = (args) => execFileSync(process.execPath, [cli, "generate", ...args, "--out", out, "--cache", cacheDir], { stdio: "pipe" });

const rows = [];
for (const rev of revisions) {
  rows.push([`CLI, one revision: ${rev}`, median(Array.from({ length: RUNS }, () => time(() => cliRun(["-r", rev])))), 1000]);
}
rows.push(["CLI, all six in one process (--all)", median(Array.from({ length: RUNS }, () => time(() => cliRun(["--all"])))), 3000]);

// Warm, in-process (a build script calling generate() repeatedly).
await generate({ all: true, out, cacheDir });
for (const rev of revisions) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await generate({ revisions: [rev], out, cacheDir });
    samples.push(performance.now() - t0);
  }
  rows.push([`generate() warm, in process: ${rev}`, median(samples), 1000]);
}
rmSync(out, { recursive: true, force: true });

console.log(`mcp-stubgen generate benchmark: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, median of ${RUNS} runs\n`);
console.log("| case | wall ms | target ms | within target |");
console.log("|---|---:|---:|---|");
for (const [name, ms, target] of rows) console.log(`| ${name} | ${ms.toFixed(0)} | ${target} | ${ms < target ? "yes" : "NO"} |`);
