#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite against examples/everything-server.ts,
 * which serves 2025-03-26 … 2025-11-25 (sessions) and 2026-07-28 (stateless) on one URL through
 * the runtime's createEraRouter. Four runs against one server:
 *
 *   (a) the server active suite at its default versions (2025-11-25 sessions);
 *   (b) `--requirements 2026-07-28`, the revision's frozen requirement set, with no failure
 *       expected (the Tasks extension's scenarios included: the server implements it);
 *   (c), (d) the active suite pinned with `--spec-version 2025-06-18` and `2025-03-26` (the
 *       scenarios the suite has for those revisions; sessions negotiated on that version).
 *
 * 1. Installs conformance/node_modules (npm ci) when it is missing.
 * 2. Starts the server on a free loopback port with this Node (the machine's, as every root
 *    script), through tsx, and waits for its "listening on <url>" line, which must say it serves
 *    node:http on the native face (toNodeListener of the router's core, no web Request per
 *    request): every server suite runs against that face.
 * 3. Runs the suite's CLI for each run with the Node 22 pinned in conformance/package.json (only
 *    the CLI uses it), each writing into its own folder under conformance/results/.
 * 4. Prints the suite's output and stops the server (also on an error or a signal).
 *
 * A run passes when the suite exits 0 and its SUMMARY shows no failing scenario except those of
 * its expected-failures file, if it has one (none does today). That is stricter than the suite
 * in (b): `--requirements` leaves the pending and extension scenarios unscored, and this runner
 * counts them (a failure there fails the run). A listed scenario that passes is a stale entry
 * and fails the run too.
 *
 * 5. Then the client scenarios (CLIENT_SCENARIOS, the `auth/*` ones included), once each, with examples/everything-client.ts
 *    as the client under test: `client --command "<node> --import tsx everything-client.ts"
 *    --scenario NAME [--spec-version V]`; the suite starts its own server per scenario, appends
 *    its URL to the command and sets MCP_CONFORMANCE_SCENARIO / _PROTOCOL_VERSION / _CONTEXT.
 *    A scenario passes when the CLI exits 0 and its checks.json holds checks, none a FAILURE;
 *    no client failure is expected (no baseline file), so any failed check fails the run.
 * 6. Prints one summary line per run (the client scenarios count as one) and a final verdict,
 *    and exits non-zero unless every run passes.
 *
 * conformance/results/ holds the last run only: one folder per suite run (a checks.json per
 * scenario), client-<version>/ per client era, and server.log.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { basename, dirname, join, relative } from "node:path";
import { createInterface } from "node:readline";
import { ensureInstalled, HERE, NODE22, ROOT, SUITE_PACKAGE } from "./install.mjs";

const RESULTS = join(HERE, "results");
const SERVER_SCRIPT = "examples/everything-server.ts";
/** The generated stubs the server imports, one folder per era it serves. */
const STUBS = ["2025-11-25", "2026-07-28"].map((revision) => join(ROOT, "out", revision, "index.ts"));
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * The suite runs, in order: what to pass the CLI, where its results go, and which failures are
 * allowed (`expectedFile`: an expected-failures YAML, which `args` must then pass to the CLI as
 * `--expected-failures` too; none today, so every failing check fails the run).
 */
const RUNS = [
  { title: "server active suite (default versions)", args: [], folder: "active" },
  { title: "--requirements 2026-07-28", args: ["--requirements", "2026-07-28"], folder: "requirements-2026-07-28" },
  // The active suite pinned to the older session revisions: the suite's client then asks for that
  // version in initialize, and the router opens the session on it (2025-03-26 has one scenario,
  // server-session-lifecycle; 2025-06-18 has the core set without the 2025-11-25 additions).
  { title: "server active suite --spec-version 2025-06-18", args: ["--spec-version", "2025-06-18"], folder: "active-2025-06-18" },
  { title: "server active suite --spec-version 2025-03-26", args: ["--spec-version", "2025-03-26"], folder: "active-2025-03-26" },
];

/** The `auth/*` client scenarios of the suite (`list --client`) for the session revisions. */
const AUTH_2025 = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
];

/**
 * The client scenarios, per protocol version (`--spec-version`): the core ones of 2025-11-25, the
 * 2026-07-28 set of issue 14, and every `auth/*` scenario of those versions and of the 2025-03-26
 * back-compat pair (issue 30): the everything-client plays them with the generated transports'
 * `authProvider`/`oauthFlow` and the `oauth` add-on (examples/everything-client/auth.ts, which
 * lists the same names). The extension ones (client credentials, DPoP, enterprise-managed,
 * workload identity) are not run.
 */
const CLIENT_SCENARIOS = [
  { version: "2025-11-25", names: ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry", ...AUTH_2025] },
  {
    version: "2026-07-28",
    names: [
      "tools_call",
      "request-metadata",
      "sep-2322-client-request-state",
      "http-standard-headers",
      "http-custom-headers",
      "http-invalid-tool-headers",
      "json-schema-ref-no-deref",
      "json-schema-2020-12-preservation",
      ...AUTH_2025,
      "auth/resource-mismatch",
      "auth/offline-access-scope",
      "auth/offline-access-not-supported",
      "auth/authorization-server-migration",
      "auth/iss-supported",
      "auth/iss-not-advertised",
      "auth/iss-supported-missing",
      "auth/iss-wrong-issuer",
      "auth/iss-unexpected",
      "auth/iss-normalized",
      "auth/metadata-issuer-mismatch",
    ],
  },
  { version: "2025-03-26", names: ["auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback"] },
];
const CLIENT_SCRIPT = join(ROOT, "examples", "everything-client.ts");
/** Bound the suite puts on one client run (its --timeout), in ms. */
const CLIENT_TIMEOUT_MS = 30_000;

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

/**
 * The scenario names of an expected-failures file's `server:` list (the suite's format: one
 * `- name` per line, a `# reason` after it). Only whole-scenario entries are used here.
 */
function expectedScenarios(path) {
  const names = [];
  let inServer = false;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const text = line.replace(/#.*/, "").trimEnd();
    if (text.trim() === "") continue;
    if (/^\S/.test(text)) {
      inServer = /^server:\s*(\[\s*\])?$/.test(text);
      continue;
    }
    const name = /^\s+-\s+(\S+)$/.exec(text)?.[1];
    if (inServer && name !== undefined) names.push(name);
  }
  return names;
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

/** Runs the suite's CLI on Node 22; echoes its output and keeps it for the summary. */
async function runSuite(entry, url, run) {
  const cli = spawn(NODE22, [entry, "server", "--url", url, ...run.args, "--output-dir", join(RESULTS, run.folder)], {
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

/** A POSIX shell word (the suite runs the client command through a shell). */
const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * Runs one client scenario: the suite's CLI on Node 22, the everything-client on this Node.
 * Returns the CLI's exit code and the checks of the scenario's checks.json (undefined when it
 * wrote none). The CLI's own output goes to client.log in the era's folder.
 */
async function runClientScenario(entry, version, name) {
  const folder = join(RESULTS, `client-${version}`);
  mkdirSync(folder, { recursive: true });
  const command = [process.execPath, "--import", "tsx", CLIENT_SCRIPT].map(shellQuote).join(" ");
  const args = [entry, "client", "--command", command, "--scenario", name, "--spec-version", version];
  args.push("--timeout", String(CLIENT_TIMEOUT_MS), "--output-dir", folder);
  const log = createWriteStream(join(folder, "client.log"), { flags: "a" });
  log.write(`\n=== ${name} (${version})\n`);
  // The suite writes <folder>/<scenario>-<timestamp>/; a name with a "/" (auth/…) is a subfolder.
  const where = join(folder, dirname(name));
  mkdirSync(where, { recursive: true });
  const before = new Set(readdirSync(where));
  const cli = spawn(NODE22, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.add(cli);
  cli.stdout.pipe(log, { end: false });
  cli.stderr.pipe(log, { end: false });
  const [code, signal] = await once(cli, "exit");
  children.delete(cli);
  await new Promise((resolve) => log.end(resolve));
  // The new <scenario>-<timestamp>/checks.json is this run's.
  const written = readdirSync(where).filter((entry) => !before.has(entry) && entry.startsWith(`${basename(name)}-`));
  let checks;
  for (const dir of written) {
    try {
      checks = JSON.parse(readFileSync(join(where, dir, "checks.json"), "utf8"));
    } catch {
      // no checks.json: judged below as a failure
    }
  }
  return { code: code ?? (signal === null ? 1 : 128), checks: Array.isArray(checks) ? checks : undefined };
}

/** One client scenario's verdict: its line and its check counts. */
function judgeClient(version, name, code, checks) {
  const count = (status) => (checks ?? []).filter((c) => c.status === status).length;
  const passed = count("SUCCESS");
  const failed = checks === undefined ? 1 : count("FAILURE");
  const warned = (checks ?? []).filter((c) => c.status === "WARNING").map((c) => c.id);
  const ok = code === 0 && checks !== undefined && checks.length > 0 && failed === 0;
  const parts = checks === undefined ? ["no checks.json"] : [`${passed} passed, ${failed} failed checks`];
  if (warned.length > 0) parts.push(`${warned.length} warning(s): ${warned.join(", ")}`);
  if (checks !== undefined && checks.length === 0) parts.push("no checks");
  if (code !== 0) parts.push(`the suite exited ${code}`);
  if (!ok) parts.push(`see ${rel(join(RESULTS, `client-${version}`, "client.log"))}`);
  return { ok, passed, failed, line: `  ${ok ? "✓" : "✗"} ${name} (${version}): ${parts.join("; ")}` };
}

/** Every client scenario of CLIENT_SCENARIOS; one line each, then the totals. */
async function runClients(entry) {
  const verdicts = [];
  for (const { version, names } of CLIENT_SCENARIOS) {
    for (const name of names) {
      const { code, checks } = await runClientScenario(entry, version, name);
      if (interrupted) return undefined;
      const verdict = { ...judgeClient(version, name, code, checks), version, auth: name.startsWith("auth/") };
      console.log(verdict.line);
      verdicts.push(verdict);
    }
  }
  const passed = verdicts.reduce((sum, v) => sum + v.passed, 0);
  const failed = verdicts.reduce((sum, v) => sum + v.failed, 0);
  const scenariosPassed = verdicts.filter((v) => v.ok).length;
  const ok = scenariosPassed === verdicts.length;
  // The auth/* scenarios' totals, per version, inside the client line (issue 30).
  const authTotals = CLIENT_SCENARIOS.map(({ version }) => {
    const mine = verdicts.filter((v) => v.auth && v.version === version);
    if (mine.length === 0) return undefined;
    const checks = `${mine.reduce((sum, v) => sum + v.passed, 0)} passed, ${mine.reduce((sum, v) => sum + v.failed, 0)} failed checks`;
    return `${version} ${mine.filter((v) => v.ok).length}/${mine.length} (${checks})`;
  }).filter((text) => text !== undefined);
  const line =
    `client scenarios: ${ok ? "PASSED" : "FAILED"}: ${passed} passed, ${failed} failed checks; ` +
    `${scenariosPassed}/${verdicts.length} scenarios passed; of them auth/*: ${authTotals.join(", ")}; results in ${rel(RESULTS)}/client-<version>/`;
  return { ok, line };
}

/** From the suite's SUMMARY block: "✓ name: 1 passed, 0 failed" per scenario, then "Total: …". */
function summarize(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const scenarios = [...plain.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/gmu)].map((m) => ({
    name: m[2],
    passed: Number(m[3]),
    failed: Number(m[4]),
  }));
  const total = /^Total: (\d+) passed, (\d+) failed$/m.exec(plain);
  if (total === null) return undefined;
  return { passed: Number(total[1]), failed: Number(total[2]), scenarios };
}

/** WARNING checks (SHOULD-level misses) in a run's checks.json files, by scenario folder. */
function warnings(folder) {
  const found = [];
  let entries = [];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    try {
      const checks = JSON.parse(readFileSync(join(folder, entry.name, "checks.json"), "utf8"));
      const scenario = entry.name.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
      for (const check of checks) if (check.status === "WARNING") found.push(`${scenario}:${check.id}`);
    } catch {
      // a scenario without checks.json: the SUMMARY reports it
    }
  }
  return found;
}

/** One run's verdict and summary line. */
function judge(run, code, output) {
  const summary = summarize(output);
  const where = `results in ${rel(join(RESULTS, run.folder))}/`;
  if (summary === undefined) return { ok: false, line: `${run.title}: FAILED, no summary from the suite (exit ${code}); ${where}` };
  const expected = new Set(run.expectedFile === undefined ? [] : expectedScenarios(run.expectedFile));
  const failing = summary.scenarios.filter((s) => s.failed > 0);
  const unexpected = failing.filter((s) => !expected.has(s.name)).map((s) => s.name);
  const expectedFailing = failing.filter((s) => expected.has(s.name));
  const ran = new Set(summary.scenarios.map((s) => s.name));
  const stale = [...expected].filter((name) => !ran.has(name) || !failing.some((s) => s.name === name));
  const outside = summary.scenarios.filter((s) => !expected.has(s.name));
  const failedOutside = outside.reduce((sum, s) => sum + s.failed, 0);
  const warned = warnings(join(RESULTS, run.folder)).filter((id) => !expected.has(id.slice(0, id.indexOf(":"))));
  const ok = code === 0 && unexpected.length === 0 && stale.length === 0;
  const parts = [
    `${summary.passed} passed, ${summary.failed} failed checks`,
    expected.size === 0
      ? `${outside.length - unexpected.length}/${outside.length} scenarios passed, nothing expected to fail`
      : `${failedOutside} failed outside the ${expected.size} expected scenarios (${expectedFailing.reduce((sum, s) => sum + s.failed, 0)} failed checks in them); ` +
        `${outside.length - unexpected.length}/${outside.length} other scenarios passed`,
  ];
  if (unexpected.length > 0) parts.push(`failing: ${unexpected.join(", ")}`);
  if (stale.length > 0) parts.push(`stale expected-failures entries (passing or not run): ${stale.join(", ")}`);
  if (warned.length > 0) parts.push(`${warned.length} warning(s): ${warned.join(", ")}`);
  if (code !== 0 && unexpected.length === 0 && stale.length === 0) parts.push(`the suite exited ${code}`);
  return { ok, line: `${run.title}: ${ok ? "PASSED" : "FAILED"}: ${parts.join("; ")}; ${where}` };
}

async function main() {
  const missing = STUBS.filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(`${missing.map(rel).join(", ")} missing: run \`npm run generate\` first (the server imports the generated stubs)`);
  }
  ensureInstalled();
  const { entry, version } = suiteEntry();
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(RESULTS, { recursive: true });

  const { server, url } = await startServer(await freePort());
  let serverDied = false;
  server.once("exit", () => (serverDied = true));
  console.log(`conformance: @modelcontextprotocol/conformance ${version} (Node 22 CLI) against ${url} (server on Node ${process.version}), ready after ${seconds()}`);

  const verdicts = [];
  for (const run of RUNS) {
    console.log(`\nconformance: ${run.title}\n`);
    const { code, output } = await runSuite(entry, url, run);
    if (interrupted) return;
    verdicts.push(judge(run, code, output));
    if (serverDied) break;
  }
  const diedDuringSuite = serverDied;
  await stop(server);

  if (diedDuringSuite) console.error(`conformance: the server exited during the suite; last lines of server.log:\n${tail(join(RESULTS, "server.log"))}`);

  console.log(`\nconformance: client scenarios (examples/everything-client.ts), ${CLIENT_SCENARIOS.map((e) => `${e.names.length} of ${e.version}`).join(", ")}\n`);
  const clients = await runClients(entry);
  if (clients === undefined) return;
  verdicts.push(clients);

  console.log("");
  for (const { line } of verdicts) console.log(`conformance: ${line}`);
  const ok = !diedDuringSuite && verdicts.length === RUNS.length + 1 && verdicts.every((v) => v.ok);
  console.log(`conformance: ${ok ? "PASSED" : "FAILED"} (${verdicts.filter((v) => v.ok).length}/${RUNS.length + 1} runs passed) in ${seconds()}`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
