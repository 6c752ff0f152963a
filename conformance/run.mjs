#!/usr/bin/env node
/**
 * `npm run conformance`: every referee pinned in conformance/package.json (the official MCP
 * conformance suite, its stable line and its alpha line, each an npm dependency or alias) against
 * examples/everything-server.ts, which serves 2025-03-26 … 2025-11-25 (sessions) and 2026-07-28
 * (stateless) on one URL through the runtime's createEraRouter, and against
 * examples/everything-client.ts as the client under test.
 *
 * 1. Installs conformance/node_modules (npm ci) when it is missing.
 * 2. Asks each referee what it has (plan.mjs: its `list`, `list --requirements R`): the jobs are
 *    server `--suite all`, server `--suite all --spec-version V` per version its server scenarios
 *    list, server `--requirements R` per requirement set it knows, and one client job per client
 *    scenario and version it lists. The authorization-server scenarios are excluded and named.
 * 3. Starts the server once on a free loopback port with this Node (through tsx) and waits for its
 *    "listening on <url>" line, which must say it serves node:http on the native face.
 * 4. Runs the jobs, CONFORMANCE_JOBS at a time (default 4: they mostly wait on sockets), each a
 *    referee CLI on the Node 22 pinned here, writing into its own folder
 *    results/<referee>/<job>/ (cli.log: the CLI's output; a checks.json per scenario).
 * 5. Judges every scenario from its checks.json (judge.mjs): it must have run, with a passed check,
 *    no failed and no skipped check (a skip the referee makes for every implementation,
 *    REFEREE_SKIPS in plan.mjs, is named instead).
 * 6. Prints a line per failing scenario, a summary line per referee and job group, writes
 *    results/summary.json, and exits non-zero unless every scenario of every job passed.
 *
 * CONFORMANCE_PENDING (comma-separated scenario names) reports those scenarios' failures without
 * failing the run: only for a branch whose scenarios wait on another branch's merge. The default
 * is empty, and `npm run conformance` requires every listed scenario.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { ensureInstalled, HERE, NODE22, ROOT } from "./install.mjs";
import { judgeJob, totals } from "./judge.mjs";
import { EXCLUDED_KINDS, plan, REFEREE_SKIPS, referees } from "./plan.mjs";

const RESULTS = join(HERE, "results");
const SERVER_SCRIPT = "examples/everything-server.ts";
/** The generated stubs the server imports, one folder per era it serves. */
const STUBS = ["2025-11-25", "2026-07-28"].map((revision) => join(ROOT, "out", revision, "index.ts"));
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;
const CLIENT_SCRIPT = join(ROOT, "examples", "everything-client.ts");
/** Bound the referee puts on one client run and on one server scenario (its --timeout), in ms. */
const TIMEOUT_MS = 30_000;

/** A positive integer from the environment, or the default; anything else is refused by name. */
function envCount(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 64) throw new RangeError(`${name} must be an integer from 1 to 64, got ${JSON.stringify(text)}`);
  return value;
}

/** Scenario names whose failure is reported, not counted (see the header). */
const PENDING = new Set(
  (process.env["CONFORMANCE_PENDING"] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== ""),
);

const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const rel = (path) => relative(process.cwd(), path) || ".";

/** Children to stop however this script ends. */
const children = new Set();
/** Set by SIGINT/SIGTERM: the run is being torn down, no summary follows. */
let interrupted = false;

function fail(message) {
  if (interrupted) return; // the signal handler is already stopping everything
  console.error(`conformance: ${message}`);
  stopAll().finally(() => process.exit(1));
}

/** SIGTERM, then SIGKILL after STOP_TIMEOUT_MS; resolves when the child has exited. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

const stopAll = () => Promise.allSettled([...children].map(stop));

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\nconformance: ${signal}, stopping`);
    stopAll().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  });
}

/** A loopback port nobody listens on right now. */
async function freePort() {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address();
  probe.close();
  await once(probe, "close");
  return port;
}

/** Starts the server; resolves with its URL once it printed "listening on <url>". */
async function startServer(port) {
  const log = createWriteStream(join(RESULTS, "server.log"));
  const server = spawn(process.execPath, ["--import", "tsx", SERVER_SCRIPT, "--port", String(port)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(server);
  server.on("exit", () => children.delete(server));
  server.stderr.pipe(log, { end: false });
  const lines = createInterface({ input: server.stdout });
  lines.on("line", (line) => log.write(`${line}\n`));

  let timer;
  try {
    return await Promise.race([
      new Promise((resolve, reject) => {
        lines.on("line", (line) => {
          const url = /^listening on (\S+)/.exec(line)?.[1];
          if (url === undefined) return;
          // Every suite runs against the native node:http face of the runtime's handlers.
          if (!line.includes("node:http native face")) reject(new Error(`the server is not serving node:http on its native face: ${line}`));
          else resolve({ server, url });
        });
      }),
      once(server, "exit").then(([code, signal]) => {
        throw new Error(`the server exited (${code ?? signal}) before listening; see ${rel(join(RESULTS, "server.log"))}:\n${tail(join(RESULTS, "server.log"))}`);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the server did not listen within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function tail(path, count = 20) {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-count).join("\n");
  } catch {
    return "(no log)";
  }
}

/** A POSIX shell word (the referee runs the client command through a shell). */
const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The client under test, examples/everything-client.ts, bundled once per run into one JavaScript
 * file (esbuild, the root's devDependency, with the names kept as tsx keeps them): the same code,
 * without tsx's loader and transforms in each of the ~100 client processes (about 0.5 s of CPU each).
 * Returns the command the referee runs; it appends the URL of its own server.
 */
async function clientCommand() {
  const { build } = await import("esbuild");
  const outfile = join(RESULTS, "everything-client.mjs");
  await build({ entryPoints: [CLIENT_SCRIPT], outfile, bundle: true, platform: "node", format: "esm", target: "node20", keepNames: true, logLevel: "warning" });
  return [process.execPath, outfile].map(shellQuote).join(" ");
}

/** One job: the referee's CLI on Node 22, its output into <folder>/cli.log; resolves with its exit code. */
async function runJob(referee, job, url, command) {
  const folder = join(RESULTS, referee.version, job.folder);
  mkdirSync(folder, { recursive: true });
  const args =
    job.kind === "server"
      ? [referee.entry, "server", "--url", url, ...job.args]
      : [referee.entry, "client", "--command", command, ...job.args, "--timeout", String(TIMEOUT_MS)];
  args.push("--output-dir", folder);
  const log = createWriteStream(join(folder, "cli.log"));
  const cli = spawn(NODE22, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.add(cli);
  cli.stdout.pipe(log, { end: false });
  cli.stderr.pipe(log, { end: false });
  const [code, signal] = await once(cli, "exit");
  children.delete(cli);
  await new Promise((resolve) => log.end(resolve));
  return { folder, code: code ?? (signal === null ? 1 : 128) };
}

/** Runs `tasks` (functions returning promises) `limit` at a time, in order of start; resolves with their results. */
async function pool(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length && !interrupted) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** "N/M scenarios, a passed, b failed, c skipped checks" (+ pending). */
function describe(t) {
  const pending = t.pending > 0 ? `, ${t.pending} pending (CONFORMANCE_PENDING)` : "";
  const excused = [t.named > 0 ? `${t.named} named in REFEREE_SKIPS` : "", t.ofPending > 0 ? `${t.ofPending} of pending scenarios` : ""].filter((x) => x !== "");
  return `${t.scenariosPassed}/${t.scenarios} scenarios passed${pending}; ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped checks${excused.length > 0 ? ` (of the failed and skipped: ${excused.join(", ")})` : ""}`;
}

/** The summary groups of one referee's verdicts: each server job alone, the client jobs per version. */
function groups(verdicts) {
  const found = new Map();
  for (const verdict of verdicts) {
    const key = verdict.job.kind === "server" ? verdict.job.title : `client scenarios (${verdict.job.version})`;
    if (!found.has(key)) found.set(key, []);
    found.get(key).push(verdict);
  }
  return [...found].map(([title, list]) => ({ title, ok: list.every((v) => v.ok), ...totals(list.flatMap((v) => v.scenarios)) }));
}

/** The lines of one verdict worth printing: a failing scenario, a pending one, a nonzero exit. */
function problemLines(referee, verdict) {
  const lines = [];
  for (const s of verdict.scenarios) {
    if (s.problems.length === 0) continue;
    const tag = s.pending ? "pending" : "✗";
    lines.push(`  ${tag} ${referee.version} ${verdict.job.title}: ${s.name}: ${s.problems.slice(0, 4).join("; ")}${s.problems.length > 4 ? ` (+${s.problems.length - 4} more)` : ""}`);
  }
  const failing = verdict.scenarios.some((s) => !s.ok);
  if (verdict.code !== 0 && !failing && !verdict.ok) lines.push(`  ✗ ${referee.version} ${verdict.job.title}: the referee exited ${verdict.code}`);
  if (!verdict.ok || lines.length > 0) lines.push(`    see ${rel(join(RESULTS, referee.version, verdict.job.folder))}/cli.log`);
  return lines;
}

async function main() {
  const missing = STUBS.filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(`${missing.map(rel).join(", ")} missing: run \`npm run generate\` first (the server imports the generated stubs)`);
  }
  const limit = envCount("CONFORMANCE_JOBS", 4);
  ensureInstalled();
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });
  // The referees are asked what they have while the server starts and the client is bundled.
  const planned = Promise.all(referees().map(async (referee) => ({ referee, ...(await plan(referee)) })));
  const [plans, command, { server, url }] = await Promise.all([planned, clientCommand(), startServer(await freePort())]);
  let serverDied = false;
  server.once("exit", () => (serverDied = true));
  console.log(`conformance: server on Node ${process.version} at ${url}, ready after ${seconds()}; referees on Node 22, ${limit} jobs at a time`);
  for (const { referee, jobs, excluded, counts } of plans) {
    const servers = jobs.filter((j) => j.kind === "server").length;
    console.log(`conformance: ${referee.version}: ${counts.server} server and ${counts.client} client scenarios listed; ${servers} server runs, ${jobs.length - servers} client runs`);
    for (const kind of new Set(excluded.map((s) => s.kind))) {
      console.log(`  excluded: ${excluded.filter((s) => s.kind === kind).map((s) => s.name).join(", ")}: ${EXCLUDED_KINDS[kind]}`);
    }
  }
  if (PENDING.size > 0) console.log(`conformance: CONFORMANCE_PENDING: ${[...PENDING].join(", ")} (reported, not counted)`);

  // Server jobs first (the longest: a whole suite each), then the client ones; one queue for all.
  const queue = plans.flatMap(({ referee, jobs }) => jobs.map((job) => ({ referee, job })));
  queue.sort((a, b) => (a.job.kind === b.job.kind ? 0 : a.job.kind === "server" ? -1 : 1));
  const results = await pool(
    queue.map(({ referee, job }) => async () => {
      const begun = Date.now();
      const { folder, code } = await runJob(referee, job, url, command);
      const verdict = { ...judgeJob(referee.version, job, folder, code, PENDING), ms: Date.now() - begun };
      for (const line of problemLines(referee, verdict)) console.log(line);
      return { referee, verdict };
    }),
    limit,
  );
  if (interrupted) return;
  const diedDuringRun = serverDied;
  await stop(server);
  if (diedDuringRun) console.error(`conformance: the server exited during the run; last lines of server.log:\n${tail(join(RESULTS, "server.log"))}`);

  console.log("");
  const summary = [];
  for (const { referee } of plans) {
    const mine = results.filter((r) => r.referee === referee).map((r) => r.verdict);
    const list = groups(mine);
    summary.push({ referee: referee.version, groups: list, ...totals(mine.flatMap((v) => v.scenarios)) });
    for (const group of list) console.log(`conformance: ${referee.version} ${group.title}: ${group.ok ? "PASSED" : "FAILED"}: ${describe(group)}`);
    const named = REFEREE_SKIPS.filter((s) => s.referee === referee.version);
    for (const skip of named) console.log(`conformance: ${referee.version} ${skip.scenario}: its check ${skip.name ?? skip.check} is ${skip.status === "FAILURE" ? "failed" : "skipped"} by the referee itself, not counted: ${skip.reason}`);
  }
  // Each job's wall time, slowest first: where the run's time goes.
  const timings = results.map(({ referee, verdict }) => ({ referee: referee.version, job: verdict.job.title, ms: verdict.ms, ok: verdict.ok })).sort((a, b) => b.ms - a.ms);
  writeFileSync(join(RESULTS, "summary.json"), `${JSON.stringify({ referees: summary, timings }, null, 2)}\n`);
  const busy = timings.reduce((sum, t) => sum + t.ms, 0) / 1000;
  console.log(`conformance: ${timings.length} referee runs took ${busy.toFixed(1)} s together; slowest: ${timings.slice(0, 3).map((t) => `${t.referee} ${t.job} ${(t.ms / 1000).toFixed(1)} s`).join(", ")}`);
  const verdicts = results.map((r) => r.verdict);
  const ok = !diedDuringRun && verdicts.length === queue.length && verdicts.every((v) => v.ok);
  const failed = verdicts.filter((v) => !v.ok).length;
  console.log(`conformance: ${ok ? "PASSED" : "FAILED"}: ${verdicts.length - failed}/${queue.length} runs passed (${summary.map((s) => `${s.referee}: ${describe(s)}`).join("; ")}) in ${seconds()}; results in ${rel(RESULTS)}/`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
