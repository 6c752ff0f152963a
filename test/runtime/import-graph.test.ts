/**
 * The runtime's import graph (templates/runtime/): no cycle, not even a type-only one, and the
 * floors hold: core/ imports nothing outside core/, core/json.ts imports nothing, and the HTTP
 * room, transports, features and the facade import downwards only (issue 27: one home for each concept).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { moduleSpecifiers } from "../../generator/emit/import-specifiers.js";
import { RUNTIME_FILES } from "../../generator/emit/render.js";
import { PACKAGE_ROOT } from "../../generator/project.js";

const ROOT = join(PACKAGE_ROOT, "templates", "runtime");
const files = readdirSync(ROOT, { recursive: true }).map(String).filter((f) => f.endsWith(".ts")).map((f) => f.split("\\").join("/")).sort();
/** File → the runtime files it imports (any kind of import: value, type, export from, import()). */
const graph = new Map(
  files.map((file) => [
    file,
    moduleSpecifiers(file, readFileSync(join(ROOT, file), "utf8"))
      .filter((s) => s.text.startsWith("."))
      .map((s) => posix.normalize(posix.join(posix.dirname(file), s.text.replace(/\.js$/, ".ts")))),
  ]),
);

/** Which folders a folder may import from (its own always). */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  http: ["core"],
  transports: ["core"],
  features: ["core"],
  // The generated McpClient/McpServer's behaviour: it wires the features into the endpoint.
  facade: ["core", "features"],
};

describe("the runtime's import graph", () => {
  it("holds exactly the files the generator copies, each in a folder of the layout", () => {
    expect(files).toEqual(RUNTIME_FILES.map((f) => `${f}.ts`).sort());
    for (const file of files) expect(Object.keys(MAY_IMPORT), file).toContain(dirname(file));
  });

  it("imports only files that exist, and each folder only from itself and the folders below it", () => {
    for (const [file, deps] of graph) {
      const folder = dirname(file);
      for (const dep of deps) {
        expect(files, `${file} imports ${dep}`).toContain(dep);
        expect([folder, ...MAY_IMPORT[folder]!], `${file} imports ${dep}`).toContain(dirname(dep));
      }
    }
    expect(graph.get("core/json.ts")).toEqual([]);
  });

  it("has no cycle", () => {
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (file: string, path: readonly string[]): void => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      if (done.has(file)) return;
      for (const dep of graph.get(file) ?? []) visit(dep, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
