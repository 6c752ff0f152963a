/**
 * out/README.md and the table of docs/output.md (the reference page of the README's Output) list every file the generator writes, as
 * renderRevision (shared runtime, the default) and renderRuntime produce them, the runtime's
 * as `runtime/<name>` (derived, so a new generated file cannot go unlisted).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { finishModel } from "../../../generator/model/revision.js";
import { PACKAGE_ROOT } from "../../../generator/project.js";
import { renderEveryEra, renderRevision, renderRuntime } from "../../../generator/emit/render.js";
import { APPS_FILES } from "../../../generator/emit/apps-render.js";
import { readSchemaDocument } from "../../../generator/load/schema-document.js";
import { cliFixture } from "./support.js";

let generated: string[];

beforeAll(async () => {
  const file = cliFixture("mini.json");
  const doc = readSchemaDocument(readFileSync(file, "utf8"), file);
  const policy = policyFor("mini");
  const model = finishModel({ doc, model: buildModel(doc, { revision: "mini", policy }), policy });
  const revisionFiles = [...(await renderRevision(model, { layout: "shared" })).keys()];
  const everyEra = [...renderEveryEra(["2025-11-25", "2026-07-28"]).keys()].map((name) => `every-era/${name}`);
  const apps = APPS_FILES.map((name) => `apps/${name}`);
  generated = [...revisionFiles, ...everyEra, ...apps, ...[...renderRuntime([], true).keys()].map((name) => `runtime/${name}`)].sort();
});

const read = (path: string) => readFileSync(join(PACKAGE_ROOT, path), "utf8");

describe("the lists of generated files", () => {
  it("out/README.md has one table row per generated file, and no other", () => {
    const rows = [...read("out/README.md").matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!).sort();
    expect(generated.length).toBeGreaterThanOrEqual(13);
    expect(rows).toEqual(generated);
  });

  it("docs/output.md's table names every generated file", () => {
    const section = read("docs/output.md");
    const named = new Set([...section.matchAll(/^\| (.+?) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([^`]+)`/g)].map((n) => n[1]!)));
    for (const file of generated) expect(named.has(file), file).toBe(true);
  });
});
