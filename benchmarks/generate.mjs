// Generation speed, two tables (Markdown):
// 1. CLI start-up (issue 30): wall time of `--help`, `--version`, `catalog`, `diff` and `generate` of an
//    unchanged revision, each as a ratio to `node -e 1` measured in the same run (fresh process each).
//    Targets: --help and --version under 1.5×, catalog and diff under 3×, unchanged generate under 3×.
// 2. Generation (generator-core issue): the CLI per revision with --force (fresh process each, as a
//    build runs it), all revisions in one process, and warm in-process times.
//    Targets: all six under 3 s, one revision under 1 s, on 2 cores.
// 3. `--emit js` (issue 42): `generate -r REV --force --emit js` as a ratio to the same `generate -r REV
//    --force` (fresh process each, interleaved), the project's emit cache warm (a rerun of an unchanged
//    schema and generator: generator/emit/emit-js-cache.ts) and cold (the cache emptied before each
//    run: TypeScript loaded and the revision's files transformed). Target: warm ≤ 1.5×; cold, no target.
// Run with `npm run bench:generate` (it builds first). BENCH_RUNS sets the samples per case (default 5).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { generate, pullSchemas, listSchemas } = await import(join(root, "dist/generator/index.js"));
const cli = join(root, "dist/generator/cli/main.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 1000) throw new Error(`BENCH_RUNS must be an integer from 1 to 1000, got ${process.env.BENCH_RUNS}`);

// Use the package cache when it is full; else fill a temporary one from ../shared or upstream.
let cacheDir = join(root, ".mcp-stubgen", "schema");
if (listSchemas({ cacheDir, lockfile: false }).some((r) => r.state !== "cached")) {
  cacheDir = mkdtempSync(join(tmpdir(), "mcp-stubgen-bench-cache-"));
  const shared = join(root, "..", "shared", "mcp-schema");
  await pullSchemas([], { cacheDir, lockfile: false, from: existsSync(shared) ? shared : undefined });
}
const revisions = listSchemas({ cacheDir, lockfile: false }).map((r) => r.id);
const out = mkdtempSync(join(tmpdir(), "mcp-stubgen-bench-out-"));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const node = (args) => execFileSync(process.execPath, args, { stdio: "pipe" });
const cliRun = (args) => node([cli, ...args]);

// 1. Start-up, as ratios to `node -e 1`. The cases are interleaved (one sample of each per round) so a
// busy neighbour on the shared cores slows every case alike.
const START_REV = revisions.includes("2025-11-25") ? "2025-11-25" : revisions[0];
const DIFF_TO = revisions.includes("2026-07-28") ? "2026-07-28" : revisions.at(-1);
cliRun(["generate", "-r", START_REV, "--out", out, "--cache", cacheDir]); // the run the unchanged one repeats
const startCases = [
  ["node -e 1", ["-e", "1"], undefined],
  ["--help", [cli, "--help"], 1.5],
  ["--version", [cli, "--version"], 1.5],
  [`catalog --revision ${START_REV}`, [cli, "catalog", "--revision", START_REV, "--cache", cacheDir], 3],
  [`diff --from ${START_REV} --to ${DIFF_TO}`, [cli, "diff", "--from", START_REV, "--to", DIFF_TO, "--cache", cacheDir], 3],
  [`generate -r ${START_REV}, unchanged`, [cli, "generate", "-r", START_REV, "--out", out, "--cache", cacheDir], 3],
];
const startSamples = startCases.map(() => []);
for (const [, args] of startCases) node(args); // warm the file cache
for (let i = 0; i < RUNS; i++) startCases.forEach(([, args], c) => startSamples[c].push(time(() => node(args))));
const base = median(startSamples[0]);

// 2. Generation.
const rows = [];
for (const rev of revisions) {
  rows.push([`CLI, one revision: ${rev}`, median(Array.from({ length: RUNS }, () => time(() => cliRun(["generate", "-r", rev, "--out", out, "--cache", cacheDir, "--force"])))), 1000]);
}
rows.push([
  "CLI, all revisions in one process (--all)",
  median(Array.from({ length: RUNS }, () => time(() => cliRun(["generate", "--all", "--out", out, "--cache", cacheDir, "--force"])))),
  3000,
]);

// 3. --emit js against plain generate, the same revision, one sample of each per round.
const EMIT_REV = DIFF_TO;
const emitCache = mkdtempSync(join(tmpdir(), "mcp-stubgen-bench-emit-cache-"));
cpSync(cacheDir, emitCache, { recursive: true }); // the schemas, in a cache folder of its own whose .emit-js/ this part empties
const emitJsDir = join(emitCache, ".emit-js");
const plainArgs = ["generate", "-r", EMIT_REV, "--out", out, "--cache", emitCache, "--force"];
const jsArgs = [...plainArgs.slice(0, 3), "--out", `${out}-js`, "--cache", emitCache, "--force", "--emit", "js"];
cliRun(plainArgs);
cliRun(jsArgs); // fills the emit cache
const emitSamples = { plain: [], warm: [], cold: [] };
for (let i = 0; i < RUNS; i++) {
  emitSamples.plain.push(time(() => cliRun(plainArgs)));
  emitSamples.warm.push(time(() => cliRun(jsArgs)));
  rmSync(emitJsDir, { recursive: true, force: true });
  emitSamples.cold.push(time(() => cliRun(jsArgs)));
}
rmSync(emitCache, { recursive: true, force: true });
rmSync(`${out}-js`, { recursive: true, force: true });
const emitPlain = median(emitSamples.plain);

// Warm, in-process (a build script calling generate() repeatedly).
await generate({ all: true, out, cacheDir, lockfile: false, force: true });
for (const rev of revisions) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await generate({ revisions: [rev], out, cacheDir, lockfile: false, force: true });
    samples.push(performance.now() - t0);
  }
  rows.push([`generate() warm, in process: ${rev}`, median(samples), 1000]);
}
rmSync(out, { recursive: true, force: true });

console.log(`mcp-stubgen generate benchmark: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, median of ${RUNS} runs\n`);
console.log("CLI start-up (direct `node` on the bin), as ratios to `node -e 1` in this run:\n");
console.log("| command | wall ms | ratio to node -e 1 | target | within target |");
console.log("|---|---:|---:|---:|---|");
startCases.forEach(([name, , target], c) => {
  const ms = median(startSamples[c]);
  const ratio = ms / base;
  console.log(`| ${name} | ${ms.toFixed(0)} | ${ratio.toFixed(2)}× | ${target === undefined ? "-" : `< ${target}×`} | ${target === undefined ? "-" : ratio < target ? "yes" : "NO"} |`);
});
console.log("\nGeneration (--force: every run renders and compares):\n");
console.log("| case | wall ms | target ms | within target |");
console.log("|---|---:|---:|---|");
for (const [name, ms, target] of rows) console.log(`| ${name} | ${ms.toFixed(0)} | ${target} | ${ms < target ? "yes" : "NO"} |`);
console.log(`\n--emit js against plain generate (-r ${EMIT_REV} --force, fresh process each, interleaved):\n`);
console.log("| case | wall ms | ratio to plain generate | target | within target |");
console.log("|---|---:|---:|---:|---|");
console.log(`| generate -r ${EMIT_REV} --force | ${emitPlain.toFixed(0)} | 1.00× | - | - |`);
for (const [name, samples, target] of [
  ["generate --emit js --force, emit cache warm", emitSamples.warm, 1.5],
  ["generate --emit js --force, emit cache cold (TypeScript loaded)", emitSamples.cold, undefined],
]) {
  const ms = median(samples);
  const ratio = ms / emitPlain;
  console.log(`| ${name} | ${ms.toFixed(0)} | ${ratio.toFixed(2)}× | ${target === undefined ? "-" : `≤ ${target}×`} | ${target === undefined ? "-" : ratio <= target ? "yes" : "NO"} |`);
}
