/**
 * The cross-revision entry (<out>/every-era/index.ts, renderEveryEra and generate()): written when
 * a run generates several revisions on the shared runtime, from the list of revisions alone
 * (their era facts are read from their own catalogs at run time); not with one revision, nor with
 * an inline runtime; the same bytes every run; and `every-era` is no revision label.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderEveryEra } from "../../../generator/emit/render.js";
import { checkOutputLabels, generate } from "../../../generator/generate.js";
import { TEST_CACHE_DIR } from "../../prepare.mjs";

const tmp = () => mkdtempSync(join(tmpdir(), "every-era-"));

describe("renderEveryEra", () => {
  it("imports each revision's index, lists them in order, and types the registrations with the newest dated one", () => {
    const text = renderEveryEra(["2025-11-25", "2026-07-28", "draft"]).get("index.ts")!;
    expect(text).toContain('import * as R0_2025_11_25 from "../2025-11-25/index.js";');
    expect(text).toContain('import * as R2_draft from "../draft/index.js";');
    expect(text).toContain('export const REVISIONS: readonly string[] = ["2025-11-25", "2026-07-28", "draft"];');
    expect(text).toContain("const MODULES: readonly EraModule[] = [R0_2025_11_25, R1_2026_07_28, R2_draft];");
    expect(text).toContain("type Tool = R1_2026_07_28.Tool;");
    expect(text).toContain('import type { Registered, SchemaInput } from "../2026-07-28/index.js";');
  });

  it("is the same text every time", () => {
    expect(renderEveryEra(["2024-11-05", "2025-06-18"])).toEqual(renderEveryEra(["2024-11-05", "2025-06-18"]));
  });
});

describe("generate() and every-era/", () => {
  it("two revisions, shared runtime: written; one revision, or an inline runtime: not", async () => {
    const two = tmp();
    await generate({ revisions: ["2025-11-25", "2026-07-28"], out: two, cacheDir: TEST_CACHE_DIR, lockfile: false, force: true });
    expect(readFileSync(join(two, "every-era", "index.ts"), "utf8")).toBe(renderEveryEra(["2025-11-25", "2026-07-28"]).get("index.ts"));
    const one = tmp();
    await generate({ revisions: ["2025-11-25"], out: one, cacheDir: TEST_CACHE_DIR, lockfile: false, force: true });
    expect(existsSync(join(one, "every-era"))).toBe(false);
    const inline = tmp();
    await generate({ revisions: ["2025-11-25", "2026-07-28"], out: inline, cacheDir: TEST_CACHE_DIR, lockfile: false, force: true, runtime: "inline" });
    expect(existsSync(join(inline, "every-era"))).toBe(false);
  });

  it("refuses the label every-era for a revision", () => {
    expect(() => checkOutputLabels(["every-era"])).toThrow(/a revision cannot be labelled "every-era"/);
  });
});
