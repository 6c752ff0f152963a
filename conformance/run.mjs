#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite (active server scenarios) against
 * examples/everything-server.ts, the Streamable HTTP server on the generated 2025-11-25 stubs.
 *
 * 1. Installs conformance/node_modules (npm ci) when it is missing.
 * 2. Starts the server on a free loopback port with this Node (the machine's, as every root
 *    script), through tsx, and waits for its "listening on <url>" line.
 * 3. Runs the suite's CLI with the Node 22 pinned in conformance/package.json (only the CLI
 *    uses it), cwd conformance/, so that its results land in conformance/results/.
 * 4. Prints the suite's output and a one-line summary, stops the server (also on an error or a
 *    signal) and exits with the suite's exit code.
 *
 * conformance/results/ holds the last run only: one checks.json per scenario, and server.log.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { ensureInstalled, HERE, NODE22, ROOT, SUITE_PACKAGE } from "./install.mjs";

const RESULTS = join(HERE, "results");
const SERVER_SCRIPT = "examples/everything-server.ts";
const STUBS = join(ROOT, "out", "2025-11-25", "index.ts");
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

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

/** The suite's CLI entry, from its package.json `bin`. */
function suiteEntry() {
  const pkg = JSON.parse(readFileSync(join(SUITE_PACKAGE, "package.json"), "utf8"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.conformance;
  if (typeof bin !== "string") throw new Error(`no "conformance" bin in ${rel(SUITE_PACKAGE)}/package.json`);
  return { entry: join(SUITE_PACKAGE, bin), version: pkg.version };
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
      new Promise((resolve) => {
        lines.on("line", (line) => {
          const url = /^listening on (\S+)/.exec(line)?.[1];
          if (url !== undefined) resolve({ server, url });
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

/** Runs the suite's CLI on Node 22; echoes its output and keeps it for the summary. */
async function runSuite(entry, url) {
  const cli = spawn(NODE22, [entry, "server", "--url", url, "--output-dir", "results"], {
    cwd: HERE,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.add(cli);
  let output = "";
  cli.stdout.on("data", (chunk) => {
    process.stdout.write(chunk);
    output += chunk.toString("utf8");
  });
  const [code, signal] = await once(cli, "exit");
  children.delete(cli);
  return { code: code ?? (signal === null ? 1 : 128), output };
}

/** From the suite's SUMMARY block: "✓ name: 1 passed, 0 failed" per scenario, then "Total: …". */
function summarize(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const scenarios = [...plain.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/gmu)];
  const total = /^Total: (\d+) passed, (\d+) failed$/m.exec(plain);
  if (total === null) return undefined;
  const failedScenarios = scenarios.filter((m) => m[1] === "✗").map((m) => m[2]);
  return { passed: Number(total[1]), failed: Number(total[2]), scenarios: scenarios.length, failedScenarios };
}

async function main() {
  if (!existsSync(STUBS)) {
    throw new Error(`${rel(STUBS)} is missing: run \`npm run generate\` first (the server imports the generated 2025-11-25 stubs)`);
  }
  ensureInstalled();
  const { entry, version } = suiteEntry();
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });

  const { server, url } = await startServer(await freePort());
  let serverDied = false;
  server.once("exit", () => (serverDied = true));
  console.log(`conformance: @modelcontextprotocol/conformance ${version} (Node 22 CLI) against ${url} (server on Node ${process.version}), ready after ${seconds()}`);

  const { code, output } = await runSuite(entry, url);
  if (interrupted) return;
  const diedDuringSuite = serverDied;
  await stop(server);

  const summary = summarize(output);
  const where = `results in ${rel(RESULTS)}/`;
  if (diedDuringSuite) console.error(`conformance: the server exited during the suite; last lines of server.log:\n${tail(join(RESULTS, "server.log"))}`);
  if (summary === undefined) {
    console.log(`\nconformance: FAILED, no summary from the suite (exit ${code}) in ${seconds()}; ${where}`);
  } else {
    const verdict = summary.failed === 0 && code === 0 ? "PASSED" : "FAILED";
    const failing = summary.failedScenarios.length === 0 ? "" : ` (failing: ${summary.failedScenarios.join(", ")})`;
    console.log(
      `\nconformance: ${verdict}: ${summary.passed} passed, ${summary.failed} failed checks; ` +
        `${summary.scenarios - summary.failedScenarios.length}/${summary.scenarios} scenarios passed${failing}; ${seconds()}; ${where}`,
    );
  }
  process.exitCode = code !== 0 ? code : summary === undefined || summary.failed > 0 || diedDuringSuite ? 1 : 0;
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
