/**
 * What `npm run conformance` runs, derived from the referees themselves: every line of the official
 * suite pinned in conformance/package.json is a referee, and each referee's own `list` says which
 * scenarios exist, at which protocol versions, and which frozen requirement sets it knows. Nothing
 * here names a scenario except the excluded authorization-server pair and the referee's own skips
 * (REFEREE_SKIPS), each with its reason; a scenario a new release adds is run without an edit.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dependencies, MODULES, NODE22, pinnedVersion } from "./install.mjs";

/** The official suite's npm name; a dependency on it, or an npm alias of it, is a referee. */
const SUITE = "@modelcontextprotocol/conformance";

/** The sections of `list` and the kind of scenario each lists. */
const SECTIONS = [
  { heading: /^Server scenarios/, kind: "server" },
  { heading: /^Client scenarios/, kind: "client" },
  { heading: /^Authorization server scenarios/, kind: "authorization" },
];

/**
 * Scenario kinds the run leaves out, with the reason printed in every run. The authorization-server
 * scenarios test an OAuth authorization server; this project builds none (its `oauth` add-on is the
 * client of one and the resource server's token check).
 */
export const EXCLUDED_KINDS = {
  authorization: "they test an OAuth authorization server, and the project builds none (the oauth add-on is a client and a resource server)",
};

/**
 * Checks a referee gets wrong whatever the implementation under test does: it skips them on its
 * own, or its own fixture breaks a MUST the client is right to enforce. Such a check can never
 * pass, so it is named (with the reason) instead of failing every run. An entry matches one
 * referee version, scenario, check id (and name, when the referee gives several checks one id)
 * and status (`SKIPPED` unless it says otherwise); a matching check in any other status makes the
 * entry stale, which fails the run, so it is dropped as soon as the referee is fixed.
 */
export const REFEREE_SKIPS = [
  {
    referee: "0.2.0-alpha.12",
    scenario: "tasks-status-notifications",
    check: "tasks-status-notifications",
    reason: "the referee skips it for every server: its harness watches the tools/call stream, and SEP-2663 moved task notifications to subscriptions/listen (its rewrite is a referee follow-up)",
  },
  ...["initialize", "notifications/initialized"].map((method) => ({
    referee: "0.2.0-alpha.12",
    scenario: "http-standard-headers",
    check: "sep-2243-client-includes-standard-headers",
    name: `ClientMcpMethodHeader_${method.replace("/", "_")}`,
    reason: `the scenario runs at 2026-07-28 only, which has no ${method} (its schema has no such method; a client opens with server/discover), so the referee never sees the Mcp-Method header on it`,
  })),
  ...["client-registration", "authorization-request", "token-request"].map((check) => ({
    referee: "0.1.16",
    scenario: "auth/2025-03-26-oauth-metadata-backcompat",
    check,
    status: "FAILURE",
    reason:
      "the referee's fixture serves issuer <origin>/oauth at <origin>/.well-known/oauth-authorization-server; RFC 8414 §3.3 says the issuer MUST be the URL the well-known path was inserted into, so the client refuses the metadata and never registers (0.2.0-alpha.12 serves the origin as issuer, and the same client passes the scenario there)",
  })),
];

/** The referees: one per dependency of conformance/package.json that is the suite or an alias of it. */
export function referees() {
  return Object.entries(dependencies())
    .filter(([name, spec]) => name === SUITE || spec.startsWith(`npm:${SUITE}@`))
    .map(([name, spec]) => {
      const folder = join(MODULES, ...name.split("/"));
      const pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
      const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.conformance;
      if (typeof bin !== "string") throw new Error(`no "conformance" bin in ${name}/package.json`);
      if (pkg.version !== pinnedVersion(spec)) throw new Error(`${name} is ${pkg.version}, conformance/package.json pins ${spec}`);
      return { version: pkg.version, entry: join(folder, bin) };
    })
    .sort((a, b) => a.version.localeCompare(b.version, "en", { numeric: true }));
}

const run = promisify(execFile);

/** The output of the referee's CLI (list and help only: they print and exit at once). */
async function cli(referee, args) {
  try {
    return (await run(NODE22, [referee.entry, ...args], { encoding: "utf8" })).stdout;
  } catch (error) {
    throw new Error(`conformance ${referee.version} ${args.join(" ")} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A `list` output: its scenarios by kind, each with the versions in its brackets ("2025-11-25",
 * "extension", "draft", …; a requirement set's list has none).
 */
export function parseList(text) {
  const scenarios = [];
  let kind;
  for (const line of text.split("\n")) {
    const section = SECTIONS.find((s) => s.heading.test(line));
    if (section !== undefined) {
      kind = section.kind;
      continue;
    }
    const match = /^\s+- (\S+)(?: \[([^\]]*)\])?\s*$/.exec(line);
    if (match === null || kind === undefined) continue;
    scenarios.push({ kind, name: match[1], versions: match[2] === undefined ? [] : match[2].split(",").map((v) => v.trim()) });
  }
  return scenarios;
}

/** A date version ("2025-11-25"), as opposed to "extension" or "draft". */
const isDate = (version) => /^\d{4}-\d{2}-\d{2}$/.test(version);

/** The requirement sets the referee names in `list --help` ("Requirement sets available: a, b"), if it has the flag. */
async function requirementSets(referee) {
  const help = (await cli(referee, ["list", "--help"])).replace(/\s+/g, " ");
  if (!help.includes("--requirements")) return [];
  const names = /Requirement sets available: ([\d\-, ]+)/.exec(help)?.[1];
  return names === undefined ? [] : names.split(",").map((s) => s.trim()).filter(isDate);
}

/**
 * The jobs for one referee, each one CLI invocation with its own results folder and the scenarios
 * it must run (`expect`: name → the version it runs at, for the summary):
 *
 * - server `--suite all` (every server scenario at the referee's default version for it: the
 *   extension ones included, which no `--spec-version` selects);
 * - server `--suite all --spec-version V` for every date version V a server scenario lists: with
 *   the above, every server scenario at every version it lists;
 * - server `--requirements R` for every frozen requirement set R the referee knows;
 * - one client job per client scenario and version it lists (`--spec-version V`; `draft` as
 *   itself; none for `extension`, which the referee runs at its default version).
 */
export async function plan(referee) {
  const [listed, sets] = await Promise.all([cli(referee, ["list"]).then(parseList), requirementSets(referee)]);
  const excluded = listed.filter((s) => s.kind in EXCLUDED_KINDS);
  const server = listed.filter((s) => s.kind === "server");
  const client = listed.filter((s) => s.kind === "client");
  const at = (list, version) => new Map(list.map((s) => [s.name, version]));
  const jobs = [
    { kind: "server", title: "server --suite all", args: ["--suite", "all"], folder: "server-all", expect: at(server, "default") },
  ];
  const serverVersions = [...new Set(server.flatMap((s) => s.versions))].filter(isDate).sort();
  for (const version of serverVersions) {
    const names = server.filter((s) => s.versions.includes(version));
    jobs.push({ kind: "server", title: `server --suite all --spec-version ${version}`, args: ["--suite", "all", "--spec-version", version], folder: `server-all-${version}`, expect: at(names, version) });
  }
  const required = await Promise.all(sets.map((revision) => cli(referee, ["list", "--requirements", revision]).then(parseList)));
  for (const [i, revision] of sets.entries()) {
    const names = required[i].filter((s) => s.kind === "server");
    jobs.push({ kind: "server", title: `server --requirements ${revision}`, args: ["--requirements", revision], folder: `server-requirements-${revision}`, expect: at(names, revision) });
  }
  for (const scenario of client) {
    for (const version of scenario.versions) {
      const args = ["--scenario", scenario.name, ...(version === "extension" ? [] : ["--spec-version", version])];
      jobs.push({ kind: "client", version, title: `client ${scenario.name} (${version})`, args, folder: join(`client-${version}`, scenario.name), expect: new Map([[scenario.name, version]]) });
    }
  }
  return { jobs, excluded, counts: { server: server.length, client: client.length } };
}
