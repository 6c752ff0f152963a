/**
 * The type-level tests of McpServers (test/type-tests/every-era.types.ts), checked in place against
 * the generated output under the strict options users vendor it with: zero diagnostics means every
 * line compiles and every `@ts-expect-error` is an error.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../../../generator/project.js";
import { typecheckFiles } from "../../../helpers/typecheck.js";

it("types registrations as a generated McpServer's and `requires` as the features; wrong ones are compile errors", () => {
  const file = join(PACKAGE_ROOT, "test", "type-tests", "every-era.types.ts");
  expect(typecheckFiles([file]).filter((d) => d.file === file)).toEqual([]);
}, 120_000);
