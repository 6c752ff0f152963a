/**
 * The README's map of the runtime ("### The runtime") has one row for every file the generator
 * copies (generator/emit/render.ts RUNTIME_FILES), and none for a file that is gone.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { RUNTIME_FILES } from "../../generator/emit/render.js";
import { appsRuntimeSourceNames } from "../../generator/emit/templates.js";
import { PACKAGE_ROOT } from "../../generator/project.js";

it("the README's runtime map names every runtime file, each once, and nothing else", () => {
  const readme = readFileSync(join(PACKAGE_ROOT, "README.md"), "utf8");
  const start = readme.indexOf("### The runtime\n");
  const end = readme.indexOf("\n## ", start);
  expect(start).toBeGreaterThan(0);
  const rows = readme
    .slice(start, end)
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => /^\| `([^`]+)` \|/.exec(line)?.[1]);
  expect(rows.sort()).toEqual([...RUNTIME_FILES, ...appsRuntimeSourceNames()].map((file) => `${file}.ts`).sort());
});
