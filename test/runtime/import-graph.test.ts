/**
 * The runtime's import graph (templates/runtime/): no cycle, not even a type-only one, and the
 * floors hold: core/ imports nothing outside core/, core/json.ts imports nothing, and the HTTP
 * room, transports, features and the facade import downwards only (issue 27: one home for each concept).
 * Add-ons (generator/emit/addons.ts) sit on top: they may import any runtime module, nothing
 * imports them, and the only packages they import are the ones their ADDONS entry declares.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { moduleSpecifiers } from "../../generator/emit/import-specifiers.js";
import { RUNTIME_FILES } from "../../generator/emit/render.js";
import { appsRuntimeSourceNames } from "../../generator/emit/templates.js";
import { ADDON_DIR, ADDONS, addonSourceNames } from "../../generator/emit/addons.js";
import { PACKAGE_ROOT } from "../../generator/project.js";

const ROOT = join(PACKAGE_ROOT, "templates", "runtime");
const files = readdirSync(ROOT, { recursive: true }).map(String).filter((f) => f.endsWith(".ts")).map((f) => f.split("\\").join("/")).sort();
const specifiers = new Map(files.map((file) => [file, moduleSpecifiers(file, readFileSync(join(ROOT, file), "utf8")).map((s) => s.text)]));
/** File → the runtime files it imports (any kind of import: value, type, export from, import()). */
const graph = new Map(
  [...specifiers].map(([file, texts]) => [
    file,
    texts.filter((text) => text.startsWith(".")).map((text) => posix.normalize(posix.join(posix.dirname(file), text.replace(/\.js$/, ".ts")))),
  ]),
);
/** The add-on a file belongs to (`addons/<name>/…`), or undefined for the runtime proper. */
const addonOf = (file: string): string | undefined => (file.startsWith(`${ADDON_DIR}/`) ? file.split("/")[1] : undefined);
const runtimeFiles = files.filter((file) => addonOf(file) === undefined);

/** Which folders a folder may import from (its own always). */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  // The clients and what they share with the servers (the SSE parser, fetch, headers).
  http: ["core"],
  // The HTTP server core (one request contract, two faces, the pipeline, the SSE writer, the
  // session table) and what sits on it alone (the era router, bearer authentication).
  "http/server": ["core", "http"],
  // The three era servers, each on the core, none on another.
  "http/stateless": ["core", "http", "http/server"],
  "http/sessions": ["core", "http", "http/server"],
  "http/legacy-sse": ["core", "http", "http/server"],
  transports: ["core"],
  features: ["core"],
  // The generated McpClient/McpServer's behaviour: it wires the features into the endpoint; the
  // every-era server (facade/every-era*.ts) also composes the HTTP handlers of every era behind
  // the era router. Nothing below imports the facade.
  facade: ["core", "features", "http", "http/server", "http/stateless", "http/sessions", "http/legacy-sse"],
  // MCP Apps (postMessage between an app and its host page): the endpoint, and the facade's
  // method policies; it runs in a browser, so nothing of the HTTP folders or the transports.
  apps: ["core", "facade"],
};

describe("the runtime's import graph", () => {
  it("holds exactly the files the generator copies, each in a folder of the layout", () => {
    expect(runtimeFiles).toEqual([...RUNTIME_FILES, ...appsRuntimeSourceNames()].map((f) => `${f}.ts`).sort());
    for (const file of runtimeFiles) expect(Object.keys(MAY_IMPORT), file).toContain(dirname(file));
  });

  it("holds exactly the add-ons' files under addons/<name>/", () => {
    const addonFiles = files.filter((file) => addonOf(file) !== undefined);
    expect(addonFiles).toEqual(addonSourceNames(Object.keys(ADDONS)).map((f) => `${f}.ts`).sort());
  });

  it("imports no package outside Node, except an add-on the packages its entry declares", () => {
    for (const [file, texts] of specifiers) {
      const addon = addonOf(file);
      const allowed = addon === undefined ? [] : Object.keys(ADDONS[addon]?.packages ?? {});
      for (const text of texts.filter((t) => !t.startsWith(".") && !t.startsWith("node:"))) {
        const pkg = text.startsWith("@") ? text.split("/").slice(0, 2).join("/") : text.split("/")[0]!;
        expect(allowed, `${file} imports ${text}`).toContain(pkg);
      }
    }
  });

  it("lets an add-on import the whole runtime and its own files, and nothing import an add-on", () => {
    for (const [file, deps] of graph) {
      const addon = addonOf(file);
      for (const dep of deps) {
        expect(files, `${file} imports ${dep}`).toContain(dep);
        const depAddon = addonOf(dep);
        if (depAddon !== undefined) expect(depAddon, `${file} imports the add-on file ${dep}`).toBe(addon);
      }
    }
  });

  it("imports only files that exist, and each folder only from itself and the folders below it", () => {
    for (const [file, deps] of graph) {
      if (addonOf(file) !== undefined) continue;
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
