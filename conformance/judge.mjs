/**
 * Verdicts of the conformance jobs, from the checks.json files the referee writes (one per
 * scenario it ran, in `<folder>/[server-]<scenario>-<timestamp>/`). A scenario passes when it ran,
 * has at least one SUCCESS check, and no FAILURE and no SKIPPED check: a skipped check is a
 * failure (a pass with nothing checked is not a pass), except one the referee skips on its own
 * (REFEREE_SKIPS), which is named instead and must stay skipped.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REFEREE_SKIPS } from "./plan.mjs";

/** Every checks.json under `folder`, keyed by scenario name (the path from `folder`, timestamp and `server-` prefix stripped). */
export function readChecks(folder) {
  const found = new Map();
  const walk = (dir) => {
    let entries = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === "checks.json") {
        const name = relative(folder, dir)
          .split("\\")
          .join("/")
          .replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "")
          .replace(/^server-/, "");
        try {
          const checks = JSON.parse(readFileSync(path, "utf8"));
          found.set(name, Array.isArray(checks) ? checks : []);
        } catch {
          found.set(name, []);
        }
      }
    }
  };
  walk(folder);
  return found;
}

/** The referee skip that covers `check` of `scenario` for this referee, if any. */
const known = (referee, scenario, check) =>
  REFEREE_SKIPS.find((s) => s.referee === referee && s.scenario === scenario && s.check === check.id && (s.name === undefined || s.name === check.name) && (s.status ?? "SKIPPED") === check.status);

/**
 * One scenario's verdict: counts by status, and the problems that fail it. `pending` names the
 * scenarios whose failure is reported but not counted (CONFORMANCE_PENDING, for a branch waiting
 * on another); a pending scenario that passes is simply a pass.
 */
export function judgeScenario(referee, name, checks, pending) {
  const count = (status) => (checks ?? []).filter((c) => c.status === status).length;
  const problems = [];
  const refereeSkipped = [];
  let namedFailures = 0;
  if (checks === undefined) problems.push("not run (no checks.json)");
  else {
    for (const check of checks.filter((c) => c.status === "SKIPPED" || c.status === "FAILURE")) {
      if (known(referee, name, check) !== undefined) {
        refereeSkipped.push(check.id);
        if (check.status === "FAILURE") namedFailures++;
      }
      else if (check.status === "SKIPPED") problems.push(`skipped ${check.id}`);
      else problems.push(`failed ${check.id}${check.errorMessage ? `: ${String(check.errorMessage).split("\n")[0].slice(0, 160)}` : ""}`);
    }
    for (const entry of REFEREE_SKIPS.filter((s) => s.referee === referee && s.scenario === name)) {
      const check = checks.find((c) => c.id === entry.check && (entry.name === undefined || c.name === entry.name));
      if (check !== undefined && check.status !== (entry.status ?? "SKIPPED")) problems.push(`stale REFEREE_SKIPS entry: ${entry.check} is ${check.status} now`);
    }
    if (count("SUCCESS") === 0 && refereeSkipped.length === 0) problems.push("no check passed");
  }
  const isPending = problems.length > 0 && pending.has(name);
  return {
    name,
    ok: problems.length === 0 || isPending,
    pending: isPending,
    passed: count("SUCCESS"),
    failed: count("FAILURE") + (checks === undefined ? 1 : 0),
    skipped: count("SKIPPED"),
    refereeSkipped: refereeSkipped,
    /** Failed checks that do not fail the scenario (named in REFEREE_SKIPS, or of a pending scenario): the referee exits non-zero for them. */
    excusedFailures: isPending ? count("FAILURE") + (checks === undefined ? 1 : 0) : namedFailures,
    warnings: (checks ?? []).filter((c) => c.status === "WARNING").map((c) => c.id),
    problems,
  };
}

/**
 * A job's verdict: every scenario it was expected to run judged (a missing one fails), plus any
 * other it ran; the CLI's exit code must be 0 unless every failure is pending or a referee skip.
 */
export function judgeJob(referee, job, folder, code, pending) {
  const found = readChecks(folder);
  const names = new Set([...job.expect.keys(), ...found.keys()]);
  const scenarios = [...names].map((name) => judgeScenario(referee, name, found.get(name), pending));
  const failing = scenarios.filter((s) => !s.ok);
  // The referee exits non-zero on any failed check, also on one excused here; no other non-zero exit is.
  const tolerated = scenarios.some((s) => s.ok && s.excusedFailures > 0) || scenarios.some((s) => s.pending);
  const exitOk = code === 0 || tolerated;
  return { job, scenarios, ok: failing.length === 0 && exitOk, code };
}

/** Totals over judged scenarios. */
export function totals(scenarios) {
  const sum = (key) => scenarios.reduce((n, s) => n + s[key], 0);
  return {
    scenarios: scenarios.length,
    scenariosPassed: scenarios.filter((s) => s.ok && !s.pending).length,
    pending: scenarios.filter((s) => s.pending).length,
    passed: sum("passed"),
    failed: sum("failed"),
    skipped: sum("skipped"),
    /** Failed or skipped checks REFEREE_SKIPS names (in the counts above, not counted against the run). */
    named: scenarios.reduce((n, s) => n + s.refereeSkipped.length, 0),
    /** Failed or skipped checks of pending scenarios (CONFORMANCE_PENDING; in the counts above). */
    ofPending: scenarios.filter((s) => s.pending).reduce((n, s) => n + s.failed + s.skipped, 0),
  };
}
