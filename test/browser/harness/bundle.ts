/**
 * The browser pages of the tests, built at test time: each entry (a TypeScript file under
 * test/browser/pages/) bundled by esbuild with its imports (the official ext-apps package, the
 * generated output) into one script in a temporary folder, next to the HTML page that loads it.
 * Nothing of it is committed.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** The page scripts' folder. */
export const PAGES_DIR: string = fileURLToPath(new URL("../pages/", import.meta.url));

export interface Bundled {
  /** The folder the static server serves: `<name>.js` and `<name>.html` per entry. */
  readonly dir: string;
  /** Removes the folder. */
  remove(): Promise<void>;
}

/** One page: its script (a file of PAGES_DIR) and its title. */
export interface PageEntry {
  readonly name: string;
  readonly script: string;
  readonly title: string;
}

const html = (entry: PageEntry): string =>
  `<!doctype html>\n<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${entry.title}</title></head>` +
  `<body><script type="module" src="./${entry.name}.js"></script></body></html>\n`;

/** Bundles every entry (ES modules for the browser) into a new temporary folder. */
export async function bundlePages(entries: readonly PageEntry[]): Promise<Bundled> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-stubgen-browser-"));
  await build({
    entryPoints: Object.fromEntries(entries.map((entry) => [entry.name, join(PAGES_DIR, entry.script)])),
    outdir: dir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
    legalComments: "none",
  });
  await Promise.all(entries.map((entry) => writeFile(join(dir, `${entry.name}.html`), html(entry))));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
