/**
 * The type-level tests of the MCP Apps output (test/type-tests/apps.types.ts), checked in place
 * under the strict options users vendor the output with: zero diagnostics means the generated App
 * and Host message types are assignable both ways with the official @modelcontextprotocol/ext-apps
 * 2.0.4 types, and every `@ts-expect-error` is an error.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../../generator/project.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

it("generated App and Host types match the official package's both ways; wrong uses are compile errors", () => {
  const file = join(PACKAGE_ROOT, "test", "type-tests", "apps.types.ts");
  // exactOptionalPropertyTypes off: the official types are inferred from Zod, which writes every
  // optional property `?: T | undefined`; the schema's `?: T` accepts less under that flag.
  // skipLibCheck: the packages' own declaration files are not what is tested.
  expect(typecheckFiles([file], { exactOptionalPropertyTypes: false, skipLibCheck: true }).filter((d) => d.file === file)).toEqual([]);
}, 120_000);
