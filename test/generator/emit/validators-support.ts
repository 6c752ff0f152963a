/**
 * The generated validators of a small schema written in the test, run for real: the schema's
 * definition `Subject` is the params of a request `check`; its validators.ts is rendered as
 * generate writes it (the model, the view, the template), written to a temporary folder and
 * imported, with the runtime's core/validation.ts where it is (templates/runtime).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { templates } from "../../../generator/emit/templates.js";
import { validatorsView } from "../../../generator/emit/validators-view.js";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { validationModel } from "../../../generator/model/validation.js";
import { PACKAGE_ROOT } from "../../../generator/project.js";
import type { Issue, WireValidators } from "../../../templates/runtime/core/validation.js";
import { docFrom } from "../support.js";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The text of validators.ts for these definitions (a request `check` whose params are `Subject`). */
export function validatorsText(defs: Record<string, unknown>, options: { readonly key?: "$defs" | "definitions" } = {}): string {
  const key = options.key ?? "$defs";
  const doc = docFrom(
    {
      ClientRequest: { anyOf: [{ $ref: `#/${key}/CheckRequest` }] },
      CheckRequest: { type: "object", properties: { method: { const: "check", type: "string" }, params: { $ref: `#/${key}/Subject` } }, required: ["method", "params"] },
      Result: { type: "object" },
      ...defs,
    },
    { key },
  );
  const model = buildModel(doc, { revision: "fixture", policy: policyFor("fixture") });
  const view = validatorsView(validationModel(doc, model, null));
  const template = templates().get("validators.ts")!;
  return template({ toolVersion: "test", revision: "fixture", sha256: doc.sha256, extensions: [], runtimeDir: `${join(PACKAGE_ROOT, "templates", "runtime")}/`, ...view });
}

/** The check of `Subject`, imported from the generated file. */
export async function subjectCheck(defs: Record<string, unknown>, options: { readonly key?: "$defs" | "definitions" } = {}): Promise<(value: unknown) => Issue | undefined> {
  const folder = mkdtempSync(join(tmpdir(), "stubgen-validators-"));
  folders.push(folder);
  const file = join(folder, "validators.ts");
  writeFileSync(file, validatorsText(defs, options));
  const { VALIDATORS } = (await import(file)) as { VALIDATORS: WireValidators };
  const entry = VALIDATORS.requests["check"]!;
  return (value) => entry.check(value, 0);
}
