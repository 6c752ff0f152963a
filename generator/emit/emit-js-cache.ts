/**
 * `generate --emit js` without loading TypeScript when it can. Every `.ts` text's JavaScript and
 * declarations are a pure function of the text and the emitter (emit-js.ts: TypeScript's version
 * and options), so they are looked up by the text's sha256: first in the build's table of the
 * runtime (PrebuiltJs, runtime-js.json), then in the project's cache of the revisions' own files
 * (`<cache>/.emit-js/`, keyed by the emitter as well). Only texts in neither are transformed, and
 * only then is TypeScript loaded (about half a second before its first transform): a `--force` run
 * of an unchanged schema and generator writes the same bytes at plain `generate`'s speed.
 * The emitter is named by the table's fingerprint and the installed TypeScript's version (read
 * from a package.json, not by loading it); when TypeScript is loaded anyway the table's
 * fingerprint is checked against it, and a mismatched table and cache are not used.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { FileSet } from "./render.js";

type Pair = readonly [js: string, dts: string];
type Table = Readonly<Record<string, Pair>>;

/** Most entries a project's cache keeps (a revision has about eight files; the oldest go first). */
export const MAX_CACHED_TEXTS = 256;

/** The build's table of the runtime (the same file emit-js.ts's PREBUILT_URL names). */
const PREBUILT_URL: URL = new URL("./runtime-js.json", import.meta.url);

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const isPair = (value: unknown): value is Pair => Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string";

function readJson(path: string | URL): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** A table of pairs from parsed JSON, or undefined when it is not one. */
function tableOf(value: unknown): Table | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.values(value).every(isPair) ? (value as Table) : undefined;
}

/** The installed TypeScript's version (ts-morph bundles it in @ts-morph/common), read without loading it. */
function typescriptVersion(): string {
  try {
    const pkg = createRequire(import.meta.url)("@ts-morph/common/package.json") as { readonly version?: unknown };
    return String(pkg.version);
  } catch {
    return "unknown";
  }
}

/** The file of the project's cache for this emitter, under `cacheDir`. */
export function emitCachePath(cacheDir: string, fingerprint: string): string {
  return join(cacheDir, ".emit-js", `${sha256(`${fingerprint} ${typescriptVersion()}`).slice(0, 32)}.json`);
}

/** Writes `table` whole (a temporary file renamed over it: a concurrent run reads the old or the new one). */
function save(path: string, table: Table): void {
  try {
    mkdirSync(join(path, ".."), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(table));
    renameSync(temporary, path);
  } catch {
    // A cache that cannot be written costs the next run time, never its output.
  }
}

/**
 * The files as JavaScript and declarations (emit-js.ts's emitJs), from the build's table and the
 * project's cache under `cacheDir` where they hold a text; undefined `cacheDir`: no project cache
 * (read or written).
 */
export async function emitJsCached(files: FileSet, cacheDir: string | undefined): Promise<FileSet> {
  const prebuilt = readJson(PREBUILT_URL) as { readonly fingerprint?: unknown; readonly files?: unknown } | undefined;
  const table = tableOf(prebuilt?.files);
  // Without the build's table (running from source), TypeScript names the emitter, and transforms the runtime too.
  let emitter = table === undefined || typeof prebuilt?.fingerprint !== "string" ? await import("./emit-js.js") : undefined;
  const runtime: Table = emitter === undefined ? table! : {};
  const fingerprint = emitter === undefined ? (prebuilt!.fingerprint as string) : emitter.emitterFingerprint();
  const path = cacheDir === undefined ? undefined : emitCachePath(cacheDir, fingerprint);
  const cached: Record<string, Pair> = { ...(path === undefined ? undefined : tableOf(readJson(path))) };
  const sources = [...files].filter(([name]) => name.endsWith(".ts") && !name.endsWith(".d.ts"));
  const shas = new Map(sources.map(([name, text]) => [name, sha256(text)]));
  const missing = sources.filter(([name]) => {
    const sha = shas.get(name)!;
    return runtime[sha] === undefined && cached[sha] === undefined;
  });
  if (missing.length > 0) {
    emitter ??= await import("./emit-js.js");
    // TypeScript is loaded now: a table made by another emitter is not to be trusted, nor the cache keyed by it.
    if (emitter.emitterFingerprint() !== fingerprint) return emitter.emitJs(files);
    for (const [name, text] of missing) {
      const [[, js], [, dts]] = emitter.emitJsFile(name, text) as [[string, string], [string, string]];
      cached[shas.get(name)!] = [js, dts];
    }
    if (path !== undefined) {
      const keys = Object.keys(cached);
      save(path, Object.fromEntries(keys.slice(Math.max(0, keys.length - MAX_CACHED_TEXTS)).map((k) => [k, cached[k]!])));
    }
  }
  return new Map(
    [...files].flatMap(([name, text]): Array<[string, string]> => {
      const sha = shas.get(name);
      if (sha === undefined) return [[name, text]];
      const [js, dts] = runtime[sha] ?? cached[sha]!;
      const base = name.slice(0, -".ts".length);
      return [
        [`${base}.js`, js],
        [`${base}.d.ts`, dts],
      ];
    }),
  );
}
