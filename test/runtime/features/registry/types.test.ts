/**
 * The type-level tests of registrations (test/type-tests/registrations-2025-11-25.types.ts),
 * checked in place against the generated 2025-11-25 output under the strict options users vendor
 * it with: zero diagnostics means every line compiles and every `@ts-expect-error` is an error.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../../../generator/project.js";
import { typecheckFiles } from "../../../helpers/typecheck.js";

it("types handler arguments and structured results from the schema; wrong ones are compile errors", () => {
  const file = join(PACKAGE_ROOT, "test", "type-tests", "registrations-2025-11-25.types.ts");
  expect(typecheckFiles([file]).filter((d) => d.file === file)).toEqual([]);
}, 120_000);
