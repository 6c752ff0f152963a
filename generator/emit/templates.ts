import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import Handlebars from "handlebars";
import { PACKAGE_ROOT, TEMPLATES_DIR } from "../project.js";
import { ADDON_DIR } from "./addons.js";

/** A compiled template: view data in, file text out. */
export type Template = (view: object) => string;

/**
 * Loads templates/*.hbs (and templates/partials/*.hbs as partials) once. The output is
 * TypeScript, not HTML, so nothing is HTML-escaped; templates use `{{json x}}` for literals.
 */
export function loadTemplates(dir: string = TEMPLATES_DIR): ReadonlyMap<string, Template> {
  const hbs = Handlebars.create();
  hbs.registerHelper("json", (value: unknown) => JSON.stringify(value ?? null));
  const partialsDir = join(dir, "partials");
  for (const file of readdirSync(partialsDir).filter((f) => f.endsWith(".hbs")).sort()) {
    hbs.registerPartial(basename(file, ".hbs"), readFileSync(join(partialsDir, file), "utf8"));
  }
  const templates = new Map<string, Template>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".hbs")).sort()) {
    const compiled = hbs.compile(readFileSync(join(dir, file), "utf8"), { noEscape: true, strict: true });
    templates.set(basename(file, ".hbs"), (view) => compiled(view));
  }
  return templates;
}

/** Where the runtime's sources live, relative to the package folder (named in each copy's header). */
export const RUNTIME_SOURCE_DIR = "templates/runtime";

/** The MCP Apps runtime's folder (apps/): copied only into an output that has `--extension apps`. */
export const APPS_RUNTIME_DIR = "apps";

/**
 * The runtime's modules, as `<folder>/<name>` (no `.ts`): every `.ts` file under
 * templates/runtime/ but the add-ons' (`addons/`, which emit/addons.ts selects by name) and MCP
 * Apps' (`apps/`, appsRuntimeSourceNames), in one order on every machine (sorted by UTF-16 code
 * units, not by locale). The folders nest one level today; deeper ones are listed too.
 */
export function runtimeSourceNames(root: string = PACKAGE_ROOT): string[] {
  return sourceNames(root, "", new Set([ADDON_DIR, APPS_RUNTIME_DIR]));
}

/** The MCP Apps runtime's modules (`apps/<name>`), in the same order. */
export function appsRuntimeSourceNames(root: string = PACKAGE_ROOT): string[] {
  return sourceNames(root, APPS_RUNTIME_DIR, new Set());
}

/** The `.ts` modules under templates/runtime/<top>, but for the folders `skip`, sorted. */
function sourceNames(root: string, top: string, skip: ReadonlySet<string>): string[] {
  const names: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(join(root, RUNTIME_SOURCE_DIR, dir), { withFileTypes: true })) {
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.has(path)) walk(join(dir, entry.name), `${path}/`);
      } else if (entry.isFile() && entry.name.endsWith(".ts")) names.push(path.slice(0, -".ts".length));
    }
  };
  walk(top, top === "" ? "" : `${top}/`);
  return names.sort();
}

/**
 * The revision-independent runtime: `templates/runtime/<folder>/<name>.ts` for each name, read as they
 * are (plain TypeScript that tsc checks in place; no template syntax), name → text.
 */
export function loadRuntimeSources(names: readonly string[], root: string = PACKAGE_ROOT): ReadonlyMap<string, string> {
  return new Map(names.map((name) => [name, readFileSync(join(root, RUNTIME_SOURCE_DIR, `${name}.ts`), "utf8")]));
}

let cached: ReadonlyMap<string, Template> | undefined;

export function templates(): ReadonlyMap<string, Template> {
  cached ??= loadTemplates();
  return cached;
}
