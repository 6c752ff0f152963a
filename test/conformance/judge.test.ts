/**
 * The conformance runner's own rules (conformance/plan.mjs, judge.mjs), on data: a referee's
 * `list` output parsed into scenarios with their versions and kinds, and the verdict of a scenario
 * from its checks: a skipped check or a scenario with nothing passed fails it, a check REFEREE_SKIPS
 * names does not (and fails as a stale entry once it comes out otherwise), a missing scenario fails
 * its job, and CONFORMANCE_PENDING only excuses the scenarios it names. The plan itself is checked
 * against the pinned referees: every listed client scenario and version has its job.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { judgeJob, judgeScenario } from "../../conformance/judge.mjs";
import { parseList, plan, referees } from "../../conformance/plan.mjs";
import { ensureInstalled } from "../../conformance/install.mjs";

const LIST = `Server scenarios (test against a server):
  - server-initialize [2025-06-18,2025-11-25]
  - sep-2640-skills-directory [extension]

Client scenarios (test against a client):
  - auth/resource-mismatch [draft]

Authorization server scenarios (test against an authorization server):
  - authorization-code-grant [2025-03-26,2026-07-28]
`;

const ok = (id: string) => ({ id, status: "SUCCESS" });
const none = new Set<string>();

describe("conformance runner", () => {
  it("parses a list into kinds, names and versions", () => {
    expect(parseList(LIST)).toEqual([
      { kind: "server", name: "server-initialize", versions: ["2025-06-18", "2025-11-25"] },
      { kind: "server", name: "sep-2640-skills-directory", versions: ["extension"] },
      { kind: "client", name: "auth/resource-mismatch", versions: ["draft"] },
      { kind: "authorization", name: "authorization-code-grant", versions: ["2025-03-26", "2026-07-28"] },
    ]);
  });

  it("a skipped check fails its scenario, so does one with nothing passed; a failed one too", () => {
    expect(judgeScenario("9.9.9", "s", [ok("a"), { id: "b", status: "SKIPPED" }], none)).toMatchObject({ ok: false, problems: ["skipped b"] });
    expect(judgeScenario("9.9.9", "s", [{ id: "i", status: "INFO" }], none)).toMatchObject({ ok: false, problems: ["no check passed"] });
    expect(judgeScenario("9.9.9", "s", [ok("a"), { id: "c", status: "FAILURE", errorMessage: "boom\nmore" }], none)).toMatchObject({ ok: false, problems: ["failed c: boom"] });
    expect(judgeScenario("9.9.9", "s", undefined, none)).toMatchObject({ ok: false, problems: ["not run (no checks.json)"] });
    expect(judgeScenario("9.9.9", "s", [ok("a"), { id: "w", status: "WARNING" }], none)).toMatchObject({ ok: true, warnings: ["w"] });
  });

  it("a check REFEREE_SKIPS names is excused for its referee only, and its entry is stale once the check comes out otherwise", () => {
    const skipped = [{ id: "tasks-status-notifications", status: "SKIPPED" }];
    expect(judgeScenario("0.2.0-alpha.12", "tasks-status-notifications", skipped, none)).toMatchObject({ ok: true, refereeSkipped: ["tasks-status-notifications"] });
    expect(judgeScenario("0.1.16", "tasks-status-notifications", skipped, none).ok).toBe(false);
    const fixed = judgeScenario("0.2.0-alpha.12", "tasks-status-notifications", [ok("tasks-status-notifications")], none);
    expect(fixed).toMatchObject({ ok: false, problems: ["stale REFEREE_SKIPS entry: tasks-status-notifications is SUCCESS now"] });
  });

  it("CONFORMANCE_PENDING excuses the scenarios it names, nothing else; a job fails on a listed scenario that did not run", () => {
    const skipped = [{ id: "x", status: "SKIPPED" }];
    expect(judgeScenario("9.9.9", "sep-2640-skills-directory", skipped, new Set(["sep-2640-skills-directory"]))).toMatchObject({ ok: true, pending: true });
    expect(judgeScenario("9.9.9", "other", skipped, new Set(["sep-2640-skills-directory"])).ok).toBe(false);
    const folder = mkdtempSync(join(tmpdir(), "conformance-judge-"));
    try {
      mkdirSync(join(folder, "server-ping-2026-01-01T00-00-00-000Z"));
      writeFileSync(join(folder, "server-ping-2026-01-01T00-00-00-000Z", "checks.json"), JSON.stringify([ok("ping")]));
      const job = { expect: new Map([["ping", "2025-11-25"], ["tools-list", "2025-11-25"]]) };
      const verdict = judgeJob("9.9.9", job, folder, 0, none);
      expect(verdict.ok).toBe(false);
      expect(verdict.scenarios.map((s) => [s.name, s.ok])).toEqual([["ping", true], ["tools-list", false]]);
      // A non-zero exit fails the job unless a failed check explains it (here none does).
      expect(judgeJob("9.9.9", { expect: new Map([["ping", "2025-11-25"]]) }, folder, 1, none).ok).toBe(false);
      expect(judgeJob("9.9.9", { expect: new Map([["ping", "2025-11-25"]]) }, folder, 0, none).ok).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("the plan of each pinned referee has a job per listed client scenario and version, and the server runs of every version", async () => {
    ensureInstalled();
    const found = referees();
    expect(found.map((r) => r.version)).toEqual(["0.1.16", "0.2.0-alpha.12"]);
    for (const referee of found) {
      const { jobs, excluded } = await plan(referee);
      const clients = jobs.filter((j) => j.kind === "client");
      expect(new Set(clients.map((j) => `${[...j.expect.keys()][0]}@${j.version}`)).size).toBe(clients.length);
      expect(jobs.filter((j) => j.kind === "server").map((j) => j.title)).toEqual(
        referee.version === "0.1.16"
          ? ["server --suite all", "server --suite all --spec-version 2025-06-18", "server --suite all --spec-version 2025-11-25"]
          : [
              "server --suite all",
              "server --suite all --spec-version 2025-03-26",
              "server --suite all --spec-version 2025-06-18",
              "server --suite all --spec-version 2025-11-25",
              "server --suite all --spec-version 2026-07-28",
              "server --requirements 2025-11-25",
              "server --requirements 2026-07-28",
            ],
      );
      expect(excluded.map((s) => s.name)).toEqual(referee.version === "0.1.16" ? [] : ["authorization-server-metadata-endpoint", "authorization-code-grant"]);
    }
  });
});
