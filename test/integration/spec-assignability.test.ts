/**
 * Our generated types against the spec's own TypeScript (`../shared/mcp-schema/<rev>/schema.ts`,
 * the hand-written source each schema.json is generated from; read at run time, never copied
 * into the repository). For every definition X exported by both, `(x: Spec.X): Ours.X => x` and
 * `(x: Ours.X): Spec.X => x` must compile under `strict`, for all six published revisions.
 * A failure lists every non-assignable pair with the first line of the compiler's reason.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { REVISIONS, SHARED_SCHEMAS, TEST_CACHE_DIR } from "../helpers/schemas.js";
import { checkOutput, type AssignabilityReport } from "../helpers/spec-assignability.js";

let out: string;
let reports: AssignabilityReport[];

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "mcp-stubgen-spec-assign-"));
  await generate({ all: true, out, cacheDir: TEST_CACHE_DIR });
  reports = checkOutput(SHARED_SCHEMAS, out, REVISIONS);
}, 120_000);

describe("generated types and the spec's schema.ts are mutually assignable", () => {
  it("finds the spec's schema.ts of every revision in ../shared/mcp-schema", () => {
    for (const revision of REVISIONS) expect(existsSync(join(SHARED_SCHEMAS, revision, "schema.ts")), revision).toBe(true);
  });

  it.each(REVISIONS)("%s: every definition in both, spec → ours and ours → spec", (revision) => {
    const report = reports.find((r) => r.revision === revision)!;
    expect(report.names).toBeGreaterThan(70);
    expect(report.failures.map((f) => `${f.name} ${f.direction}: ${f.reason}`)).toEqual([]);
  });

  it("with strictObjects (--strict-objects), the spec's values still fit ours, but ours lack the spec's inherited index signatures", async () => {
    const strictOut = mkdtempSync(join(tmpdir(), "mcp-stubgen-spec-strict-"));
    await generate({ revisions: ["2025-11-25"], out: strictOut, cacheDir: TEST_CACHE_DIR, strictObjects: true });
    const [report] = checkOutput(SHARED_SCHEMAS, strictOut, ["2025-11-25"]);
    expect(report!.failures.filter((f) => f.direction === "spec→ours")).toEqual([]);
    expect(report!.failures.map((f) => f.name)).toContain("ListToolsResult");
  });
});
