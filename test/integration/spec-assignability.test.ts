/**
 * Our generated types against the spec's own TypeScript (`../shared/mcp-schema/<rev>/schema.ts`,
 * the hand-written source each schema.json is generated from; read at run time, never copied
 * into the repository). For every type X the spec exports, `(x: Spec.X): Ours.X => x` and
 * `(x: Ours.X): Spec.X => x` must compile under `strict`, and for every value constant C
 * (LATEST_PROTOCOL_VERSION, JSONRPC_VERSION, the error codes) the same with `typeof` (literal
 * types: equal values), for all six published revisions, generated with the Tasks extension
 * (its messages stay out of the spec's unions). A failure lists every non-assignable pair with
 * the first line of the compiler's reason; KNOWN_DIFFERENCES lists those that may fail.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { REVISIONS, SHARED_SCHEMAS, TEST_CACHE_DIR } from "../helpers/schemas.js";
import { checkOutput, type AssignabilityReport } from "../helpers/spec-assignability.js";

/**
 * Pairs that legitimately fail, by revision: `"<Name> spec→ours"` (or `ours→spec`) → why. Empty
 * today: every type and constant of every revision's schema.ts fits ours both ways. The test
 * fails when a pair fails that is not listed here, and when a listed pair passes again.
 */
const KNOWN_DIFFERENCES: Readonly<Record<string, Readonly<Record<string, string>>>> = {};

let out: string;
let reports: AssignabilityReport[];

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "mcp-stubgen-spec-assign-"));
  // With the Tasks extension merged (2026-07-28, draft): the core's types and unions stay the spec's.
  await generate({ all: true, extensions: ["tasks"], out, cacheDir: TEST_CACHE_DIR });
  reports = checkOutput(SHARED_SCHEMAS, out, REVISIONS);
}, 120_000);

describe("generated types and the spec's schema.ts are mutually assignable", () => {
  it("finds the spec's schema.ts of every revision in ../shared/mcp-schema", () => {
    for (const revision of REVISIONS) expect(existsSync(join(SHARED_SCHEMAS, revision, "schema.ts")), revision).toBe(true);
  });

  it.each(REVISIONS)("%s: every type and value constant of the spec's, spec → ours and ours → spec", (revision) => {
    const report = reports.find((r) => r.revision === revision)!;
    expect(report.names).toBeGreaterThan(70);
    // LATEST_PROTOCOL_VERSION, JSONRPC_VERSION and the five JSON-RPC error codes at least.
    expect(report.constants).toBeGreaterThanOrEqual(7);
    const failures = report.failures.map((f) => `${f.name} ${f.direction}`);
    const known = Object.keys(KNOWN_DIFFERENCES[revision] ?? {});
    expect(failures.filter((f) => !known.includes(f)).map((f) => `${f}: ${report.failures.find((x) => `${x.name} ${x.direction}` === f)!.reason}`)).toEqual([]);
    // A listed difference that no longer fails is taken off the list.
    expect(known.filter((k) => !failures.includes(k))).toEqual([]);
  });

  it("the constants carry the spec's values: 2025-11-25's URL_ELICITATION_REQUIRED, 2026-07-28's HEADER_MISMATCH, the draft's version", () => {
    const types = (revision: string) => readFileSync(join(out, revision, "types.ts"), "utf8");
    expect(types("2025-11-25")).toContain("export const URL_ELICITATION_REQUIRED: -32042 = -32042;");
    expect(types("2026-07-28")).toContain("export const HEADER_MISMATCH: -32020 = -32020;");
    expect(types("2024-11-05")).toContain('export const LATEST_PROTOCOL_VERSION: "2024-11-05" = "2024-11-05";');
    // A draft has no version of its own: its schema.ts names the newest published revision.
    expect(types("draft")).toContain('export const LATEST_PROTOCOL_VERSION: "2026-07-28" = "2026-07-28";');
  });

  it("with strictObjects (--strict-objects), the spec's values still fit ours, but ours lack the spec's inherited index signatures", async () => {
    const strictOut = mkdtempSync(join(tmpdir(), "mcp-stubgen-spec-strict-"));
    await generate({ revisions: ["2025-11-25"], out: strictOut, cacheDir: TEST_CACHE_DIR, strictObjects: true });
    const [report] = checkOutput(SHARED_SCHEMAS, strictOut, ["2025-11-25"]);
    expect(report!.failures.filter((f) => f.direction === "spec→ours")).toEqual([]);
    expect(report!.failures.map((f) => f.name)).toContain("ListToolsResult");
  });
});
