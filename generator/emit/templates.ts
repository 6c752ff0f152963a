import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import Handlebars from "handlebars";
import { TEMPLATES_DIR } from "../project.js";

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
  for (const sub of ["", "runtime"]) {
    for (const file of readdirSync(join(dir, sub)).filter((f) => f.endsWith(".hbs")).sort()) {
      const compiled = hbs.compile(readFileSync(join(dir, sub, file), "utf8"), { noEscape: true, strict: true });
      templates.set(sub ? `${sub}/${basename(file, ".hbs")}` : basename(file, ".hbs"), (view) => compiled(view));
    }
  }
  return templates;
}

let cached: ReadonlyMap<string, Template> | undefined;

export function templates(): ReadonlyMap<string, Template> {
  cached ??= loadTemplates();
  return cached;
}
